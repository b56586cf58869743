// The Ekonos board: draws what the server sends and offers exactly the legal decisions it
// lists (state.legal, Move fields).  No rule is derived here.  The server is the only truth:
// every change arrives on /api/stream (server-sent events) with the whole position.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const CW = 100, CH = 90;                 // a grid cell of the map, in SVG units
let L = null;                            // the layout (/api/layout)
let S = null;                            // the position now (/api/state or a stream message)
let card = null;                         // the card chosen, at the card step
let errorAt = null;                      // the position ("game/version") an error line is about
const $ = (id) => document.getElementById(id);
window.ekonos = { events: [], firstPaint: null, errors: [] };   // read by the browser test

function el(tag, attrs = {}, text = null, ns = null) {
  const e = ns ? document.createElementNS(ns, tag) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== null) e.textContent = text;
  return e;
}
const co = (i) => L.companies[i];
const swatch = (i) => { const s = el("span", { class: "sw" }, co(i).short);
  s.style.background = co(i).fill; s.style.color = co(i).ink; return s; };

// -- talking to the server ---------------------------------------------------------------------
// an error line stays until the position changes (a decision, an undo, a new game: from this
// page, another tab or the AI), never dozens of moves later
function sayError(text) {
  $("error").textContent = text;
  errorAt = text ? `${S.game}/${S.version}` : null;
}
async function post(path, body = {}) {
  sayError("");
  const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
                                body: JSON.stringify(body) });
  const data = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  if (!r.ok) { sayError(data.error || `HTTP ${r.status}`); return null; }
  if (data.state) show(data.state);
  return data;
}
function play(text) {
  $("building").textContent = text;
  return post("/api/move", { move: text, version: S.version });
}

// -- the map -----------------------------------------------------------------------------------
function centre(space) {
  for (let r = 0; r < L.grid.length; r++) {
    const c = L.grid[r].indexOf(space);
    if (c >= 0) return [50 + c * CW, 45 + r * CH];
  }
}
function drawMap(targets) {
  const svg = $("map");
  svg.replaceChildren();
  for (const [a, b] of L.edges) {
    const [x1, y1] = centre(a), [x2, y2] = centre(b);
    svg.append(el("line", { x1, y1, x2, y2, class: "edge" }, null, SVG));
  }
  for (let sp = 1; sp <= 36; sp++) {
    const [x, y] = centre(sp), tile = S.board[sp], move = targets.get(sp);
    const g = el("g", { class: "space" + (move ? " target" : ""), "data-space": sp }, null, SVG);
    const rect = el("rect", { x: x - 36, y: y - 30, width: 72, height: 60, rx: 10 }, null, SVG);
    if (tile) {
      rect.setAttribute("fill", co(tile.company).fill);
      rect.setAttribute("class", tile.protected ? "tile protected" : "tile");
      g.append(rect, el("text", { x, y: y + 9, class: "initials", fill: co(tile.company).ink },
                        co(tile.company).short, SVG));
      if (tile.protected) g.append(el("path", { d: `M${x + 18} ${y - 30}h18v18z`, class: "prot" },
                                      null, SVG));
    } else {
      rect.setAttribute("class", "empty");
      g.append(rect);
    }
    g.append(el("text", { x: x - 31, y: y - 15, class: "num" + (tile ? "" : " dim"),
                          fill: tile ? co(tile.company).ink : "#555" }, String(sp), SVG));
    if (move) {
      g.append(el("title", {}, move.text, SVG));
      g.addEventListener("click", () => play(move.text));
    }
    svg.append(g);
  }
}

