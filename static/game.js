// The game page and the analysis board in place (issue 37), a progressive enhancement:
// without this script every link and form works as it is, with a page load.
//
// - Stepping: a click on a move of the list or a step link (⏮ ◀ ▶ ⏭), and the keys ← → Home
//   End, fetch the panel of that position (GET /games/{id}/panel?ply=N, drawn by the
//   server like the page) and swap it in; the address follows (history.replaceState), so
//   the position can be shared. The analysis board steps through its variation the same
//   way (its own page, fetched whole).
// - Resign and abort ask first: the button shows the confirmation the server wrote into
//   the page (hidden); its own form sends confirm=yes.
// - The tab's title says "Your move" while it is the reader's move, and a rematch that
//   starts while the page is open is opened.
//
// window.tavoliereGame offers swap(fresh) (swaps in a redrawn #game or #analysis; used by
// static/live.js too), viewQuery() (the ?ply=&flip= of the position being looked at, for
// redraws) and visit(url) (shows the page at url in place; used by static/board.js).

const baseTitle = document.title;

function root() {
  return document.getElementById("game") || document.getElementById("analysis");
}

// The #game's view of the game is an earlier position than the game's.
function studying(game) {
  return Number(game.dataset.ply) < Number(game.dataset.gamePly);
}

// The query that asks the server for the position being looked at: nothing when it is
// the game as it stands (a redraw then shows the newest move).
function viewQuery() {
  const game = document.getElementById("game");
  if (!game) return "";
  const params = new URLSearchParams();
  if (studying(game)) params.set("ply", game.dataset.ply);
  if (game.dataset.flip === "true") params.set("flip", "1");
  const query = params.toString();
  return query ? `?${query}` : "";
}

function showTitle() {
  const game = document.getElementById("game");
  if (!game) return;
  document.title = game.dataset.myTurn === "true" ? `${game.dataset.yourMove} · ${baseTitle}` : baseTitle;
}

// Swaps in a fresh #game (or #analysis); keeps what the player was typing when the game
// has not moved. False when there is nothing it could replace.
function swap(fresh) {
  const old = fresh ? document.getElementById(fresh.id) : null;
  if (!old) return false;
  if (fresh.id === "game") {
    if (fresh.dataset.gameId !== old.dataset.gameId) return false;
    // An answer overtaken by a newer one already drawn is dropped.
    if (Number(fresh.dataset.gamePly) < Number(old.dataset.gamePly)) return true;
    const typed = old.querySelector("input[name=move]");
    if (typed && typed.value && fresh.dataset.gamePly === old.dataset.gamePly) {
      const field = fresh.querySelector("input[name=move]");
      if (field && !field.value) field.value = typed.value;
    }
  }
  const focused = document.activeElement && old.contains(document.activeElement) ? document.activeElement.id : null;
  const rematch = fresh.dataset.rematchGame && !old.dataset.rematchGame;
  old.replaceWith(fresh);
  if (focused) document.getElementById(focused)?.focus();
  showTitle();
  document.dispatchEvent(new CustomEvent("tavoliere:redrawn"));
  // A rematch that started while the page was open: both players go to it.
  if (rematch) window.location.assign(`/games/${fresh.dataset.rematchGame}`);
  return true;
}

let visits = 0;
// Shows the position (or analysis page) at `href` in place.
async function visit(href) {
  const current = root();
  if (!current || !window.fetch) {
    window.location.assign(href);
    return;
  }
  const target = new URL(href, location.href);
  const turn = ++visits;
  try {
    let fresh;
    if (current.id === "game") {
      const response = await fetch(`/games/${current.dataset.gameId}/panel${target.search}`, {
        credentials: "same-origin",
        cache: "no-store",
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const template = document.createElement("template");
      template.innerHTML = (await response.text()).trim();
      fresh = template.content.getElementById("game");
    } else {
      // A move tried on the analysis board is answered by a redirect to the variation's
      // own address: the address shown is the answer's.
      const response = await fetch(target, { credentials: "same-origin", cache: "no-store" });
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      fresh = page.getElementById("analysis");
      target.href = response.url;
    }
    if (turn !== visits) return; // a later step overtook this one
    if (!swap(fresh)) {
      window.location.assign(target);
      return;
    }
    const address = current.id === "game" ? `${location.pathname}${viewQuery()}` : `${target.pathname}${target.search}`;
    history.replaceState(null, "", address);
  } catch (_) {
    window.location.assign(target);
  }
}

// Clicks: the moves and step links of the game, the links of the analysis board, and the
// buttons that ask first.
document.addEventListener("click", (event) => {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
    return;
  }
  const link = event.target.closest("#game a[data-ply], #game a#flip, #analysis a[data-visit]");
  if (link) {
    event.preventDefault();
    visit(link.getAttribute("href"));
    return;
  }
  const cancel = event.target.closest("[data-cancel]");
  if (cancel) {
    event.preventDefault();
    const box = document.getElementById(cancel.dataset.cancel);
    if (box) box.hidden = true;
    return;
  }
  const asking = event.target.closest("form[data-confirm] button[type=submit]");
  if (asking) {
    const box = document.getElementById(asking.form.dataset.confirm);
    if (!box) return;
    event.preventDefault();
    box.hidden = false;
    box.querySelector("button[type=submit]")?.focus();
  }
});

// ← → step through the moves, Home and End go to the start and to the game as it stands;
// not while typing.
const KEYS = { ArrowLeft: "step-previous", ArrowRight: "step-next", Home: "step-first", End: "step-last" };
document.addEventListener("keydown", (event) => {
  const id = KEYS[event.key];
  if (!id || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const typing = event.target.closest && event.target.closest("input, textarea, select, [contenteditable]");
  if (typing) return;
  event.preventDefault();
  const link = document.getElementById(id);
  if (link) visit(link.getAttribute("href"));
});

window.tavoliereGame = { swap, visit, viewQuery };
showTitle();
