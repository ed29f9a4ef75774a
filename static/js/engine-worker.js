/* Scorekeeper: the engine in the phone, a module Web Worker (started by static/js/engine.js).
 *
 * It runs Pyodide (CPython for WebAssembly, vendored in static/pyodide/) with this app's own
 * engine, the bundle the server makes of its installed package, and hands every message to
 * scorekeeper.phone.worker, which answers as JSON in the page's language. Nothing here knows a
 * rule: it loads, passes messages through and says when something went wrong.
 *
 * Messages in: {id, op, ...} (ops: scorekeeper/phone/worker.py); the first is
 * {id, op: "start", config, language}, which loads the runtime and the bundle. Messages out:
 * {id, answer} or {id, error}. Messages sent while it loads wait for it.
 */

async function load(config) {
  const { loadPyodide } = await import(config.runtime + "pyodide.mjs");
  const key = config.bundle + " " + config.runtime;  /* both name their content */
  const kept = stored(key);
  const [pyodide, compiled, source] = await Promise.all([
    loadPyodide({ indexURL: config.runtime, stdLibURL: config.stdlib, lockFileURL: config.lock }),
    kept,
    kept.then((found) => found || fetch(config.bundle).then((response) => {
      if (!response.ok) { throw new Error("bundle: " + response.status); }
      return response.arrayBuffer();
    })),
  ]);
  performance.mark("sk:runtime");  /* (bench/engine_phone.py reads the marks) */
  if (compiled) {
    pyodide.FS.writeFile("/engine.zip", compiled);
  } else {  /* the first start on this phone: compile the bundle once, and keep it */
    pyodide.FS.writeFile("/engine-source.zip", new Uint8Array(source));
    pyodide.runPython("import sys; sys.path.insert(0, '/engine-source.zip')");
    pyodide.pyimport("scorekeeper.phone.bytecode").compile_bundle("/engine-source.zip", "/engine.zip");
    keep(key, pyodide.FS.readFile("/engine.zip"));
  }
  pyodide.runPython("import sys; '/engine.zip' in sys.path or sys.path.insert(0, '/engine.zip')");
  try {
    const session = pyodide.pyimport("scorekeeper.phone.worker").Session();
    performance.mark("sk:engine");
    return session;
  } catch (error) {
    if (compiled) { keep(key, null); }  /* a damaged copy: compiled again at the next start */
    throw error;
  }
}

/* The compiled bundle, kept in IndexedDB (one entry a phone: keeping a new one drops the old);
 * where IndexedDB is not there or fails, the bundle is compiled at each start. */
function database() {
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open("scorekeeper-engine", 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore("bytecode");
    opening.onsuccess = () => resolve(opening.result);
    opening.onerror = () => reject(opening.error);
  });
}

async function stored(key) {
  try {
    const store = (await database()).transaction("bytecode").objectStore("bytecode");
    return await new Promise((resolve) => {
      const asked = store.get(key);
      asked.onsuccess = () => resolve(asked.result);
      asked.onerror = () => resolve(undefined);
    });
  } catch (error) {
    return undefined;
  }
}

async function keep(key, bytes) {
  try {
    const store = (await database()).transaction("bytecode", "readwrite").objectStore("bytecode");
    store.clear();
    if (bytes) { store.put(bytes, key); }
  } catch (error) { /* compiled again at the next start */ }
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
