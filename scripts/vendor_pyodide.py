"""Vendor the engine's runtime: Pyodide from the npm registry into static/pyodide/.

Run from the repository root (needs npm and Node, and this package installed):

    python scripts/vendor_pyodide.py [--version 0.29.5]

It fetches the npm package with ``npm pack`` and checks it against the registry's sha512, keeps
the files a Web Worker loads (the loader, the interpreter's JavaScript and WebAssembly, the lock
file without its package list: the engine loads no package), and trims the standard library to
what the engine imports: under Node, the package's own engine (the bundle the server makes)
holds every conversation of :mod:`scorekeeper.phone.cases` in each language, and the
modules that are then imported are kept, compiled to bytecode and stored uncompressed in the zip
(``scripts/pyodide_trim.mjs``). Its answers must equal CPython's, in-process. Each file of 1 KB
or more is compressed once, here, at the best each encoding offers, beside itself: ``<file>.br``
(brotli 11, for browsers over HTTPS) and ``<file>.gz`` (gzip 9: over plain HTTP browsers take no
brotli); the server sends those bytes as they are. It writes ``VENDORED.json`` (version,
licence, the tarball's integrity, each file's sha256 and size and its compressed copies', every
module the engine's conversations imported under Pyodide) and ``NOTICE.md``.
``tests/serving/test_engine.py`` checks the files against ``VENDORED.json`` and that the
trimmed library holds every module the engine imports.
"""

from __future__ import annotations

import argparse
import base64
import gzip
import hashlib
import json
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import zipfile
from pathlib import Path

import brotli

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorekeeper.phone.cases import transcript  # noqa: E402
from scorekeeper.serving.engine import ENTRIES, bundle  # noqa: E402
from scorekeeper.web.languages import LANGUAGES  # noqa: E402

DEFAULT_VERSION = "0.29.5"
OUT = ROOT / "static" / "pyodide"
KEPT = ("pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm")
STDLIB = "python_stdlib.zip"
LOCK = "pyodide-lock.json"
CASES = "scorekeeper.phone.cases"
LICENCES = {
    "LICENSE.MPL-2.0.txt": Path("/usr/share/common-licenses/MPL-2.0"),
    "LICENSE.CPython.txt": Path(sysconfig.get_paths()["stdlib"]) / "LICENSE.txt",
}


def npm_pack(version: str, into: Path) -> tuple[Path, str]:
    """The package's tarball, fetched by npm and checked against the registry's sha512."""
    listed = subprocess.run(
        ["npm", "pack", f"pyodide@{version}", "--json", "--pack-destination", str(into)],
        check=True,
        capture_output=True,
        text=True,
    )
    (packed,) = json.loads(listed.stdout)
    tarball = into / packed["filename"]
    integrity = packed["integrity"]
    algorithm, _, expected = integrity.partition("-")
    actual = base64.b64encode(hashlib.new(algorithm, tarball.read_bytes()).digest()).decode()
    if actual != expected:
        sys.exit(f"{tarball.name}: {algorithm} {actual} is not the registry's {expected}")
    return tarball, integrity


def trim(package: Path, into: Path) -> tuple[Path, list[str]]:
    """The standard library the engine imports, compiled (scripts/pyodide_trim.mjs), after
    checking that the engine answers under Pyodide what it answers here."""
    bundles = []
    for language in LANGUAGES:
        data, _ = bundle(language, (*ENTRIES, CASES))
        path = into / f"bundle-{language}.zip"
        path.write_bytes(data)
        bundles.append(f"{path}:{language}")
    out = into / STDLIB
    ran = subprocess.run(
        ["node", str(ROOT / "scripts" / "pyodide_trim.mjs"), str(package), str(out), *bundles],
        check=True,
        capture_output=True,
        text=True,
    )
    imported: list[str] = []
    for line in ran.stdout.splitlines():
        language, _, digest = line.partition(" ")
        if language == "modules":
            imported = json.loads(digest)
        elif language in LANGUAGES:
            here = hashlib.sha256(json.dumps(transcript(language)).encode()).hexdigest()
            if here != digest:
                sys.exit(f"{language}: the engine under Pyodide answers otherwise than here")
    print(ran.stdout.strip().splitlines()[-1], "standard library modules")
    return out, imported


ENCODINGS = {"br": ".br", "gzip": ".gz"}
"""Each compressed copy's suffix, by its Content-Encoding."""
COMPRESSED_FROM = 1024
"""Smaller files are sent as they are."""


def encoded(data: bytes, encoding: str) -> bytes:
    """`data` compressed at `encoding`'s best (brotli's largest window: the WebAssembly file is
    8.6 MB)."""
    if encoding == "br":
        return bytes(brotli.compress(data, quality=11, lgwin=24))
    return gzip.compress(data, compresslevel=9, mtime=0)


