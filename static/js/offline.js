/* Scorekeeper: the game goes on with no network (a module; static/js/engine.js starts it once
 * the engine's config is read, on a game page that is idle).
 *
 * With no network (or with deals already waiting on this phone) the phone's engine does what
 * the server would: a contract tapped opens its form from the offline kit (the server's own
 * blank forms, kept on the phone: /g/<token>/offline), the engine judges the taps and the save;
 * a saved deal is kept in IndexedDB (static/js/sync.js), and the page is painted from the
 * engine's view of the game with the deals kept: totals, the next step, the history, the
 * kingdoms or declarations, undo. A save whose request failed is kept the same way, with its
 * own key. The kept deals are sent in order when the network is back (the online event, the
 * page's load, a retry timer, Background Sync), each exactly once (by its key); what the
 * server says of each is said here, and another phone's deal in the place of one of ours is
 * shown beside it with the choice: drop mine, or enter mine as the next deal.
 *
 * It knows no rule, no contract and no score: it moves values between the page, IndexedDB,
 * the engine and the server, and paints the engine's words. Without the engine (not ready,
 * no WebAssembly) nothing here takes a save: the page says "No connection" as before.
 *
 * The service worker (static/js/sw.js, registered here: secure contexts only) keeps the page
 * for a reload with no network; over plain HTTP there is none, and the page says so.
 */

const words = {};
let options = null;   /* {engine, paint, fieldsOf, config} from engine.js */
let sync = null;      /* static/js/sync.js */
let here = null;      /* the game this page shows: {game, key, state, kit, held} */
let queue = Promise.resolve();
let retry = null, backoff = 0;
let serviceWorker = null;  /* its registration, once active */
let engine = false;       /* the engine is ready */
let failed = false;       /* the engine will not be ready (no WebAssembly, no runtime) */
const BACKOFF_S = [2, 4, 8, 16, 30, 60];

export function start(given) {
  options = given;
  import(given.config.sync).then((module) => {
    sync = module;
    listen();
    settled();  /* (deals kept here are sent, engine or not) */
    /* the rest only where the engine runs: without it the page is as it always was */
    given.engine.ready.then(() => { engine = true; register(); settled(); }, () => {
      failed = true;  /* (no WebAssembly, no runtime: a tap waiting for it goes to the server) */
      if (here && here.waitingTap) { here.waitingTap = null; unsay(words.gettingReady); notSentHere(); }
    });
  });
}

function later(work) {  /* one change of the game's state at a time */
  queue = queue.then(work).catch((error) => console.error(error));  /* (said, and the next goes on) */
  return queue;
}

/* ----- the page ---------------------------------------------------------------------- */

function gamePath() {
  const follow = document.getElementById("follow");
  return follow ? new URL(follow.getAttribute("hx-get"), location.href).pathname.replace(/\/live$/, "") : null;
}

function pageVersion() {
  const known = document.getElementById("notes-version");
  return known ? Number(known.value) : 0;
}

function token() {
  try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]; } catch (error) { return ""; }
}

function element(tag, className, text, attributes) {
  const made = document.createElement(tag);
  if (className) { made.className = className; }
  if (text !== undefined && text !== null) { made.textContent = text; }
  Object.entries(attributes || {}).forEach(([name, value]) => made.setAttribute(name, value));
  return made;
}

function online() { return navigator.onLine !== false; }

function settled() {
  /* a save swapped in moves the page past what the engine holds: not ready until it follows */
  if (here && !ready()) { document.documentElement.removeAttribute("data-offline-ready"); }
  later(async () => {
    const game = gamePath();
    if (!game) { return; }
    if (!here || here.game !== game) { await open(game); }
    if (engine) { await follow(); await hold(); }
    await show();
    if (here.waitingTap && ready()) {  /* a contract tapped before the engine was ready */
      const work = here.waitingTap;
      here.waitingTap = null;
      unsay(words.gettingReady);
      await work();
    } else if (here.waitingTap || (waits(here.state) && !ready())) {
      console.info("scorekeeper: the phone's engine is not ready yet:", notReady());
    }
  });
}

