// Home: today's daily (state, rank, countdown), a practice game with a level, your games.
import * as api from "../api.js";
import * as counts from "../counts.js";
import { showMessage } from "../errors.js";
import { startCountdown } from "../daily/countdown.js";
import { dailyOrWhyNot } from "../daily/fetch.js";
import { format, gettext, levelName, ngettext } from "../i18n.js";

const status = document.querySelector("[data-status]");
const dailyBox = document.getElementById("daily");
const dailyState = dailyBox.querySelector("[data-daily-state]");
const dailyButton = dailyBox.querySelector("[data-daily-start]");
const setSecondsLeft = startCountdown(dailyBox.querySelector("[data-countdown]"));

async function start(mode, level) {
  try {
    const created = await api.startGame(mode, level || "normal");
    const game = created.game || created;
    location.assign(`/play/${encodeURIComponent(game.id)}/`);
  } catch (error) {
    showMessage(status, error);
  }
}

document.getElementById("practice-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const level = new FormData(e.target).get("level") || "normal";
  start("practice", level);
});
dailyButton.addEventListener("click", () => {
  const href = dailyButton.dataset.href;
  if (href) location.assign(href); else start("daily", "normal");
});

async function loadMe() {
  try {
    const me = await api.me();
    const who = document.getElementById("who");
    who.querySelector("[data-me-name]").textContent = me.name;
    const history = await api.myHistory().catch(() => null);
    const streak = history?.current_streak;
    const streakEl = who.querySelector("[data-me-streak]");
    if (typeof streak === "number") {
      streakEl.textContent = "· " + format(ngettext("daily streak: %(n)s day", "daily streak: %(n)s days", streak), { n: streak });
    } else {
      streakEl.remove();
    }
    // Shown whole, once: a line that grows while visible would move what is below it.
    who.hidden = false;
    delete who.dataset.pending;
  } catch { /* a new visitor has no identity until their first game */ }
}

async function loadDaily() {
  const daily = await dailyOrWhyNot(dailyBox, dailyState);
  if (!daily) return;
  setSecondsLeft(daily.seconds_left);
  const attempt = daily.attempt || { state: "none" };
  const href = attempt.game ? `/play/${encodeURIComponent(attempt.game)}/` : "";
  dailyButton.disabled = false;
  if (attempt.state === "finished") {
    const r = attempt.result;
    dailyState.textContent = r
      ? format(gettext("Done: %(contracts)s, %(points)s, place %(place)s at your table."),
        { contracts: counts.contracts(r.contracts), points: counts.penaltyPoints(r.penalty), place: r.place })
      : gettext("Done for today.");
    dailyButton.textContent = gettext("See today's results");
    dailyButton.dataset.href = "/daily/";
  } else if (attempt.state === "active") {
    dailyState.textContent = gettext("In progress: resume where you left off.");
    dailyButton.textContent = gettext("Resume today's daily");
    dailyButton.dataset.href = href;
  } else if (attempt.state === "expired") {
    dailyState.textContent = gettext("Today's attempt was closed unfinished.");
    dailyButton.disabled = true;
  } else {
    dailyState.textContent = format(gettext("Not started yet. Computer players: %(level)s."), { level: levelName(daily.level) });
    dailyButton.textContent = gettext("Play today's daily");
  }
}

async function loadGames() {
  let games;
  try { games = await api.myGames(); } catch { return; }
  const list = Array.isArray(games) ? games : games.items || games.games || [];
  const open = list.filter((g) => g.status !== "finished").slice(0, 5);
  if (!open.length) return;
  const ul = document.querySelector("[data-games]");
  ul.replaceChildren();
  for (const g of open) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = `/play/${encodeURIComponent(g.id)}/`;
    a.textContent = format(gettext("%(mode)s game, deal %(deal)s of 10"), {
      mode: g.mode === "daily" ? gettext("Daily") : gettext("Practice"), deal: g.deal,
    });
    li.append(a);
    ul.append(li);
  }
  document.getElementById("my-games").hidden = false;
}

if (document.body.dataset.player === "1") { loadMe(); loadGames(); }
loadDaily();
// Back from a game, the browser may show this page from its cache as it was: read again
// what may have changed meanwhile (the daily's state and countdown, the open games).
window.addEventListener("pageshow", (e) => {
  if (!e.persisted) return;
  loadDaily();
  loadGames(); // a game started from here made this browser a player
});
