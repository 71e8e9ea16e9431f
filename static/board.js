// Click-to-move for the game page (progressive enhancement: without this script the move
// form and the conditional-moves form work as they are). Click a piece (or a piece in hand) to see its legal destinations,
// fetched from GET /api/games/{id}; click a destination; choose promotion when it is
// optional. The move is written into the same form field and the same form is submitted.
// Only on the game as it stands: a board showing an earlier position (?ply=) is looked at.
//
// The analysis board (issue 37 §2) takes its legal moves from the rules, stateless:
// POST /api/positions/legal-moves with the position the variation starts from and its
// moves; a click on a destination tries the move in the variation (the analysis page's
// own form, shown in place by static/game.js). It never sends a move to the game.
//
// Flickering chess: a turn is a series. Each click adds a move to the series in the form
// field and moves the piece on the drawing; the next legal moves come from
// GET /api/games/{id}/series?prefix=...; the player submits with the form's own button when
// the series may end. No text lives here: labels come from data attributes filled from the
// catalogues.

const SVG_NS = "http://www.w3.org/2000/svg";

// The page's elements, found again each time live mode swaps in a redrawn game
// (static/live.js dispatches "tavoliere:redrawn").
let game = null;
let form = null;
let wrap = null;
let svg = null;

// The board's size in points: [files, ranks].
function boardSize(variant) {
  switch (variant) {
    case "xiangqi": return [9, 10];
    case "minishogi": return [5, 5];
    case "flickering": return [8, 8];
    case "seven-kingdoms": return [19, 19];
    default: return [9, 9];
  }
}

// Square name -> [file from the first player's left, rank from the first player's top].
function squareIndex(variant, square) {
  switch (variant) {
    case "xiangqi": return [square.charCodeAt(0) - 97, 9 - Number(square.slice(1))];
    case "flickering": return [square.charCodeAt(0) - 97, 8 - Number(square.slice(1))];
    // Points a..s (x, west to east) and 1..19 (y, south to north); north at the top.
    case "seven-kingdoms": return [square.charCodeAt(0) - 97, 19 - Number(square.slice(1))];
    default: {
      const [size] = boardSize(variant);
      return [size - Number(square[0]), square.charCodeAt(1) - 97];
    }
  }
}

function screen(variant, square) {
  const cell = Number(svg.dataset.cell);
  const [file, rank] = squareIndex(variant, square);
  const [files, ranks] = boardSize(variant);
  const flipped = svg.dataset.flipped === "true";
  const f = flipped ? files - 1 - file : file;
  const r = flipped ? ranks - 1 - rank : rank;
  return [Number(svg.dataset.x0) + f * cell, Number(svg.dataset.y0) + r * cell];
}

// A Seven Kingdoms move names its points at the end: "Qin 騎 a7-d3", "Chu 砲 e3xe9".
const KINGDOMS_MOVE = /([a-s]\d{1,2})[-x:]([a-s]\d{1,2})\s*$/;

// Origin of a canonical move: "h2e2" -> "h2", "7g7f+" -> "7g", "P*5e" -> "P*".
function origin(variant, move) {
  if (variant === "seven-kingdoms") {
    const parts = KINGDOMS_MOVE.exec(move);
    return parts ? parts[1] : null;
  }
  return move.slice(0, 2);
}

function destination(variant, move) {
  if (variant === "seven-kingdoms") {
    const parts = KINGDOMS_MOVE.exec(move);
    return parts ? parts[2] : null;
  }
  return move.slice(2, 4);
}

function pieceSquare(piece) {
  return piece.dataset.square || piece.dataset.point || (piece.dataset.hand ? piece.dataset.hand + "*" : null);
}

function clearMarks() {
  svg.querySelectorAll(".target").forEach((el) => el.remove());
  svg.querySelectorAll(".selected").forEach((el) => el.classList.remove("selected"));
  const chooser = form.querySelector(".promotion");
  if (chooser) chooser.remove();
}

function moveField() {
  return form.querySelector("input[name=move]");
}

function submitMove(text) {
  moveField().value = text;
  // requestSubmit fires the submit event, so live mode can send the form without a reload.
  if (form.requestSubmit) form.requestSubmit();
  else form.submit();
}

