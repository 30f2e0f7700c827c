// The replay viewer: step through a match event by event (← → keys, Home/End, a slider, jump to a
// turn), the board after each event, findings and judge actions marked on the timeline, a deep link
// to one event (#e41). Live on the server (a stream says when the log moved; the new events are
// fetched); the saved file carries the whole log and needs no server and no network.
(function () {
  "use strict";
  var B = window.TJBoard, el = B.el;
  var holder = document.getElementById("replay-data");
  if (!holder) return;
  var data = JSON.parse(holder.textContent);
  var body = document.body;
  var slider = document.getElementById("step");
  var label = document.getElementById("where");
  var boardEl = document.getElementById("board");
  var logEl = document.getElementById("log");
  var marksEl = document.getElementById("marks");
  var turnSel = document.getElementById("turn");
  var current = -1;
  var follow = true;  // at the last event: a live page stays at the end as events arrive

  function byPosition() {
    var out = {};
    data.findings.forEach(function (f, i) { (out[f.p] = out[f.p] || []).push(f); });
    return out;
  }
  function voided() {
    var v = {};
    (data.voided || []).forEach(function (p) { v[p] = true; });
    return v;
  }
  function indexOfPosition(p) {
    for (var i = 0; i < data.events.length; i++) if (data.events[i].p === p) return i;
    return -1;
  }
  function worst(fs) {
    if (!fs) return "";
    for (var i = 0; i < fs.length; i++) if (fs[i].severity === "error" && !fs[i].void) return "error";
    return fs.some(function (f) { return !f.void; }) ? "warning" : "";
  }

  function buildLog() {
    var fmap = byPosition(), v = voided();
    logEl.textContent = "";
    data.events.forEach(function (e, i) {
      var li = el("li", "ev" + (e.judge ? " judge" : "") + (v[e.p] ? " void" : "") + " " + worst(fmap[e.p]));
      li.id = "e" + e.p;
      var a = el("a", "pos", "#" + e.p);
      a.href = "#e" + e.p;
      li.appendChild(a);
      li.appendChild(el("span", "who", e.seat ? e.seat + ":" : (e.actor === "-" ? "" : e.actor)));
      li.appendChild(el("span", "text", e.text));
      li.appendChild(el("span", "by", e.by + (e.at ? " · " + e.at.slice(11, 19) : "")));
      var fs = fmap[e.p];
      if (fs) {
        var ul = el("ul", "findings");
        fs.forEach(function (f) {
          var fl = el("li", "finding " + f.severity + (f.void ? " void" : ""));
          fl.appendChild(el("strong", null, f.rule + " "));
          fl.appendChild(el("span", null, f.message));
          if (f.en) fl.appendChild(el("div", "en", f.en));
          if (f.quote) {
            var q = el("div", "quote", "«" + f.quote + "»");
            fl.appendChild(q);
          }
          ul.appendChild(fl);
        });
        li.appendChild(ul);
      }
      li.addEventListener("click", function (ev) {
        if (ev.target.tagName === "A") return;  // the link itself changes the hash
        show(i);
      });
      logEl.appendChild(li);
    });
  }
  // The marks on the slider: a mark is MARK px wide, and marks that would touch (on a phone a judge
  // call, its ruling and a correction sit a pixel or two apart) merge into one that says how many
  // events it holds; a tap on it steps through them. Placed in pixels, so built again on a resize.
  var MARK = 8, GAP = 5, marksWidth = -1;  // GAP: room for a judge mark's 2 px outline each side
  function markWidth(count) { return count > 1 ? 8 + 6 * String(count).length : MARK; }
  function buildMarks() {
    var fmap = byPosition(), n = data.events.length, w = marksEl.clientWidth, groups = [], g = null;
    marksWidth = w;
    marksEl.textContent = "";
    data.events.forEach(function (e, i) {
      if (!e.judge && !worst(fmap[e.p])) return;
      var left = (n > 1 ? w * i / (n - 1) : 0) - MARK / 2;
      if (g && left < g.left + markWidth(g.items.length) + GAP) g.items.push(i);
      else groups.push(g = { left: left, items: [i] });
    });
    groups.forEach(function (g) { marksEl.appendChild(mark(g, fmap)); });
  }
  function mark(g, fmap) {
    var es = g.items.map(function (i) { return data.events[i]; });
    var sevs = es.map(function (e) { return worst(fmap[e.p]); });
    var sev = sevs.indexOf("error") >= 0 ? "error" : sevs.indexOf("warning") >= 0 ? "warning" : "judge";
    var many = es.length > 1;
    var m = el("button", "mark " + sev + (es.some(function (e) { return e.judge; }) ? " is-judge" : "") +
               (many ? " many" : ""), many ? String(es.length) : null);
    m.type = "button";
    m.style.left = g.left + "px";
    m.style.width = markWidth(es.length) + "px";
    m.title = es.map(function (e) { return "#" + e.p + " " + e.text; }).join("\n");
    m.setAttribute("aria-label", (many ? es.length + " events: " : "") + m.title);
    m.setAttribute("data-positions", es.map(function (e) { return e.p; }).join(" "));
    m.addEventListener("click", function () {
      var next = g.items.filter(function (i) { return i > current; })[0];  // the next of its events
      show(next !== undefined && current >= g.items[0] ? next : g.items[0]);
    });
    return m;
  }
  function buildTurns() {
    turnSel.textContent = "";
    var first = el("option", null, "jump to a turn…");
    first.value = "";
    turnSel.appendChild(first);
    data.turns.forEach(function (t) {
      var o = el("option", null, "Turn " + t.label + (t.active ? " (" + t.active + ")" : ""));
      o.value = String(t.position);
      turnSel.appendChild(o);
    });
  }
  function rebuild() {
    slider.max = String(Math.max(data.events.length - 1, 0));
    buildLog(); buildMarks(); buildTurns();
  }

  // The current row is brought into view inside the log's own box only: scrollIntoView would
  // also scroll the window, and on a phone (the log under the board) open the page scrolled down.
  function reveal(row) {
    var r = row.getBoundingClientRect(), box = logEl.getBoundingClientRect();
    if (r.top < box.top) logEl.scrollTop += r.top - box.top;
    else if (r.bottom > box.bottom) logEl.scrollTop += Math.min(r.bottom - box.bottom, r.top - box.top);
  }
  // `keepUrl`: the URL is left as it is (a deep link being shown, the page's own first view). The
  // first view must not write "#eN": Chromium scrolls to a fragment the URL has when the page
  // finishes loading, so the page opened scrolled down to that row.
  function show(i, keepUrl) {
    if (!data.events.length) return;
    i = Math.max(0, Math.min(data.events.length - 1, i));
    var e = data.events[i];
    current = i;
    follow = i === data.events.length - 1;
    slider.value = String(i);
    B.render(boardEl, data.boards[i], data.names);
    label.textContent = "event " + e.p + " of " + data.events[data.events.length - 1].p + ": " + e.text;
    var prev = logEl.querySelector(".current");
    if (prev) prev.classList.remove("current");
    var row = document.getElementById("e" + e.p);
    if (row) {
      row.classList.add("current");
      reveal(row);
    }
    body.setAttribute("data-shown", String(e.p));
    if (!keepUrl && location.hash !== "#e" + e.p && history.replaceState) {
      history.replaceState(null, "", "#e" + e.p);
    }
  }
  function fromHash() {
    var m = /^#e(\d+)$/.exec(location.hash);
    if (!m) return false;
    var i = indexOfPosition(parseInt(m[1], 10));
    if (i < 0) return false;
    show(i, true);
    return true;
  }

  slider.addEventListener("input", function () { show(parseInt(slider.value, 10)); });
  document.getElementById("first").addEventListener("click", function () { show(0); });
  document.getElementById("prev").addEventListener("click", function () { show(current - 1); });
  document.getElementById("next").addEventListener("click", function () { show(current + 1); });
  document.getElementById("last").addEventListener("click", function () { show(data.events.length - 1); });
  turnSel.addEventListener("change", function () {
    if (turnSel.value) show(indexOfPosition(parseInt(turnSel.value, 10)));
    turnSel.value = "";
  });
  document.addEventListener("keydown", function (ev) {
    var tag = (ev.target && ev.target.tagName) || "";
    if (tag === "INPUT" && ev.target !== slider || tag === "SELECT" || tag === "TEXTAREA") return;
    if (ev.key === "ArrowLeft") { show(current - 1); ev.preventDefault(); }
    else if (ev.key === "ArrowRight") { show(current + 1); ev.preventDefault(); }
    else if (ev.key === "Home") { show(0); ev.preventDefault(); }
    else if (ev.key === "End") { show(data.events.length - 1); ev.preventDefault(); }
  });
  window.addEventListener("hashchange", fromHash);
  window.addEventListener("resize", function () { if (marksEl.clientWidth !== marksWidth) buildMarks(); });

  rebuild();
  if (!fromHash()) show(data.events.length - 1, true);

  // --- live: the server's stream says the log moved; fetch what is new ------------------------
  var liveUrl = body.getAttribute("data-live"), dataUrl = body.getAttribute("data-url");
  var status = document.getElementById("live-status");
  if (!liveUrl || !dataUrl || !window.EventSource || !window.fetch) return;
  var source = null, busy = false, again = false;
  function say(t, cls) { if (status) { status.textContent = t; status.className = "live " + cls; } }
  function pull() {
    if (busy) { again = true; return; }
    busy = true;
    var from = data.events.length + 1;
    fetch(dataUrl + (dataUrl.indexOf("?") >= 0 ? "&" : "?") + "from=" + from, { credentials: "omit" })
      .then(function (r) { if (!r.ok) throw new Error("HTTP " + r.status); return r.json(); })
      .then(function (d) {
        var k = d.from - 1;
        data.events = data.events.slice(0, k).concat(d.events);
        data.boards = data.boards.slice(0, k).concat(d.boards);
        data.findings = d.findings; data.voided = d.voided; data.names = d.names; data.turns = d.turns;
        data.match = d.match;
        var keep = current, stay = follow;
        rebuild();
        // a page following the end with no "#eN" keeps its URL (no fragment to scroll to at load)
        show(stay ? data.events.length - 1 : keep, !stay || !location.hash);
      })
      .catch(function () { say("reconnecting…", "off"); })
      .then(function () { busy = false; if (again) { again = false; pull(); } });
  }
  function open() {
    if (source) return;
    source = new EventSource(liveUrl);
    source.addEventListener("hello", function (ev) {
      say("live", "on");
      if (JSON.parse(ev.data).position !== data.events[data.events.length - 1].p) pull();
    });
    source.addEventListener("changed", function () { say("live", "on"); pull(); });
    source.onerror = function () { say("reconnecting…", "off"); };
  }
  function close() { if (source) { source.close(); source = null; say("paused", "off"); } }
  document.addEventListener("visibilitychange", function () { if (document.hidden) close(); else open(); });
  window.addEventListener("pagehide", close);
  if (!document.hidden) open();
})();
