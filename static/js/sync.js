/* Scorekeeper: the deals a phone keeps for the server, and sending them (a module, no page).
 *
 * Shared by the page (static/js/offline.js) and the service worker (static/js/sw.js, whose
 * Background Sync sends them with no page open). It knows no rule and no score: it keeps what
 * the phone's engine judged, sends it in order and writes down what the server said.
 *
 * One record a game in IndexedDB ("scorekeeper-offline", store "games", keyed by the game
 * page's path "/g/<token>"), which needs no secure context:
 *   {game, version, record}  the game page's path (the app's root included), and the game as
 *     the server last gave it (what the engine replays);
 *   pending: [{key, number, deal, base | after, sent?}]  the deals entered on this phone, in
 *     order: the first on the version it was entered on (base), each next one after the one
 *     before (after: its key); sent: its own save went out and no answer came back (the
 *     server may hold it: it is sent again with the same key and never stored twice);
 *   blocked: null, or what stops the sending until the player decides: another phone's deal
 *     in the place of the first one ("conflict": stored, same) or a deal the server refuses
 *     ("refused"), with the server's message;
 *   stopped: null, or why sending waits for the player ("access", "reload");
 *   said: the server's last messages (shown once by the page);
 *   csrf: the page's CSRF token (the service worker sends with it); kit: the offline kit.
 *
 * The key of an entry is made once, when its form opens, and never again for the same entry:
 * a sync sent again is answered from the keys (POST /g/<token>/sync, scorekeeper/store/sync.py).
 */

const DATABASE = "scorekeeper-offline";
const STORE = "games";
const MOST = 40;  /* entries a sync carries (scorekeeper.store.sync.MOST_PENDING) */
const ANSWER_WITHIN_MS = 20000;  /* then the answer counts as lost: sent again later */
const RETRY = new Set([408, 425, 429, 500, 502, 503, 504]);

function database() {
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open(DATABASE, 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore(STORE, { keyPath: "game" });
    opening.onsuccess = () => resolve(opening.result);
    opening.onerror = () => reject(opening.error);
  });
}

async function request(mode, work) {
  const db = await database();
  return new Promise((resolve, reject) => {
    const done = db.transaction(STORE, mode);
    const asked = work(done.objectStore(STORE));
    done.oncomplete = () => resolve(asked && asked.result);
    done.onerror = () => reject(done.error);
  });
}

export function load(game) {
  return request("readonly", (store) => store.get(game));
}

export function loadAll() {
  return request("readonly", (store) => store.getAll());
}

export function keep(state) {
  return request("readwrite", (store) => { store.put(state); });
}

export function forget(game) {
  return request("readwrite", (store) => { store.delete(game); });
}

/* Entries from the first on, renumbered after the stored deals: the first on the game's
 * version, each next one after the one before (a player's choice, or a game that changed with
 * no other deal in the place: "stale"). Keys never change. */
export function rebase(state) {
  const stored = state.record.deals.length;
  state.pending.forEach((entry, index) => {
    entry.number = stored + index + 1;
    delete entry.base;
    delete entry.after;
    if (index === 0) { entry.base = state.version; } else { entry.after = state.pending[index - 1].key; }
  });
}

function sent(entry) {
  const { key, number, deal, base, after } = entry;
  return base === undefined ? { key, number, deal, after } : { key, number, deal, base };
}

/* Write the server's answer down: stored entries leave, the first one not stored says why. */
function settle(state, answer) {
  let again = false;
  state.version = answer.version;
  state.record = answer.record;
  state.said = [];
  for (const result of answer.results) {
    const index = state.pending.findIndex((entry) => entry.key === result.key);
    if (index < 0 || result.outcome === "waiting") { continue; }
    if (result.outcome === "stored" || result.outcome === "kept") {
      state.pending.splice(index, 1);
      if (result.outcome === "kept" && result.stands === false) { state.said.push(result.message); }
      else { state.said = [result.message]; }
    } else if (result.outcome === "stale") {
      rebase(state);  /* nothing in its place: judged again on the game as it is */
      again = true;
      break;
    } else {
      state.blocked = {
        key: result.key, outcome: result.outcome, message: result.message,
        stored: result.stored || null, same: Boolean(result.same),
      };
      break;
    }
  }
  if (state.pending.length && !state.blocked && state.pending[0].base === undefined) {
    rebase(state);  /* (the one before it stored: it is based on the game's version now) */
  }
  return again;
}

async function post(state, entries) {
  const control = new AbortController();
  const timer = setTimeout(() => control.abort(), ANSWER_WITHIN_MS);
  try {
    return await fetch(state.game + "/sync", {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": state.csrf || "" },
      body: JSON.stringify({ entries: entries.map(sent) }),
      signal: control.signal,
    });
  } finally {
    clearTimeout(timer);
  }
}

/* Send a game's pending deals, in order, as many rounds as it takes; one sender at a time for
 * a game, page or service worker (Web Locks, where the browser has them). Resolves to what
 * happened: "done" (nothing left to send), "blocked" (the player decides), "stopped" (access
 * code, reload), "gone" (no such game: the phone's copy is dropped), "offline" (no answer: try
 * again later). */
export function send(game) {
  const run = () => sendNow(game);
  return self.navigator.locks ? self.navigator.locks.request("scorekeeper-sync " + game, run) : run();
}

async function sendNow(game) {
  for (let round = 0; round < 50; round++) {  /* (each round stores one deal at least) */
    const state = await load(game);
    if (!state || !state.pending.length) { return "done"; }
    if (state.blocked) { return "blocked"; }
    if (state.stopped) { return "stopped"; }
    let response;
    try {
      response = await post(state, state.pending.slice(0, MOST));
    } catch (error) {
      return "offline";
    }
    if (RETRY.has(response.status)) { return "offline"; }
    if (response.status === 404) { await forget(game); return "gone"; }
    if (!response.ok) {  /* a lost access code, an old page's token: the player acts */
      const said = await response.json().catch(() => ({}));
      state.stopped = said.access ? "access" : "reload";
      state.said = said.error ? [said.error] : [];
      await keep(state);
      return "stopped";
    }
    const before = state.pending.length;
    const again = settle(state, await response.json());
    await keep(state);
    if (state.blocked) { return "blocked"; }
    if (!state.pending.length) { return "done"; }
    if (!again && state.pending.length === before) { return "offline"; }  /* (no progress) */
  }
  return "offline";
}
