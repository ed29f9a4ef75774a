/* Scorekeeper: the new-game page's names (fetched by app.js only on that page).
 *
 * A tapped name ("played here before") goes into the first empty player field at once, without
 * asking the server (which does the same when JavaScript is off).
 */
(function () {
  "use strict";
  if (window.namesReady) { return; }  /* fetched again: already at work */
  window.namesReady = true;

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
