/* Scorekeeper: a small comfort on top of pages that work without JavaScript.
 *
 * Keep the screen awake while a game is open (Screen Wake Lock API). The lock is released by
 * the browser whenever the page is hidden, so it is asked for again when the page becomes
 * visible. Browsers without the API, or that refuse (battery saver), simply let the screen sleep.
 *
 * (Focus needs no help: a tap's preview updates the deal form around the chips, never the chips
 * the player is on, and swapped-in forms and next steps carry autofocus on their heading.)
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

  document.addEventListener("visibilitychange", acquire);
  /* htmx swaps pages in place (hx-boost): look again after each swap. */
  document.addEventListener("htmx:afterSettle", function () { releaseIfLeft(); acquire(); });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", acquire);
  } else {
    acquire();
  }
}());
