// The review of a finished game (cli/web/review.py runs search/review.py): offered under the
// scorepad, its progress streamed, then drawn in place of the map: the accuracy, a chart of the
// win share at each of your decisions (SVG) and the marked decisions.  Uses board.js's helpers
// (el, $, SVG, S, show, post); loaded before it.
"use strict";

let R = null;                // the review (GET /api/review) once loaded
let reviewing = false;       // the board panel shows the review instead of the map
let loading = null;          // the key of the review being fetched
const pct = (w) => `${Math.round(w * 100)}%`;
const marks = (m, k) => (k === 1 ? m : m === "inaccuracy" ? "inaccuracies" : m + "s");

// Under the scorepad: the offer, the progress while the search runs, or the way to the review.
function reviewOffer() {
  const rv = S.review, box = el("div", { id: "review-offer" });
  if (rv && rv.status === "running") {
    box.append(el("span", {}, "Reviewing your decisions "),
               el("progress", { max: rv.total, value: rv.done }),
               el("span", { class: "count" }, ` ${rv.done} / ${rv.total}`));
  } else if (rv && rv.status === "done") {
    const b = el("button", { type: "button", id: "review-btn" }, reviewing ? "Show the board" : "Show the review");
    b.addEventListener("click", () => { reviewing = !reviewing; show(LIVE || S); });
    box.append(b);
  } else {
    const mine = S.log.filter((d) => d.seat === S.human).length;
    if (!mine) return box;                                 // nothing of yours to review
    const b = el("button", { type: "button", id: "review-btn", class: "primary" }, "Review your game");
    b.addEventListener("click", () => { reviewing = true; post("/api/review"); });
    box.append(b, el("span", { class: "note" }, ` where it was won and lost: your ${mine} decisions searched again`));
    if (rv && rv.error) box.append(el("p", { class: "error" }, rv.error));
  }
  return box;
}

// The board panel: the review in place of the map while `reviewing`.
function drawReview() {
  const rv = S.over ? S.review : null;
  if (!S.over) reviewing = false;
  if (rv && rv.status === "done" && (!R || R.key !== rv.key) && loading !== rv.key) {
    loading = rv.key;
    fetch("/api/review").then((r) => r.json()).then((data) => {
      loading = null;
      if (data.status === "done") { R = data; reviewing = true; show(LIVE || S); }
    });
  }
  const on = Boolean(reviewing && rv && R && R.key === rv.key);
  const box = $("review");
  $("board-panel").classList.toggle("reviewing", on);
  box.hidden = !on;
  if (!on || box.dataset.key === R.key) return;          // drawn already
  box.dataset.key = R.key;
  const data = R.review, back = el("button", { type: "button" }, "Show the board");
  back.addEventListener("click", () => { reviewing = false; show(LIVE || S); });
  const open = el("button", { type: "button", id: "rb-open", class: "primary", "data-key": "rb:open" }, "Step through the game");
  open.disabled = !data.decisions.length;
  open.addEventListener("click", () => openBoard(data.decisions[0].ply));            // replay.js
  const head = el("div", { class: "review-head" });
  head.append(el("h2", {}, "Review of your game"), el("span", { class: "grow" }), open, back);
  const width = Math.max(300, Math.min(900, $("board-panel").clientWidth - 24));
  box.replaceChildren(head, accuracy(data), chart(data, width), legend(), marksTable(data), about(data));
}

function accuracy(data) {
  const box = el("div", { class: "accuracy" });
  for (const s of data.summary) {
    const row = el("div");
    const whose = s.seat === S.human ? "your" : `${s.name}'s`;
    row.append(el("b", { class: "acc" }, s.accuracy === null ? "–" : `${Math.round(s.accuracy)}%`),
               el("span", {}, ` accuracy over ${whose} ${s.decisions} decisions `));
    if (s.decided && s.open_accuracy !== null) {    // a decided game flatters the accuracy: say so
      row.append(el("span", { class: "open-acc" },
        `(${Math.round(s.open_accuracy)}% over the ${s.decisions - s.decided} before the game was decided) `));
    }
    for (const m of ["inaccuracy", "mistake", "blunder"]) {
      row.append(el("span", { class: `chip ${m}${s[m] ? "" : " none"}` }, `${s[m]} ${marks(m, s[m])} ${data.signs[m]}`));
    }
    box.append(row);
  }
  return box;
}