/* Whether the phone will be able to take a step here once its engine is ready. */
function coming() {
  return Boolean(here && !failed && !here.state.blocked && (here.kit || here.state.kit || online()));
}

/* A step tapped before the engine is ready: taken once it is (said meanwhile). */
function whenReady(work) {
  here.waitingTap = work;
  say([words.gettingReady], "warning");
}

/* What readiness waits for (said in the console: a page that seems stuck tells why). */
function notReady() {
  if (!here) { return ["no game"]; }
  const why = [];
  if (!engine) { why.push(failed ? "no engine" : "the engine"); }
  if (here.held !== here.state.version) { why.push("the game held at " + here.held + ", kept at " + here.state.version); }
  if (!here.kit) { why.push("the offline kit"); }
  if (here.state.blocked) { why.push("the player's choice"); }
  if (pageVersion() > here.state.version) { why.push("the page is at " + pageVersion()); }
  return why;
}

async function open(game) {
  document.documentElement.removeAttribute("data-offline-ready");
  const csrf = token();
  const state = await sync.update(game, (found) => {
    const state = found || { game: game, version: 0, record: null, pending: [], withdraw: [], blocked: null };
    state.csrf = csrf;
    state.stopped = null;  /* a page loaded again: its token is fresh, the code may be entered */
    return state;
  });
  here = { game: game, key: game, state: state, kit: null, held: null };
  if (location.pathname !== game) {  /* (a deal form's address, answered with the game's copy) */
    history.replaceState(null, "", game);
  }
  if (state.kit) { here.kit = parseKit(state.kit.html); }
  if (!waits(state) && navigator.serviceWorker && navigator.serviceWorker.controller) {
    poll();  /* the page may be a copy the service worker kept: what changed since, at once */
  }
  if (waits(state)) { trySync(); }
}

/* Whether anything of this phone's waits: deals kept, undos to withdraw, a choice to make. */
function waits(state) {
  return Boolean(state && (state.pending.length || state.withdraw.length || state.blocked));
}

/* Change this game's record in one transaction (static/js/sync.js `update`), and show it. */
async function change(work) {
  const state = await sync.update(here.game, (found) => (found ? work(found) : undefined));
  if (state) { here.state = state; }
  return state;
}

/* Online with nothing kept: the record the engine replays, the kit and the kept page follow
 * the game as the page shows it. */
async function follow() {
  if (waits(here.state) || !online()) { return; }
  const version = pageVersion(), language = document.documentElement.lang;
  const facts = here.state.facts;
  if (version && (version !== here.state.version || !facts || facts.language !== language)) {
    const response = await fetch(here.game + "/deal/record", { credentials: "same-origin" });
    if (!response.ok) { return; }
    const game = await response.json();
    await change((state) => (waits(state) ? undefined : Object.assign(state, {
      version: game.version, record: game.record, facts: { language: language, ...game.page },
    })));
    here.held = null;  /* (held again with the page's facts) */
    await hold();
  }
  const kit = here.state.kit;
  if ((!kit || kit.language !== language) && here.kitAsked !== version) {
    here.kitAsked = version;  /* (a finished game has none: asked again when the game changes) */
    const response = await fetch(here.game + "/offline", {  /* (its forms as htmx gets them) */
      credentials: "same-origin", headers: { "HX-Request": "true" },
    });
    if (response.status === 200) {
      const made = { language: language, html: await response.text() };
      await change((state) => Object.assign(state, { kit: made }));
      here.kit = parseKit(made.html);
    }
  }
  if (here.state.page !== version && serviceWorker && !waits(here.state)) {
    await change((state) => Object.assign(state, { page: version }));
    here.keeping = tellWorker({ keep: here.game, files: [...options.config.files, ...assets()] }, 120000);
  }
  markReady();
}

/* (for tests and benches: the phone can go on here with no network, and reload the page) */
function markReady() {
  const shown = here;
  Promise.resolve(shown.keeping).then(() => {
    if (here === shown) { document.documentElement.toggleAttribute("data-offline-ready", ready()); }
  });
}

/* What the page loads besides the engine: its stylesheet, scripts, icons, manifest, the
 * engine's config (each at an address naming its content). */