// -- the panels --------------------------------------------------------------------------------
function track(g) {
  const t = el("span", { class: "track", title: `growth ${g} of 6` });
  for (let k = 0; k <= 6; k++) {
    t.append(el("i", { class: (k <= g && g > 0 && k > 0 ? "on" : "") + (k === 4 || k === 6 ? " mark" : "") },
                k === 4 || k === 6 ? String(k) : ""));
  }
  return t;
}
function drawMarket(grow) {
  const t = $("market");
  t.replaceChildren();
  const head = el("tr");
  for (const h of ["", "growth 0–6", "tiles ▲prot.", "column", "sell pays", "next", "president"]) head.append(el("th", {}, h));
  t.append(head);
  const exp = S.turn && S.turn.expansion ? S.turn.expansion.company : null;
  for (const m of S.market) {
    const tr = el("tr", { "data-company": m.company });
    const name = el("td"); name.append(swatch(m.company));
    if (m.company === exp) name.append(el("small", {}, " expanding"));
    const g = el("td"); g.append(track(m.growth));
    tr.append(name, g, el("td", { title: `${m.value} tiles, ${m.protected} protected` },
                          m.protected ? `${m.value} ▲${m.protected}` : String(m.value)),
              el("td", {}, `${m.column}/${L.max_shares}`), el("td", {}, m.column ? String(m.column) : "–"),
              el("td", {}, m.next_price === null ? "full" : String(m.next_price)),
              el("td", {}, m.president === null ? "–" : S.names[m.president]));
    const move = grow.get(m.company);
    if (move) { tr.classList.add("target"); tr.title = move.text; tr.addEventListener("click", () => play(move.text)); }
    t.append(tr);
  }
}
function drawPlayers() {
  const t = $("players");
  t.replaceChildren();
  const head = el("tr");
  for (const h of ["", "coins", "cards", "tokens", "score", "shares"]) head.append(el("th", {}, h));
  t.append(head);
  for (const p of S.players) {
    const tr = el("tr", { class: p.seat === S.to_move ? "to-move" : "" });
    const who = (p.seat === S.to_move ? "▶ " : "") + p.name + (p.seat === S.human && p.name !== "You" ? " (you)" : "");
    const shares = el("td", { class: "shares" });
    for (const m of S.market) {
      const k = m.shares[p.seat];
      if (k) { const s = swatch(m.company); s.textContent = `${co(m.company).short} ${k}`; shares.append(s); }
    }
    tr.append(el("td", { class: "pname" }, who), el("td", {}, String(p.coins)), el("td", {}, String(p.cards)),
              el("td", {}, p.token_limit ? `${p.tokens}/${p.token_limit}` : String(p.tokens)),
              el("td", {}, String(p.score)), shares);
    t.append(tr);
  }
}
function drawHand(playable) {
  const h = $("hand");
  h.replaceChildren(el("h2", {}, "Your hand"));
  const row = el("div", { class: "cards" });
  for (const n of S.hand || []) {
    const d = L.deck[n];
    const c = el("button", { class: "card" + (playable.has(n) ? " target" : "") + (n === card ? " chosen" : ""),
                             type: "button", "data-card": n, title: `card ${n}` });
    c.disabled = !playable.has(n);
    const top = el("div", { class: "top" }, co(d.top).name);
    top.style.background = co(d.top).fill; top.style.color = co(d.top).ink;
    const bottom = el("div", { class: "bottom" });
    for (const b of d.bottom) bottom.append(swatch(b));
    c.append(el("div", { class: "no" }, String(n)), top, bottom);
    c.addEventListener("click", () => { card = card === n ? null : n; show(S); });
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
    li.append(el("b", {}, `${d.name}: `), el("code", {}, d.move), el("span", {}, ` — ${d.reason}`));
    ol.append(li);
  }
  ol.scrollTop = ol.scrollHeight;
}
function drawScorepad() {
  const box = $("scorepad");
  box.hidden = !S.scorepad;
  if (!S.scorepad) return;
  const p = S.scorepad, t = el("table");
  const head = el("tr"); head.append(el("th", {}, ""), el("th", {}, "value"));
  S.names.forEach((n) => head.append(el("th", {}, n)));
  t.append(head);
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
  const who = p.winners.map((q) => S.names[q]).join(" and ");
  box.replaceChildren(el("h2", {}, "Final scores"), t,
                      el("p", { class: "verdict" }, p.winners.includes(S.human) ? "You win!" : `${who} win${p.winners.length > 1 ? "" : "s"}.`),
                      reviewOffer());                                  // review.js
}

// -- the decision being built --------------------------------------------------------------------
function label(m) {
  const price = (c) => S.market.find((x) => x.company === c);
  if (m.kind === "sell") return `Sell ${co(m.company).name} (+${price(m.company).sell_pays})`;
  if (m.kind === "buy") return `Buy ${co(m.company).name} (${price(m.company).next_price})`;
  if (m.kind === "successor") return `${S.names[m.seat]} presides`;
  if (m.kind === "grow") return `Grow ${co(m.company).name}`;
  return m.text.charAt(0).toUpperCase() + m.text.slice(1);
}
function decide() {
  const legal = S.legal, spaces = new Map(), grow = new Map(), playable = new Set();
  const q = $("question"), choices = $("choices");
  choices.replaceChildren();
  let building = "";
  if (S.step === "card") {
    for (const m of legal) playable.add(m.card);
    if (card !== null && !playable.has(card)) card = null;
    if (card !== null) {
      building = `play ${card} …`;
      for (const m of legal.filter((x) => x.card === card)) {
        if (m.space !== null) { spaces.set(m.space, { text: m.text }); continue; }
        if (m.kind === "grow") grow.set(m.company, m);
        const b = el("button", { type: "button", class: "choice" }, label(m));
        b.addEventListener("click", () => play(m.text));
        choices.append(b);
      }
    }
  } else {
    for (const m of legal) {
      if (m.space !== null) spaces.set(m.space, { text: m.text });
      const b = el("button", { type: "button", class: "choice " + m.kind }, label(m));
      b.addEventListener("click", () => play(m.text));
      if (m.space === null) choices.append(b);
    }
  }
  q.textContent = question();
  $("building").textContent = building;
  return { spaces, grow, playable };
}
function question() {
  if (S.over) return "The game is over.";
  if (S.to_move !== S.human) {
    const who = S.names[S.to_move];
    return S.thinking !== null ? `${who} is thinking…` : `${who} decides…`;
  }
  const exp = S.turn && S.turn.expansion;
  return {
    "card": card === null ? "Play a card: click one of your cards." : `Card ${card}: click a highlighted space or company, or a button.`,
    "expand-choice": `${exp ? co(exp.company).name : "The company"} may expand now (up to 2 actions) or wait.`,
    "expand": `Expand ${exp ? co(exp.company).name : ""}: click a highlighted space${exp && exp.actions_left !== null ? ` (${exp.actions_left} left)` : ""}, or stop.`,
    "sell": "Sell a share, or pass.",
    "buy": "Buy a share, or pass.",
    "successor": "Choose the next president.",
  }[S.step] || S.step;
}

