// Deadlines as a countdown (issue 18 §4): every <time data-countdown="{days} d {hours} h
// {minutes} min" datetime="..."> shows the time left in the reader's language, updated
// every 20 seconds. Without this script the element shows the date and time of the
// deadline in UTC, as the server wrote it (and its title keeps that date).

function show(element) {
  const left = Math.max(0, Date.parse(element.dateTime) - Date.now());
  const minutes = Math.floor(left / 60000);
  element.textContent = element.dataset.countdown
    .replace("{days}", String(Math.floor(minutes / 1440)))
    .replace("{hours}", String(Math.floor((minutes % 1440) / 60)))
    .replace("{minutes}", String(minutes % 60));
}

function tick() {
  document.querySelectorAll("time[data-countdown]").forEach(show);
}

tick();
setInterval(tick, 20000);
