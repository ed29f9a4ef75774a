// The runtime's standard library, trimmed to what the engine in the phone imports and compiled
// for it: run by scripts/vendor_pyodide.py under Node, never by hand.
//
//   node scripts/pyodide_trim.mjs PACKAGE_DIR OUT_ZIP BUNDLE_ZIP:LANGUAGE...
//
// Loads Pyodide from PACKAGE_DIR (the npm package, whole standard library), then for each
// bundle (the package's engine and one language's catalogue, as the server makes it) compiles it
// as the worker does, imports scorekeeper.phone.cases and holds its whole conversation (every contract tapped in,
// refusals, views, forms). What is then in sys.modules from the standard library zip is kept,
// compiled to bytecode (docstrings dropped: python -OO's code) so the phone does not compile
// it at every start, and written to OUT_ZIP uncompressed (the server sends it compressed as a
// whole, which packs it a third smaller than a zip's file-by-file compression) with fixed
// stamps (the same bytes every run).
// Prints the answers' digest per language, for the script to compare with CPython's, and every
// module then imported (from the zip, frozen or built into the interpreter).
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import path from "node:path";

const [packageDir, outZip, ...bundles] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(packageDir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: packageDir + path.sep });

for (const [index, spec] of bundles.entries()) {
  const [file, language] = spec.split(":");
  const place = `/bundle-${index}.zip`;
  pyodide.FS.writeFile(place, readFileSync(file));
  pyodide.globals.set("place", place);
  pyodide.globals.set("language", language);
  const digest = pyodide.runPython(`
import hashlib, json, sys
sys.path.insert(0, place)
from scorekeeper.phone.bytecode import compile_bundle
compile_bundle(place, place + ".pyc.zip")  # as the worker does at its first start
from scorekeeper.phone.cases import transcript
said = transcript(language)
sys.path.remove(place + ".pyc.zip")
for name in [name for name in sys.modules if name == "scorekeeper" or name.startswith("scorekeeper.")]:
    del sys.modules[name]
hashlib.sha256(json.dumps(said).encode()).hexdigest()
`);
  console.log(`${language} ${digest}`);
}

pyodide.globals.set("out", "/trimmed.zip");
const kept = pyodide.runPython(`
import importlib.util, marshal, sys, zipfile
stdlib = next(p for p in sys.path if p.endswith(".zip") and "/lib/python" in p)
source = zipfile.ZipFile(stdlib)
files = sorted({
    module.__file__[len(stdlib) + 1:]
    for module in list(sys.modules.values())
    if (getattr(module, "__file__", None) or "").startswith(stdlib + "/")
})
with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as archive:
    for name in files:
        code = compile(source.read(name), name, "exec", dont_inherit=True, optimize=2)
        info = zipfile.ZipInfo(name[:-3] + ".pyc", date_time=(1980, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_STORED
        info.external_attr = 0o644 << 16
        # a bytecode file's header: the interpreter's magic number, then flags, date and size
        # (zero: there is no source beside it to compare with)
        archive.writestr(info, importlib.util.MAGIC_NUMBER + bytes(12) + marshal.dumps(code))
len(files)
`);
writeFileSync(outZip, pyodide.FS.readFile("/trimmed.zip"));
const imported = pyodide.runPython("import json, sys; json.dumps(sorted(sys.modules))");
console.log(`modules ${imported}`);
console.log(`kept ${kept}`);
