// "Copy the link" beside a link shown once (the desk's staff links): the button appears only with
// JavaScript (without it the link is plain text to select). The clipboard API where the page is a
// secure context (localhost, https), else the link is selected and copied the old way; if neither
// works the link is left selected for a long press.
(function () {
  "use strict";
  function show(root) {
    var buttons = (root || document).querySelectorAll("button[data-copy]");
    for (var i = 0; i < buttons.length; i++) buttons[i].hidden = false;
    var hints = (root || document).querySelectorAll(".nojs-hint");
    for (i = 0; i < hints.length; i++) hints[i].hidden = true;
  }
  function select(el) {
    var range = document.createRange();
    range.selectNodeContents(el);
    var sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
  }
  function said(button, text) {
    var out = button.parentNode.querySelector(".copy-said");
    if (out) out.textContent = text;
  }
  document.addEventListener("click", function (ev) {
    var button = ev.target.closest ? ev.target.closest("button[data-copy]") : null;
    if (!button) return;
    var el = document.getElementById(button.getAttribute("data-copy"));
    if (!el) return;
    var text = el.textContent.trim();
    function fallback() {
      select(el);
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
      said(button, ok ? "Copied." : "Selected: copy it with your device's Copy.");
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { select(el); said(button, "Copied."); }, fallback);
    } else { fallback(); }
  });
  document.addEventListener("DOMContentLoaded", function () { show(document); });
  document.addEventListener("htmx:load", function (ev) { show(ev.target); });
})();
