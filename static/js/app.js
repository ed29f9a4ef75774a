/* Scorekeeper: small comforts on top of pages that work without JavaScript.
 *
 * 1. Keep focus where it was when htmx replaces a form (each tap on a chip re-renders the deal
 *    form): the chip with the same name and value gets focus back, so a keyboard user can go on
 *    with the arrow keys and Tab instead of starting again from the top of the page.
 *
 * 2. Keep the screen awake while a game is open (Screen Wake Lock API). The lock is released by
 * the browser whenever the page is hidden, so it is asked for again when the page becomes
 * visible. Browsers without the API, or that refuse (battery saver), simply let the screen sleep.
 */
(function () {
  "use strict";

  var lock = null;
  var refocus = null;

  document.addEventListener("htmx:beforeSwap", function (event) {
    var active = document.activeElement;
    var target = event.detail.target;
    refocus = null;
    if (active && active.name && target && target.contains(active)) {
      refocus = {name: active.name, value: active.value,
                 valued: active.type === "radio" || active.type === "checkbox"};
    }
  });

  document.addEventListener("htmx:afterSwap", function () {
    if (refocus === null) { return; }
    var wanted = refocus;
    refocus = null;
    var candidates = document.getElementsByName(wanted.name);
    for (var i = 0; i < candidates.length; i++) {
      var element = candidates[i];
      if (!wanted.valued || element.value === wanted.value) {
        if (document.activeElement !== element) { element.focus({preventScroll: true}); }
        return;
      }
    }
  });

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
