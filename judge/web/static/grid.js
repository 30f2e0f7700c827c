// The scorekeeper's results grid, keyboard first: type "12 2-1" and Enter; the next pending table
// is focused (its number typed for you). A table that already has another result shows it and asks
// (Enter replaces, Escape keeps). Ctrl+Z (or the Undo button) undoes this page's last entry.
(function () {
  "use strict";
  var box = document.getElementById("entry");
  if (!box) return;
  var body = document.body;
  var tid = body.getAttribute("data-tid");
  var token = body.getAttribute("data-k");
  var say = document.getElementById("entry-said");
  var ask = document.getElementById("entry-ask");
  var undoButton = document.getElementById("undo");
  var done = [];          // tables this page entered, newest last
  var pending = null;     // an entry waiting for "replace?"

  function post(path, data) {
    return fetch("/api/t/" + encodeURIComponent(tid) + path, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Authorization": "Bearer " + token },
      body: JSON.stringify(data)
    }).then(function (r) { return r.json().then(function (j) { return { status: r.status, body: j }; }); });
  }
  function tell(text, cls) { say.textContent = text; say.className = "said " + (cls || ""); }
  function rows() { return Array.prototype.slice.call(document.querySelectorAll("#grid tr[data-table]")); }
  function focusNext(after) {
    var all = rows(), next = null;
    for (var i = 0; i < all.length; i++) {
      var n = parseInt(all[i].getAttribute("data-table"), 10);
      if (n > after && all[i].getAttribute("data-status") === "pending") { next = all[i]; break; }
    }
    if (!next) { for (i = 0; i < all.length; i++) { if (all[i].getAttribute("data-status") === "pending") { next = all[i]; break; } } }
    all.forEach(function (r) { r.classList.remove("focus"); });
    if (next) {
      next.classList.add("focus");
      next.scrollIntoView({ block: "nearest" });
      box.value = next.getAttribute("data-table") + " ";
    } else { box.value = ""; }
    box.focus();
  }
  function askReplace(line, c) {
    pending = line;
    ask.hidden = false;
    ask.querySelector(".old").textContent = c.player1 + " " + c.old + " " + c.player2 + (c.by ? " (by " + c.by + ")" : "");
    ask.querySelector(".new").textContent = c.new;
    tell("table " + line.trim().split(/\s+/)[0] + " already has a result", "warn");
  }
  function send(line, overwrite) {
    var m = /^\s*(\d+)\s+(\d+-\d+(?:-\d+)?)\s*$/.exec(line);
    if (!m) { tell("type TABLE W-L (e.g. 12 2-1)", "bad"); return; }
    var table = parseInt(m[1], 10);
    var slip = m[2].split("-").length === 2 ? m[2] + "-0" : m[2];
    var row = document.querySelector('#grid tr[data-table="' + table + '"]');
    var old = row ? row.getAttribute("data-result") : "";
    if (!overwrite && old && old !== slip) {  // ask first: the grid already shows the old result
      var names = row.getAttribute("data-players").split("|");
      askReplace(line, { player1: names[0], player2: names[1], old: old, new: slip, by: row.getAttribute("data-by") });
      return;
    }
    var data = { table: table, result: m[2] };
    if (overwrite) { data.overwrite = true; data.reason = "replaced at the results grid"; }
    post("/results", data).then(function (r) {
      if (r.status === 409 && r.body.conflicts) { askReplace(line, r.body.conflicts[0]); return; }  // changed meanwhile
      if (r.status !== 200) { tell(r.body.error || "refused", "bad"); return; }
      var e = r.body.entered[0];
      if (e.status !== "unchanged") { done.push(table); undoButton.disabled = false; }
      tell("table " + table + ": " + e.player1 + " " + e.result + " " + e.player2 +
           (e.status === "unchanged" ? " (already so)" : e.status === "overwritten" ? " (was " + e.old + ")" : ""), "ok");
      if (row) {
        row.setAttribute("data-status", "confirmed"); row.setAttribute("data-result", e.result); row.className = "confirmed";
      }
      focusNext(table);
    }).catch(function () { TJLive.unreachable(function (t) { tell(t, "bad"); }); });  // live.js: the one "not sent"
  }
  function undo() {
    var table = done.pop();
    if (table === undefined) return;
    undoButton.disabled = done.length === 0;
    post("/do/undo_result", { table: table }).then(function (r) {
      tell(r.status === 200 ? r.body.message : (r.body.error || "refused"), r.status === 200 ? "ok" : "bad");
      box.value = table + " ";
      box.focus();
    }).catch(function () { done.push(table); undoButton.disabled = false; TJLive.unreachable(function (t) { tell(t, "bad"); }); });
  }
  box.addEventListener("keydown", function (ev) {
    if (!ask.hidden) {
      if (ev.key === "Enter") { ev.preventDefault(); ask.hidden = true; send(pending, true); pending = null; }
      else if (ev.key === "Escape") { ev.preventDefault(); ask.hidden = true; pending = null; tell("kept the old result", ""); }
      return;
    }
    if (ev.key === "Enter") { ev.preventDefault(); send(box.value, false); }
    else if (ev.key === "z" && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); undo(); }
  });
  ask.querySelector(".yes").addEventListener("click", function () { ask.hidden = true; send(pending, true); pending = null; });
  ask.querySelector(".no").addEventListener("click", function () { ask.hidden = true; pending = null; tell("kept the old result", ""); box.focus(); });
  undoButton.addEventListener("click", undo);
  document.getElementById("grid-wrap").addEventListener("click", function (ev) {
    var row = ev.target.closest("tr[data-table]");
    if (row) { box.value = row.getAttribute("data-table") + " "; box.focus(); }
  });
  document.body.addEventListener("htmx:afterSwap", function () {
    var focused = box.value.split(" ")[0];
    var row = document.querySelector('#grid tr[data-table="' + focused + '"]');
    if (row) row.classList.add("focus");
  });
  focusNext(0);
})();
