/* Scorekeeper: a small comfort on top of pages that work without JavaScript.
 *
 * Keep the screen awake while a game is open (Screen Wake Lock API). The lock is released by
 * the browser whenever the page is hidden, so it is asked for again when the page becomes
 * visible. Browsers without the API, or that refuse (battery saver), simply let the screen sleep.
 *
 * (Focus needs no help: a tap's preview updates the deal form around the chips, never the chips
 * the player is on, and swapped-in forms and next steps carry autofocus on their heading.)
 *
 * A request that does not go through (no connection, a timeout, a 429 or a 5xx: htmx swaps none
 * of them) is said where the player is looking: above Save for a deal form, else at the foot of
 * the screen; the words come translated in the slot's data attributes. Nothing the player
 * tapped is lost. A deal form whose preview failed trusts its chips: Save is enabled (the save
 * is judged again on the server and is idempotent), and the preview is sent again when the
 * connection comes back or on the next tap.
 */
(function () {
  "use strict";

  var lock = null;

  function onGamePage() {
    return document.querySelector("[data-keep-awake]") !== null;
  }

  function acquire() {
    if (!("wakeLock" in navigator) || lock !== null || document.visibilityState !== "visible" ||
        !onGamePage()) {
      return;
    }
    navigator.wakeLock.request("screen").then(function (sentinel) {
      lock = sentinel;
      sentinel.addEventListener("release", function () {
        if (lock === sentinel) { lock = null; }
      });
    }).catch(function () { lock = null; });
  }

  function releaseIfLeft() {
    if (lock !== null && !onGamePage()) {
      var held = lock;
      lock = null;
      held.release().catch(function () {});
    }
  }

  function slotFor(elt) {
    var form = elt && elt.closest ? elt.closest("form") : null;
    return (form && form.querySelector(".net-error")) || document.getElementById("net-error");
  }

  function say(slot, text) {
    if (!slot) { return; }
    slot.textContent = text || "";
    slot.hidden = !text;
  }

  function previewOf(elt) {
    return elt && elt.closest ? elt.closest("[data-preview]") : null;
  }

  function failed(event) {
    var elt = event.detail.elt;
    if (!elt || (elt.closest && elt.closest("[data-quiet]"))) { return; }
    var xhr = event.detail.xhr;
    var kind = event.type === "htmx:timeout" ? "timeout"
      : event.type === "htmx:sendError" || !xhr || xhr.status === 0 ? "offline"
      : xhr.status === 429 ? "busy" : xhr.status >= 500 ? "server" : "stale";
    var fields = previewOf(elt);
    if (fields) {  /* a tap's preview: the chips stay the truth, Save judges them */
      var form = fields.closest("form");
      form.classList.add("stale");
      var save = form.querySelector(".save");
      if (save) { save.disabled = false; }
      say(slotFor(form), fields.getAttribute("data-" + kind));
      return;
    }
    var slot = slotFor(elt);
    say(slot, slot && (slot.getAttribute("data-" + kind) || slot.getAttribute("data-server")));
  }

  ["htmx:sendError", "htmx:timeout", "htmx:responseError"].forEach(function (name) {
    document.addEventListener(name, failed);
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    /* following other phones waits while this phone has a request out (its own save) */
    if (elt && elt.hasAttribute && elt.hasAttribute("data-follow") &&
        document.querySelector(".htmx-request")) {
      event.preventDefault();
      return;
    }
    if (elt && elt.closest && !elt.closest("[data-quiet]")) { say(slotFor(elt), ""); }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var fields = previewOf(event.detail.elt);
    if (fields && event.detail.successful) { fields.closest("form").classList.remove("stale"); }
  });

  function resend() {
    var forms = document.querySelectorAll("form.stale [data-preview]");
    for (var i = 0; i < forms.length; i++) { htmx.trigger(forms[i], "change"); }
  }
  window.addEventListener("online", resend);
  /* a tap on a chip already chosen changes nothing, so sends nothing: send it for a stale form */
  document.addEventListener("click", function (event) {
    var target = event.target;
    if (target.closest && target.closest("form.stale [data-preview] .chip")) {
      setTimeout(resend, 0);
    }
  });

  document.addEventListener("visibilitychange", acquire);
  /* htmx swaps pages in place (hx-boost): look again after each swap. */
  document.addEventListener("htmx:afterSettle", function () { releaseIfLeft(); acquire(); });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", acquire);
  } else {
    acquire();
  }
}());
