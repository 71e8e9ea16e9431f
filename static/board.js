// Click-to-move for the game page (progressive enhancement: without this script the move
// form works as it is). Click a piece (or a piece in hand) to see its legal destinations,
// fetched from GET /api/games/{id}; click a destination; choose promotion when it is
// optional. The move is written into the same form field and the same form is submitted.
// No text lives here: labels come from data attributes filled from the catalogues.

const SVG_NS = "http://www.w3.org/2000/svg";

const game = document.getElementById("game");
const form = document.getElementById("move-form");
const wrap = document.getElementById("board");
const svg = wrap ? wrap.querySelector("svg") : null;

// Square name -> [file from the first player's left, rank from the first player's top].
function squareIndex(variant, square) {
  if (variant === "xiangqi") {
    return [square.charCodeAt(0) - 97, 9 - Number(square[1])];
  }
  const size = variant === "minishogi" ? 5 : 9;
  return [size - Number(square[0]), square.charCodeAt(1) - 97];
}

function screen(variant, square) {
  const cell = Number(svg.dataset.cell);
  const [file, rank] = squareIndex(variant, square);
  const files = variant === "xiangqi" ? 9 : variant === "minishogi" ? 5 : 9;
  const ranks = variant === "xiangqi" ? 10 : files;
  const flipped = svg.dataset.flipped === "true";
  const f = flipped ? files - 1 - file : file;
  const r = flipped ? ranks - 1 - rank : rank;
  return [Number(svg.dataset.x0) + f * cell, Number(svg.dataset.y0) + r * cell];
}

// Origin of a canonical move: "h2e2" -> "h2", "7g7f+" -> "7g", "P*5e" -> "P*".
function origin(move) {
  return move[1] === "*" ? move.slice(0, 2) : move.slice(0, 2);
}

function destination(move) {
  return move.slice(2, 4);
}

function clearMarks() {
  svg.querySelectorAll(".target").forEach((el) => el.remove());
  svg.querySelectorAll(".selected").forEach((el) => el.classList.remove("selected"));
  const chooser = form.querySelector(".promotion");
  if (chooser) chooser.remove();
}

function submitMove(text) {
  form.querySelector("input[name=move]").value = text;
  form.submit();
}

function choosePromotion(plain) {
  const chooser = document.createElement("div");
  chooser.className = "promotion";
  for (const [label, text] of [[form.dataset.promote, plain + "+"], [form.dataset.noPromote, plain]]) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = label;
    button.addEventListener("click", () => submitMove(text));
    chooser.appendChild(button);
  }
  form.appendChild(chooser);
}

function showTargets(variant, from, legal) {
  const moves = legal.filter((m) => origin(m) === from);
  const byTarget = new Map();
  for (const m of moves) {
    const to = destination(m);
    if (!byTarget.has(to)) byTarget.set(to, []);
    byTarget.get(to).push(m);
  }
  for (const [to, options] of byTarget) {
    const [x, y] = screen(variant, to);
    const dot = document.createElementNS(SVG_NS, "circle");
    dot.setAttribute("class", "target");
    dot.setAttribute("cx", x);
    dot.setAttribute("cy", y);
    dot.setAttribute("r", 9);
    dot.dataset.target = to;
    dot.addEventListener("click", (event) => {
      event.stopPropagation();
      if (options.length > 1) {
        const plain = options.find((m) => !m.endsWith("+")) || options[0];
        choosePromotion(plain);
      } else {
        submitMove(options[0]);
      }
    });
    svg.appendChild(dot);
  }
}

async function start() {
  if (!game || !form || !svg || !window.fetch) return;
  const variant = game.dataset.variant;
  let legal = [];
  try {
    const response = await fetch(`/api/games/${game.dataset.gameId}`, { credentials: "same-origin" });
    if (!response.ok) return;
    const state = await response.json();
    if (String(state.ply) !== game.dataset.ply) return; // stale page: leave the form alone
    legal = state.legal_moves || [];
  } catch (_) {
    return;
  }
  wrap.classList.add("js");
  svg.addEventListener("click", (event) => {
    const piece = event.target.closest(".piece");
    if (!piece) return;
    clearMarks();
    const from = piece.dataset.square || (piece.dataset.hand ? piece.dataset.hand + "*" : null);
    if (!from) return;
    piece.classList.add("selected");
    showTargets(variant, from, legal);
  });
}

start();
