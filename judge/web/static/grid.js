// The results grid, for a laptop's keyboard and a phone's thumb: type "12 2-1" (or "12.2.1" on a
// phone's number pad) and Enter or the Record button; the next pending table is focused (its number
// typed for you). A table that already has another result, or whose players reported something else
// or disagree, shows what is there and asks "replace?" (with a reason, required when a player's
// report is overridden or a dispute settled: the server's 409 says so); Enter or Replace replaces,
// Escape or Keep keeps.
// Ctrl+Z (or the Undo button) undoes this page's last entry. Without JavaScript the form posts.
(function () {
  "use strict";
  var box = document.getElementById("entry");
  if (!box) return;
  var body = document.body;
  var tid = body.getAttribute("data-tid");
  var token = body.getAttribute("data-k");
  var form = document.getElementById("entry-form");
  var say = document.getElementById("entry-said");
  var ask = document.getElementById("entry-ask");
  var why = ask.querySelector(".why");
  var undoButton = document.getElementById("undo");
  var done = [];          // tables this page entered, newest last
  var pending = null;     // {line, needsReason}: an entry waiting for "replace?"
  undoButton.hidden = false;

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
  // "12 2-1", "12 2-1-0", "12.2.1", "12,2,1": the table, then the games (the server reads the same)
  function parse(line) {
    var m = /^\s*(\d+)\D+(\d+)\D+(\d+)(?:\D+(\d+))?\s*$/.exec(line);
    if (!m) return null;
    return { table: parseInt(m[1], 10), slip: m[2] + "-" + m[3] + "-" + (m[4] || "0") };
  }
  function askReplace(line, c) {
    var needs = !!c.needs_reason;
    pending = { line: line, needsReason: needs };
    var what = needs ? c.said.charAt(0).toUpperCase() + c.said.slice(1) + "."
      : "Table " + c.table + " already has " + c.player1 + " " + c.old + " " + c.player2
        + (c.who || c.by ? " (entered by " + (c.who || c.by) + ")" : "") + ".";
    ask.querySelector(".what").textContent = what;
    ask.querySelector(".new").textContent = c.new;
    ask.querySelector(".why-need").textContent = needs ? "(required: it is recorded and listed under the round's overrides)" : "(optional)";
    why.required = needs;
    why.value = "";
    ask.hidden = false;
    tell("table " + c.table + ": not recorded yet — replace or keep?", "warn");
    if (needs) why.focus();
    else ask.querySelector(".yes").focus();
  }
  function keep() {
    ask.hidden = true; pending = null; tell("kept what was there: nothing recorded", ""); box.focus();
  }
  function replace() {
    if (!pending) return;
    var reason = why.value.trim();
    if (pending.needsReason && !reason) { tell("say why before replacing", "bad"); why.focus(); return; }
    ask.hidden = true;
    var line = pending.line;
    pending = null;
    send(line, reason || "replaced at the results grid");
  }
  function send(line, overwriteReason) {
    var e = parse(line);
    if (!e) {  // the example follows the round's format (the input's placeholder: "12 1-0" in a best of one)
      var ex = document.getElementById("entry").placeholder;
      tell("type the table and the result: " + ex + " (or " + ex.replace(/[ -]/g, ".") + ")", "bad"); return;
    }
    var table = e.table, slip = e.slip;
    var row = document.querySelector('#grid tr[data-table="' + table + '"]');
    var data = { table: table, result: slip };
    if (overwriteReason) { data.overwrite = true; data.reason = overwriteReason; }
    post("/results", data).then(function (r) {
      // the server decides what needs asking (judge/tournament/entry.py): a different result already
      // there, or an entry against a player's report or settling a dispute (`needs_reason`)
      if (r.status === 409 && r.body.conflicts) { askReplace(line, r.body.conflicts[0]); return; }
      if (r.status !== 200) { tell(r.body.error || "refused", "bad"); return; }
      var en = r.body.entered[0];
      if (en.status !== "unchanged") { done.push(table); undoButton.disabled = false; }
      tell("Table " + table + ": " + en.player1 + " " + en.result + " " + en.player2 +
           (en.status === "unchanged" ? " (already so)" : en.status === "overwritten" ? " (was " + en.old + ")" : ""), "ok");
      if (row) {
        row.setAttribute("data-status", "confirmed"); row.setAttribute("data-result", en.result); row.className = "confirmed";
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
  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    if (!ask.hidden) { replace(); return; }
    send(box.value, null);
  });
  box.addEventListener("keydown", function (ev) {
    if (!ask.hidden) {
      if (ev.key === "Enter") { ev.preventDefault(); replace(); }
      else if (ev.key === "Escape") { ev.preventDefault(); keep(); }
      return;
    }
    if (ev.key === "z" && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); undo(); }
  });
  ask.addEventListener("keydown", function (ev) {
    if (ev.key === "Enter" && ev.target.tagName !== "BUTTON") { ev.preventDefault(); replace(); }
    else if (ev.key === "Escape") { ev.preventDefault(); keep(); }
  });
  ask.querySelector(".yes").addEventListener("click", replace);
  ask.querySelector(".no").addEventListener("click", keep);
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
