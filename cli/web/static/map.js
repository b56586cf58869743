// The map, and what is new or coming on it: the spaces the other seats changed since your last
// decision (S.since, outlined in the player's colour with their initial) and the spaces within
// reach of a coming forced expansion (S.threats, a badge per company).  Both lists are the
// server's (cli/events.py, ekonos/threats.py); the legal decisions are clickable and reachable
// by Tab, each named by what it does.  Uses board.js's helpers; loaded before it.
"use strict";

const CW = 100, CH = 100;                // a grid cell of the map, in SVG units

function centre(space) {
  for (let r = 0; r < L.grid.length; r++) {
    const c = L.grid[r].indexOf(space);
    if (c >= 0) return [50 + c * CW, 50 + r * CH];
  }
}
const seatColour = (q) => L.seats[q % L.seats.length];

// who changed each space since your last decision: space -> seat (the latest)
function changedBy() {
  const by = new Map();
  for (const t of S.since.turns) for (const d of t.decisions) if (d.space !== null) by.set(d.space, t.seat);
  for (const sp of S.since.spaces) if (!by.has(sp)) by.set(sp, null);
  return by;
}
// which coming expansions reach each space: space -> [company]
function inReach() {
  const reach = new Map();
  for (const t of S.threats) for (const sp of t.spaces) reach.set(sp, (reach.get(sp) || []).concat([t.company]));
  return reach;
}

function spaceWords(sp, tile, by, reach) {
  const bits = [`Space ${sp}: ` + (tile ? `${co(tile.company).name} tile${tile.protected ? ", protected" : ""}` : "empty")];
  if (by.has(sp)) bits.push(`changed by ${by.get(sp) === null ? "another player" : S.names[by.get(sp)]} since your last decision`);
  if (reach.has(sp)) bits.push(`in reach of ${reach.get(sp).map((c) => co(c).name).join(" and ")}'s coming expansion`);
  return bits.join("; ");
}

function drawMap(targets) {
  const svg = $("map");
  svg.replaceChildren();
  const by = changedBy(), reach = inReach();
  for (const [a, b] of L.edges) {
    const [x1, y1] = centre(a), [x2, y2] = centre(b);
    svg.append(el("line", { x1, y1, x2, y2, class: "edge" }, null, SVG));
  }
  for (let sp = 1; sp <= 36; sp++) {
    const [x, y] = centre(sp), tile = S.board[sp], move = targets.get(sp);
    const g = el("g", { class: "space" + (move ? " target" : "") + (by.has(sp) ? " changed" : ""),
                        "data-space": sp }, null, SVG);
    if (move) g.append(el("rect", { x: x - CW / 2, y: y - CH / 2, width: CW, height: CH, class: "hit" }, null, SVG));
    if (by.has(sp)) {
      const ring = el("rect", { x: x - 45, y: y - 40, width: 90, height: 80, rx: 14, class: "ring" }, null, SVG);
      ring.style.stroke = by.get(sp) === null ? "#333" : seatColour(by.get(sp));
      g.append(ring);
    }
    const rect = el("rect", { x: x - 38, y: y - 33, width: 76, height: 66, rx: 10 }, null, SVG);
    if (tile) {
      rect.setAttribute("fill", co(tile.company).fill);
      rect.setAttribute("class", tile.protected ? "body tile protected" : "body tile");
      g.append(rect, el("text", { x, y: y + 8, class: "initials", fill: co(tile.company).ink },
                        co(tile.company).short, SVG));
      if (tile.protected) g.append(el("path", { d: `M${x + 20} ${y - 33}h18v18z`, class: "prot" }, null, SVG));
    } else {
      rect.setAttribute("class", "body empty");
      g.append(rect);
    }
    g.append(el("text", { x: x - 33, y: y - 17, class: "num" + (tile ? "" : " dim"),
                          fill: tile ? co(tile.company).ink : "#555" }, String(sp), SVG));
    if (by.has(sp) && by.get(sp) !== null) {                // who: the player's initial
      const q = by.get(sp);
      const badge = el("circle", { cx: x + 38, cy: y - 34, r: 12, class: "who" }, null, SVG);
      badge.style.fill = seatColour(q);
      g.append(badge, el("text", { x: x + 38, y: y - 29.5, class: "who-text" }, S.names[q].charAt(0), SVG));
    }
    (reach.get(sp) || []).forEach((c, k) => {             // in reach of a coming expansion
      const bx = x - 36 + k * 25;
      const b = el("rect", { x: bx, y: y + 16, width: 23, height: 15, rx: 3, class: "reach" }, null, SVG);
      b.style.fill = co(c).fill;
      g.append(b, el("text", { x: bx + 11.5, y: y + 27.5, class: "reach-text", fill: co(c).ink }, co(c).short.slice(0, 2), SVG));
    });
    g.append(el("title", {}, move ? move.label : spaceWords(sp, tile, by, reach), SVG));
    if (move) keyable(g, `space:${sp}`, move.label, () => play(move.text));   // keys.js
    svg.append(g);
  }
  drawReviewMoves(svg);                                                   // replay.js
}

// Beside the map: what the others did since your last decision, by turn.
function drawSince() {
  const box = $("since");
  const turns = S.since.turns;
  box.replaceChildren(el("h2", {}, S.log.some((d) => d.seat === S.human) ? "Since your last decision" : "So far"));
  if (!turns.length) { box.append(el("p", { class: "note" }, S.over ? "—" : "Nothing since your last decision.")); return; }
  const ol = el("ol", { class: "since" });
  for (const t of turns.slice(-8)) {
    const li = el("li");
    li.append(who(t.seat));                                   // panels.js
    const moves = el("span", { class: "moves" });
    for (const d of t.decisions) {
      const what = el("span", { class: "what" });
      what.append(el("code", {}, d.move), d.reason ? el("small", {}, ` ${d.reason}`) : "");
      moves.append(what);
    }
    li.append(" ", moves);
    ol.append(li);
  }
  box.append(ol);
}

// Beside the map: the coming forced expansions, what they could take and who decides.
function threatWords(t) {
  const decider = t.decider === null ? "whoever grows it to 6 (no president)"
                                     : t.decider === S.human ? "you" : S.names[t.decider];
  const when = t.growths === 1 ? "its next growth forces an expansion" : `${t.growths} growths from a forced expansion`;
  const empty = t.spaces.filter((sp) => !t.takes.includes(sp));
  const bits = [];
  if (empty.length) bits.push(`empty ${empty.join(", ")}`);
  if (t.takes.length) bits.push(`over ${t.takes.map((sp) => `${co(S.board[sp].company).short} ${sp}`).join(", ")}`);
  const where = bits.length ? `in reach: ${bits.join("; ")}` : "nothing in reach (no tile, or all out)";
  return { when, decider, where };
}
function drawThreats() {
  const box = $("threats");
  box.replaceChildren(el("h2", {}, "Coming expansions"));
  if (!S.threats.length) { box.append(el("p", { class: "note" }, "No company at growth 4 or 5.")); return; }
  const ul = el("ul", { class: "threats" });
  for (const t of S.threats) {
    const w = threatWords(t), li = el("li", { "data-company": t.company });
    const name = swatch(t.company);
    name.textContent = co(t.company).name;
    li.append(name, ` ${t.growth}/6: ${w.when} (up to ${t.actions} actions), `,
              el("b", {}, w.decider), " decide" + (w.decider === "you" ? "" : "s") + `; ${w.where}.`);
    ul.append(li);
  }
  box.append(ul);
}
