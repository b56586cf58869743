// The review board: a finished game's reviewed decisions one at a time, on the map.  Each step
// is the position just before one of your decisions, replayed by the server
// (GET /api/review/position?ply=N: the same position JSON the live board draws, your view only,
// no decision offered), drawn by the live board's own code with S swapped for it; the move you
// played and the review's better move are outlined on the map, a line says both with their win
// shares and the mark.  The better move's expected line comes on demand (GET /api/review/line).
// Prev/Next, the slider, and ← → Home End on the map step; the marks and the chart's points
// (review.js) open it at their decision.  Uses board.js's helpers; loaded before it.
"use strict";

let RB = null;               // the review board: {ply, pos, line, asked} while it is shown
let LIVE = null;             // the live position, kept while the board shows a reviewed one
let rbAsked = 0;             // the latest position asked for (answers may cross)

async function getJSON(path) {
  const r = await fetch(path);
  const data = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  if (!r.ok) { sayError(data.error || `HTTP ${r.status}`); return null; }   // board.js
  return data;
}

async function openBoard(ply) {
  const asked = ++rbAsked;
  const pos = await getJSON(`/api/review/position?ply=${ply}`);
  if (!pos || asked !== rbAsked) return;
  const live = LIVE || S;
  RB = { ply, pos, line: null, game: live.game };
  reviewing = false;                                                     // review.js
  show(live);
}
function closeBoard() {
  const live = LIVE;
  RB = null; LIVE = null; rbAsked++;
  reviewing = true;
  show(live);
  const b = $("rb-open");
  if (b) b.focus();
}
function stepBoard(to) {
  if (!RB) return;
  const plies = RB.pos.plies, i = Math.max(0, Math.min(plies.length - 1, to));
  if (i !== RB.pos.index) openBoard(plies[i]);
}

// show() (board.js) draws S: while the board is on, S is the reviewed position over the live one
// (the live game's identity and settings kept, nothing to undo or play)
function boardState(live) {
  LIVE = live;
  if (RB && live.game !== RB.game) RB = null;                             // a new game
  if (!RB) return live;
  return Object.assign({}, live, RB.pos.state, { can_undo: false, can_redo: false, thinking: null, error: null });
}

const pctOf = (w) => `${Math.round(w * 100)}%`;
function boardQuestion() {
  const d = RB.pos.review;
  return `Review board: the position before your decision #${d.ply} (round ${d.round}). ` +
         "Step with ← → (Home, End) on the map, the slider or the buttons.";
}
// a move in words ("Place Sunset on 24", board.js's label), its notation as a tooltip
function said(m, text, cls) {
  const words = m ? label(m) : text;
  return el("b", { class: cls, title: text }, words);
}
function moveWords(p) {
  const d = p.review;
  const line = el("p", { class: "rb-words" });
  const played = said(p.played, d.played, "rb-played");
  if (d.played === d.best) {
    line.append("You played ", played, ` (${pctOf(d.win_played)} win share): the review's choice too.`);
    return line;
  }
  line.append("You played ", played, ` (${pctOf(d.win_played)}); better: `, said(p.best, d.best, "rb-best"),
              ` (${pctOf(d.win_best)}): ${d.loss >= 0.05 ? d.loss.toFixed(1) : "under 0.1"} points of win share lost`);
  if (d.mark) {
    const chip = el("span", { class: `chip ${d.mark}` }, `${R.review.signs[d.mark]} ${d.mark}`);
    line.append(" ", chip);
  } else line.append(".");
  return line;
}

function rbButton(id, text, label, action) {
  const b = el("button", { type: "button", id, "data-key": `rb:${id}`, "aria-label": label }, text);
  b.addEventListener("click", action);
  return b;
}

// The bar above the map: where you are, the step controls, the words, the marks, the line.
function drawStepper() {
  const box = $("stepper");
  box.hidden = !RB;
  $("board-panel").classList.toggle("stepping", Boolean(RB));
  $("map").removeAttribute("tabindex");
  $("map").removeAttribute("data-key");
  $("legend").classList.toggle("rb", Boolean(RB));
  if (!RB) { box.replaceChildren(); return; }
  const p = RB.pos, n = p.plies.length, i = p.index;
  $("map").setAttribute("tabindex", "0");
  $("map").setAttribute("data-key", "rb:map");
  const head = el("div", { class: "rb-head" });
  const prev = rbButton("rb-prev", "◀ Prev", "Previous decision", () => stepBoard(i - 1));
  const next = rbButton("rb-next", "Next ▶", "Next decision", () => stepBoard(i + 1));
  prev.disabled = i === 0; next.disabled = i === n - 1;
  const slider = el("input", { type: "range", id: "rb-slider", min: 0, max: n - 1, value: i, step: 1,
                               "data-key": "rb:slider", "aria-label": "Your decision to look at",
                               "aria-valuetext": `your decision ${i + 1} of ${n}, #${p.ply}` });
  slider.addEventListener("change", () => stepBoard(Number(slider.value)));
  const exit = rbButton("rb-exit", "Back to the game", "Leave the review board: back to the game", closeBoard);
  head.append(el("h2", {}, "Review board"), prev, slider, next,
              el("span", { class: "rb-where", title: `your decision ${i + 1} of ${n}: #${p.ply} of the game, round ${p.review.round}` }, `${i + 1} / ${n} · #${p.ply}`), exit);
  box.replaceChildren(head, moveWords(p), marksStrip(p), lineBox());
}

