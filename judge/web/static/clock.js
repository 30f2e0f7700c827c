// The projector clock: counts down every second from the server's end time (corrected by the
// difference between the server's clock and this screen's, measured when the page was rendered).
(function () {
  "use strict";
  function tick() {
    var els = document.querySelectorAll("[data-ends]");
    var skew = parseFloat(document.body.getAttribute("data-skew") || "0");
    for (var i = 0; i < els.length; i++) {
      var left = Math.round((Date.parse(els[i].getAttribute("data-ends")) - (Date.now() + skew)) / 1000);
      var a = Math.abs(left), text = Math.floor(a / 60) + ":" + ("0" + (a % 60)).slice(-2);
      els[i].textContent = left < 0 ? "TIME +" + text : text;
      els[i].classList.toggle("over", left < 0);
    }
  }
  var now = document.body.getAttribute("data-now");
  if (now) document.body.setAttribute("data-skew", String(Date.parse(now) - Date.now()));
  document.body.addEventListener("htmx:afterSwap", tick);
  tick();
  setInterval(tick, 1000);
})();