function assets() {
  const found = [...document.querySelectorAll("link[href][rel~=stylesheet], link[href][rel~=icon], link[href][rel=manifest], script[src]")]
    .map((tag) => tag.getAttribute("href") || tag.getAttribute("src"));
  document.querySelectorAll("[data-engine], [data-script]").forEach((tag) => {
    found.push(tag.getAttribute("data-engine") || tag.getAttribute("data-script"));
  });
  return found;
}

function parseKit(html) {
  const kit = document.createElement("div");
  kit.innerHTML = html;  /* the server's own markup, from this origin (templates only) */
  const said = kit.querySelector("template[data-kit=words]");
  if (said) { Object.assign(words, said.dataset); }
  return kit;
}

async function hold() {
  const state = here.state;
  if (!state.record || !state.facts || here.held === state.version) { return; }
  await options.engine.ask({ op: "game", key: here.key, version: state.version, record: state.record, page: state.facts });
  here.held = state.version;
  markReady();
}

/* Whether the phone can judge a deal here: its engine holds the game as the page shows it
 * (or newer), the kit is kept, and nothing waits for the player's choice. */
function ready() {
  return Boolean(here && here.held !== null && here.held === here.state.version && here.kit &&
    !here.state.blocked && pageVersion() <= here.state.version);
}

function kept() { return here ? here.state.pending : []; }

/* The deals the engine shows after the stored ones: those before the one that waits for the
 * player (another phone's deal in its place, or one the server refused). */
function shown(state) {
  const at = state.blocked ? state.pending.findIndex((entry) => entry.key === state.blocked.key) : -1;
  return at < 0 ? state.pending.slice() : state.pending.slice(0, at);
}

/* ----- painting the game from the engine's view ---------------------------------------- */

async function show() {
  if (!here) { return; }
  const state = here.state;
  const form = document.querySelector("form#deal-form[data-local]");
  if (form) { refit(form); }
  const quiet = !waits(state) && !state.stopped && pageVersion() >= state.version;
  if (quiet && !here.painted) {
    notice(null);
    return;
  }
  if (here.held !== state.version || !state.record || pageVersion() > state.version) {
    /* (the engine is not ready, or holds an older game than the page): what it last said, if
     * as many deals wait now */
    const said = lastSaid();
    notice(said && said.waiting === state.pending.length ? said.text : null);
    return;
  }
  /* the game's parts as the server renders them, with the deals kept here (or, once none
   * is, as the server has it): the worker renders the same templates */
  const chain = shown(state), blocked = state.blocked;
  const view = await options.engine.ask({
    op: "view", key: here.key, pending: chain.map((entry) => entry.deal), csrf: token(),
    waiting: state.pending.length, entries: blocked ? state.pending : [], blocked: blocked,
    in_game: blocked ? inGame(state) : null, stopped: state.stopped,
    secure: window.isSecureContext, current: here.held === state.version,
  });
  lastSaid({ waiting: state.pending.length, text: view.waiting });
  /* (an open deal form's header carries #play too, as the skip link's target: it stays) */
  options.swap(view.html, (part) => part.id === "play" && part.closest("form#deal-form"));
  here.painted = !quiet;
  document.dispatchEvent(new CustomEvent("sk:shown"));  /* (names fitted, a part's script fetched) */
  const chart = document.getElementById("chart");
  if (chart && chain.length) { chart.hidden = true; }  /* the server's, until it has these deals (the follow poll) */
  const known = document.getElementById("notes-version");
  if (known && Number(known.value) < state.version) { known.value = state.version; }
  keepPainted();
  markReady();  /* (a choice answered, a deal dropped: the phone can go on again) */
}

/* The deal in the game that stops this phone's: another phone's in the place of ours, or ours
 * stored before its undo. */
function inGame(state) {
  const blocked = state.blocked;
  if (blocked.outcome === "conflict") { return blocked.stored || null; }
  return blocked.outcome === "too-late" && state.record ? state.record.deals[blocked.number - 1] || null : null;
}

/* The page as painted here, kept by the service worker as this game's copy: a reload with no
 * network shows the deals kept and the next step at once, not the page from before them. */
