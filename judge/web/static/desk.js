// The judges' desk for one call: each rule picked shows its English and the rulebook's own words;
// the penalty form shows the guide's words for the infraction and its suggestion for this player
// (their earlier penalties in the event counted), picks the suggested penalty, and says when the
// penalty chosen departs from the guide (the desk records the deviation: DESK-11). The rules' and
// the infractions' words are the same on every call page of a ruleset: fetched from `rules_url`
// (judge/web/rules.py; versioned, so the browser keeps it), then shown; until then (or without
// this script) the page says the cited rule's words and its forms work as they are.
(function () {
  "use strict";
  var src = document.getElementById("desk-data");
  if (!src) return;
  var data = JSON.parse(src.textContent);
  data.rules = []; data.infractions = [];
  var el = window.TJBoard ? window.TJBoard.el : function (t, c, x) { var e = document.createElement(t); if (c) e.className = c; if (x != null) e.textContent = x; return e; };
  function find(list, id) { for (var i = 0; i < list.length; i++) if (list[i].id === id) return list[i]; return null; }
  function cite(box, en, quote, extra) {
    box.textContent = "";
    if (en) box.appendChild(el("div", "en", en));
    if (quote) box.appendChild(el("div", "quote", "«" + quote + "»"));
    if (extra) box.appendChild(el("div", "muted", extra));
  }
  function ruleCite(sel) {
    var box = document.getElementById(sel.getAttribute("data-cite"));
    var r = find(data.rules, sel.value);
    if (box) { if (r) cite(box, r.en, r.quote, r.section); else cite(box, "", "", "No rule cited."); }
  }
  var selects = document.querySelectorAll("select[data-cite]"), loaded = [];
  for (var i = 0; i < selects.length; i++) {
    selects[i].addEventListener("change", function (ev) { ruleCite(ev.target); });
  }
  // each box said again once the words are here (the server's words for the cited rule stay till then)
  loaded.push(function () { for (var i = 0; i < selects.length; i++) ruleCite(selects[i]); });
  fetch(data.rules_url, {credentials: "omit"}).then(function (r) {
    if (!r.ok) throw new Error("the rules' words: HTTP " + r.status);
    return r.json();
  }).then(function (words) {
    data.rules = words.rules; data.infractions = words.infractions;
    loaded.forEach(function (f) { f(); });
  }).catch(function () {
    // the words did not come (offline, a server gone): the page stays as the server rendered it,
    // every box its own words, and no unhandled rejection in the console
  });
  var form = document.getElementById("penalty-form");
  if (!form) return;
  var player = form.elements.player, inf = form.elements.infraction, pen = form.elements.penalty;
  var box = document.getElementById("suggestion"), infBox = document.getElementById("infraction-cite");
  function rank(p) { return p === "None" ? -1 : data.ladder.indexOf(p); }
  function suggestion() { var s = data.suggestions[player.value]; return s ? s[inf.value] : null; }
  function show(pick) {
    var i = find(data.infractions, inf.value), s = suggestion();
    if (i) cite(infBox, i.description, i.quote, i.source + (i.confidence !== "published" ? " (" + i.confidence + ")" : ""));
    box.textContent = "";
    if (!player.value) { box.className = "suggest"; box.appendChild(el("span", "muted", "Choose the player: the guide's suggestion for them shows here.")); return; }
    if (!s) return;
    if (pick && s.penalty !== "None") pen.value = s.penalty;
    box.appendChild(el("strong", null, "The guide suggests " + (s.penalty === "None" ? "no penalty" : s.penalty)
      + " (" + player.value + "'s offence no. " + s.offence + " in the event)"));
    var ol = el("ol");
    s.steps.forEach(function (n) { ol.appendChild(el("li", null, data.steps[n])); });
    box.appendChild(ol);
    var conditional = i && i.conditions.some(function (c) { return c.penalty === pen.value; });
    var below = rank(pen.value) < rank(s.floor), above = s.ceiling && rank(pen.value) > rank(s.ceiling);
    var deviates = !conditional && (below || above);
    box.className = "suggest" + (deviates ? " deviates" : "");
    if (deviates) {
      box.appendChild(el("p", "deviation", "Deviation: " + pen.value + " is " + (below ? "below " + s.floor : "above " + s.ceiling)
        + " for this offence; it will be recorded as a deviation (DESK-11)"
        + (below && data.deviation === "never-reduce" ? ": " + data.deviation_quote : ".")));
    }
  }
  player.addEventListener("change", function () { show(true); });
  inf.addEventListener("change", function () { show(true); });
  pen.addEventListener("change", function () { show(false); });
  show(true);
  loaded.push(function () { show(false); });  // the infraction's words; the penalty as the judge left it
})();
