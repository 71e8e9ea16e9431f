// Live mode of the game page (docs/live-protocol.md). Include with
//   <script type="module" src="/static/live.js"></script>
// on a page holding <div data-live-game="{id}" data-ply="{ply}" data-live="true|false">.
// Hooks (all optional): [data-live-clock="0|1"], [data-live-moves] (an <ol>, redrawn after
// each move from GET /games/{id}/moves: the server writes it in the viewer's notation),
// [data-live-watchers], [data-live-status], [data-live-board] (gets data-position),
// form[data-live-move] with an input named "move". Every event is also dispatched on the
// root element as a "live:<type>" CustomEvent, so the board renderer can follow.

const root = document.querySelector("[data-live-game]");
if (root && root.dataset.live !== "false") {
  const gameId = root.dataset.liveGame;
  let ply = Number(root.dataset.ply || 0);
  let clock = null;       // last clock event
  let offsetMs = 0;       // server time - local time
  let retryMs = 500;
  let socket = null;
  let pingTimer = null;
  let listRequest = 0;    // the newest move-list request: older answers are dropped
  let unlisted = [];      // moves received since the list was last redrawn
  const $ = (selector) => root.querySelector(selector);

  function fmt(ms) {
    const s = Math.max(0, Math.ceil(ms / 1000));
    const m = Math.floor(s / 60);
    return `${m}:${String(s % 60).padStart(2, "0")}`;
  }

  function tick() {
    if (clock) {
      clock.remaining_ms.forEach((remaining, seat) => {
        const el = $(`[data-live-clock="${seat}"]`);
        if (!el) return;
        let shown = remaining;
        if (clock.running_seat === seat && clock.deadline) {
          shown = Date.parse(clock.deadline) - (Date.now() + offsetMs);
        }
        el.textContent = fmt(shown);
        el.classList.toggle("running", clock.running_seat === seat);
      });
    }
    requestAnimationFrame(tick);
  }

  // Redraws the move list as the page would show it (the notation the viewer chose, one
  // line per pair of turns). If the server cannot be reached, the moves are appended in
  // their default notation instead.
  async function redrawMoves() {
    const list = $("[data-live-moves]");
    if (!list) return;
    const request = ++listRequest;
    const moves = unlisted;
    unlisted = [];
    try {
      const response = await fetch(`/games/${gameId}/moves`, { credentials: "same-origin" });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const items = await response.text();
      if (request === listRequest) list.innerHTML = items;
    } catch (e) {
      console.warn("live: cannot redraw the move list", e);
      for (const move of moves) {
        const item = document.createElement("li");
        item.textContent = move.display || move.canonical;
        list.appendChild(item);
      }
    }
  }

  function addMove(move, position) {
    unlisted.push(move);
    // A Flickering series comes as several moves; only the last carries the position.
    if (position) redrawMoves();
    ply = move.ply;
    root.dataset.ply = String(ply);
    const board = $("[data-live-board]");
    if (board && position) board.dataset.position = position;
  }

  function handle(event) {
    switch (event.type) {
      case "state":
        ply = event.game.ply;
        root.dataset.ply = String(ply);
        clock = event.clock;
        offsetMs = Date.parse(event.clock.server_time) - Date.now();
        unlisted = [];
        redrawMoves();
        break;
      case "move":
        addMove(event.move, event.position);
        break;
      case "clock":
        clock = event;
        offsetMs = Date.parse(event.server_time) - Date.now();
        break;
      case "watchers": {
        const el = $("[data-live-watchers]");
        if (el) el.textContent = String(event.count);
        break;
      }
      case "result": {
        const el = $("[data-live-status]");
        if (el) el.textContent = `${event.result || ""} (${event.reason || event.status})`;
        break;
      }
      case "resync":
        // A state follows, which redraws the move list.
        break;
      case "error": {
        const el = $("[data-live-status]");
        if (el) el.textContent = event.message;
        break;
      }
    }
    root.dispatchEvent(new CustomEvent(`live:${event.type}`, { detail: event }));
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    socket = new WebSocket(`${scheme}//${location.host}/api/games/${gameId}/socket?since_ply=${ply}`);
    socket.onopen = () => {
      retryMs = 500;
      pingTimer = setInterval(() => send({ type: "ping", id: Date.now() }), 20000);
    };
    socket.onmessage = (message) => {
      try {
        handle(JSON.parse(message.data));
      } catch (e) {
        console.warn("live: bad event", e);
      }
    };
    socket.onclose = () => {
      clearInterval(pingTimer);
      // Reconnect with backoff; since_ply resumes without gaps.
      setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, 10000);
    };
  }

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  const form = root.querySelector("form[data-live-move]");
  if (form) {
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const input = form.elements.namedItem("move");
      send({ type: "move", move: input.value, ply });
      input.value = "";
    });
  }

  window.tavoliereLive = {
    move: (text) => send({ type: "move", move: text, ply }),
    resign: () => send({ type: "resign" }),
    draw: (action) => send({ type: "draw", action }),
  };
  connect();
  requestAnimationFrame(tick);
}