function keepPainted() {
  if (!serviceWorker || !waits(here.state)) { return; }
  const page = document.documentElement.cloneNode(true);
  page.removeAttribute("data-offline-ready");
  page.querySelectorAll("form#deal-form[data-local]").forEach((form) => form.replaceWith(element("section", "", null, { id: "play" })));
  tellWorker({ painted: here.game, language: document.documentElement.lang, html: "<!DOCTYPE html>\n" + page.outerHTML }, 5000);
}

/* What the page last said of the deals waiting here, kept for the tab (a reload with no network
 * says it before its engine is ready; as many deals must wait still). Not in the game's state:
 * a sync in flight writes that. */
function lastSaid(said) {
  const key = "scorekeeper-waiting " + here.game;
  try {
    if (said) { sessionStorage.setItem(key, JSON.stringify(said)); return said; }
    return JSON.parse(sessionStorage.getItem(key));
  } catch (error) { return null; }
}

function setText(place, text) {
  if (place && place.textContent !== text) { place.textContent = text; }
}

/* What the page says of the deals kept here before its engine can paint them (the panel the
 * server's page holds, hidden while nothing waits): how many wait, or nothing. */
function notice(text) {
  const box = document.getElementById("kept");
  if (!box) { return; }
  box.replaceChildren(...(text ? [text] : []));
  box.hidden = !text;
}

function say(messages, kind) {
  const flash = document.getElementById("flash");
  if (!flash || !messages.length) { return; }
  flash.replaceChildren(...messages.map((text) => element("p", "flash flash-" + kind, text, { role: "status" })));
}

function unsay(text) {  /* a message that is no longer true leaves */
  document.querySelectorAll("#flash .flash").forEach((said) => { if (said.textContent === text) { said.remove(); } });
}

/* The follow poll (other phones' saves): now, once nothing of this phone's is waiting. */
function poll() {
  const poller = document.getElementById("follow");
  if (poller && window.htmx) {
    htmx.ajax("GET", poller.getAttribute("hx-get"), { source: poller, target: poller, swap: "outerHTML" });
  }
}

/* ----- a deal entered on this phone ------------------------------------------------------ */

function newKey() {  /* an entry key: a UUID v4, lowercase (crypto.randomUUID needs HTTPS) */
  if (crypto.randomUUID) { return crypto.randomUUID(); }
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join("-");
}

/* A contract tapped: its form from the kit, filled in by the engine (number, who chooses), its
 * preview before the first tap the worker's. */
async function openForm(contract) {
  const state = here.state, chain = shown(state).map((entry) => entry.deal);
  const template = here.kit.querySelector(`template[data-contract="${CSS.escape(contract)}"]`);
  const made = await options.engine.ask({ op: "form", key: here.key, pending: chain, contract: contract });
  if (!made.open || !template) { say([made.message], "warning"); return; }
  const form = template.content.querySelector("form#deal-form").cloneNode(true);
  form.querySelectorAll("#flash").forEach((flash) => flash.remove());  /* (the page has its own) */
  form.elements.number.value = made.number;
  form.elements.version.value = state.version;
  form.elements.entry_key.value = newKey();
  form.elements.autofilled.value = "";
  setText(form.querySelector(".deal-head .where"), made.where);
  setText(form.querySelector(".deal-head .roles"), made.roles);
  form.querySelector("#deal-save").disabled = true;
  form.dataset.local = "on";
  form.dataset.engine = "on";  /* its taps: the engine's alone (static/js/engine.js) */
  form.skKept = { key: here.key, pending: chain };
  const play = document.getElementById("play");
  if (!play) { return; }
  play.replaceWith(form);
  htmx.process(form);
  const heading = form.querySelector("h1");
  if (heading) { heading.focus(); }
  /* what the form shows before the first tap, as a tap's preview: the worker's HTML */
  const said = await options.engine.ask({ op: "preview", key: here.key, fields: options.fieldsOf(form), pending: chain });
  if (said.local && form.isConnected) { options.paint(form, said); }
}