// x: the reviewed decisions in order (then the result); y: the win share, 0-100%.  The line is
// the win share with the best move; a marked decision drops to the move played, a dot there.
function chart(data, W) {
  const seat = data.seats[0], ds = data.decisions.filter((d) => d.seat === seat);
  const H = Math.round(Math.min(260, Math.max(190, W * 0.36))), x0 = 38, x1 = W - 30, y0 = 22, y1 = H - 22;
  const n = Math.max(ds.length, 1);
  const X = (i) => x0 + (i + 0.5) * (x1 - x0) / (n + 1), Y = (w) => y1 - w * (y1 - y0);
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img",
                          "aria-label": "Your win share at each decision" }, null, SVG);
  for (let i = 0, band = 0; i < ds.length; band++) {       // the rounds, shaded in turn
    let j = i;
    while (j < ds.length && ds[j].round === ds[i].round) j++;
    const a = X(i) - (x1 - x0) / (n + 1) / 2, b = X(j - 1) + (x1 - x0) / (n + 1) / 2;
    svg.append(el("rect", { x: a, y: y0, width: b - a, height: y1 - y0, class: band % 2 ? "band odd" : "band" }, null, SVG),
               el("text", { x: (a + b) / 2, y: y0 - 7, class: "round" }, (b - a > 44 || band === 0 ? "round " : "") + ds[i].round, SVG));
    i = j;
  }
  for (const v of [0, 0.25, 0.5, 0.75, 1]) {
    svg.append(el("line", { x1: x0, x2: x1, y1: Y(v), y2: Y(v), class: v === 0.5 ? "grid half" : "grid" }, null, SVG),
               el("text", { x: x0 - 5, y: Y(v) + 4, class: "axis" }, pct(v), SVG));
  }
  const pts = ds.map((d, i) => [X(i), Y(d.win_best)]);
  if (data.result) pts.push([X(ds.length), Y(data.result[seat])]);
  if (pts.length) {
    const line = pts.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
    svg.append(el("polygon", { points: `${pts[0][0]},${y1} ${line} ${pts[pts.length - 1][0]},${y1}`, class: "area" }, null, SVG),
               el("polyline", { points: line, class: "winline" }, null, SVG));
  }
  ds.forEach((d, i) => {                                   // every decision: a point to click
    if (d.mark) return;
    const g = el("g", { class: "pt", "data-ply": d.ply }, null, SVG);
    g.append(el("circle", { cx: X(i), cy: Y(d.win_best), r: 7 }, null, SVG),
             el("title", {}, `#${d.ply}, round ${d.round}: ${d.played_short} (${pct(d.win_played)}); click: on the board`, SVG));
    g.addEventListener("click", () => openBoard(d.ply));                              // replay.js
    svg.append(g);
  });
  ds.forEach((d, i) => {
    if (!d.mark) return;
    const g = el("g", { class: `mark ${d.mark}`, "data-ply": d.ply }, null, SVG);
    g.append(el("line", { x1: X(i), x2: X(i), y1: Y(d.win_best), y2: Y(d.win_played) }, null, SVG),
             el("circle", { cx: X(i), cy: Y(d.win_played), r: 5 }, null, SVG),
             el("title", {}, `#${d.ply}, round ${d.round}: you played ${d.played_short} (${pct(d.win_played)}); ` +
                             `better ${d.best_short} (${pct(d.win_best)}): ${d.loss.toFixed(1)} points lost, ${d.mark}`, SVG));
    g.addEventListener("click", () => pick(d.ply));
    svg.append(g);
  });
  if (data.result) {
    const r = data.result[seat], x = X(ds.length), word = r === 1 ? "won" : r === 0 ? "lost" : "shared";
    svg.append(el("circle", { cx: x, cy: Y(r), r: 5, class: `result ${word}` }, null, SVG),
               el("text", { x: x + 1, y: r > 0.5 ? Y(r) + 17 : Y(r) - 9, class: `result-label ${word}` }, word, SVG));
  }
  return svg;
}

