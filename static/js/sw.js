/* Scorekeeper's service worker (a module, served at the app's root as /sw.js, so that its scope
 * covers every game page; registered by static/js/offline.js once a game page is idle).
 *
 * It keeps, on this phone only:
 * - each game page the phone opened (/g/<token>, a page the server marks "Scorekeeper-Offline"),
 *   under its own address: one game's page is never served for another, a view link's page or
 *   another origin's is never kept. A visit is answered from the copy at once, and the copy is
 *   brought up to date in the background (the page's follow poll shows what changed). The
 *   network comes first when the copy may be out of date: after a write the page heard of
 *   ("dirty": a save, an undo, a redirect carrying a message), in another language, or with a
 *   query. A game that is gone (404) or a browser sent to the access code drops its copies;
 *   deleting a game drops its copy and the deals the phone kept for it.
 * - the files whose address names their content (static files with ?v=, the engine's runtime,
 *   bundle and config, the manifest), kept for good once fetched; the engine's files of an older
 *   release are dropped when the page names the current ones.
 *
 * And it sends the deals the phone kept with no network (static/js/sync.js) when the browser
 * says the network is back (Background Sync's "sync" event), with no page open.
 *
 * Service workers and the Cache API exist only in secure contexts (HTTPS, or this machine):
 * over plain HTTP on a LAN there is none, and the page plays on offline while it stays open.
 */

import { forget as forgetDeals, loadAll, send } from "./static/js/sync.js";

const PAGES = "scorekeeper-pages";
const FILES = "scorekeeper-files";
const ROOT = new URL(self.registration.scope).pathname;  /* "/" (or the app's root) */
const GAME = new RegExp("^" + ROOT.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + "g/[A-Za-z0-9_-]{1,64}$");
const KEPT_FILES = ["static/", "engine/", "manifest/"].map((folder) => ROOT + folder);
const LANGUAGE = ROOT + "?language";  /* (in PAGES: the language the reader chose last) */
const DIRTY = "?dirty";  /* (in PAGES, after a page's address: its copy may be out of date) */
export const SYNC_TAG = "scorekeeper-sync";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("fetch", (event) => {
  const request = event.request, url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  const game = gameOf(url.pathname);
  if (request.method !== "GET") {
    if (game && url.pathname === game + "/delete") { event.respondWith(deleting(request, game)); }
    else if (game && !url.pathname.endsWith("/preview")) {
      event.waitUntil(mark(game));  /* a write: the copy may be out of date */
    }
    return;
  }
  if (request.mode === "navigate") {
    if (url.searchParams.has("lang")) { event.waitUntil(note(LANGUAGE, url.searchParams.get("lang"))); }
    if (GAME.test(url.pathname)) { event.respondWith(page(event, url)); }
    return;
  }
  if (url.search.includes("v=") || url.pathname.startsWith(ROOT + "engine/runtime/") ||
      url.pathname.startsWith(ROOT + "engine/bundle/")) {
    if (KEPT_FILES.some((folder) => url.pathname.startsWith(folder))) { event.respondWith(file(request)); }
  }
});

function gameOf(path) {
  const found = path.match(/^(.*\/g\/[A-Za-z0-9_-]{1,64})(\/|$)/);
  return found && GAME.test(found[1]) ? found[1] : null;
}

/* A game page: the kept copy at once (brought up to date behind it) when it may be shown,
 * else the network (kept for next time), and the copy when there is no network. */
async function page(event, url) {
  const path = url.pathname, cache = await caches.open(PAGES);
  const kept = await cache.match(path, { ignoreVary: true });
  if (kept && !url.search && await fresh(cache, path, kept)) {
    event.waitUntil(refresh(path));
    return kept;
  }
  try {
    const response = await fetch(event.request);
    event.waitUntil(store(path, response.clone()));
    return response;
  } catch (error) {
    return kept || Response.error();
  }
}

async function fresh(cache, path, kept) {
  const [dirty, language] = await Promise.all([cache.match(path + DIRTY), read(LANGUAGE)]);
  return !dirty && (!language || language === kept.headers.get("Content-Language"));
}

