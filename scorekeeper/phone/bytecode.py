"""The engine's bundle compiled by the phone's own interpreter, once per phone and bundle.

The server makes the bundle from the installed package's source (its Python may not be the
phone's: Pyodide's bytecode is its own version's); compiling that source is most of the engine's
start in the phone. So the worker compiles the bundle here once, imports from the compiled copy,
and keeps it (``static/js/engine-worker.js``: IndexedDB, keyed by the bundle's and the
runtime's addresses, which name their content); the next start imports it without compiling.
Standard library only, and nothing of the package, so it is imported before the engine.
"""

from __future__ import annotations

import importlib.util
import io
import marshal
import sys
import zipfile

HEADER = importlib.util.MAGIC_NUMBER + bytes(12)
"""A bytecode file's header: this interpreter's magic number, then flags, date and size (zero:
no source beside it to compare with)."""


def compiled(bundle: bytes) -> bytes:
    """The bundle (a zip of the package's modules and its catalogue) with each module compiled
    to bytecode for this interpreter; other files as they are."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(bundle)) as source, zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            data = source.read(info)
            if info.filename.endswith(".py"):
                code = compile(data, info.filename, "exec", dont_inherit=True)
                info.filename = info.filename[:-3] + ".pyc"
                data = HEADER + marshal.dumps(code)
            target.writestr(info, data)
    return out.getvalue()


PACKAGE = "scorekeeper"


def compile_bundle(source: str, target: str) -> None:
    """Compile the bundle at path `source` into `target` and import the package from there
    from now on (the copy imported from `source`, this module included, is forgotten)."""
    with open(source, "rb") as handle:
        made = compiled(handle.read())
    with open(target, "wb") as handle:
        handle.write(made)
    for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
        del sys.modules[name]
    sys.path[:] = [target, *(path for path in sys.path if path != source)]
