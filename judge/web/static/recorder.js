// The recorder page: a refused line comes back in its box with the cursor on the error's column;
// a typed line keeps the focus in the box (keyboard first), a tapped button does not (a phone's
// keyboard would cover the board); the seat buttons type a prefix into the box.
// The box holds at most what the server takes (its maxlength, the server's MAX_LINE): near the
// limit the note under it counts; a paste the box had to cut is said, and the Record right after
// it sends nothing (a cut line is not sent without the scorekeeper having seen the cut).
(function () {
  "use strict";
  function n(x) { return String(x).replace(/\B(?=(\d{3})+(?!\d))/g, ","); }
  function say(text, alert) {
    var note = document.getElementById("line-limit");
    if (!note) return;
    note.textContent = text;
    note.className = alert ? "flash error" : "muted";
    note.setAttribute("role", alert ? "alert" : "status");
  }
  function count(box) {
    var max = box.maxLength;
    if (box.getAttribute("data-cut")) return;  // the cut's words stay until the box changes
    if (max > 0 && box.value.length >= max) say("the box is full: a line holds at most " + n(max) + " characters", false);
    else if (max > 0 && box.value.length >= max * 0.9) say(n(box.value.length) + " / " + n(max) + " characters", false);
    else say("", false);
  }
  document.addEventListener("paste", function (ev) {
    var box = ev.target;
    if (!box || box.id !== "line" || !(box.maxLength > 0)) return;
    var data = ev.clipboardData || window.clipboardData;
    var pasted = data ? data.getData("text") : "";
    var room = box.maxLength - (box.value.length - (box.selectionEnd - box.selectionStart));
    if (pasted.length <= room) return;
    var whole = box.value.length - (box.selectionEnd - box.selectionStart) + pasted.length;
    window.setTimeout(function () {  // after the box took what it could
      box.setAttribute("data-cut", "1");
      say("The pasted line had " + n(whole) + " characters: cut to " + n(box.maxLength) + " characters (a line " +
          "holds at most " + n(box.maxLength) + "). Look at its end before you record it.", true);
    }, 0);
  });
  document.addEventListener("input", function (ev) {
    if (!ev.target || ev.target.id !== "line") return;
    if (ev.inputType !== "insertFromPaste") ev.target.removeAttribute("data-cut");
    count(ev.target);
  });
  document.addEventListener("htmx:beforeRequest", function (ev) {
    var form = ev.detail && ev.detail.elt;
    var box = document.getElementById("line");
    if (!form || form.id !== "line-form" || !box || !box.getAttribute("data-cut")) return;
    ev.preventDefault();
    box.removeAttribute("data-cut");  // seen: the next Record sends the line as it is now
    say("cut to " + n(box.maxLength) + " characters: nothing was sent. Shorten the line, or Record again to " +
        "send it as it is now.", true);
    box.focus();
  });
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
