/* Scorekeeper: the engine in the phone, a module Web Worker (started by static/js/engine.js).
 *
 * It runs Pyodide (CPython for WebAssembly, vendored in static/pyodide/) with this app's own
 * engine, the bundle the server makes of its installed package, and hands every message to
 * scorekeeper.words.worker, which answers as JSON in the page's language. Nothing here knows a
 * rule: it loads, passes messages through and says when something went wrong.
 *
 * Messages in: {id, op, ...} (ops: scorekeeper/words/worker.py); the first is
 * {id, op: "start", config, language}, which loads the runtime and the bundle. Messages out:
 * {id, answer} or {id, error}. Messages sent while it loads wait for it.
 */

async function load(config) {
  const { loadPyodide } = await import(config.runtime + "pyodide.mjs");
  const [pyodide, bundle] = await Promise.all([
    loadPyodide({ indexURL: config.runtime, stdLibURL: config.stdlib, lockFileURL: config.lock }),
    fetch(config.bundle).then((response) => {
      if (!response.ok) { throw new Error("bundle: " + response.status); }
      return response.arrayBuffer();
    }),
  ]);
  pyodide.FS.writeFile("/engine.zip", new Uint8Array(bundle));
  pyodide.runPython("import sys; sys.path.insert(0, '/engine.zip')");
  return pyodide.pyimport("scorekeeper.words.worker").Session();
}

let loaded = null;

self.addEventListener("message", async (event) => {
  const { id, op, config, ...rest } = event.data;
  try {
    if (op === "start" && loaded === null) { loaded = load(config); }
    if (loaded === null) { throw new Error("not started"); }
    const session = await loaded;
    const answer = session(JSON.stringify({ op, ...rest }));
    self.postMessage({ id, answer: JSON.parse(answer) });
  } catch (error) {
    self.postMessage({ id, error: String(error && error.message || error) });
  }
});
