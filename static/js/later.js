/* Scorekeeper: what only some pages need; app.js fetches this file once, for the first page
 * that names it (data-later), so a game page's first load stays small.
 */
(function () {
  "use strict";

  /* A name in a box that may be too narrow for it (a chip, a score card, a column) comes as its
   * narrowest form, unique among the four; data-forms holds the wider ones, widest first
   * (scorekeeper.words.labels.all_name_forms). Show the widest that fits: each round puts the
   * next narrower form in the boxes still overflowing, then measures them all at once. */
  var ruler = document.createElement("canvas").getContext("2d");
  function tooWide(box) {  /* by a fraction of a pixel too: the ellipsis shows then */
    ruler.font = getComputedStyle(box).font;
    return box.scrollWidth > box.clientWidth ||
      ruler.measureText(box.textContent).width > box.getBoundingClientRect().width + 0.05;
  }
  function fitNames() {
    var boxes = Array.prototype.slice.call(document.querySelectorAll(".nm[data-forms]"));
    boxes.forEach(function (box) {
      if (!box.skForms) {
        box.skForms = JSON.parse(box.getAttribute("data-forms")).concat([box.textContent]);
      }
      box.skAt = 0;
      box.textContent = box.skForms[0];
    });
    while (boxes.length) {
      boxes = boxes.filter(function (box) {
        return box.skAt < box.skForms.length - 1 && tooWide(box);
      });
      boxes.forEach(function (box) { box.textContent = box.skForms[++box.skAt]; });
    }
  }
  var fitting = false;
  function fitSoon() {
    if (!fitting) {
      fitting = true;
      requestAnimationFrame(function () { fitting = false; fitNames(); });
    }
  }
  document.addEventListener("htmx:afterSettle", fitNames);
  window.addEventListener("resize", fitSoon);
  /* a script's font arrives after the first measure (Devanagari, Arabic): measure again */
  if (document.fonts) { document.fonts.addEventListener("loadingdone", fitSoon); }
  fitNames();  /* app.js loads this file once the page is there */

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
