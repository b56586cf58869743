// Every decision by keyboard, and focus that survives a redraw.  Each control that makes a
// decision is made "keyable": a Tab stop named by what it does ("Place Crown on 20"), acted on
// by Enter or Space, and marked with a logical key (`space:20`, `card:22`, `grow:3`,
// `choice:pass`).  The page is redrawn from scratch on every state; before it, the focused
// control's key is kept, after it the same control is focused again (or, when it is gone,
// the first decision offered, else the question), so focus never drops to the page.
// Also the terms' help: a tooltip on each term, with its rule id, and the help panel.
// Uses board.js's helpers; loaded before it.
"use strict";

function keyable(e, key, name, action) {
  e.setAttribute("data-key", key);
  e.setAttribute("aria-label", name);
  if (e.tagName.toLowerCase() !== "button") {          // an SVG space: a button by role
    e.setAttribute("tabindex", "0");
    e.setAttribute("role", "button");
    e.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); action(); }
    });
  }
  e.addEventListener("click", action);
}

let focusWas = null;                 // the key of the control focused before a redraw
function rememberFocus() {
  const a = document.activeElement;
  focusWas = a && a.getAttribute && a.getAttribute("data-key") ? a.getAttribute("data-key") : null;
}
function firstDecision() {
  return document.querySelector("#choices [data-key], .space.target, #hand .card.target, #market .grow-btn");
}
function restoreFocus() {
  if (focusWas === null) return;
  const key = focusWas;
  focusWas = null;
  const same = document.querySelector(`[data-key="${CSS.escape(key)}"]`);
  if (same && !same.disabled && same.getClientRects().length) { same.focus(); return; }
  const next = firstDecision();
  (next || $("question")).focus();
}
// a card chosen: on to what it can do (the spaces, the grow rows, the buttons)
function toTargets() {
  const next = document.querySelector(".space.target, #market .grow-btn, #choices [data-key]");
  if (next) next.focus();
}

// a term with its rule: a link to its entry in the help panel, the rule as a tooltip
const TERM_OF = { expansions: "in reach" };
function termLink(word) {
  const term = TERM_OF[word] || word, t = L.terms[term];
  if (!t) return document.createTextNode(word);
  const a = el("a", { href: `#term-${term.replace(/ /g, "-")}`, class: "term", title: `${t.text} (${t.rules})`,
                      "data-key": `term:${word}` }, word);          // kept focused across redraws too
  a.addEventListener("click", () => { $("help").open = true; });
  return a;
}
function drawHelp() {
  const dl = el("dl");
  for (const [term, t] of Object.entries(L.terms)) {
    dl.append(el("dt", { id: `term-${term.replace(/ /g, "-")}` }, term),
              el("dd", {}, `${t.text} (rules ${t.rules})`));
  }
  $("help-terms").replaceChildren(dl);
}
