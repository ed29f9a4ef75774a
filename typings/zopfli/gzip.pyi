"""zopfli ships no type hints: the one function of zopfli.gzip the app calls."""

def compress(
    data: bytes,
    *,
    numiterations: int = ...,
    blocksplitting: bool = ...,
    blocksplittingmax: int = ...,
) -> bytes: ...
