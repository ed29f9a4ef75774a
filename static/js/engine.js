/* Scorekeeper: taps at local speed (a module; app.js adds it once a game page is idle).
 *
 * It starts the engine in the phone (static/js/engine-worker.js: this app's own engine under
 * Pyodide) and, once the worker holds the game a deal form was made for, answers the form's
 * taps in the phone: the preview htmx would ask the server for (htmx:confirm) is asked of the
 * worker, which answers with the HTML the server would send, swapped by htmx, with no request. Whatever
 * the worker cannot say alone, and any failure, goes to the server as before; Save always does.
 *
 * It knows no rule, no contract and no score, and builds no page: it moves the form's fields to
 * the worker and the worker's HTML into the page.
 *
 * For other scripts: `engine.ask({op, ...})` sends any message of scorekeeper/phone/worker.py
 * once the engine is ready (a promise of the answer); the document gets an "sk:engine" event
 * when it is ready. Offline play (static/js/offline.js) starts from here once the config is
 * read, with the engine, the painting of a preview and the swap of the worker's HTML.
 */

const worker = { ready: null, post: null, held: new Map() };
export const engine = { ask: ask, ready: null };

function ask(message) {
  return engine.ready.then(() => worker.post(message));
}

function start() {
  const link = document.querySelector("[data-engine]");
  if (!link || engine.ready) { return; }
  let asked = 0;
  const waiting = new Map();
  performance.mark("sk:engine-start");  /* (bench/engine_phone.py times the start) */
  engine.ready = fetch(link.getAttribute("data-engine"))
    .then((response) => response.json())
    .then((config) => {
      /* the game goes on with no network (static/js/offline.js): the deals kept on the phone
       * are sent even before (or without) the engine */
      import(config.offline).then((offline) => offline.start({ engine, paint, swap, fieldsOf, config }), () => {});
      const thread = new Worker(config.worker, { type: "module" });
      thread.addEventListener("message", (event) => {
        const { id, answer, error } = event.data, promise = waiting.get(id);
        waiting.delete(id);
        if (error === undefined) { promise.resolve(answer); } else { promise.reject(new Error(error)); }
      });
      thread.addEventListener("error", () => waiting.forEach((p) => p.reject(new Error("worker"))));
      worker.post = (message) => new Promise((resolve, reject) => {
        waiting.set(++asked, { resolve, reject });
        thread.postMessage({ id: asked, ...message });
      });
      return worker.post({ op: "start", config: config, language: config.language });
    });
  engine.ready.then(() => {
    performance.mark("sk:engine-ready");
    document.dispatchEvent(new CustomEvent("sk:engine", { detail: engine }));
    hold();
  }, () => { engine.ready = Promise.reject(new Error("no engine")); engine.ready.catch(() => {}); });
}

/* The game a deal form was made for, held by the worker at the form's version (asked once a
 * version: the form's "/record"). Until then, and when the game moved on, taps go to the server. */
function hold() {
  const form = document.querySelector("form#deal-form");
  if (!form || form.skKept || !form.querySelector("[data-preview]") || !worker.post) { return; }
  const key = form.action, version = form.elements.version.value, asked = key + " " + version;
  if (!worker.held.has(asked)) {
    worker.held.set(asked, fetch(key + "/record")
      .then((response) => response.ok ? response.json() : Promise.reject(new Error(response.status)))
      .then((game) => worker.post({ op: "game", key: key, version: game.version, record: game.record }))
      .then((held) => { if (String(held.version) !== version) { throw new Error("moved on"); } }));
  }
  worker.held.get(asked).then(() => { form.dataset.engine = "on"; }, () => {});
}

function fieldsOf(form) {
  const fields = [];
  new FormData(form).forEach((value, name) => { if (name !== "csrf_token") { fields.push([name, value]); } });
  return fields;
}

/* Whether the form was made against the game as the page last heard of it: another phone's
 * save (the follow poll) or this phone's moves the page's version (the notes form's); a form
 * the game moved on under is the server's to judge (it says so, and offers to carry the taps). */
function current(form) {
  const known = document.getElementById("notes-version");
  return !known || known.value === form.elements.version.value;
}

/* A tap's preview: asked of the worker when it holds the form's game, else of the server. A
 * form of the game as this phone keeps it (static/js/offline.js: `skKept`, the deals kept
 * before it) is the phone's alone: the server has not seen those deals. */
document.addEventListener("htmx:confirm", (event) => {
  const elt = event.detail.elt, form = elt.closest("form#deal-form");
  const kept = form && form.skKept;
  if (!elt.hasAttribute("data-preview") || !form || form.dataset.engine !== "on" || !(kept || current(form))) {
    return;
  }
  event.preventDefault();
  const asked = kept ? { key: kept.key, pending: kept.pending } : { key: form.action };
  worker.post({ op: "preview", fields: fieldsOf(form), ...asked }).then((said) => {
    if (!said.local || !form.isConnected) { throw new Error("ask the server"); }
    htmx.trigger(elt, "htmx:abort");  /* an earlier tap's answer must not paint over this one */
    paint(form, said);
  }).catch(() => {
    /* a form saved (or swapped) meanwhile asks nothing: its answer would put the form's
     * address back in the bar; a form of the phone's alone never asks the server */
    if (form.isConnected && !kept) { event.detail.issueRequest(true); }
  });
});

/* The worker's answer is the HTML the server would send (the same templates): the preview into
 * #deal-preview, each part marked hx-swap-oob in the place of the element with its id (swap). */
function paint(form, said) {
  const preview = document.getElementById("deal-preview");
  const rest = swap(said.html);
  if (preview) { preview.replaceChildren(rest); }
  if (said.address && !form.skKept) {  /* (a form of the phone's alone stays on the game page) */
    history.replaceState({ htmx: true }, "", form.action + "?" + said.address);
  }
  form.classList.remove("stale");
  document.dispatchEvent(new CustomEvent("sk:painted"));
}

/* Each part of `html` marked hx-swap-oob in the place of the element with its id, as htmx
 * swaps the server's answer (a part whose element `keep` says stays is left out); what is not
 * marked is returned. Done here, not by htmx.swap: htmx's swap and settle of a preview's parts
 * cost a phone at 4× CPU 10-40 ms a tap where this costs 1-5. A part the page shows already as
 * it is (most of them, at a tap) is left alone: no layout for it; a part with htmx attributes
 * is processed by htmx once in place. */
const parser = document.createElement("template");

function swap(html, keep) {
  parser.innerHTML = html;
  for (const part of [...parser.content.children]) {
    if (!part.hasAttribute("hx-swap-oob")) { continue; }
    part.remove();
    part.removeAttribute("hx-swap-oob");
    const shown = document.getElementById(part.id);
    /* (a part with fields is always swapped: a field's state is not in its markup) */
    if (shown && !(keep && keep(shown)) && (part.matches("input, :has(input)") || shown.outerHTML !== part.outerHTML)) {
      shown.replaceWith(part);
      if (part.matches("[hx-get], [hx-post], :has([hx-get], [hx-post])")) { htmx.process(part); }
    }
  }
  return parser.content;
}

document.addEventListener("htmx:afterSettle", hold);
start();