// Offers `options` (label, value) as buttons; `pick` gets the chosen value.
function choose(options, pick) {
  const chooser = document.createElement("div");
  chooser.className = "promotion";
  for (const [label, value] of options) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = label;
    button.addEventListener("click", () => {
      chooser.remove();
      pick(value);
    });
    chooser.appendChild(button);
  }
  form.appendChild(chooser);
}

// Several legal moves to one point differ by promotion: shogi's optional promotion ("+"),
// chess's choice of piece (the last letter).
function promotionChoices(variant, options) {
  if (variant === "flickering") {
    const symbols = { q: "♕", r: "♖", b: "♗", n: "♘" };
    return options.map((m) => [symbols[m.slice(-1)] || m, m]);
  }
  const plain = options.find((m) => !m.endsWith("+")) || options[0];
  return [[form.dataset.promote, plain + "+"], [form.dataset.noPromote, plain]];
}

function showTargets(variant, from, legal, play) {
  const moves = legal.filter((m) => origin(variant, m) === from);
  const byTarget = new Map();
  for (const m of moves) {
    const to = destination(variant, m);
    if (!to) continue;
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
        choose(promotionChoices(variant, options), play);
      } else {
        play(options[0]);
      }
    });
    svg.appendChild(dot);
  }
}

// Flickering chess: the series being built, and the legal next moves after it.
let series = { moves: [], canEnd: false };

// Shows a move of the series on the drawing: the piece slides to its target, a piece
// standing there is taken off. (Castling's rook and en passant are shown by the server
// once the series is played.)
function slide(variant, move) {
  const from = move.slice(0, 2);
  const to = move.slice(2, 4);
  const at = (square) => svg.querySelector(`.piece[data-point="${square}"], .piece[data-square="${square}"]`);
  const piece = at(from);
  const taken = at(to);
  if (taken && taken !== piece) taken.remove();
  if (!piece) return; // a drop: the text field shows it
  const [x0, y0] = screen(variant, from);
  const [x1, y1] = screen(variant, to);
  // Moved again: the translation is from where the piece was drawn.
  const [dx, dy] = (piece.dataset.drawnAt || `${x0} ${y0}`).split(" ").map(Number);
  piece.dataset.drawnAt = `${dx} ${dy}`;
  piece.setAttribute("transform", `translate(${x1 - dx} ${y1 - dy})`);
  if (piece.dataset.point) piece.dataset.point = to;
  else piece.dataset.square = to;
  piece.classList.add("moved");
}

async function nextInSeries(variant, move) {
  series.moves.push(move);
  slide(variant, move);
  moveField().value = series.moves.join(", ");
  const prefix = encodeURIComponent(series.moves.join(","));
  const response = await fetch(`/api/games/${game.dataset.gameId}/series?prefix=${prefix}`, {
    credentials: "same-origin",
  });
  if (!response.ok) return [];
  const options = await response.json();
  series.canEnd = options.can_end;
  form.classList.toggle("series-complete", series.canEnd);
  return options.next || [];
}

function addSeriesClear() {
  const button = document.createElement("button");
  button.type = "button";
  button.id = "series-clear";
  button.textContent = form.dataset.seriesClear || "×";
  button.addEventListener("click", () => (window.tavoliereLive ? window.tavoliereLive.redraw() : window.location.reload()));
  form.appendChild(button);
}

// Conditional moves (#17 §3): the waiting player clicks a line on the board, the
// opponent's move then the reply and so on; each click adds the move to the form's text
// field and moves the piece on the drawing; the legal next moves come from
// GET /api/games/{id}/conditional-moves/next?line=... The player submits with the form's
// own button; the form works as well without this script.
async function nextInLine(field) {
  const line = encodeURIComponent(field.value.trim());
  const response = await fetch(`/api/games/${game.dataset.gameId}/conditional-moves/next?line=${line}`, {
    credentials: "same-origin",
  });
  if (!response.ok) return [];
  const options = await response.json();
  return options.next || [];
}

