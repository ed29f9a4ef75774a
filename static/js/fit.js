/* Scorekeeper: names fitted to their boxes (fetched by app.js only for a page whose names have
 * shorter forms: the scoreboard's data-script), so a game page's first load stays small.
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
  fitNames();  /* app.js fetches this file once the page (or a swap) is there */
  if (window.fitReady) { return; }  /* fetched again: already listening */
  window.fitReady = true;
  document.addEventListener("htmx:afterSettle", fitNames);
  document.addEventListener("sk:painted", fitNames);  /* a preview painted in the phone */
  window.addEventListener("resize", fitSoon);
  /* a script's font arrives after the first measure (Devanagari, Arabic): measure again */
  if (document.fonts) { document.fonts.addEventListener("loadingdone", fitSoon); }
}());
