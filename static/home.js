// The home page's small boards (issue 18 §2): each game being played listens on its
// WebSocket (docs/live-protocol.md) as a spectator and redraws its board image after
// every move (the server draws it: GET /games/{id}/board.svg?ply=N, no second board
// renderer here). Without this script the page shows the positions as they were when it
// was drawn; reloading brings them up to date.

const scheme = location.protocol === "https:" ? "wss:" : "ws:";

function follow(card) {
  const id = card.dataset.miniGame;
  const image = card.querySelector("img.mini-board");
  const plyText = card.querySelector("[data-mini-ply]");
  const resultText = card.querySelector("[data-mini-result]");
  let ply = Number(card.dataset.ply);
  let over = false;
  const show = (next) => {
    if (next === ply) return;
    ply = next;
    card.dataset.ply = String(ply);
    if (plyText) plyText.textContent = String(ply);
    if (image) image.src = `/games/${id}/board.svg?ply=${ply}`;
  };
  const connect = () => {
    const socket = new WebSocket(`${scheme}//${location.host}/api/games/${id}/socket?since_ply=${ply}`);
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (_) {
        return;
      }
      if (message.type === "state" && message.game) show(message.game.ply);
      // Only the latest move of a burst carries the position: draw that one.
      if (message.type === "move" && message.position) show(message.move.ply);
      if (message.type === "result") {
        over = true;
        if (resultText) resultText.textContent = ` · ${message.result || ""}`;
        card.dataset.over = "true";
        socket.close();
      }
    });
    socket.addEventListener("close", () => {
      if (!over) setTimeout(connect, 3000);
    });
  };
  connect();
}

if (window.WebSocket) document.querySelectorAll("[data-mini-game]").forEach(follow);
