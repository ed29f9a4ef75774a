/* Scorekeeper: a small comfort on top of pages that work without JavaScript.
 *
 * Keep the screen awake while a game is open (Screen Wake Lock API). The lock is released by
 * the browser whenever the page is hidden, so it is asked for again when the page becomes
 * visible. Browsers without the API, or that refuse (battery saver), simply let the screen sleep.
 *
 * (Focus needs no help: a tap's preview updates the deal form around the chips, never the chips
 * the player is on, and swapped-in forms and next steps carry autofocus on their heading.)
 *
 * A module (deferred: it runs once the page is parsed, after htmx).
 */

/* The phone's zone, for the games it begins: their times are then shown where they were
 * played, not in the server's zone (scorekeeper.web.sharing.phone_offset). Minutes east of
 * UTC, as of now (a summer game keeps its summer time). */
document.cookie = "utc_offset=" + String(-new Date().getTimezoneOffset()) +
  "; path=/; max-age=31536000; samesite=lax";

let lock = null;

function onGamePage() {
  return document.querySelector("[data-keep-awake]") !== null;
}

function acquire() {
  if (!("wakeLock" in navigator) || lock !== null || document.visibilityState !== "visible" ||
      !onGamePage()) {
    return;
  }
  navigator.wakeLock.request("screen").then((sentinel) => {
    lock = sentinel;
    sentinel.addEventListener("release", () => {
      if (lock === sentinel) { lock = null; }
    });
  }).catch(() => { lock = null; });
}

function releaseIfLeft() {
  if (lock !== null && !onGamePage()) {
    let held = lock;
    lock = null;
    held.release().catch(() => {});
  }
}

/* A request that does not go through (offline, a timeout, a 429, a 5xx: htmx swaps none of
 * them) is said where the player looks: above Save in a deal form, else at the foot of the
 * screen, in the page's words (#net-error's data attributes). A failed preview trusts the
 * chips: Save is enabled (the server judges the entry again; saves are idempotent) and the
 * preview is sent again when the connection is back, or on the next tap. */
function slotOf(elt) {
  let form = elt.closest("form");
  return (form && form.querySelector(".net-error")) || document.getElementById("net-error");
}

function failed(event) {
  let elt = event.detail.elt, status = event.detail.xhr ? event.detail.xhr.status : 0;
  let words = document.getElementById("net-error"), slot = slotOf(elt);
  let fields = elt.closest("[data-preview]"), why = event.type === "htmx:timeout" ? "timeout"
    : !status ? "offline" : status === 429 ? "busy" : status >= 500 ? "server" : "stale";
  if (!words || elt.closest("[data-quiet]")) { return; }
  /* A save that went wrong may still have been stored (a late answer): the server is asked
   * by the form's key (made when the form opened) what became of it before anything is
   * said. Stored, or another phone's deal in its place, or the game changed: the game page
   * says so (this phone's own save is never called another phone's); else "Not saved"
   * (true: a save sent again with its key is never stored twice). The question unanswered
   * too: only why, and to try again. (The form goes along, its key with it.) */
  if (elt.id === "deal-form" && event.detail.target !== slot) {  /* (not the question's) */
    htmx.ajax("POST", elt.action + "/check", {
      source: elt, target: slot, swap: "outerHTML",
      values: {why: why, entry_key: elt.elements.entry_key.value}
    });
    return;
  }
  if (fields) {  /* a preview's: only why (nothing was being saved) */
    fields = fields.closest("form");
    fields.classList.add("stale");
    fields.querySelector(".save").disabled = false;
    /* what the app filled in could not be recomputed: from now on it counts as tapped, so a
     * save stores exactly the chips on the screen (or says why it cannot) */
    fields.autofilled.value = "";
    fields.querySelectorAll("[data-filled]").forEach((c) => { c.removeAttribute("data-filled"); });
  }
  why = words.getAttribute("data-" + why);
  slot.textContent = fields ? why : words.getAttribute("data-say").replace("{}", why);
  slot.hidden = false;
}