function legend() {
  const p = el("p", { class: "chart-legend" });
  p.append(el("i", { class: "lg-line" }), " your win share at each decision, with the best move  ");
  for (const m of ["inaccuracy", "mistake", "blunder"]) p.append(el("i", { class: `lg-dot ${m}` }), ` ${m} `);
  p.append("(the move you played; click a point or a row: the board at that decision)");
  return p;
}

function marksTable(data) {
  const marked = data.decisions.filter((d) => d.mark);
  if (!marked.length) return el("p", { class: "verdict" }, `No decision lost ${data.marks.inaccuracy} points of win share or more: well played.`);
  const t = el("table", { class: "marks" }), head = el("tr");
  for (const h of ["#", "round", "you played", "better", "lost", ""]) head.append(el("th", {}, h));
  t.append(head);
  const move = (text, win) => { const td = el("td", {}, text); td.append(el("small", {}, ` ${pct(win)}`)); return td; };
  for (const d of marked) {
    const tr = el("tr", { id: `rv-${d.ply}` }), sign = el("span", { class: `chip ${d.mark}`, title: d.mark }, data.signs[d.mark]);
    sign.append(el("span", { class: "word" }, ` ${d.mark}`));
    const mark = el("td"); mark.append(sign);
    tr.append(el("td", {}, String(d.ply)), el("td", {}, String(d.round)), move(d.played_short, d.win_played),
              move(d.best_short, d.win_best), lost(d), mark);
    tr.addEventListener("click", () => pick(d.ply));
    t.append(tr);
  }
  const box = el("div", { class: "marks-box" });
  box.append(el("h2", {}, `Marked decisions (${marked.length})`), t);
  return box;
}

// the points lost, and under them the 90% interval the mark was given by (second or deep look)
function lost(d) {
  const td = el("td", {}, d.loss.toFixed(1));
  if (d.method === "exact") {
    td.append(el("small", { class: "interval", title: "every line to the end searched: the loss is exact" }, " exact"));
  } else if (d.low !== null && d.low !== undefined) {
    td.append(el("small", { class: "interval", title: "90% interval of the points lost" },
                 ` ${Math.max(0, d.low).toFixed(0)}–${d.high.toFixed(0)}`));
  }
  return td;
}

function about(data) {
  const from = ["inaccuracy", "mistake", "blunder"].map((m) => `${data.signs[m]} ${m} from ${data.marks[m]}`).join(", ");
  const p = el("p", { class: "note" },
    `Each of your decisions was searched again from your view only (the other hands unknown), ` +
    `${data.iterations} iterations a decision, seed ${data.seed}. Win share: the share of the game the search ` +
    `expects you to take, calibrated on self-play to how often such positions were won (100% = a sure win). Marks by the points of win share lost: ${from}, ` +
    `each checked before it is given: the move you played and the better one searched again side by side, ` +
    `${data.replicates} times, then ${data.deep_replicates} more times, each ${data.deep_share}× as deep as the first search, where that would mark, and marked by the low end of the loss's 90% interval (the small figures): a mark is a loss that holds with 95% confidence. ` +
    `Accuracy: Lichess's curve of the points lost, averaged; once a game is decided, won or lost, nothing can be lost, ` +
    `so the accuracy over the decisions before that is said beside it. The same review in a terminal: `);
  if (data.command) p.append(el("code", {}, data.command));
  return p;
}

function pick(ply) {                 // a marked decision: its dot and its row, together
  for (const e of document.querySelectorAll("#review .picked")) e.classList.remove("picked");
  const row = $(`rv-${ply}`), dot = document.querySelector(`#review g.mark[data-ply="${ply}"]`);
  if (dot) dot.classList.add("picked");
  if (row) { row.classList.add("picked"); row.scrollIntoView({ block: "nearest" }); }
  openBoard(ply);                    // and the board at that decision (replay.js)
}
