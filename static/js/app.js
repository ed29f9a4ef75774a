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

  /* A request that does not go through (offline, a timeout, a 429, a 5xx: htmx swaps none of
   * them) is said where the player looks: above Save in a deal form, else at the foot of the
   * screen, in the page's words (#net-error's data attributes). A failed preview trusts the
   * chips: Save is enabled (the server judges the entry again; saves are idempotent) and the
   * preview is sent again when the connection is back, or on the next tap. */
  function slotOf(elt) {
    var form = elt.closest("form");
    return (form && form.querySelector(".net-error")) || document.getElementById("net-error");
  }

  /* A save that got no answer may still have been stored (a late answer): ask the server
   * what it holds before saying anything. Held: its page says so; else "Not saved" is true
   * (a save sent again is never stored twice). */
  function ask(form, slot, words, reason) {
    var headers = JSON.parse(document.body.getAttribute("hx-headers") || "{}");
    function say(key) {
      slot.textContent = words.getAttribute(key).replace("{}", reason);
      slot.hidden = false;
    }
    headers["HX-Request"] = "true";
    fetch(form.getAttribute("data-check"), {method: "POST", body: new FormData(form),
                                           headers: headers, credentials: "same-origin"})
      .then(function (answer) { if (!answer.ok) { throw answer; } return answer.json(); })
      .then(function (answer) {
        if (answer.go) { location.assign(answer.go); } else { say("data-save"); }
      }).catch(function () { say("data-unsure"); });
  }

  function failed(event) {
    var elt = event.detail.elt, status = event.detail.xhr ? event.detail.xhr.status : 0;
    var words = document.getElementById("net-error"), slot = slotOf(elt);
    var fields = elt.closest("[data-preview]");
    if (!words || elt.closest("[data-quiet]")) { return; }
    var reason = words.getAttribute("data-" + (event.type === "htmx:timeout" ? "timeout"
      : !status ? "offline" : status === 429 ? "busy" : status >= 500 ? "server" : "stale"));
    if (elt.hasAttribute("data-check") && (status === 0 || status >= 429)) {
      ask(elt, slot, words, reason);
      return;
    }
    if (fields) {  /* a preview's: only why (nothing was being saved) */
      fields = fields.closest("form");
      fields.classList.add("stale");
      fields.querySelector(".save").disabled = false;
      /* what the app filled in could not be recomputed: from now on it counts as tapped, so a
       * save stores exactly the chips on the screen (or says why it cannot) */
      fields.autofilled.value = "";
      fields.querySelectorAll("[data-filled]").forEach(function (c) { c.removeAttribute("data-filled"); });
    }
    slot.textContent = fields ? reason
      : words.getAttribute(slot === words ? "data-say" : "data-save").replace("{}", reason);
    slot.hidden = false;
  }

  ["htmx:sendError", "htmx:timeout", "htmx:responseError"].forEach(function (name) {
    document.addEventListener(name, failed);
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    /* following other phones waits while this phone has a request out (its own save) */
    if (elt.hasAttribute("data-follow") && document.querySelector(".htmx-request")) {
      event.preventDefault();
    } else if (!elt.closest("[data-quiet]")) {
      slotOf(elt).hidden = true;
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.detail.elt.closest("form.stale");
    if (form && event.detail.successful && event.detail.elt.hasAttribute("data-preview")) {
      form.classList.remove("stale");
    }
  });

  function resend() {
    document.querySelectorAll("form.stale [data-preview]").forEach(function (fields) {
      htmx.trigger(fields, "change");
    });
  }
  window.addEventListener("online", resend);
  /* a tap on a chip already chosen sends nothing by itself */
  document.addEventListener("click", function (event) {
    if (event.target.closest("form.stale .chip")) { setTimeout(resend, 0); }
  });

  document.addEventListener("visibilitychange", acquire);
  /* htmx swaps pages in place (hx-boost): look again after each swap. */
  document.addEventListener("htmx:afterSettle", function () { releaseIfLeft(); acquire(); });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", acquire);
  } else {
    acquire();
  }

  /* The new-game page: a tapped name ("played here before") goes into the first empty player
   * field at once, without asking the server (which does the same when JavaScript is off). */
  document.addEventListener("click", function (event) {
    var chip = event.target.closest("button[data-name]"), empty;
    if (!chip || !chip.form) { return; }
    empty = Array.prototype.find.call(chip.form.querySelectorAll("input[data-player]"),
                                      function (field) { return !field.value.trim(); });
    if (empty) {
      event.preventDefault();
      empty.value = chip.value;
      chip.hidden = true;
    }
  });
}());