["htmx:sendError", "htmx:timeout", "htmx:responseError"].forEach((name) => {
  document.addEventListener(name, failed);
});
document.addEventListener("htmx:beforeRequest", (event) => {
  let elt = event.detail.elt;
  /* a poll waits while nobody sees the page (a tab behind another, a phone locked): it asks
   * again the moment the page is shown (its visibilitychange trigger) */
  if (elt.hasAttribute("data-poll") && document.visibilityState === "hidden") {
    event.preventDefault();
  /* following other phones waits while this phone has a request out (its own save) */
  } else if (elt.hasAttribute("data-follow") && document.querySelector(".htmx-request")) {
    event.preventDefault();
  } else if (!elt.closest("[data-quiet]")) {
    slotOf(elt).hidden = true;
  }
});
/* following other phones says which deal form this phone has open, if any (its number and
 * key: the server tells a form whose deal was saved meanwhile); hx-include would log an
 * error at every poll of a page with no form open */
function formAsked() {  /* which form a poll would ask about now ("": none) */
  let form = document.getElementById("deal-form");
  return form ? form.elements.entry_key.value : "";
}
document.addEventListener("htmx:configRequest", (event) => {
  let elt = event.detail.elt, form = document.getElementById("deal-form");
  if (!elt.hasAttribute("data-follow")) { return; }
  elt.asked = formAsked();
  if (!form) { return; }
  ["number", "entry_key"].forEach((name) => {
    let field = form.querySelector("[name=" + name + "]");
    if (field) { event.detail.parameters[name] = field.value; }
  });
});
/* An answer about another page than the one shown now (a form opened or closed while the
 * poll was out) would paint the wrong parts (the next step over an open form's header): it
 * is dropped, and asked again about this page once its request is over. */
document.addEventListener("htmx:beforeSwap", (event) => {
  let elt = event.detail.elt;
  if (!elt.hasAttribute("data-follow") || !event.detail.shouldSwap || elt.asked === formAsked()) {
    return;
  }
  event.detail.shouldSwap = false;
  setTimeout(() => {
    if (elt.isConnected) {
      htmx.ajax("GET", elt.getAttribute("hx-get"), {source: elt, target: elt, swap: "outerHTML"});
    }
  }, 0);
});
document.addEventListener("htmx:afterRequest", (event) => {
  let form = event.detail.elt.closest("form.stale");
  if (form && event.detail.successful && event.detail.elt.hasAttribute("data-preview")) {
    form.classList.remove("stale");
  }
});

function resend() {
  document.querySelectorAll("form.stale [data-preview]").forEach((fields) => {
    htmx.trigger(fields, "change");
  });
}
window.addEventListener("online", resend);
/* a tap on a chip already chosen sends nothing by itself */
document.addEventListener("click", (event) => {
  if (event.target.closest("form.stale .chip:not(.more)")) { setTimeout(resend, 0); }
});
/* the chip that shows a count row's higher numbers ("6–13") changes no field: no preview */
document.addEventListener("change", (event) => {
  if (event.target.closest(".chip.more")) { event.stopPropagation(); }
}, true);

/* What only some pages need comes in its own script, fetched when such a page is shown
 * (data-script: a finished game's "Share the result", the new-game page's names); each
 * script runs its work once however often it is fetched. */
function scripts() {
  document.querySelectorAll("[data-script]").forEach((elt) => {
    document.head.appendChild(document.createElement("script")).src = elt.getAttribute("data-script");
  });
}

/* The engine in the phone (static/js/engine.js, a module the page names): on a game page,
 * once it is idle, where WebAssembly and workers run; until it is ready, and without it,
 * taps ask the server. */
let engine = false;
function startEngine() {
  const link = document.querySelector("[data-engine-script]");
  if (engine || !link || typeof WebAssembly !== "object" || !window.Worker) { return; }
  engine = true;
  import(link.getAttribute("data-engine-script")).catch(() => {});  /* (its taps ask the server) */
}
function whenIdle() {
  if (window.requestIdleCallback) { requestIdleCallback(startEngine, {timeout: 3000}); }
  else { setTimeout(startEngine, 1000); }
}

function settled() { releaseIfLeft(); acquire(); scripts(); if (document.readyState === "complete") { whenIdle(); } }
window.addEventListener("load", whenIdle);
document.addEventListener("visibilitychange", acquire);
/* htmx swaps pages in place (hx-boost): look again after each swap. */
document.addEventListener("htmx:afterSettle", settled);
document.addEventListener("sk:shown", scripts);  /* (the game's parts the phone's engine painted) */
settled();  /* (a module: the page is parsed) */