// -- everything, from S --------------------------------------------------------------------------
function show(state) {
  // messages may cross (a POST's answer after the stream's next news): keep the newest
  if (S && state.game === S.game && state.version < S.version) return;
  if (S && (state.version !== S.version || state.game !== S.game)) { card = null; $("hint").hidden = true; }
  S = state;
  if (errorAt !== null && errorAt !== `${S.game}/${S.version}`) sayError("");
  const { spaces, grow, playable } = decide();
  drawMap(spaces);
  drawMarket(grow);
  drawPlayers();
  drawHand(playable);
  drawLog();
  drawScorepad();
  drawReview();                                                          // review.js
  const who = S.over ? "Game over" : S.to_move === S.human ? "Your decision" : `${S.names[S.to_move]} to decide`;
  $("status").textContent = `Round ${S.round} of ${S.rounds} · ${who}` + (S.autosave_error ? ` · autosave off: ${S.autosave_error}` : "");
  $("undo-btn").disabled = !S.can_undo;
  $("redo-btn").disabled = !S.can_redo;
  $("hint-btn").disabled = S.over || S.to_move !== S.human;
  $("level").value = String(S.level);
  $("text").disabled = S.over || S.to_move !== S.human;
  if (!performance.getEntriesByName("board").length) {  // the board is drawn: time its paint
    performance.mark("board");                             // (a message posted in the next frame
    const ch = new MessageChannel();                       // arrives once it is rendered)
    ch.port1.onmessage = () => { window.ekonos.firstPaint = performance.now(); };
    requestAnimationFrame(() => ch.port2.postMessage(0));
  }
}

async function hint() {
  const box = $("hint");
  box.hidden = false;
  box.replaceChildren(el("p", { class: "note" }, "Thinking about your position…"));
  const data = await post("/api/hint");
  if (!data) { box.hidden = true; return; }
  box.replaceChildren(el("h2", {}, "Hint"));
  for (const m of data.hint.moves) {
    const b = el("button", { type: "button", class: "choice" },
                 `${m.move} — ${m.win === null ? "forced" : Math.round(m.win * 100) + "% win share"}`);
    b.addEventListener("click", () => play(m.move));
    box.append(b);
  }
  if (data.hint.note) box.append(el("p", { class: "note" }, data.hint.note));
}

function listen() {
  const source = new EventSource("/api/stream");
  source.addEventListener("state", (e) => {
    const msg = JSON.parse(e.data);
    window.ekonos.events.push({ t: performance.now(), kind: msg.kind, ply: msg.decision ? msg.decision.ply : null,
                                done: msg.review ? msg.review.done : null, total: msg.review ? msg.review.total : null });
    show(msg.state);
  });
}

function start() {
  // the page carries the layout and the position (cli/web/page.py): draw before anything else
  const boot = JSON.parse($("boot").textContent);
  L = boot.layout;
  show(boot.state);
  const levels = (sel) => { for (const k of Object.keys(L.levels)) sel.append(el("option", { value: k, title: L.levels[k] }, k)); };
  levels($("level")); levels($("new-level"));
  $("level").value = String(S.level);
  listen();
  $("hint-btn").addEventListener("click", hint);
  $("undo-btn").addEventListener("click", () => post("/api/undo"));
  $("redo-btn").addEventListener("click", () => post("/api/redo"));
  $("level").addEventListener("change", (e) => post("/api/level", { level: Number(e.target.value) }));
  $("text-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("text").value.trim();
    if (text) play(text).then((ok) => { if (ok) $("text").value = ""; });
  });
  $("new-btn").addEventListener("click", () => {
    $("new-ai").value = String(S.nplayers - 1); $("new-level").value = String(S.level);
    $("new-dialog").showModal();
  });
  $("new-dialog").addEventListener("close", () => {
    if ($("new-dialog").returnValue === "ok") {
      post("/api/new", { ai: Number($("new-ai").value), level: Number($("new-level").value) });
    }
  });
}
window.addEventListener("error", (e) => window.ekonos.errors.push(String(e.message)));
start();
