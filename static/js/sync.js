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
 *     before (after: its key); sent: it went out at least once (its own save, or a sync) and
 *     no answer stored it yet (the server may hold it: it is sent again with the same key and
 *     never stored twice; undone, it is withdrawn);
 *   withdraw: [{key, number}]  deals undone on this phone that may have reached the server: their
 *     keys are withdrawn there first (never stored later), or the server says it stored them;
 *   blocked: null, or what stops the sending until the player decides: another phone's deal
 *     in the place of the first one ("conflict": stored, same), a deal the server refuses
 *     ("refused"), deals of the game changed under it ("stale"), or an undo that came after the
 *     server stored the deal ("too-late": number, version), with the server's message;
 *   stopped: null, or why sending waits for the player ("access", "reload");
 *   said: the server's last messages (shown once by the page);
 *   csrf: the page's CSRF token (the service worker sends with it); kit: the offline kit.
 *
 * Every change is one read-modify-write in one IndexedDB transaction (`update`): the page's
 * saves and undos and a sync's answer (from the page or the service worker) never write over
 * one another; a sync's answer is applied to the record as it is then, by key.
 *
 * The key of an entry is made once, when its form opens, and never again for the same entry:
 * a sync sent again is answered from the keys (POST /g/<token>/sync, scorekeeper/store/sync.py).
 */

const FACTS = null;  /* filled in where the server serves this file (scorekeeper/serving/offline.py) */
export const SYNC_TAG = FACTS.tag;  /* the Background Sync tag: the page registers, the worker answers */
const MOST = FACTS.most;  /* entries a sync carries (scorekeeper.store.sync.MOST_PENDING) */
const DATABASE = "scorekeeper-offline";
const STORE = "games";
const ANSWER_WITHIN_MS = 20000;  /* then the answer counts as lost: sent again later */
const RETRY = new Set([408, 425, 429, 500, 502, 503, 504]);

let opened = null;

function database() {
  if (!opened) {
    opened = new Promise((resolve, reject) => {
      const opening = indexedDB.open(DATABASE, 1);
      opening.onupgradeneeded = () => opening.result.createObjectStore(STORE, { keyPath: "game" });
      opening.onsuccess = () => {
        const db = opening.result;
        db.onversionchange = () => { db.close(); opened = null; };
        db.onclose = () => { opened = null; };
        resolve(db);
      };
      opening.onerror = () => { opened = null; reject(opening.error); };
    });
  }
  return opened;
}

async function request(mode, work) {
  const db = await database();
  return new Promise((resolve, reject) => {
    const done = db.transaction(STORE, mode);
    let result;
    work(done.objectStore(STORE), (value) => { result = value; });
    done.oncomplete = () => resolve(result);
    done.onerror = () => reject(done.error);
    done.onabort = () => reject(done.error || new Error("aborted"));
  });
}

export function load(game) {
  return request("readonly", (store, answer) => {
    store.get(game).onsuccess = (event) => answer(event.target.result && migrate(event.target.result));
  });
}

export function loadAll() {
  return request("readonly", (store, answer) => {
    store.getAll().onsuccess = (event) => answer(event.target.result.map(migrate));
  });
}

/* Change a game's record in one transaction: `change(state)` gets the record as it is now
 * (undefined: none) and returns the record to keep (the same object, changed), null to drop
 * it, or undefined to leave it as it is. Resolves to the record as kept (undefined: none). */
export function update(game, change) {
  return request("readwrite", (store, answer) => {
    store.get(game).onsuccess = (event) => {
      const found = event.target.result;
      const state = found ? migrate(found) : undefined;
      const changed = change(state);
      if (changed === null) {
        store.delete(game);
        answer(undefined);
      } else if (changed === undefined) {
        answer(state);
      } else {
        store.put(changed);
        answer(changed);
      }
    };
  });
}

export function forget(game) {
  return update(game, () => null);
}

function migrate(state) {  /* (records kept before withdrawals existed) */
  if (!state.withdraw) { state.withdraw = []; }
  if (!state.pending) { state.pending = []; }
  return state;
}

/* Entries from the first on, renumbered after the stored deals: the first on the game's
 * version, each next one after the one before (a player's choice, or a game that changed with
 * no deal of its own changed: a name or notes). Keys never change. */
