/* Scorekeeper: taps at local speed (a module; app.js adds it once a game page is idle).
 *
 * It starts the engine in the phone (static/js/engine-worker.js: this app's own engine under
 * Pyodide) and, once the worker holds the game a deal form was made for, answers the form's
 * taps in the phone: the preview htmx would ask the server for (htmx:confirm) is asked of the
 * worker and painted into the same places the server's answer fills, with no request. Whatever
 * the worker cannot say alone, and any failure, goes to the server as before; Save always does.
 *
 * It knows no rule, no contract and no score: it moves the form's fields to the worker and the
 * worker's words into the page.
 *
 * For other scripts: `engine.ask({op, ...})` sends any message of scorekeeper/phone/worker.py
 * once the engine is ready (a promise of the answer); the document gets an "sk:engine" event
 * when it is ready. Offline play (static/js/offline.js) starts from here once the config is
 * read, with the engine and the painting of a preview.
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
      import(config.offline).then((offline) => offline.start({ engine, paint, fieldsOf, config }), () => {});
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

function element(tag, className, text, attributes) {
  const made = document.createElement(tag);
  if (className) { made.className = className; }
  if (text !== undefined) { made.textContent = text; }
  Object.entries(attributes || {}).forEach(([name, value]) => made.setAttribute(name, value));
  return made;
}

function nameBox(name) {  /* as scorekeeper.web.present.player_name draws a name to fit */
  const box = element("bdi", name.wider.length ? "nm" : "", name.text);
  if (name.wider.length) { box.setAttribute("data-forms", JSON.stringify(name.wider)); }
  return box;
}

/* Put `parts()` in `place` unless it shows `value` already (an unchanged box costs no layout). */
function fill(place, value, parts) {
  const key = JSON.stringify(value);
  if (!place || place.skShown === key) { return; }
  place.replaceChildren(...parts());
  place.skShown = key;
}

function paint(form, said) {
  fill(document.getElementById("deal-preview"), [said.scores, said.left], () => {
    if (!said.scores) { return said.left ? [element("p", "hint", said.left)] : []; }
    const list = element("ol", "deal-scores");
    said.scores.forEach((seat) => {
      const item = list.appendChild(element("li"));
      item.append(nameBox(seat.name), " ", element("strong", "", seat.score));
    });
    return [list];
  });
  fill(document.getElementById("save-reasons"), said.reasons,
    () => said.reasons.map((text) => element("p", "error", text)));
  const save = document.getElementById("deal-save");
  if (save) { save.disabled = !said.ok; }
  Object.entries(said.boxes).forEach(([name, box]) => fill(document.getElementById("e-" + name), box, () => {
    const parts = box.sum ? [element("p", "sum" + (box.sum.over ? " over" : ""), box.sum.text,
      box.sum.ltr ? { dir: "ltr" } : {})] : [];
    box.messages.forEach((text) => parts.push(element("p", "error", text, { role: "alert" })));
    return parts;
  }));
  if (said.doubled) {
    fill(document.getElementById("doubled-note"), said.doubled, () => {
      const parts = said.doubled.items.length ? [said.doubled.label, " "] : [];
      said.doubled.items.forEach(([card, name], index) => {
        const item = element("bdi", "", card ? card + " " : "");
        item.append(element("bdi", "", name));
        parts.push(...(index ? [" · ", item] : [item]));
      });
      return parts;
    });
  }
  form.elements.autofilled.value = said.autofilled;
  Object.entries(said.chips).forEach(([name, chip]) => {
    form.querySelectorAll("input[name='" + CSS.escape(name) + "']").forEach((radio) => {
      radio.checked = radio.value === chip.value;
      radio.toggleAttribute("data-filled", radio.checked && chip.by_app);
    });
  });
  if (said.address && !form.skKept) {  /* (a form of the phone's alone stays on the game page) */
    history.replaceState({ htmx: true }, "", form.action + "?" + said.address);
  }
  form.classList.remove("stale");
  document.dispatchEvent(new CustomEvent("sk:painted"));
}

/* The server's preview fills #deal-preview in place (its other parts come whole, out of band):
 * what the phone last showed there is no longer what it shows. */
document.addEventListener("htmx:afterSwap", () => {
  const preview = document.getElementById("deal-preview");
  if (preview) { preview.skShown = undefined; }
});
document.addEventListener("htmx:afterSettle", hold);
start();