function keepable(response) {
  return response.ok && response.type === "basic" && !response.redirected &&
    response.headers.get("Scorekeeper-Offline") === "game";
}

/* Keep a game page the network gave (and forget one it no longer gives). */
async function store(path, response) {
  const cache = await caches.open(PAGES);
  if (keepable(response)) {
    await cache.put(path, response);
    await cache.delete(path + DIRTY);
  } else if (response.status === 404 || response.redirected || response.status === 403) {
    await forgetPages(response.redirected || response.status === 403 ? null : path);
  }
}

async function refresh(path) {
  try {
    await store(path, await fetch(path, { credentials: "same-origin" }));
  } catch (error) { /* no network: the copy stays */ }
}

/* Forget one game's page (or, `path` null, every page: the access code must be entered). */
async function forgetPages(path) {
  const cache = await caches.open(PAGES);
  const keys = path ? [path, path + DIRTY] : (await cache.keys()).map((request) => request.url);
  await Promise.all(keys.map((key) => cache.delete(key)));
}

async function mark(game) {
  const cache = await caches.open(PAGES);
  await cache.put(game + DIRTY, new Response(""));
}

async function note(key, value) {
  await (await caches.open(PAGES)).put(key, new Response(value));
}

async function read(key) {
  const found = await (await caches.open(PAGES)).match(key);
  return found ? found.text() : null;
}

async function deleting(request, game) {
  const response = await fetch(request);
  if (response.ok || response.redirected) {
    await Promise.all([forgetPages(game), forgetDeals(game).catch(() => {})]);
  }
  return response;
}

/* A file whose address names its content: the kept copy, else the network's, kept. */
async function file(request) {
  const cache = await caches.open(FILES);
  const kept = await cache.match(request, { ignoreVary: true });
  if (kept) { return kept; }
  const response = await fetch(request);
  if (response.ok && response.type === "basic") { await cache.put(request, response.clone()); }
  return response;
}

/* What a game page asks (static/js/offline.js):
 * {keep: path, language, files}: keep this page (fetched again: the game changed) and the
 *   engine's files (fetched once; the engine's files of another release dropped);
 * {dirty: path}: a message is on its way to this page (a redirect to it): the network first. */
self.addEventListener("message", (event) => {
  const asked = event.data || {};
  let work = Promise.resolve();
  if (asked.dirty && gameOf(asked.dirty) === asked.dirty) {
    work = mark(asked.dirty);
  } else if (asked.keep && gameOf(asked.keep) === asked.keep) {
    work = Promise.all([note(LANGUAGE, asked.language), refresh(asked.keep), files(asked.files || [])]);
  }
  event.waitUntil(work.then(() => event.ports[0] && event.ports[0].postMessage("done")));
});

async function files(wanted) {
  const cache = await caches.open(FILES);
  const engine = ROOT + "engine/";
  const current = new Set(wanted.map((url) => new URL(url, self.location).href));
  for (const request of await cache.keys()) {
    if (new URL(request.url).pathname.startsWith(engine) && !current.has(request.url) &&
        sameKind(request.url, current)) {
      await cache.delete(request);
    }
  }
  for (const url of current) {
    if (!await cache.match(url)) {
      const response = await fetch(url);
      if (response.ok) { await cache.put(url, response); }
    }
  }
}

/* Another release of a file the page names now: the runtime (another digest), the bundle or
 * the config of the same language. */
function sameKind(url, current) {
  const kind = (address) => new URL(address).pathname.replace(/\/runtime\/[^/]+\//, "/runtime/")
    .replace(/\/bundle\/([a-z]+)-[^/]+$/, "/bundle/$1");
  const mine = kind(url);
  return [...current].some((address) => kind(address) === mine);
}

/* The network is back (Background Sync): send every game's kept deals. */
self.addEventListener("sync", (event) => {
  if (event.tag === SYNC_TAG) {
    event.waitUntil(loadAll().then((games) => Promise.all(games.map((state) => send(state.game)))));
  }
});