export function rebase(state) {
  const stored = state.record ? state.record.deals.length : 0;
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

function sameDeals(one, other) {
  return JSON.stringify(one) === JSON.stringify(other);
}

/* Write the server's answer down, on the record as it is now (a save or an undo may have come
 * since the sync went out): stored entries leave by key, withdrawn keys leave, the first one
 * not stored says why. True when another round should go at once. */
function settle(state, answer) {
  let again = false;
  const before = state.record;
  state.version = answer.version;
  state.record = answer.record;
  state.said = [];
  for (const result of answer.results) {
    if (result.outcome === "waiting") { continue; }
    const index = state.pending.findIndex((entry) => entry.key === result.key);
    const undone = state.withdraw.findIndex((entry) => entry.key === result.key);
    if (result.outcome === "withdrawn") {
      if (undone >= 0) { state.withdraw.splice(undone, 1); }
      if (index >= 0) { state.pending.splice(index, 1); }
      continue;
    }
    if (result.outcome === "too-late") {
      if (undone >= 0) { state.withdraw.splice(undone, 1); }
      state.blocked = {
        key: result.key, outcome: "too-late", message: result.message,
        number: result.number, version: result.version, stands: result.stands !== false,
      };
      break;
    }
    if (index < 0) {
      /* not kept here any more: undone on this phone while it was on its way, and stored by
       * the server first; its withdrawal (next round) says so, never "saved" */
      if (undone >= 0) { again = true; }
      continue;
    }
    if (result.outcome === "stored" || result.outcome === "kept") {
      state.pending.splice(index, 1);
      if (result.outcome === "kept" && result.stands === false) { state.said.push(result.message); }
      else { state.said = [result.message]; }
    } else if (result.outcome === "stale" && before && answer.record.deals.length === result.number - 1 &&
               sameDeals(before.deals, answer.record.deals.slice(0, before.deals.length))) {
      /* the game's deals are as this phone knew them, and its own (a name, notes changed) */
      rebase(state);
      again = true;
      break;
    } else {
      /* another phone's deal in its place, a refusal, or the game's deals changed under it
       * (an undo, a correction): nothing is moved without the player's say */
      state.blocked = {
        key: result.key, outcome: result.outcome, message: result.message,
        stored: result.stored || null, same: Boolean(result.same), number: result.number,
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
      body: JSON.stringify({ entries: entries }),
      signal: control.signal,
    });
  } finally {
    clearTimeout(timer);
  }
}

/* Send a game's pending deals (and withdrawals), in order, as many rounds as it takes; one
 * sender at a time for a game: page or service worker (Web Locks, in secure contexts), or
 * this page's senders (a queue of its own, on plain HTTP too). Resolves to what happened:
 * "done" (nothing left to send), "blocked" (the player decides), "stopped" (access code,
 * reload), "gone" (no such game: the phone's copy is dropped), "offline" (no answer: try again
 * later). */
const senders = new Map();

export function send(game) {
  const run = () => sendNow(game);
  if (self.navigator.locks) { return self.navigator.locks.request("scorekeeper-sync " + game, run); }
  const turn = (senders.get(game) || Promise.resolve()).then(run, run);
  senders.set(game, turn.catch(() => {}));
  return turn;
}

/* What goes out in one round, marked as sent in the same transaction. */
function take(state, box) {
  if (!state || state.blocked || state.stopped) { return undefined; }
  const withdrawals = state.withdraw.slice(0, MOST).map(({ key, number }) => ({ key, number, withdraw: true }));
  const deals = state.pending.slice(0, MOST - withdrawals.length);
  if (!withdrawals.length && !deals.length) { return undefined; }
  deals.forEach((entry) => { entry.sent = true; });
  box.entries = [...withdrawals, ...deals.map(sent)];
  return state;
}

function outcomeOf(state) {
  if (!state || (!state.pending.length && !state.withdraw.length)) { return "done"; }
  return state.blocked ? "blocked" : state.stopped ? "stopped" : "offline";
}

async function sendNow(game) {
  for (let round = 0; round < 50; round++) {  /* (each round settles one entry at least) */
    const box = {};
    const state = await update(game, (found) => take(found, box));
    if (!box.entries) { return outcomeOf(state); }
    let response;
    try {
      response = await post(state, box.entries);
    } catch (error) {
      return "offline";
    }
    if (RETRY.has(response.status)) { return "offline"; }
    if (response.status === 404) { await forget(game); return "gone"; }
    if (!response.ok) {  /* a lost access code, an old page's token: the player acts */
      const said = await response.json().catch(() => ({}));
      await update(game, (found) => {
        if (!found) { return undefined; }
        found.stopped = said.access ? "access" : "reload";
        found.said = said.error ? [said.error] : [];
        return found;
      });
      return "stopped";
    }
    const answer = await response.json();
    const waited = state.pending.length + state.withdraw.length;
    let again = false;
    const after = await update(game, (found) => {
      if (!found) { return undefined; }
      again = settle(found, answer);
      return found;
    });
    if (!after || after.blocked || (!after.pending.length && !after.withdraw.length)) { return outcomeOf(after); }
    if (!again && after.pending.length + after.withdraw.length >= waited) { return "offline"; }  /* (no progress) */
  }
  return "offline";
}
