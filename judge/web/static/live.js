// Live updates: one EventSource per page (server-sent events from /t/{tid}/live). Every element
// with data-topics="a b" and an hx-get is fetched again (htmx trigger "live") when an update
// touches one of its topics. After a reconnect, everything live is fetched again if the log moved.
(function () {
  "use strict";
  var body = document.body;
  var tid = body.getAttribute("data-tid");
  if (!tid || !window.EventSource) return;
  var status = document.getElementById("live-status");
  function say(text, cls) { if (status) { status.textContent = text; status.className = "live " + cls; } }
  function refresh(topics) {
    var els = document.querySelectorAll("[data-topics]");
    for (var i = 0; i < els.length; i++) {
      var want = els[i].getAttribute("data-topics").split(" ");
      for (var j = 0; j < want.length; j++) {
        if (topics === null || topics.indexOf(want[j]) >= 0) { htmx.trigger(els[i], "live"); break; }
      }
    }
  }
  var source = new EventSource((body.getAttribute("data-base") || "") + "/t/" + encodeURIComponent(tid) + "/live");
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
})();