async function startLine(variant) {
  const field = form.querySelector("input[name=line]");
  if (!field || variant === "flickering" || variant === "seven-kingdoms") return;
  const drawn = game;
  let legal = await nextInLine(field);
  if (document.getElementById("game") !== drawn) return;
  const clear = document.createElement("button");
  clear.type = "button";
  clear.id = "conditional-clear";
  clear.textContent = form.dataset.clear || "×";
  clear.addEventListener("click", () => {
    field.value = "";
    if (window.tavoliereLive) window.tavoliereLive.redraw();
    else window.location.reload();
  });
  form.appendChild(clear);
  // `legal` is the next moves' promise while the server is asked: a click meanwhile waits.
  const pick = (move) => {
    clearMarks();
    field.value = field.value.trim() ? `${field.value.trim()} ${move}` : move;
    slide(variant, move);
    legal = nextInLine(field);
  };
  pickOnClick(variant, () => legal, pick);
}

// The analysis board: the legal moves after the variation, from the rules; a chosen move
// goes into the variation.
async function startAnalysis(analysis) {
  const variant = analysis.dataset.variant;
  // A Flickering series is tried by its text: the board does not build one.
  if (variant === "flickering") return;
  let legal = [];
  try {
    const response = await fetch("/api/positions/legal-moves", {
      method: "POST",
      headers: { "content-type": "application/json" },
      credentials: "same-origin",
      body: JSON.stringify({
        variant,
        position: analysis.dataset.position,
        ruleset: analysis.dataset.ruleset,
        moves: JSON.parse(analysis.dataset.moves || "[]"),
      }),
    });
    if (!response.ok) return;
    legal = (await response.json()).legal_moves || [];
  } catch (_) {
    return;
  }
  if (document.getElementById("analysis") !== analysis) return; // redrawn meanwhile
  const field = form.querySelector("input[name=move]");
  const tryMove = (move) => {
    clearMarks();
    field.value = move;
    const url = new URL(form.getAttribute("action"), location.href);
    url.search = new URLSearchParams(new FormData(form)).toString();
    if (window.tavoliereGame) window.tavoliereGame.visit(url.toString());
    else form.submit();
  };
  pickOnClick(variant, () => legal, tryMove);
}

async function start() {
  game = document.getElementById("game");
  form = document.getElementById("move-form");
  wrap = document.getElementById("board");
  svg = wrap ? wrap.querySelector("svg") : null;
  series = { moves: [], canEnd: false };
  const analysis = document.getElementById("analysis");
  if (analysis && svg && window.fetch) {
    form = document.getElementById("analysis-form");
    if (form) startAnalysis(analysis);
    return;
  }
  // An earlier position is looked at, not played on.
  if (game && game.dataset.ply !== game.dataset.gamePly) return;
  if (game && !form && svg && window.fetch) {
    form = document.getElementById("conditional-form");
    if (form) startLine(game.dataset.variant);
    return;
  }
  if (!game || !form || !svg || !window.fetch) return;
  const drawn = game;
  const variant = game.dataset.variant;
  let legal = [];
  try {
    const response = await fetch(`/api/games/${game.dataset.gameId}`, { credentials: "same-origin" });
    if (!response.ok) return;
    const state = await response.json();
    if (String(state.ply) !== game.dataset.gamePly) return; // stale page: leave the form alone
    legal = state.legal_moves || [];
  } catch (_) {
    return;
  }
  if (document.getElementById("game") !== drawn) return; // redrawn meanwhile
  const building = variant === "flickering";
  if (building) addSeriesClear();
  const play = building
    ? (move) => {
        clearMarks();
        // A promise until the server answers: a click meanwhile waits for it.
        legal = nextInSeries(variant, move);
      }
    : submitMove;
  pickOnClick(variant, () => legal, play);
}

// A click on one of the mover's pieces marks it and shows its targets among the moves
// `legalMoves()` gives (a list, or its promise while the server is asked for the next
// moves of a series or line: the click waits for them); a click on a target calls `pick`.
function pickOnClick(variant, legalMoves, pick) {
  wrap.classList.add("js");
  svg.addEventListener("click", async (event) => {
    const piece = event.target.closest(".piece");
    if (!piece) return;
    clearMarks();
    const from = pieceSquare(piece);
    if (!from) return;
    piece.classList.add("selected");
    const moves = await legalMoves();
    // Another click (or a redraw) while waiting: that one decides.
    if (!piece.classList.contains("selected") || !piece.isConnected) return;
    showTargets(variant, from, moves, pick);
  });
}

start();
document.addEventListener("tavoliere:redrawn", start);
