"""The engine in the phone's files: the bundle is made at run time from the installed package
(never a copy kept in the repository) and imports nothing the runtime lacks; the vendored
runtime is what VENDORED.json records; every file is served at an address naming its content,
cached for good, compressed where it helps; a game page links the engine, a view link does not.
"""

from __future__ import annotations

import ast
import gzip
import hashlib
import io
import json
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import brotli
import jinja2
import pytest
from flask import Flask

from scorekeeper.phone import cases, render
from scorekeeper.phone.worker import Engine
from scorekeeper.rules import dump_record, load_record
from scorekeeper.rules.record import Record
from scorekeeper.serving import engine
from scorekeeper.serving.engine import PACKAGE, PACKAGES, bundle, bundle_modules, package_files
from scorekeeper.settings import resource_dir
from tests.conftest import Phone, page

ROOT = Path(__file__).resolve().parents[2]
RUNTIME = ROOT / "static" / "pyodide"
VENDORED = json.loads((RUNTIME / "VENDORED.json").read_text())


def _entries(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def test_the_bundle_is_the_installed_package_as_it_is() -> None:
    data, digest = bundle("ar")
    assert digest == hashlib.sha256(data).hexdigest()[:12]
    entries = _entries(data)
    installed = {place: path for package in PACKAGES for place, path in package_files(package)}
    templates = Path(resource_dir("templates"))
    for name, content in entries.items():
        if name in installed:  # Jinja and MarkupSafe, as installed
            assert content == installed[name].read_bytes(), name
        elif name.startswith("scorekeeper/templates/compiled/"):  # and compiled, below
            continue
        elif name.startswith("scorekeeper/templates/"):  # the templates the phone renders
            assert content == (templates / name.removeprefix("scorekeeper/templates/")).read_bytes()
        else:
            assert content == (PACKAGE.parent / name).read_bytes(), name
    assert set(installed) <= set(entries)
    assert {f"scorekeeper/templates/{name}" for name in render.TEMPLATES} <= set(entries)
    compiled = {
        f"scorekeeper/templates/compiled/{jinja2.ModuleLoader.get_module_filename(name)}"
        for name in render.TEMPLATES
    }
    assert compiled == {name for name in entries if "/compiled/" in name}
    assert "scorekeeper/translations/ar/LC_MESSAGES/messages.mo" in entries
    assert not any("/translations/en/" in name for name in entries)  # the page's language only
    modules = bundle_modules()
    assert {"scorekeeper.phone.worker", "scorekeeper.rules.replay", "scorekeeper"} <= set(modules)
    rooms = {name.split(".")[1] for name in modules if "." in name}
    assert rooms == {"phone", "rules", "words"}  # no web, store, serving or stats: no Flask there
    assert bundle("ar") == (data, digest)  # the same bytes every time (one digest per release)


def test_a_changed_package_makes_another_bundle(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Made from the files as they are: a copy of the package changed (the repository is not
    touched) gives another bundle, with the change in it."""
    copy = tmp_path / "scorekeeper"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    replay_py = copy / "rules" / "replay.py"
    replay_py.write_text(replay_py.read_text() + "\n# changed after the release\n")
    original, digest = bundle("en")
    monkeypatch.setattr(engine, "PACKAGE", copy)
    bundle.cache_clear()
    try:
        changed, changed_digest = bundle("en")
    finally:
        monkeypatch.undo()
        bundle.cache_clear()
    assert changed_digest != digest
    assert _entries(changed)["scorekeeper/rules/replay.py"].endswith(
        b"# changed after the release\n"
    )
    assert (
        _entries(original)["scorekeeper/rules/replay.py"]
        == (PACKAGE / "rules/replay.py").read_bytes()
    )


def _imported(path: Path, *, at_import: bool = False) -> set[str]:
    """The modules a file imports (a package, or `at_import`: when it is imported; the top
    package's create_app, which imports Flask, never runs in the phone)."""
    names: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if (at_import or path.name == "__init__.py") and (
                isinstance(child, ast.FunctionDef)
                or (isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test))
            ):
                continue
            if isinstance(child, ast.Import):
                names.update(alias.name for alias in child.names)
            elif isinstance(child, ast.ImportFrom) and not child.level and child.module:
                names.add(child.module)
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return names


def test_the_runtime_holds_every_module_the_bundle_imports() -> None:
    """What the engine imports outside the package was imported under Pyodide when the
    runtime was trimmed (so it is kept): a new import means running scripts/vendor_pyodide.py."""
    imported_there = set(VENDORED["imported"])  # from the trimmed zip, frozen or built in
    missing = set()
    paths = [(engine.module_path(n), False) for e in engine.ENTRIES for n in bundle_modules(e)]
    # Jinja's and MarkupSafe's modules the engine imports, as they import (a subprocess: this
    # one holds every module Flask imported)
    loaded = subprocess.run(
        [sys.executable, "-c", f"import sys, {engine.ENTRY}; print(' '.join(sys.modules))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    installed = {place: path for package in PACKAGES for place, path in package_files(package)}
    for name in loaded:
        place = name.replace(".", "/") + ".py"
        package = name.replace(".", "/") + "/__init__.py"
        if place in installed or package in installed:
            paths.append((installed.get(place) or installed[package], True))
    assert any(path is not None and path.parent.name == "jinja2" for path, _ in paths)
    for path, at_import in paths:
        assert path is not None
        for imported in _imported(path, at_import=at_import) - {"__future__"}:
            if imported.split(".")[0] in {"scorekeeper", *PACKAGES}:
                continue
            assert imported.split(".")[0] in sys.stdlib_module_names, (path, imported)
            if imported not in imported_there:
                missing.add(imported)
    assert not missing, f"run scripts/vendor_pyodide.py: the runtime lacks {sorted(missing)}"


def test_the_vendored_runtime_is_as_recorded() -> None:
    assert VENDORED["licence"] == "MPL-2.0"
    for name, recorded in VENDORED["files"].items():
        data = (RUNTIME / name).read_bytes()
        assert hashlib.sha256(data).hexdigest() == recorded["sha256"], name
        assert len(data) == recorded["bytes"], name
    assert f'"{VENDORED["version"]}"' in (RUNTIME / "pyodide.mjs").read_text()
    assert json.loads((RUNTIME / VENDORED["lock"]).read_text())["packages"] == {}
    notice = (RUNTIME / "NOTICE.md").read_text()
    assert VENDORED["version"] in notice and "MPL-2.0" in notice
    for licence in ("LICENSE.MPL-2.0.txt", "LICENSE.CPython.txt"):
        assert (RUNTIME / licence).stat().st_size > 1000
    sent = {"br": 0, "gzip": 0}
    for name, recorded in VENDORED["files"].items():
        data = (RUNTIME / name).read_bytes()
        copies = recorded.get("encoded", {})
        assert set(copies) == ({"br", "gzip"} if len(data) >= 1024 else set()), name
        for encoding, suffix, unpack in (
            ("br", ".br", brotli.decompress),
            ("gzip", ".gz", gzip.decompress),
        ):
            copy = (RUNTIME / (name + suffix)).read_bytes() if copies else data
            if copies:
                assert hashlib.sha256(copy).hexdigest() == copies[encoding]["sha256"], name
                assert unpack(copy) == data, (name, encoding)
            sent[encoding] += len(copy)
    # the standard library's modules stored as they are: the wire compresses the zip whole
    with zipfile.ZipFile(RUNTIME / VENDORED["stdlib"]) as stdlib:
        assert {info.compress_type for info in stdlib.infolist()} == {zipfile.ZIP_STORED}
    assert sent["br"] <= 3.3e6  # issue 43's ceiling for the runtime over the wire (HTTPS)
    assert sent["gzip"] <= 5 * 1024 * 1024  # the first ceiling, over plain HTTP


def _config(app: Flask, phone: Phone) -> tuple[str, dict[str, object]]:
    html = phone.game_page().get_data(as_text=True)
    found = re.search(r'data-engine="([^"]+)"', html)
    assert found is not None
    url = found.group(1).replace("&amp;", "&")
    response = app.test_client().get(url)
    assert response.status_code == 200
    assert "immutable" in response.headers["Cache-Control"]
    return url, response.get_json()


def test_every_engine_file_is_served_for_good(app: Flask, phone: Phone) -> None:
    phone.new_game(first=0)
    _, config = _config(app, phone)
    files = config["files"]
    assert isinstance(files, list)
    client = app.test_client()
    for url in files:
        response = client.get(url, headers={"Accept-Encoding": "identity"})
        assert response.status_code == 200, url
        assert "max-age=31536000" in response.headers["Cache-Control"], url
        assert "immutable" in response.headers["Cache-Control"], url
        assert "Set-Cookie" not in response.headers, url
    wasm = next(url for url in files if url.endswith(".wasm"))
    source = (RUNTIME / "pyodide.asm.wasm").read_bytes()
    plain = client.get(wasm, headers={"Accept-Encoding": "identity"})
    assert plain.mimetype == "application/wasm" and plain.get_data() == source
    squeezed = client.get(wasm, headers={"Accept-Encoding": "gzip, br"})
    assert squeezed.headers["Content-Encoding"] == "br"
    assert brotli.decompress(squeezed.get_data()) == source
    zipped = client.get(wasm, headers={"Accept-Encoding": "gzip"})
    assert gzip.decompress(zipped.get_data()) == source
    stdlib = next(url for url in files if url.endswith(str(VENDORED["stdlib"])))
    squeezed = client.get(stdlib, headers={"Accept-Encoding": "br"})
    assert squeezed.headers["Content-Encoding"] == "br"
    assert brotli.decompress(squeezed.get_data()) == (RUNTIME / VENDORED["stdlib"]).read_bytes()
    lock = next(url for url in files if url.endswith(str(VENDORED["lock"])))
    assert "Content-Encoding" not in client.get(lock, headers={"Accept-Encoding": "br"}).headers
    bundle_url = str(config["bundle"])
    whole = client.get(bundle_url, headers={"Accept-Encoding": "identity"}).get_data()
    for encoding, unpack in (("br", brotli.decompress), ("gzip", gzip.decompress)):
        sent = client.get(bundle_url, headers={"Accept-Encoding": encoding})
        assert sent.headers["Content-Encoding"] == encoding and sent.mimetype == "application/zip"
        assert unpack(sent.get_data()) == whole and len(sent.get_data()) < len(whole) / 3
    assert client.get(wasm.replace(wasm.split("/")[-2], "0" * 12)).status_code == 404
    assert client.get(str(config["bundle"]).replace(".zip", "0.zip")).status_code == 404
    assert client.get("/engine/xx.json").status_code == 404
    assert client.get(str(config["runtime"]) + "VENDORED.json").status_code == 404


def test_a_game_page_links_the_engine_and_a_view_link_does_not(app: Flask, phone: Phone) -> None:
    phone.new_game(first=0)
    assert 'data-engine="' in phone.game_page().get_data(as_text=True)
    form = phone.client.get(f"{phone.url}/deal?contract=queens").get_data(as_text=True)
    assert 'data-engine="' in form  # the deal form's own page (without JavaScript, an edit)
    view = phone.client.get(f"/v/{phone.row().view_token}").get_data(as_text=True)
    assert "data-engine" not in view
    policy = phone.game_page().headers["Content-Security-Policy"]
    assert "script-src 'self' 'wasm-unsafe-eval';" in policy and "worker-src 'self';" in policy


def test_a_deal_form_gets_the_game_it_judges_against(app: Flask, phone: Phone) -> None:
    phone.new_game(first=0)
    phone.enter({"contract": "diamonds", "counts": [4, 3, 3, 3]})
    response = phone.client.get(f"{phone.url}/deal/record")
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    said = response.get_json()
    assert said["version"] == phone.row().version
    record = load_record(json.dumps(said["record"]))
    assert record.game == phone.record().game
    assert page(phone.game_page()).text  # (the game page still answers)
    assert phone.client.get("/g/AAAAAAAAAAAAAAAAAAAAAA/deal/record").status_code == 404


def test_the_phone_renders_the_templates_the_server_compiled_into_its_bundle(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Jinja's modules in the bundle render what the templates compiled from their sources
    render (the phone, under Pyodide, imports the bundle's: tests/browser/test_engine.py)."""
    entries = _entries(bundle("ar")[0])
    folder = tmp_path / "compiled"
    folder.mkdir()
    for name, content in entries.items():
        if "/compiled/" in name:
            (folder / name.rsplit("/", 1)[1]).write_bytes(content)

    def rendered() -> list[str]:
        said = []
        for name in ("trix-started", "turkish-started", "trix-finished"):
            held = cases.games()[name]
            engine = Engine("ar")
            engine.hold("g", dump_record(Record(held)), 1, cases.page("g"))
            said.append(engine.view("g", [], "t0k3n")["html"])
        return said

    assert isinstance(render.loader(), jinja2.FunctionLoader)  # (a checkout: the sources)
    from_sources = rendered()
    monkeypatch.setattr(render, "loader", lambda: jinja2.ModuleLoader(str(folder)))
    monkeypatch.setattr(render, "_ENVIRONMENTS", {})
    assert rendered() == from_sources
    assert all('id="scoreboard"' in html for html in from_sources)
