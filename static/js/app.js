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

  /* New game: a game that does not allow the chosen mode (Turkish King is solo only) switches
   * to the first mode it allows and disables the others (the page lists each game's modes). */
  function offerModes() {
    var game = document.querySelector('input[name="game"][data-modes]:checked');
    if (game === null) { return; }
    var allowed = game.getAttribute("data-modes").split(" ");
    var modes = document.querySelectorAll('input[name="mode"]');
    for (var i = 0; i < modes.length; i++) {
      var off = allowed.indexOf(modes[i].value) < 0;
      modes[i].disabled = off;
      if (off && modes[i].checked) {
        document.querySelector('input[name="mode"][value="' + allowed[0] + '"]').checked = true;
      }
    }
  }
  document.addEventListener("change", function (event) {
    if (event.target.name === "game") { offerModes(); }
  });
  document.addEventListener("htmx:afterSettle", offerModes);
  offerModes();

  document.addEventListener("visibilitychange", acquire);
  /* htmx swaps pages in place (hx-boost): look again after each swap. */
  document.addEventListener("htmx:afterSettle", function () { releaseIfLeft(); acquire(); });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", acquire);
  } else {
    acquire();
  }
}());
