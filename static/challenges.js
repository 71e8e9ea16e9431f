// The open challenges page: while some of the reader's challenges wait for an opponent,
// ask the server about them (GET /api/challenges/{id}) and open the game as soon as one
// is accepted, so that both players land on the game page (issue 22). Without this
// script the page works as it is: the game is listed on the dashboard.

const waiting = [...document.querySelectorAll("[data-waiting]")].map((row) => row.dataset.waiting);

async function look() {
  for (const id of waiting) {
    try {
      const response = await fetch(`/api/challenges/${id}`, { credentials: "same-origin" });
      if (!response.ok) continue;
      const challenge = await response.json();
      if (challenge.game_id) {
        window.location.assign(`/games/${challenge.game_id}`);
        return;
      }
    } catch (_) {
      // Try again at the next look.
    }
  }
  setTimeout(look, 1000);
}

if (waiting.length > 0 && window.fetch) setTimeout(look, 1000);
