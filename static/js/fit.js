/* Scorekeeper: names fitted to their boxes (fetched by app.js only for a page whose names have
 * shorter forms: the scoreboard's data-script), so a game page's first load stays small.
 */
(function () {
  "use strict";

  /* A name in a box that may be too narrow for it (a chip, a score card, a column) comes as its
   * narrowest form, unique among the four; data-forms holds its form at each wider width,
   * widest first (scorekeeper.words.names.all_name_forms). Each box shows the widest form that
   * fits it (the whole name where it fits); the names of one row (a row of chips, the score
   * cards, the preview's list, a table's column) that must be cut are cut alike, to the width
   * the narrowest of them needs, and so are the names alike beside them (one first name):
   * never "عبدالله… العتيبي" beside "عبدالله الراشد العنزي" whole. A box that may wrap (a
   * chip, a score card) holds two lines; any other, one. Each round puts the next width in the boxes still overflowing, then measures
   * them all at once. */
  var ROWS = "ol, ul, thead, tbody, .chips";

  function fits(box) {
    var range = document.createRange(), lines = {}, count = 0, rects, i, line;
    var outer = box.getBoundingClientRect();
    var most = getComputedStyle(box).whiteSpace === "nowrap" ? 1 : 2;
    range.selectNodeContents(box);
    rects = range.getClientRects();
    for (i = 0; i < rects.length; i += 1) {
      /* by a fraction of a pixel too wide: an ellipsis (or a clipped letter) shows then */
      if (rects[i].left < outer.left - 0.05 || rects[i].right > outer.right + 0.05) {
        return false;
      }
      line = Math.round(rects[i].top);
      if (!lines[line]) { lines[line] = true; count += 1; }
    }
    return count <= most;
  }

  function show(box, at) {
    box.skAt = Math.min(at, box.skForms.length - 1);
    box.textContent = box.skForms[box.skAt];
  }

  function fitNames() {
    var boxes = Array.prototype.slice.call(document.querySelectorAll(".nm[data-forms]"));
    var rows = new Map();
    boxes.forEach(function (box) {
      var row = box.parentElement.closest(ROWS) || box;
      if (!box.skForms) {
        box.skForms = JSON.parse(box.getAttribute("data-forms")).concat([box.textContent]);
      }
      show(box, 0);
      if (!rows.has(row)) { rows.set(row, []); }
      rows.get(row).push(box);
    });
    while (boxes.length) {  /* each box: the widest form that fits */
      boxes = boxes.filter(function (box) {
        return box.skAt < box.skForms.length - 1 && !fits(box);
      });
      boxes.forEach(function (box) { show(box, box.skAt + 1); });
    }
    rows.forEach(function (row) {
      /* names alike in a row (one first name: two Abdullahs) are cut alike, or none is: not
       * one whole beside one cut; the cut ones of the row are cut to one width */
      var alike = {}, cut;
      row.forEach(function (box) {
        var first = box.skForms[0].split(" ")[0];
        (alike[first] = alike[first] || []).push(box);
      });
      cut = row.filter(function (box) {
        return box.skAt > 0 || alike[box.skForms[0].split(" ")[0]].some(function (other) {
          return other.skAt > 0;
        });
      });
      var at = Math.max.apply(null, [0].concat(cut.map(function (box) { return box.skAt; })));
      cut.forEach(function (box) { show(box, at); });
    });
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
  document.addEventListener("sk:shown", fitNames);  /* the game's parts painted in the phone */
  window.addEventListener("resize", fitSoon);
  /* a script's font arrives after the first measure (Devanagari, Arabic): measure again */
  if (document.fonts) { document.fonts.addEventListener("loadingdone", fitSoon); }
}());
