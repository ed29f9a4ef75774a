/* Scorekeeper's service worker (a module, served at the app's root as /sw.js, so that its scope
 * covers every game page; registered by static/js/offline.js once a game page is idle).
 *
 * It keeps, on this phone only:
 * - each game page the phone opened (/g/<token>, a page the server marks "Scorekeeper-Offline"),
 *   under its own address: one game's page is never served for another, a view link's page or
 *   another origin's is never kept. While deals wait on the phone, the copy is the page as the
 *   phone last painted it (with them: static/js/offline.js sends it). A visit goes to the
 *   network first, and the copy answers only when the network fails or is slow (a short
 *   timeout), for the game's own address and any address under it (a deal form's: the address
 *   bar may still hold one). A game that is gone (404, 410) or a browser sent to the access
 *   code (403, a redirect) drops its copies at once; deleting a game drops its copy and the
 *   deals the phone kept for it.
 * - the files whose address names their content (static files with ?v=, the engine's runtime,
 *   bundle and config, the manifest) that a game page names (it asks for them to be kept), for
 *   the phone with no network: while the network answers they are left to the browser's HTTP
 *   cache (they are sent "immutable": it answers in a few milliseconds where a kept copy took
 *   more than a hundred on a slow phone), and the kept copy answers only once the network has
 *   failed this worker (a game page's visit with no network: the page's files and the engine's
 *   follow it). The engine's files of an older release are dropped when the page names the
 *   current ones.
 *
 * And it sends the deals the phone kept with no network (static/js/sync.js) when the browser
 * says the network is back (Background Sync's "sync" event), with no page open.
 *
 * Service workers and the Cache API exist only in secure contexts (HTTPS, or this machine):
 * over plain HTTP on a LAN there is none, and the page plays on offline while it stays open.
 */

import { forget as forgetDeals, loadAll, send, SYNC_TAG } from "./static/js/sync.js";

const PAGES = "scorekeeper-pages";
const FILES = "scorekeeper-files";
const ROOT = new URL(self.registration.scope).pathname;  /* "/" (or the app's root) */
const GAME = new RegExp("^" + ROOT.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + "g/[A-Za-z0-9_-]{1,64}$");
const KEPT_FILES = ["static/", "engine/", "manifest/"].map((folder) => ROOT + folder);
const NAVIGATE_WITHIN_MS = 3000;  /* then a kept copy answers, the network's answer kept later */

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("fetch", (event) => {
  const request = event.request, url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  const game = gameOf(url.pathname);
  if (request.method !== "GET") {
    if (game && url.pathname === game + "/delete") { event.respondWith(deleting(request, game)); }
    return;
  }
  if (request.mode === "navigate") {
    if (game) {
      const network = reached(fetch(request));
      /* (kept or forgotten as it comes, even after a slow network lost the race to the copy) */
      event.waitUntil(network.then((response) => (url.pathname === game || gone(response)
        ? store(game, response.clone()) : null)).catch(() => {}));
      event.respondWith(page(network, game));
    }
    return;
  }
  if (unreachable && contentNamed(url)) { event.respondWith(file(request)); }
});

/* Whether the network failed the last request this worker sent for a page (a visit or a
 * refresh of a kept page); the browser's own word (navigator.onLine) is not trusted: "online"
 * says nothing of the server, and an emulated network leaves it stale. */
let unreachable = false;

function reached(sent) {
  sent.then(() => { unreachable = false; }, () => { unreachable = true; });
  return sent;
}

function contentNamed(url) {
  return (url.search.includes("v=") || url.pathname.startsWith(ROOT + "engine/runtime/") ||
    url.pathname.startsWith(ROOT + "engine/bundle/")) &&
    KEPT_FILES.some((folder) => url.pathname.startsWith(folder));
}

function gameOf(path) {
  const found = path.match(/^(.*\/g\/[A-Za-z0-9_-]{1,64})(\/|$)/);
  return found && GAME.test(found[1]) ? found[1] : null;
}

/* A game's address: the network first; the kept copy of the game's page when the network
 * fails, or says nothing within a short time. */
async function page(network, game) {
  const kept = await (await caches.open(PAGES)).match(game, { ignoreVary: true });
  if (!kept) { return network.catch(() => Response.error()); }
  if (self.navigator.onLine === false) { return kept; }
  const late = new Promise((resolve) => { setTimeout(() => resolve(null), NAVIGATE_WITHIN_MS); });
  return Promise.race([network, late]).then((response) => response || kept, () => kept);
}

function gone(response) {
  return [403, 404, 410].includes(response.status) || response.redirected;
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
  } else if (gone(response)) {
    await forgetPages(response.status === 404 || response.status === 410 ? path : null);
  }
}

async function refresh(path) {
  try {
    await store(path, await reached(fetch(path, { credentials: "same-origin" })));
  } catch (error) { /* no network: the copy stays */ }
}

/* Forget one game's page (or, `path` null, every page: the access code must be entered). */
async function forgetPages(path) {
  const cache = await caches.open(PAGES);
  const keys = path ? [path] : (await cache.keys()).map((request) => request.url);
  await Promise.all(keys.map((key) => cache.delete(key)));
}

async function deleting(request, game) {
  const response = await fetch(request);
  if (response.ok || response.redirected) {
    await Promise.all([forgetPages(game), forgetDeals(game).catch(() => {})]);
  }
  return response;
}

/* A file whose address names its content, with no network: the kept copy, else the HTTP
 * cache's (or the network's, if the browser was wrong). */
async function file(request) {
  const kept = await (await caches.open(FILES)).match(request, { ignoreVary: true });
  return kept || fetch(request);
}

/* What a game page asks (static/js/offline.js):
 * {keep: path, files}: keep this page (fetched again: the game changed) and the engine's files
 *   (fetched once; the engine's files of another release dropped);
 * {painted: path, language, html}: keep the page as the phone painted it (deals wait on it). */
self.addEventListener("message", (event) => {
  const asked = event.data || {};
  let work = Promise.resolve();
  if (asked.keep && gameOf(asked.keep) === asked.keep) {
    work = Promise.all([refresh(asked.keep), files(asked.files || [])]);
  } else if (asked.painted && gameOf(asked.painted) === asked.painted && typeof asked.html === "string") {
    work = caches.open(PAGES).then((cache) => cache.put(asked.painted, new Response(asked.html, {
      headers: {
        "Content-Type": "text/html; charset=utf-8", "Content-Language": String(asked.language || ""),
        "Scorekeeper-Offline": "game", "Cache-Control": "no-store",
      },
    })));
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