/* A local form after the kept deals changed (sent, dropped): the deal after them now. */
function refit(form) {
  const state = here.state, chain = shown(state);
  const number = state.record ? state.record.deals.length + chain.length + 1 : 0;
  if (form.skKept.pending.length === chain.length && form.elements.version.value === String(state.version)) { return; }
  form.skKept = { key: here.key, pending: chain.map((entry) => entry.deal) };
  form.elements.version.value = state.version;
  form.elements.number.value = number;
  const fields = form.querySelector("[data-preview]");
  if (fields) { htmx.trigger(fields, "change"); }
}

/* Keep the form's deal on this phone, judged by the engine first (`sent`: its save went out
 * and no answer came: the server may hold it already). */
async function keepDeal(form, sent) {
  const state = here.state, chain = shown(state);
  const said = await options.engine.ask({
    op: "preview", key: here.key, fields: options.fieldsOf(form), pending: chain.map((entry) => entry.deal),
  });
  if (!said.local) { return "unjudged"; }
  options.paint(form, said);
  if (!said.ok || !said.deal || state.blocked) { return "refused"; }
  const entry = { key: form.elements.entry_key.value, number: Number(form.elements.number.value), deal: said.deal };
  if (sent) { entry.sent = true; }
  if (chain.length) { entry.after = chain[chain.length - 1].key; } else { entry.base = state.version; }
  /* (on the record as it is now: a sync's answer may have stored the ones before it) */
  await change((fresh) => {
    if (fresh.pending.some((kept) => kept.key === entry.key)) { return undefined; }  /* (a second tap) */
    fresh.pending.push(entry);
    return fresh;
  });
  history.replaceState(null, "", here.game);  /* (a reload shows the game, not this form) */
  const play = element("section", "", null, { id: "play" });
  form.replaceWith(play);
  await show();
  say([words.saved], "success");
  const step = document.querySelector("#play h2");
  if (step) { step.setAttribute("tabindex", "-1"); step.focus(); }
  backgroundSync();
  trySync();
  return "kept";
}

function notSent(form) {  /* as static/js/app.js says it: the save could not be judged here */
  const said = document.getElementById("net-error"), slot = form.querySelector(".net-error");
  if (said && slot) {
    slot.textContent = said.getAttribute("data-say").replace("{}", said.getAttribute("data-offline"));
    slot.hidden = false;
  }
}

/* Undo the last deal kept here: dropped, and withdrawn at the server first when it may have
 * gone out (a sync in flight, a save with no answer); stored by a sync meanwhile, the player is
 * told so and offered the server's undo. */
async function undoKept() {
  const chain = shown(here.state), last = chain[chain.length - 1];
  if (!last) { return; }
  await change((fresh) => {
    const at = fresh.pending.findIndex((entry) => entry.key === last.key);
    if (at < 0) {  /* the server stored it a moment ago */
      if (fresh.blocked) { return undefined; }
      fresh.blocked = { key: last.key, outcome: "too-late", message: null, number: last.number, version: fresh.version };
      return fresh;
    }
    if (at !== fresh.pending.length - 1 || (fresh.blocked && fresh.blocked.key === last.key)) { return undefined; }
    const [entry] = fresh.pending.splice(at, 1);
    if (entry.sent) { fresh.withdraw.push({ key: entry.key, number: entry.number }); }
    return fresh;
  });
  await show();
  trySync();
}

/* A player's answer to the panel, for the deal the panel was painted for (`key`): a tap that
 * lands as the panel changes (a sync's answer moved it on to another deal) does nothing, and
 * the panel as it is now is shown. */
async function choose(choice, key) {
  const blocked = here.state.blocked;
  if (!blocked || blocked.key !== key) { await show(); return; }
  if (choice === "undo-server") { await undoOnServer(blocked); return; }
  let copy = null;
  if (choice === "next") {  /* a new entry (a new key), judged here first as the next deal */
    const state = here.state, at = state.pending.findIndex((entry) => entry.key === blocked.key);
    if (at < 0) { return; }
    copy = { ...state.pending[at], key: newKey() };
    delete copy.sent;
    const trial = [...state.pending.slice(0, at), copy, ...state.pending.slice(at + 1)];
    const view = await options.engine.ask({ op: "view", key: here.key, pending: trial.map((entry) => entry.deal) });
    if (view.refused && view.refused.pending <= at) {
      say(view.refused.messages, "warning");
      return;
    }
  }
  await change((fresh) => {
    if (!fresh.blocked || fresh.blocked.key !== blocked.key) { return undefined; }  /* (a second tap) */
    const at = fresh.pending.findIndex((entry) => entry.key === blocked.key);
    if (at >= 0 && choice !== "keep") {
      const [mine] = fresh.pending.splice(at, 1, ...(copy ? [copy] : []));
      if (mine.sent) { fresh.withdraw.push({ key: mine.key, number: mine.number }); }  /* (never stored later) */
    }
    fresh.blocked = null;
    sync.rebase(fresh);
    return fresh;
  });
  await show();
  trySync();
}

