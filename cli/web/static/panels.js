// The panels beside the map: the companies (grow rows), the players (their colours, the
// coming expansions each decides), your hand (cards named in words), the decisions, the
// scorepad.  Uses board.js's helpers; loaded before it.
"use strict";

// a player's name in their colour (a dot before it)
function who(q) {
  const s = el("span", { class: "who-name" });
  const dot = el("i", { class: "seat-dot", "aria-hidden": "true" });
  dot.style.background = seatColour(q);                                   // map.js
  s.append(dot, S.names[q] + (q === S.human && S.names[q] !== "You" ? " (you)" : ""));
  return s;
}
// a column head or a word with its rule as a tooltip (keys.js: termLink)
function head(tr, words) {
  for (const h of words) { const th = el("th", { scope: "col" }); th.append(termLink(h)); tr.append(th); }
}

function track(g) {
  const words = `growth ${g} of 6 (reaching 4 the president may expand, reaching 6 must: R11)`;
  const t = el("span", { class: "track", role: "img", "aria-label": words, title: words });
  for (let k = 1; k <= 6; k++) {
    t.append(el("i", { class: (k <= g ? "on" : "") + (k === 4 || k === 6 ? " mark" : "") },
                k === 4 || k === 6 ? String(k) : ""));
  }
  return t;
}
function growWords(m) {
  const g = S.market.find((x) => x.company === m.company).growth, next = g + 1;
  const then = next === 4 ? ", may expand" : next === 6 ? ", must expand" : "";
  return `Grow ${co(m.company).name} (${g}→${next}${then})`;
}
function drawMarket(grow) {
  const t = $("market");
  t.replaceChildren();
  const tr0 = el("tr");
  tr0.append(el("th", { scope: "col" }, "company"));
  head(tr0, ["growth", "tiles", "column", "sell pays", "next", "president"]);
  t.append(tr0);
  const exp = S.turn && S.turn.expansion ? S.turn.expansion.company : null;
  for (const m of S.market) {
    const tr = el("tr", { "data-company": m.company });
    const name = el("td"), move = grow.get(m.company);
    if (move) {                       // a grow row: a real button, reached by Tab
      const b = el("button", { type: "button", class: "grow-btn" });
      b.append(swatch(m.company), " Grow");
      keyable(b, `grow:${m.company}`, growWords(move), () => play(move.text));
      name.append(b);
      tr.classList.add("target");
      tr.addEventListener("click", (e) => { if (!b.contains(e.target)) play(move.text); });
    } else name.append(swatch(m.company));
    if (m.company === exp) name.append(el("small", {}, " expanding"));
    if (S.threats.some((x) => x.company === m.company)) name.append(el("small", { class: "warn" }, " ⚠"));
    const g = el("td"); g.append(track(m.growth));
    tr.append(name, g, el("td", { title: `${m.value} tiles, ${m.protected} protected` },
                          m.protected ? `${m.value} ▲${m.protected}` : String(m.value)),
              el("td", {}, `${m.column}/${L.max_shares}`), el("td", {}, m.column ? String(m.column) : "–"),
              el("td", {}, m.next_price === null ? "full" : String(m.next_price)), el("td"));
    if (m.president !== null) tr.lastChild.append(who(m.president)); else tr.lastChild.textContent = "–";
    t.append(tr);
  }
}
function drawPlayers() {
  const t = $("players");
  t.replaceChildren();
  const tr0 = el("tr");
  tr0.append(el("th", { scope: "col" }, "player"));
  head(tr0, ["coins", "cards", "tokens", "score", "shares", "expansions"]);
  t.append(tr0);
  for (const p of S.players) {
    const tr = el("tr", { class: p.seat === S.to_move ? "to-move" : "" });
    const name = el("td", { class: "pname" });
    if (p.seat === S.to_move) name.append("▶ ");
    name.append(who(p.seat));
    const shares = el("td", { class: "shares" });
    for (const m of S.market) {
      const k = m.shares[p.seat];
      if (k) { const s = swatch(m.company); s.textContent = `${co(m.company).short} ${k}`; shares.append(s); }
    }
    const decides = el("td", { class: "decides" });      // the coming expansions this player decides
    for (const x of S.threats.filter((x) => x.decider === p.seat)) {
      const s = swatch(x.company);
      s.textContent = `${co(x.company).short} ${x.growth}/6`;
      s.title = `${p.name} decides ${co(x.company).name}'s coming expansion: ${threatWords(x).where}`;
      decides.append(s);
    }
    tr.append(name, el("td", {}, String(p.coins)), el("td", {}, String(p.cards)),
              el("td", {}, p.token_limit ? `${p.tokens}/${p.token_limit}` : String(p.tokens)),
              el("td", {}, String(p.score)), shares, decides);
    t.append(tr);
  }
}
function cardWords(n) {
  const d = L.deck[n];
  return `Card ${n}: top ${co(d.top).name}, bottom ${d.bottom.map((b) => co(b).name).join(" and ")}`;
}
function drawHand(playable) {
  const h = $("hand");
  h.replaceChildren(el("h2", {}, "Your hand"));
  const row = el("div", { class: "cards" });
  for (const n of S.hand || []) {
    const d = L.deck[n];
    const c = el("button", { class: "card" + (playable.has(n) ? " target" : "") + (n === card ? " chosen" : ""),
                             type: "button", "data-card": n, "aria-pressed": String(n === card),
                             title: `${cardWords(n)}. Top: place or protect; bottom: grow one.` });
    c.disabled = !playable.has(n);
    const top = el("div", { class: "top" }, co(d.top).name);
    top.style.background = co(d.top).fill; top.style.color = co(d.top).ink;
    const bottom = el("div", { class: "bottom" });
    for (const b of d.bottom) bottom.append(swatch(b));
    c.append(el("div", { class: "no" }, String(n)), top, bottom);
    keyable(c, `card:${n}`, cardWords(n), () => { card = card === n ? null : n; show(S); if (card !== null) toTargets(); });
    row.append(c);
  }
  if (!(S.hand || []).length) row.append(el("p", { class: "note" }, "no cards"));
  h.append(row);
}
function drawLog() {
  const ol = $("log");
  ol.replaceChildren();
  for (const d of S.log.slice(-60)) {
    const li = el("li", { class: d.seat === S.human ? "mine" : "ai", value: d.ply });
    const b = el("b"); b.append(who(d.seat), ": ");
    li.append(b, el("code", {}, d.move), el("span", {}, ` — ${d.reason}`));
    ol.append(li);
  }
  ol.scrollTop = ol.scrollHeight;
}
function drawScorepad() {
  const box = $("scorepad");
  box.hidden = !S.scorepad;
  if (!S.scorepad) return;
  const p = S.scorepad, t = el("table");
  const tr0 = el("tr"); tr0.append(el("th", { scope: "col" }, "company"), el("th", { scope: "col" }, "value"));
  S.names.forEach((n, q) => { const th = el("th", { scope: "col" }); th.append(who(q)); tr0.append(th); });
  t.append(tr0);
  for (const c of p.companies) {
    const tr = el("tr"), name = el("td"); name.append(swatch(c.company));
    tr.append(name, el("td", {}, String(c.value)));
    c.shares.forEach((k) => tr.append(el("td", {}, k ? `${k}×${c.value} = ${k * c.value}` : "–")));
    t.append(tr);
  }
  const coins = el("tr"); coins.append(el("td", {}, "coins"), el("td"));
  p.coins.forEach((k) => coins.append(el("td", {}, String(k))));
  const tot = el("tr", { class: "total" }); tot.append(el("td", {}, "total"), el("td"));
  p.totals.forEach((k, q) => tot.append(el("td", { class: p.winners.includes(q) ? "win" : "" }, String(k))));
  t.append(coins, tot);
  const names = p.winners.map((q) => S.names[q]).join(" and ");
  box.replaceChildren(el("h2", {}, "Final scores"), t,
                      el("p", { class: "verdict" }, p.winners.includes(S.human) ? "You win!" : `${names} win${p.winners.length > 1 ? "" : "s"}.`),
                      reviewOffer());                                  // review.js
}
