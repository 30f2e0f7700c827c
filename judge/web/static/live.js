// Live updates: one EventSource per visible page (server-sent events from /t/{tid}/live, or a
// recorded match's /m/{id}/live). Every
// element with data-topics="a b" and an hx-get is fetched again (htmx trigger "live") when an
// update touches one of its topics. A hidden tab closes its stream (a browser opens only six
// connections to one server, and an organizer keeps many tabs); shown again, it reconnects and,
// if the log moved meanwhile, fetches everything live again.
(function () {
  "use strict";
  var body = document.body;
  var tid = body.getAttribute("data-tid");
  // a page of one recorded match follows that match's stream (data-live); the others their tournament's
  var url = body.getAttribute("data-live") || (tid ? "/t/" + encodeURIComponent(tid) + "/live" : null);
  if (!url || !window.EventSource) return;
  var status = document.getElementById("live-status");
  var source = null;
  function say(text, cls) {
    status = document.getElementById("live-status") || status;
    if (status) { status.textContent = text; status.className = "live " + cls; }
  }
  function refresh(topics) {
    var els = document.querySelectorAll("[data-topics]");
    for (var i = 0; i < els.length; i++) {
      var want = els[i].getAttribute("data-topics").split(" ");
      for (var j = 0; j < want.length; j++) {
        if (topics === null || topics.indexOf(want[j]) >= 0) { htmx.trigger(els[i], "live"); break; }
      }
    }
  }
  function open() {
    if (source) return;
    source = new EventSource(url);
    source.addEventListener("hello", function (ev) {
      var at = JSON.parse(ev.data).position;
      var shown = parseInt(body.getAttribute("data-position") || "0", 10);
      say("live", "on");
      if (at !== shown) { body.setAttribute("data-position", at); refresh(null); }
    });
    source.addEventListener("changed", function (ev) {
      var msg = JSON.parse(ev.data);
      body.setAttribute("data-position", msg.position);
      refresh(msg.topics);
      document.dispatchEvent(new CustomEvent("tj:changed", { detail: msg }));
    });
    source.onerror = function () { say("reconnecting…", "off"); };
  }
  function close() { if (source) { source.close(); source = null; say("paused", "off"); } }
  document.addEventListener("visibilitychange", function () { if (document.hidden) close(); else open(); });
  window.addEventListener("pagehide", close);
  body.addEventListener("htmx:afterSwap", function () { if (source && source.readyState === 1) say("live", "on"); });
  if (!document.hidden) open();
})();