function marksStrip(p) {
  const marked = R.review.decisions.filter((d) => d.mark);
  const row = el("div", { class: "rb-marks" });
  if (!marked.length) { row.append(el("span", { class: "note" }, "No marked decision.")); return row; }
  row.append(el("span", { class: "note" }, "Marks: "));
  for (const d of marked) {
    const b = rbButton(`rb-mark-${d.ply}`, `${R.review.signs[d.mark]} #${d.ply}`,
                       `Decision ${d.ply}, round ${d.round}: ${d.mark}`, () => openBoard(d.ply));
    b.className = `chip ${d.mark}` + (d.ply === p.ply ? " here" : "");
    if (d.ply === p.ply) b.setAttribute("aria-current", "step");
    row.append(b);
  }
  return row;
}

function lineBox() {
  const box = el("div", { class: "rb-line" });
  const p = RB.pos;
  if (p.review.played === p.review.best && !RB.line) return box;
  if (!RB.line) {
    const b = rbButton("rb-line-btn", "Show the better move's expected line", "Show the better move's expected line", showLine);
    box.append(b);
    if (RB.asked) box.append(el("span", { class: "note" }, " searching…"));
    return box;
  }
  const ol = el("ol", { class: "rb-seq" });
  RB.line.line.forEach((x, k) => {
    const li = el("li");
    li.append(el("b", { class: "rb-n" }, `${k + 1}.`), " ", who(x.seat), " ", el("code", {}, x.move));   // panels.js
    if (k + 1 < RB.line.line.length) li.append(el("span", { class: "rb-then", "aria-hidden": "true" }, " →"));
    ol.append(li);
  });
  const more = RB.line.line.length > 1 ? ":" : `; at ${RB.line.iterations} iterations it looked no further than the move:`;
  box.append(el("span", { class: "note" }, "The better move's expected line (the search's most visited line, from your " +
                "view: the others' cards are its guesses; numbered on the map)" + more), ol);
  return box;
}
async function showLine() {
  if (!RB || RB.asked) return;
  const rb = RB;
  rb.asked = true;
  drawStepper();
  const data = await getJSON(`/api/review/line?ply=${rb.ply}`);
  rb.asked = false;
  if (data) rb.line = data;
  if (RB === rb) { show(LIVE); const f = document.querySelector(".rb-seq"); if (f) f.scrollIntoView({ block: "nearest" }); }
}

// On the map (called by drawMap): the played move's space and the better one's, outlined
function drawReviewMoves(svg) {
  if (!RB) return;
  const p = RB.pos, same = p.best && p.best.text === p.played.text;
  const mark = (m, cls, word) => {
    if (!m || m.space === null) return;
    const [x, y] = centre(m.space);                                       // map.js
    const g = el("g", { class: `rb-move ${cls}`, "data-space": m.space }, null, SVG);
    g.append(el("rect", { x: x - 47, y: y - 44, width: 94, height: 88, rx: 12, class: "rb-outline" }, null, SVG),
             el("rect", { x: x - 30, y: y + 34, width: 60, height: 17, rx: 8, class: "rb-tag" }, null, SVG),
             el("text", { x, y: y + 46.5, class: "rb-tag-text" }, word, SVG),
             el("title", {}, `${word === "played" ? "You played" : "Better"}: ${m.text}`, SVG));
    svg.append(g);
  };
  if (same) mark(p.played, "played best", "played");
  else if (p.best && p.best.space !== null && p.best.space === p.played.space) mark(p.played, "played both", "both");
  else { mark(p.best, "best", "better"); mark(p.played, "played", "played"); }
  drawLineOnMap(svg);
}

// The better move's line on the map: a numbered disc in the mover's colour on each space it
// takes (a space taken twice shows its discs side by side)
function drawLineOnMap(svg) {
  if (!RB.line) return;
  const at = new Map();
  RB.line.line.forEach((x, k) => {
    if (x.space === null) return;
    const n = at.get(x.space) || 0, [cx, cy] = centre(x.space);            // map.js
    at.set(x.space, n + 1);
    const g = el("g", { class: "rb-step", "data-space": x.space, "data-step": k + 1 }, null, SVG);
    const dx = cx - 12 + n * 22;
    const disc = el("circle", { cx: dx, cy: cy - 34, r: 11 }, null, SVG);
    disc.style.fill = seatColour(x.seat);                                   // map.js
    g.append(disc, el("text", { x: dx, y: cy - 29.5, class: "rb-step-text" }, String(k + 1), SVG),
             el("title", {}, `${k + 1}. ${x.name}: ${x.move}`, SVG));
    svg.append(g);
  });
}

// ← → Home End on the map (or anywhere in the board panel but the slider) step the board
function boardKeys(ev) {
  if (!RB || ev.target.id === "rb-slider" || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const i = RB.pos.index, to = { ArrowLeft: i - 1, ArrowRight: i + 1, Home: 0, End: RB.pos.plies.length - 1 }[ev.key];
  if (to === undefined) return;
  ev.preventDefault();
  stepBoard(to);
}
document.addEventListener("DOMContentLoaded", () => $("board-panel").addEventListener("keydown", boardKeys));
