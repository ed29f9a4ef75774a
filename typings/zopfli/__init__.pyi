"""zopfli ships no type hints: the package (its gzip module is all the app calls)."""
