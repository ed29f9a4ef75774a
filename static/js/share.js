/* Scorekeeper: a finished game's "Share the result" (fetched by app.js only on such a page).
 *
 * One tap shares the standings (the text, and a picture of it where the phone shares files)
 * through the phone's share sheet (Web Share API), else copies the text (and says so, or shows
 * it to be copied by hand). The picture is drawn beforehand: a phone may allow a share only
 * right on the tap. The text comes from the page (data-share), in its language and direction.
 */
(function () {
  "use strict";
  if (window.shareResult) { return; }  /* fetched again: already at work */
  window.shareResult = true;

  /* The picture in the page's own colours (light or dark, as the phone shows the page), named
   * after the game (data-file: its name, else which game, and its day). */
  function draw(box) {
    var lines = box.getAttribute("data-share").split("\n"), size = 32, width = 900;
    var canvas = document.createElement("canvas"), pen, rtl = document.documentElement.dir === "rtl";
    var page = getComputedStyle(document.body);
    var accent = getComputedStyle(document.documentElement).getPropertyValue("--accent").trim();
    canvas.width = width;
    canvas.height = size * (2 + 1.6 * lines.length);
    pen = canvas.getContext("2d");
    pen.fillStyle = page.backgroundColor;
    pen.fillRect(0, 0, width, canvas.height);
    pen.direction = rtl ? "rtl" : "ltr";
    lines.forEach(function (line, index) {
      pen.fillStyle = index ? page.color : (accent || page.color);
      pen.font = (index ? "" : "bold ") + size + "px sans-serif";
      pen.fillText(line, rtl ? width - size : size, size * (2 + 1.6 * index));
    });
    canvas.toBlob(function (blob) {
      if (blob) {
        box.picture = new File([blob], box.getAttribute("data-file") || "result.png",
                               {type: "image/png"});
      }
    });
  }

  function prepare(box) {
    box.hidden = false;
    if (navigator.canShare) { draw(box); }
  }

  document.addEventListener("click", function (event) {
    var box = event.target.closest("[data-share] button") && event.target.closest("[data-share]");
    var text, said, data;
    if (!box) { return; }
    text = box.getAttribute("data-share");
    said = box.querySelector(".share-said");
    said.style.whiteSpace = "pre-wrap";  /* the text itself, line by line, if the copy failed */
    data = {text: text};
    function copy() {
      (navigator.clipboard ? navigator.clipboard.writeText(text) : Promise.reject(null)).then(
        function () { said.textContent = box.getAttribute("data-copied"); },
        function () { said.textContent = box.getAttribute("data-failed") + "\n\n" + text; });
    }
    if (box.picture && navigator.canShare({files: [box.picture]})) { data.files = [box.picture]; }
    if (navigator.share) {
      navigator.share(data).catch(function (error) { if (error.name !== "AbortError") { copy(); } });
    } else {
      copy();
    }
  });

  function ready() { document.querySelectorAll("[data-share][hidden]").forEach(prepare); }
  document.addEventListener("htmx:afterSettle", ready);  /* a game finished in place, later */
  ready();
  /* the phone turned dark (or light) while the page was open: the picture follows it */
  if (window.matchMedia) {
    window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", function () {
      if (navigator.canShare) { document.querySelectorAll("[data-share]").forEach(draw); }
    });
  }
}());