/* The deal this phone undid came after the server stored it: undo it there (the server's own
 * undo, as its button does), then send what waits after it. */
async function undoOnServer(blocked) {
  const body = new FormData();
  body.set("csrf_token", token());
  body.set("number", String(blocked.number));
  body.set("version", String(here.state.version));
  let said = null, game = null;
  try {
    const response = await fetch(here.game + "/undo", { method: "POST", body: body, credentials: "same-origin" });
    const answer = new DOMParser().parseFromString(await response.text(), "text/html");
    const flash = answer.querySelector("#flash .flash");
    said = flash ? flash.textContent : null;
    const record = await fetch(here.game + "/deal/record", { credentials: "same-origin" });
    game = record.ok ? await record.json() : null;
  } catch (error) { /* no network: the choice stays */ }
  if (!game) { notSentHere(); return; }
  const undone = game.record.deals.length < blocked.number;
  await change((fresh) => {
    Object.assign(fresh, { version: game.version, record: game.record, facts: { language: document.documentElement.lang, ...game.page } });
    if (undone && fresh.blocked && fresh.blocked.key === blocked.key) {
      fresh.blocked = null;
      sync.rebase(fresh);
    }
    return fresh;
  });
  if (said) { say([said], undone ? "success" : "warning"); }
  await hold();
  await show();
  trySync();
}

function notSentHere() {  /* as static/js/app.js says it, at the foot of the screen */
  const said = document.getElementById("net-error");
  if (said) {
    said.textContent = said.getAttribute("data-say").replace("{}", said.getAttribute("data-offline"));
    said.hidden = false;
  }
}

/* ----- sending ------------------------------------------------------------------------- */

function trySync() {
  clearTimeout(retry);
  if (!here || !(here.state.pending.length || here.state.withdraw.length)) { return; }
  const game = here.game;
  if (!online()) {  /* the online event sends them; the timer too, in case it never comes */
    retry = setTimeout(trySync, BACKOFF_S[BACKOFF_S.length - 1] * 1000);
    return;
  }
  sync.send(game).then((outcome) => later(async () => {
    if (!here || here.game !== game) { return; }
    const before = here.state;
    let said = [];
    const state = await sync.update(game, (found) => {
      if (!found || !found.said || !found.said.length) { return undefined; }
      said = found.said;
      found.said = [];  /* (said once) */
      return found;
    });
    here.state = state || { ...before, pending: [], withdraw: [], blocked: null, stopped: null };
    if (outcome === "gone") { say([words.gone], "warning"); notice(null); return; }
    if (said.length) {
      say(said, state.blocked || state.stopped ? "warning" : "success");
    } else if (outcome === "done") {
      unsay(words.saved);  /* ("saved on this phone": it is on the server now) */
    }
    await hold();
    if (outcome === "offline") {
      retry = setTimeout(trySync, BACKOFF_S[Math.min(backoff++, BACKOFF_S.length - 1)] * 1000);
    } else {
      backoff = 0;
    }
    await show();
    if (outcome === "done" && !document.querySelector("form#deal-form[data-local]")) {
      poll();  /* the page as the server has it now */
    }
  }));
}

function backgroundSync() {
  if (serviceWorker && serviceWorker.sync) { serviceWorker.sync.register(sync.SYNC_TAG).catch(() => {}); }
}

/* ----- the service worker (secure contexts only) --------------------------------------- */

