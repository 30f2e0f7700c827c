// The recorder page: a refused line comes back in its box with the cursor on the error's column;
// a typed line keeps the focus in the box (keyboard first), a tapped button does not (a phone's
// keyboard would cover the board); the seat buttons type a prefix into the box.
(function () {
  "use strict";
  function place() {
    var box = document.getElementById("line");
    if (!box) return;
    var col = parseInt(box.getAttribute("data-error-col") || "0", 10);
    if (col > 0) {
      box.focus();
      var at = Math.min(col - 1, box.value.length);
      box.setSelectionRange(at, at);
    } else if (box.getAttribute("data-typed") === "1") {
      box.focus();
    }
  }
  document.addEventListener("click", function (ev) {
    var t = ev.target.closest ? ev.target.closest("[data-fill],[data-clear]") : null;
    if (!t) return;
    var box = document.getElementById("line");
    if (!box) return;
    if (t.hasAttribute("data-clear")) {
      box.value = "";
      var moved = document.getElementById("moved");
      if (moved) moved.remove();
    } else {
      box.value = box.value + t.getAttribute("data-fill");
    }
    box.focus();
    box.setSelectionRange(box.value.length, box.value.length);
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", place);
  else place();
  document.addEventListener("htmx:afterSettle", function (ev) {
    if (ev.target && ev.target.id === "recorder") place();
  });
})();
