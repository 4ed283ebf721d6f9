// Keeps a leaderboard page current: refreshes ratings and game counts from the JSON endpoint.
(function () {
  const table = document.getElementById("leaderboard");
  const live = document.getElementById("live");
  if (!table || !live) return;
  async function refresh() {
    try {
      const response = await fetch(`/api/games/${encodeURIComponent(table.dataset.game)}/leaderboard.json`);
      const rows = await response.json();
      for (const row of rows) {
        const line = table.querySelector(`tr[data-bot-id="${row.id}"]`);
        if (!line) continue;
        line.querySelector(".rating").textContent = row.rating.toFixed(1);
        line.querySelector(".games").textContent = String(row.games);
      }
      live.textContent = `live updates: ${rows.length} bots, updated ${new Date().toISOString().slice(11, 19)} UTC`;
      live.dataset.updated = "1";
    } catch (error) {
      live.textContent = "live updates: unavailable";
    }
  }
  refresh();
  setInterval(refresh, 5000);
})();
