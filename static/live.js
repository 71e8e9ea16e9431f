// Live mode of the game page (docs/live-protocol.md, "The game page in the browser").
// Included by the page of a live game in play, inside
//   <div id="live" data-live-game="{id}" data-ply="{ply}" data-live="true">
// holding the live bar (#connection, [data-live-watchers]) and the element #game.
//
// The board is drawn in one place, by the server: after every event that changes the
// game (a move ending a turn, a draw offer, a seat leaving, the result, a full state) the
// script fetches GET /games/{id}/panel, the element #game exactly as the page draws it for
// this viewer (the server's SVG board, players and clocks, status, the move form and
// buttons enabled for whoever is to move now, the move list in the viewer's notation,
// the result and its explanation), and swaps it in. The forms inside #game are sent with
// fetch and the page they answer with is swapped in the same way, so nobody reloads.
//
// Clocks tick here from the server's `clock` events, corrected by the offset between the
// server's clock and the browser's; `clockText` writes them as the server does
// (server/http/pages/game.rs `clock_text`).
//
// Correspondence games follow the game over the same socket (issue 37 §4), and a player's
// page of a finished game hears its rematch (the socket's notifications redraw it).
// A reader looking at an earlier position (?ply=) keeps it: the redraw asks for that
// position, and the new moves are only added to the list (static/game.js viewQuery).
// Redrawn panels are swapped in by static/game.js (swap).
//
// For tests and debugging, window.tavoliereLive offers: log (the events received, with
// their ply), drop(ms) (close the socket as a network failure would; reconnect after ms),
// busy() (a redraw is under way),
// and the performance entries "live-redraw" (event arrival to the swapped-in board).

