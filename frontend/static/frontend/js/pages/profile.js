// Profile: change the display name (PATCH /me), and a few numbers from your games.
import * as api from "../api.js";
import { showInfo, showMessage } from "../errors.js";
import { format, gettext, number } from "../i18n.js";

const form = document.getElementById("name-form");
const input = document.getElementById("name-input");
const status = document.querySelector("[data-status]");
const stat = (key) => document.querySelector(`[data-stat="${key}"]`);

async function load() {
  if (document.body.dataset.player !== "1") {
    showInfo(status, gettext("Choose a name now, or start a game: this browser will remember you."));
    return;
  }
  try {
    const me = await api.me();
    input.value = me.name;
    const history = await api.myHistory().catch(() => null);
    if (history) {
      stat("streak").textContent = format(gettext("%(current)s (longest %(longest)s)"),
        { current: history.current_streak, longest: history.longest_streak });
    }
  } catch (error) {
    showMessage(status, error);
  }
  try {
    const games = await api.myGames();
    const items = games.items || [];
    const finished = items.filter((g) => g.status === "finished");
    stat("finished").textContent = number(finished.length);
    stat("active").textContent = number(items.length - finished.length);
    const best = finished.map((g) => g.result).filter(Boolean)
      .sort((a, b) => b.contracts - a.contracts || a.penalty - b.penalty)[0];
    if (best) {
      stat("best").textContent = format(gettext("%(contracts)s contracts, %(penalty)s penalty"), best);
    }
  } catch { /* numbers stay at zero */ }
}

form.addEventListener("submit", async (e) => {
  e.preventDefault();
  try {
    const me = await api.renameMe(input.value.trim());
    input.value = me.name;
    document.body.dataset.player = "1";
    showInfo(status, format(gettext("Saved. You are now %(name)s."), { name: me.name }));
  } catch (error) {
    showMessage(status, error);
  }
});

load();
