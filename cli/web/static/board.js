// The Ekonos board: draws what the server sends and offers exactly the legal decisions it
// lists (state.legal, Move fields).  No rule is derived here.  The server is the only truth:
// every change arrives on /api/stream (server-sent events) with the whole position.
// The map is map.js, the panels panels.js, keyboard and focus keys.js (loaded before this).
"use strict";

const SVG = "http://www.w3.org/2000/svg";
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

// -- the decision being built --------------------------------------------------------------------
function label(m) {
  const price = (c) => S.market.find((x) => x.company === c);
  const exp = S.turn && S.turn.expansion ? S.turn.expansion.company : null;
  const company = m.card !== null ? L.deck[m.card].top : exp;
  if (m.kind === "place") {
    const over = S.board[m.space] ? `, over ${co(S.board[m.space].company).name}'s tile` : "";
    return `Place ${company === null ? "a tile" : co(company).name} on ${m.space}${over}`;
  }
  if (m.kind === "protect") return `Protect ${co(S.board[m.space].company).name}'s tile on ${m.space}`;
  if (m.kind === "sell") return `Sell ${co(m.company).name} (+${price(m.company).sell_pays})`;
  if (m.kind === "buy") return `Buy ${co(m.company).name} (${price(m.company).next_price})`;
  if (m.kind === "successor") return `${S.names[m.seat]} presides`;
  if (m.kind === "grow") return growWords(m);                               // panels.js
  if (m.kind === "pass") return S.step === "sell" ? "Pass (no sale)" : "Pass (no buy)";
  return m.text.charAt(0).toUpperCase() + m.text.slice(1);
}
function choice(m, extra = "") {
  const b = el("button", { type: "button", class: "choice " + m.kind + extra }, label(m));
  keyable(b, `choice:${m.text}`, label(m), () => play(m.text));             // keys.js
  return b;
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
        if (m.space !== null) { spaces.set(m.space, { text: m.text, label: label(m) }); continue; }
        if (m.kind === "grow") grow.set(m.company, m);
        choices.append(choice(m));
      }
    }
  } else {
    for (const m of legal) {
      if (m.space !== null) spaces.set(m.space, { text: m.text, label: label(m) });
      else choices.append(choice(m));
    }
  }
  q.textContent = RB ? boardQuestion() : question();                       // replay.js
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
    "card": card === null ? "Play a card: choose one of your cards." : `Card ${card}: choose a highlighted space, a company's Grow, or a button.`,
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
  rememberFocus();                                                       // keys.js
  if (S && (state.version !== S.version || state.game !== S.game)) { card = null; $("hint").hidden = true; }
  S = boardState(state);                                                 // replay.js
  if (errorAt !== null && errorAt !== `${S.game}/${S.version}`) sayError("");
  const { spaces, grow, playable } = decide();
  drawMap(spaces);                                                       // map.js
  drawSince();
  drawThreats();
  drawMarket(grow);                                                      // panels.js
  drawPlayers();
  drawHand(playable);
  drawLog();
  drawScorepad();
  drawReview();                                                          // review.js
  drawStepper();                                                         // replay.js
  const who = RB ? `Review board: your decision ${RB.pos.index + 1} of ${RB.pos.plies.length} (#${RB.ply})` : S.over ? "Game over"
    : S.to_move === S.human ? "Your decision" : `${S.names[S.to_move]} to decide`;
  $("status").textContent = `Round ${S.round} of ${S.rounds} · ${who}` + (S.autosave_error ? ` · autosave off: ${S.autosave_error}` : "");
  $("undo-btn").disabled = !S.can_undo;
  $("redo-btn").disabled = !S.can_redo;
  $("hint-btn").disabled = Boolean(RB) || S.over || S.to_move !== S.human;
  $("level").value = String(S.level);
  $("text").disabled = Boolean(RB) || S.over || S.to_move !== S.human;
  restoreFocus();
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
  box.replaceChildren(el("h2", {}, data.hint.exact ? "Hint (exact: every line searched to the end)" : "Hint"));
  for (const m of data.hint.moves) {
    const words = `${m.move} — ${m.win === null ? "forced" : Math.round(m.win * 100) + "% win share"}`;
    const b = el("button", { type: "button", class: "choice" }, words);
    keyable(b, `hint:${m.move}`, words, () => play(m.move));              // keys.js
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
  drawHelp();                                                            // keys.js
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