const root = document.getElementById("live");
if (root && root.dataset.live === "true") {
  const gameId = root.dataset.liveGame;
  let ply = Number(root.dataset.ply || 0);
  let clock = null; // last clock event
  let offsetMs = 0; // server time - local time
  let retryMs = 500;
  let holdMs = 0; // drop(ms): the next reconnect waits this long
  let socket = null;
  let pingTimer = null;
  const log = [];

  const connection = document.getElementById("connection");
  function showConnection(state) {
    if (!connection) return;
    connection.dataset.state = state;
    connection.textContent = connection.dataset[state] || state;
  }

  // Minutes and seconds, tenths under ten seconds; byoyomi: main time + periods, then the
  // current period and the periods left.
  function plain(ms) {
    if (ms < 10000) return `${Math.floor(ms / 1000)}.${Math.floor((ms % 1000) / 100)}`;
    const s = Math.ceil(ms / 1000);
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  }
  function clockText(ms, period, periods) {
    ms = Math.max(0, Math.floor(ms));
    if (!period) return plain(ms);
    const all = period * periods;
    if (ms > all) return `${plain(ms - all)} + ${periods}×${period / 1000}s`;
    const left = Math.max(1, Math.ceil(ms / period));
    return `${plain(ms - (left - 1) * period)} (${left}×${period / 1000}s)`;
  }

  function tick() {
    const game = document.getElementById("game");
    if (!clock || !game) return;
    const period = Number(game.dataset.periodMs || 0);
    const periods = Number(game.dataset.periods || 0);
    // A side's first move, before its clock starts: the time left to make it.
    const first = game.querySelector(".first-move-left");
    if (first && clock.first_move_seat !== null && clock.deadline) {
      first.textContent = plain(Math.max(0, Date.parse(clock.deadline) - (Date.now() + offsetMs)));
    }
    clock.remaining_ms.forEach((remaining, seat) => {
      const el = game.querySelector(`[data-live-clock="${seat}"]`);
      // A flag that fell shows 0:00, as the server wrote it.
      if (!el || el.classList.contains("flagged")) return;
      const running = clock.running_seat === seat && Boolean(clock.deadline);
      const shown = running ? Date.parse(clock.deadline) - (Date.now() + offsetMs) : remaining;
      el.textContent = clockText(shown, period, periods);
      el.classList.toggle("running", running);
      el.classList.toggle("low", shown < 10000);
    });
  }

  function setClock(event) {
    clock = event;
    offsetMs = Date.parse(event.server_time) - Date.now();
    tick();
  }

  function stateKey(game) {
    const seats = game.seats.map((seat) => seat.status).join(",");
    return `${game.ply}:${game.status}:${game.draw_offer_seat ?? ""}:${seats}`;
  }

  // Whether part `index` of the page's state (ply:status:draw offer:seat statuses, see
  // stateKey) differs from `value`: an event that would change nothing on the page (a
  // resumed socket hears the draw offer and the seats as they are) redraws nothing.
  function differs(index, value) {
    const parts = (document.getElementById("game")?.dataset.state || "").split(":");
    return parts[index] !== String(value);
  }

  function setWatchers(count) {
    const el = root.querySelector("[data-live-watchers]");
    if (el) el.textContent = String(count);
  }

  // Swaps in a fresh #game (static/game.js): an answer overtaken by a newer one already
  // drawn is dropped, what the player was typing is kept. False when it cannot.
  function swap(fresh) {
    return Boolean(fresh) && window.tavoliereGame.swap(fresh);
  }
  document.addEventListener("tavoliere:redrawn", tick);

  // One redraw at a time; events arriving meanwhile ask for one more, from the time the
  // first of them arrived.
  let redrawing = false;
  let waitingSince = null;
  let sending = 0; // forms of this page being sent: their answer redraws the page
  let changedWhileSending = false; // an event besides moves came meanwhile
  async function redraw(arrived, moved = false) {
    if (sending > 0 && !moved) changedWhileSending = true;
    if (waitingSince === null) waitingSince = arrived;
    if (redrawing || sending > 0) return;
    redrawing = true;
    try {
      while (waitingSince !== null) {
        const since = waitingSince;
        waitingSince = null;
        const panel = `/games/${gameId}/panel${window.tavoliereGame.viewQuery()}`;
        const response = await fetch(panel, { credentials: "same-origin", cache: "no-store" });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        const template = document.createElement("template");
        template.innerHTML = (await response.text()).trim();
        if (swap(template.content.getElementById("game"))) {
          performance.measure("live-redraw", { start: since, end: performance.now() });
        }
      }
    } catch (e) {
      console.warn("live: cannot redraw", e);
    } finally {
      redrawing = false;
    }
  }

  function handle(event, arrived) {
    switch (event.type) {
      case "state":
        log.push({ type: "state", ply: event.game.ply });
        ply = event.game.ply;
        setClock(event.clock);
        setWatchers(event.watchers);
        // The page drawn a moment ago is redrawn only if the game changed since
        // (server/http/pages/game.rs, state_key).
        if (document.getElementById("game")?.dataset.state !== stateKey(event.game)) redraw(arrived);
        break;
      case "resume":
        log.push({ type: "resume", ply: event.ply, since: event.since_ply });
        setWatchers(event.watchers);
        // The moves missed follow as move events, each redrawing the page; a page drawn
        // at the game's ply is redrawn only for what the events after this one change.
        if (event.ply !== Number(document.getElementById("game")?.dataset.gamePly)) redraw(arrived);
        break;
      case "move":
        // A move already shown is never shown twice (the server sends each once; this
        // guards the page all the same).
        if (event.move.ply <= ply) {
          log.push({ type: "duplicate", ply: event.move.ply });
          break;
        }
        log.push({ type: "move", ply: event.move.ply });
        ply = event.move.ply;
        root.dataset.ply = String(ply);
        // A Flickering series comes as several moves; only the last carries the position.
        // The mover's page may have drawn it already from its form's answer.
        if (event.position && Number(document.getElementById("game")?.dataset.gamePly) !== ply) redraw(arrived, true);
        break;
      case "clock":
        setClock(event);
        break;
      case "draw_offer":
        log.push({ type: event.type });
        if (differs(2, event.seat ?? "")) redraw(arrived);
        break;
      case "seats":
        log.push({ type: event.type });
        if (differs(3, event.seats.map((seat) => seat.status).join(","))) redraw(arrived);
        break;
      case "result":
        log.push({ type: event.type });
        if (differs(1, event.status)) redraw(arrived);
        break;
      case "watchers":
        setWatchers(event.count);
        break;
      case "notifications":
        // After the end: a rematch offered, accepted or declined.
        if (document.getElementById("game")?.dataset.status !== "active") redraw(arrived);
        break;
      case "error": {
        const el = document.getElementById("live-error");
        if (el) el.textContent = event.message;
        break;
      }
    }
    root.dispatchEvent(new CustomEvent(`live:${event.type}`, { detail: event }));
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const opened = new WebSocket(`${scheme}//${location.host}/api/games/${gameId}/socket?since_ply=${ply}`);
    socket = opened;
    opened.onopen = () => {
      retryMs = 500;
      showConnection("connected");
      pingTimer = setInterval(() => send({ type: "ping", id: Date.now() }), 20000);
    };
    opened.onmessage = (message) => {
      const arrived = performance.now();
      try {
        handle(JSON.parse(message.data), arrived);
      } catch (e) {
        console.warn("live: bad event", e);
      }
    };
    opened.onclose = () => {
      if (socket !== opened) return;
      clearInterval(pingTimer);
      showConnection("reconnecting");
      // Reconnect with backoff; since_ply resumes without gaps or repeats.
      const wait = holdMs || retryMs;
      holdMs = 0;
      setTimeout(connect, wait);
      retryMs = Math.min(retryMs * 2, 10000);
    };
  }

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  // The forms of #game (move, confirmation, draw, resign, claim) are sent with fetch; the
  // page they answer with (the game page again, or with the refusal) is swapped in.
  document.addEventListener("submit", async (e) => {
    const form = e.target;
    // The attributes, not the properties: a field named "action" shadows form.action.
    const method = (form.getAttribute("method") || "get").toLowerCase();
    if (!(form instanceof HTMLFormElement) || !form.closest("#game") || method !== "post") return;
    e.preventDefault();
    const body = new URLSearchParams(new FormData(form));
    form.querySelectorAll("button").forEach((b) => (b.disabled = true));
    if (sending === 0) changedWhileSending = false;
    sending += 1;
    try {
      const action = new URL(form.getAttribute("action"), location.href);
      const response = await fetch(action, { method: "POST", body, credentials: "same-origin" });
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      // Anything but the game page (a refused form token, a signed-out session): show it.
      if (!swap(page.getElementById("game"))) {
        window.location.assign(response.url);
        return;
      }
    } catch (_) {
      form.submit();
      return;
    } finally {
      sending -= 1;
    }
    // The events that arrived meanwhile (this very move among them) are drawn already
    // unless the game went further than the answer shows.
    const drawn = Number(document.getElementById("game")?.dataset.gamePly) >= ply;
    if (drawn && !changedWhileSending) waitingSince = null;
    changedWhileSending = false;
    if (waitingSince !== null) redraw(waitingSince);
  });

  window.tavoliereLive = {
    log,
    redraw: () => redraw(performance.now()),
    // A redraw is under way or asked for (the page is about to change).
    busy: () => redrawing || sending > 0 || waitingSince !== null,
    move: (text) => send({ type: "move", move: text, ply }),
    resign: () => send({ type: "resign" }),
    draw: (action) => send({ type: "draw", action }),
    drop: (ms) => {
      holdMs = ms || 0;
      if (socket) socket.close();
    },
  };
  showConnection("reconnecting");
  connect();
  setInterval(tick, 100);
}
