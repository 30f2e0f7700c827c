// The board at one moment (judge/replay/board.py's data): per player the counters and each zone's
// cards in runs (code, how many, flags), a card nobody saw as "?", a big face-down pile as a count.
// Every text goes in with textContent: a hostile name or note stays text.
(function (root) {
  "use strict";
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  function cardLabel(code, names) {
    if (!code) return "?";
    var n = names && Object.prototype.hasOwnProperty.call(names, code) ? names[code] : null;
    return n ? code + " " + n : code;
  }
  function result(r) {
    if (!r) return "";
    return "game over: " + (r.winner ? r.winner + " wins" : r.result) + (r.how ? " (" + r.how + ")" : "");
  }
  function render(target, b, names) {
    target.textContent = "";
    if (!b) return;
    var head = el("p", "board-head");
    head.appendChild(el("strong", "turn", b.turn ? "Turn " + b.turn_label : "Before the first turn"));
    if (b.active) head.appendChild(el("span", "active", " · " + b.active + " to play"));
    if (b.phase) head.appendChild(el("span", "phase", " · " + b.phase));
    if (b.result) head.appendChild(el("span", "result", " · " + result(b.result)));
    else if (b.not_decided) head.appendChild(el("span", "result", " · " + b.not_decided));
    target.appendChild(head);
    var grid = el("div", "players");
    b.players.forEach(function (p) {
      var box = el("section", "player" + (p.name === b.active ? " is-active" : ""));
      box.appendChild(el("h3", null, (p.seat ? p.seat + " · " : "") + p.name));
      var counters = Object.keys(p.counters || {});
      if (counters.length) {
        box.appendChild(el("p", "counters", counters.map(function (k) { return k + " " + p.counters[k]; }).join(" · ")));
      }
      var table = el("table", "zones");
      p.zones.forEach(function (z) {
        if (!z.n) return;
        var tr = el("tr");
        tr.setAttribute("data-zone", z.zone);
        tr.appendChild(el("th", null, z.zone));
        tr.appendChild(el("td", "num", String(z.n)));
        var td = el("td", "zone-cards");
        (z.cards || []).forEach(function (run) {
          var flags = run[2] || [];
          var chip = el("span", "chip" + (run[0] ? "" : " unknown") + (flags.length ? " " + flags.join(" ") : ""),
                        cardLabel(run[0], names) + (run[1] > 1 ? " ×" + run[1] : ""));
          if (flags.length) chip.title = flags.join(", ");
          td.appendChild(chip);
        });
        if (!z.cards) td.appendChild(el("span", "muted", "face down"));
        tr.appendChild(td);
        table.appendChild(tr);
      });
      box.appendChild(table);
      grid.appendChild(box);
    });
    target.appendChild(grid);
    if (b.summary && b.summary.length) {
      var ul = el("ul", "summary");
      b.summary.forEach(function (line) { ul.appendChild(el("li", null, line)); });
      target.appendChild(ul);
    }
  }
  // A page may hold boards as <script type="application/json" class="board-data"> followed by
  // an element with data-board: drawn now and after every htmx swap.
  function drawAll() {
    var holders = document.querySelectorAll("[data-board]");
    for (var i = 0; i < holders.length; i++) {
      var src = document.getElementById(holders[i].getAttribute("data-board"));
      if (!src) continue;
      var d = JSON.parse(src.textContent);
      render(holders[i], d.board, d.names);
    }
  }
  root.TJBoard = { render: render, cardLabel: cardLabel, el: el, drawAll: drawAll };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", drawAll);
  else drawAll();
  document.addEventListener("htmx:afterSettle", drawAll);
})(window);