function register() {
  if (!navigator.serviceWorker || !window.isSecureContext) { return; }
  navigator.serviceWorker.register(options.config.service_worker, { type: "module" })
    .then(() => navigator.serviceWorker.ready)
    .then((registration) => {
      serviceWorker = registration;
      later(async () => { if (here) { here.state.page = null; await follow(); } });
    })
    .catch(() => {});
}

function tellWorker(message, waitMs) {
  const worker = serviceWorker && serviceWorker.active;
  if (!worker) { return Promise.resolve(); }
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    setTimeout(resolve, waitMs);
    worker.postMessage(message, [channel.port2]);
  });
}

/* ----- listening ------------------------------------------------------------------------ */

function listen() {
  document.addEventListener("htmx:afterSettle", settled);
  window.addEventListener("online", () => { backoff = 0; trySync(); });
  /* a tap of a contract, and Save: this phone's to judge while deals wait here or it has no
   * network (else the server's, as always) */
  document.addEventListener("htmx:confirm", (event) => {
    const elt = event.detail.elt, mine = kept().length > 0 || !online();
    const contract = elt.closest(".contracts") && elt.hasAttribute("hx-get")
      ? new URL(elt.getAttribute("hx-get"), location.href).searchParams.get("contract") : null;
    if (elt.matches("form#deal-form[data-local]") && mine) {
      event.preventDefault();
      later(async () => { if (await keepDeal(elt, false) === "unjudged") { notSent(elt); } });
    } else if (contract && mine && ready()) {
      event.preventDefault();
      later(() => openForm(contract));
    } else if (contract && mine && coming()) {
      event.preventDefault();  /* (a step the phone can take once its engine is ready: never "No connection") */
      whenReady(() => openForm(contract));
    } else if (contract && kept().length) {
      event.preventDefault();  /* (the server's next step is not this phone's: what waits here first) */
      const box = document.getElementById("kept");
      if (box) { box.scrollIntoView(); }
    }
  });
  document.addEventListener("click", (event) => {
    const target = event.target.closest("[data-kept], form#deal-form[data-local] a.button");
    if (!target || !here) { return; }
    event.preventDefault();
    if (target.getAttribute("data-kept") === "undo") {
      later(undoKept);
    } else if (target.hasAttribute("data-kept")) {
      later(() => choose(target.getAttribute("data-kept"), target.getAttribute("data-key")));
    } else if (target.matches("form a.button")) {  /* Cancel: the next step again */
      later(async () => {
        target.closest("form").replaceWith(element("section", "", null, { id: "play" }));
        here.painted = true;  /* (the engine paints the step in its place) */
        await show();
        if (!kept().length) { poll(); }
      });
    }
  });
  /* a request that did not go through: a save the engine can judge is kept here (with its own
   * key: the server never stores it twice), a contract's form comes from the kit; anything
   * else is static/js/app.js's to say (this listener runs first: the window's capture) */
  ["htmx:sendError", "htmx:timeout", "htmx:responseError"].forEach((name) => {
    window.addEventListener(name, (event) => {
      const elt = event.detail.elt, status = event.detail.xhr ? event.detail.xhr.status : 0;
      const lost = name !== "htmx:responseError" || status === 429 || status >= 500;
      if (!lost || !ready()) { return; }
      const saving = elt.matches("form#deal-form") && !elt.elements.editing &&
        event.detail.target !== elt.querySelector(".net-error") &&
        elt.elements.version.value === String(here.state.version);
      if (saving) {
        event.stopImmediatePropagation();
        later(async () => { if (await keepDeal(elt, true) !== "kept") { notSent(elt); } });
      } else if (elt.closest(".contracts") && elt.hasAttribute("hx-get")) {
        event.stopImmediatePropagation();
        const contract = new URL(elt.getAttribute("hx-get"), location.href).searchParams.get("contract");
        later(() => openForm(contract));
      }
    }, true);
  });
  /* the follow poll waits while deals wait here, or a form of this phone's is open: the page
   * shows the game with them (it asks again once they are sent) */
  document.addEventListener("htmx:beforeRequest", (event) => {
    if (event.detail.elt.hasAttribute("data-follow") &&
        (kept().length || (here && (here.state.blocked || here.state.withdraw.length)) || document.querySelector("form#deal-form[data-local]"))) {
      event.preventDefault();
    }
  });
}