def described(path: Path) -> dict[str, object]:
    """A file's record, its compressed copies written beside it."""
    data = path.read_bytes()
    record: dict[str, object] = {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
    if len(data) >= COMPRESSED_FROM:
        copies = {}
        for encoding, suffix in ENCODINGS.items():
            packed = encoded(data, encoding)
            path.with_name(path.name + suffix).write_bytes(packed)
            copies[encoding] = {"sha256": hashlib.sha256(packed).hexdigest(), "bytes": len(packed)}
        record["encoded"] = copies
    return record


def sent_size(record: dict[str, object], encoding: str) -> int:
    """A file's bytes as the server sends it to a browser taking `encoding`."""
    copies = record.get("encoded")
    if isinstance(copies, dict):
        return int(copies[encoding]["bytes"])
    return int(str(record["bytes"]))


NOTICE = """# Pyodide {version}, vendored

The engine in the phone runs on [Pyodide](https://pyodide.org) {version}, CPython {python}
compiled to WebAssembly, from the npm package `pyodide@{version}` (integrity `{integrity}`).
Written by `scripts/vendor_pyodide.py`; do not edit these files by hand.

- `pyodide.mjs`, `pyodide.asm.js`, `pyodide.asm.wasm`: as published, unchanged.
- `python_stdlib.zip`: CPython's standard library as Pyodide ships it, **changed**: trimmed to
  the {modules} modules the engine imports (and Pyodide itself at start) and compiled to
  bytecode without docstrings (CPython's `-OO`), stored uncompressed in the zip.
- `*.br`, `*.gz`: each file compressed (brotli, gzip) as the server sends it.
- `pyodide-lock.json`: Pyodide's lock file, **changed**: its list of packages emptied (the
  engine loads none).

## Licences

- Pyodide: Mozilla Public License 2.0 (`LICENSE.MPL-2.0.txt`). Its source code, in the form
  these files were made from: <https://github.com/pyodide/pyodide/tree/{version}>, and the
  npm package <https://www.npmjs.com/package/pyodide/v/{version}>. Nothing of Pyodide is
  modified but the two files named above; this app's own code is a separate work (MPL-2.0
  section 3.3: a Larger Work) under its own licence.
- CPython, its standard library and its WebAssembly build: the PSF License Agreement
  (`LICENSE.CPython.txt`, with the licences of the parts CPython ships). The changes made
  here: the standard library trimmed and compiled, as said above.
- Linked into `pyodide.asm.wasm` by Pyodide's build, each under its own licence (the texts are
  in Pyodide's source at the tag above): libffi (MIT), zlib (zlib), bzip2 (bzip2 licence),
  xz/liblzma (public domain), zstd (BSD), SQLite (public domain), mpdecimal (BSD-2-Clause),
  expat (MIT), HACL* (MIT), the Emscripten runtime (MIT / University of Illinois NCSA).
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--version", default=DEFAULT_VERSION)
    version = parser.parse_args().version
    with tempfile.TemporaryDirectory() as temp:
        work = Path(temp)
        tarball, integrity = npm_pack(version, work)
        with tarfile.open(tarball) as archive:
            archive.extractall(work, filter="data")
        package = work / "package"
        meta = json.loads((package / "package.json").read_text())
        if meta.get("license") != "MPL-2.0":
            sys.exit(f"pyodide@{version} is licensed {meta.get('license')!r}, not MPL-2.0")
        stdlib, imported = trim(package, work)
        OUT.mkdir(parents=True, exist_ok=True)
        for old in OUT.iterdir():
            if old.name not in LICENCES:
                old.unlink()
        for name in KEPT:
            shutil.copyfile(package / name, OUT / name)
        shutil.copyfile(stdlib, OUT / STDLIB)
        lock = json.loads((package / LOCK).read_text())
        (OUT / LOCK).write_text(json.dumps({"info": lock["info"], "packages": {}}) + "\n")
        modules = len(zipfile.ZipFile(OUT / STDLIB).namelist())
    for name, source in LICENCES.items():
        if source.is_file():
            shutil.copyfile(source, OUT / name)
        elif not (OUT / name).is_file():
            sys.exit(f"{name}: no licence text at {source}")
    files = {name: described(OUT / name) for name in (*KEPT, STDLIB, LOCK)}
    record = {
        "name": "pyodide",
        "version": version,
        "python": lock["info"]["python"],
        "licence": "MPL-2.0",
        "source": f"https://github.com/pyodide/pyodide/tree/{version}",
        "integrity": integrity,
        "stdlib": STDLIB,
        "lock": LOCK,
        "imported": imported,
        "files": files,
    }
    (OUT / "VENDORED.json").write_text(json.dumps(record, indent=1) + "\n")
    (OUT / "NOTICE.md").write_text(
        NOTICE.format(
            version=version, python=record["python"], integrity=integrity, modules=modules
        )
    )
    sizes = {kind: sum(sent_size(f, kind) for f in files.values()) for kind in ENCODINGS}
    raw = sum(int(str(f["bytes"])) for f in files.values())
    print(
        f"pyodide {version}: {raw / 1e6:.2f} MB, sent {sizes['br'] / 1e6:.2f} MB brotli, "
        f"{sizes['gzip'] / 1e6:.2f} MB gzip"
    )


if __name__ == "__main__":
    main()
