// Live updates: one EventSource per visible page (server-sent events from /t/{tid}/live, or a
// recorded match's /m/{id}/live). Every
// element with data-topics="a b" and an hx-get is fetched again (htmx trigger "live") when an
// update touches one of its topics. A hidden tab closes its stream (a browser opens only six
// connections to one server, and an organizer keeps many tabs); shown again, it reconnects and,
// if the log moved meanwhile, fetches everything live again. A part holding text the user is
// typing waits until it is sent or left empty (`renew`).
//
// The "live" badge (#live-status) is painted from one state kept here, text and colour together,
// again after every htmx swap (a swapped part may bring the server's own copy of it).
// When an answer lacks the part its hx-select swaps in (a refusal, a server error), the page is
// kept and a refusal's message (its role=alert text) is shown by the form or the part; a request that cannot reach the server
// says so there too ("not sent …"), and the badge stops saying "live". TJLive.unreachable is that
// one piece of code, for htmx forms and the scripts that post by fetch (the results grid).
(function () {
  "use strict";
  var body = document.body;
  var NOT_SENT = "not sent: the server cannot be reached — tap again when it is back";
  var badge = { text: "connecting…", cls: "off" };
  var source = null;

  function paint() {
    var els = document.querySelectorAll("#live-status");
    for (var i = 0; i < els.length; i++) { els[i].textContent = badge.text; els[i].className = "live " + badge.cls; }
  }
  function say(text, cls) { badge = { text: text, cls: cls }; paint(); }

  // a message by what was tapped (before its form), one at a time, scrolled into view
  function note(elt, text) {
    var old = document.querySelectorAll(".tj-note");
    for (var i = 0; i < old.length; i++) old[i].remove();
    var anchor = (elt && elt.closest && elt.closest("form")) || elt;
    var p = document.createElement("p");
    p.className = "flash error tj-note";
    p.setAttribute("role", "alert");
    p.textContent = text;
    if (anchor && anchor.parentNode && anchor !== body) anchor.parentNode.insertBefore(p, anchor);
    else (document.querySelector("main") || body).prepend(p);
    p.scrollIntoView({ block: "nearest" });
    return p;
  }
  // the server cannot be reached: the badge says so, `show` tells the user, the stream starts over
  function unreachable(show) {
    say("not live", "off");
    if (show) show(NOT_SENT);
    if (source) { source.close(); source = null; open(); }
  }
  // the server answers again: a "not sent" note is no longer true (QA70 #11: it stayed, under a
  // "live" badge, until the next tap); a refusal's note stays, it says what the server decided
  function clearNotSent() {
    var old = document.querySelectorAll(".tj-note");
    for (var i = 0; i < old.length; i++) if (old[i].textContent === NOT_SENT) old[i].remove();
  }
  window.TJLive = { NOT_SENT: NOT_SENT, unreachable: unreachable, note: note };

  function origin(detail) { return (detail.requestConfig && detail.requestConfig.elt) || detail.elt; }  // what was tapped
  function verb(detail) { return ((detail.requestConfig && detail.requestConfig.verb) || "get").toLowerCase(); }
  body.addEventListener("htmx:sendError", function (ev) {
    var d = ev.detail;
    unreachable(verb(d) === "get" ? null : function (t) { note(origin(d), t); });
  });
  body.addEventListener("htmx:responseError", function (ev) {
    var d = ev.detail, s = d.xhr ? d.xhr.status : 0;
    if (s === 0 || s >= 502) unreachable(verb(d) === "get" ? null : function (t) { note(origin(d), t); });
  });
  // an answer without the part the element swaps in (hx-select) would blank that part: keep the
  // page, and show a form's refusal (the answer's role=alert text) by the form
  body.addEventListener("htmx:beforeSwap", function (ev) {
    var d = ev.detail, xhr = d.xhr;
    var elt = origin(d);
    var holder = elt && elt.closest ? elt.closest("[hx-select]") : null;
    var sel = d.select || (holder && holder.getAttribute("hx-select"));
    if (!sel || !xhr || (xhr.status < 400 && !xhr.getResponseHeader("X-Tablejudge-Refused"))) return;
    var doc = new DOMParser().parseFromString(xhr.responseText || "", "text/html");
    if (doc.querySelector(sel)) return;
    d.shouldSwap = false;
    if (xhr.status >= 502) return;  // the server is not there: htmx:responseError says so (once)
    if (verb(d) === "get" && !xhr.getResponseHeader("X-Tablejudge-Refused")) return;  // a refresh that failed: keep it
    var alert = doc.querySelector("[role=alert]");
    var said = alert ? alert.textContent.trim() : "";
    // the refusal's own sentence closed before ours (QA87: "...leave it out) Nothing was stored.")
    note(elt, alert ? said + (/stored/i.test(said) ? "" : (/[.!?]$/.test(said) ? "" : ".") + " Nothing was stored.")
      : "the server answered " + xhr.status + ": reload the page to see what it has");
  });
  body.addEventListener("htmx:afterSettle", function (ev) {
    paint();
    var d = ev.detail || {};
    if (verb(d) === "get" || !d.target || !d.target.querySelector) return;
    var shown = d.target.matches("[role=alert]") ? d.target : d.target.querySelector("[role=alert]");
    if (shown) shown.scrollIntoView({ block: "nearest" });
  });

  var tid = body.getAttribute("data-tid");
  // a page of one recorded match follows that match's stream (data-live); the others their tournament's
  var url = body.getAttribute("data-live") || (tid ? "/t/" + encodeURIComponent(tid) + "/live" : null);
  // A part the user is typing in is not swapped under them: the swap would close its <details> and
  // lose the half-typed text (a player's appeal while the judge acts at their table sends that
  // table's topic). Its refresh waits while a field there that the user typed in is focused or still
  // holds their text, and runs once they send the form (its answer swaps the part anyway) or leave
  // the field empty.
  var TEXT = /^(textarea|text|search|number|email|tel|url|password)$/;
  var deferred = [];
  body.addEventListener("input", function (ev) { if (TEXT.test(ev.target.type || "")) ev.target.tjTyped = true; });
  function busy(el) {
    var fields = el.querySelectorAll("textarea, input");
    for (var i = 0; i < fields.length; i++) {
      var f = fields[i];
      if (f.tjTyped && (f === document.activeElement || f.value !== f.defaultValue)) return true;
    }
    return false;
  }
  function renew(el) {
    if (!busy(el)) { htmx.trigger(el, "live"); return; }
    if (deferred.indexOf(el) < 0) deferred.push(el);
  }
  function flush() {
    var waiting = deferred;
    deferred = [];
    for (var i = 0; i < waiting.length; i++) if (body.contains(waiting[i])) renew(waiting[i]);  // else swapped meanwhile
  }
  // after the focus has moved (focusout fires before document.activeElement changes)
  body.addEventListener("focusout", function () { if (deferred.length) setTimeout(flush, 0); });
  body.addEventListener("htmx:afterSettle", function () { if (deferred.length) flush(); });
  function refresh(topics) {
    var els = document.querySelectorAll("[data-topics]");
    for (var i = 0; i < els.length; i++) {
      var want = els[i].getAttribute("data-topics").split(" ");
      for (var j = 0; j < want.length; j++) {
        if (topics === null || topics.indexOf(want[j]) >= 0) { renew(els[i]); break; }
      }
    }
  }
  // Silence: the server pings every `ping` seconds when it has nothing to say; a stream quiet for
  // three of them hung without an error (Wi-Fi gone quiet), so the badge says so and it starts over.
  var heard = 0, quietMs = 0, watch = null;
  function hear() { heard = Date.now(); }
  function watchSilence() {
    if (watch) return;
    watch = setInterval(function () {
      if (source && quietMs && Date.now() - heard > quietMs) { say("reconnecting…", "off"); source.close(); source = null; open(); }
    }, 1000);
  }
  function open() {
    if (source || !url || !window.EventSource) return;
    source = new EventSource(url);
    hear();
    source.addEventListener("hello", function (ev) {
      var hello = JSON.parse(ev.data), at = hello.position;
      var shown = parseInt(body.getAttribute("data-position") || "0", 10);
      hear();
      if (hello.ping) { quietMs = hello.ping * 3000; watchSilence(); }
      say("live", "on");
      clearNotSent();
      if (at !== shown) { body.setAttribute("data-position", at); refresh(null); }
    });
    source.addEventListener("ping", hear);
    source.addEventListener("changed", function (ev) {
      hear();
      var msg = JSON.parse(ev.data);
      body.setAttribute("data-position", msg.position);
      refresh(msg.topics);
      document.dispatchEvent(new CustomEvent("tj:changed", { detail: msg }));
    });
    source.onerror = function () { say("reconnecting…", "off"); };
  }
  function close() { if (source) { source.close(); source = null; say("paused", "off"); } }
  paint();
  if (!url || !window.EventSource) return;
  document.addEventListener("visibilitychange", function () { if (document.hidden) close(); else open(); });
  window.addEventListener("pagehide", close);
  if (!document.hidden) open();
})();
