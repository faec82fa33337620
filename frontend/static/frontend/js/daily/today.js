// The daily page: today's deal and your attempt; after it, your result, how today's players
// did (contracts completed, a small column chart), your streak, the countdown, and a
// spoiler-free share card, as text and as a PNG drawn here, carrying the day's commitment.
//
// The daily's entry point in the browser. Its parts are all in this folder, js/daily/:
//   today.js      this page (/daily/), templates/frontend/daily.html
//   day.js        a day's page (/daily/YYYY-MM-DD/): the commitment, the seed once revealed,
//                 and the check of both in the browser; templates/frontend/daily_day.html
//   verify.js     the day's deals re-dealt from its seed, as the engine deals them
//   sharecard.js  the share card (also in the table's end-of-game dialog, controllers/dialogs.js)
//   countdown.js  the time left to the next daily (also on the home page)
// Shared with other pages: js/days.js (UTC days and weeks, links to days), api.js, i18n.js.
// The server's side starts at games/api_daily.py (its docstring maps games/daily.py,
// games/services/daily.py and the rest); a daily game is played on the table like any other.
import * as api from "../api.js";
import * as counts from "../counts.js";
import { startCountdown } from "./countdown.js";
import { dailyOrWhyNot } from "./fetch.js";
import { showMessage } from "../errors.js";
import { date, format, gettext, ngettext, number } from "../i18n.js";
import { dealSymbols, fillShareBox, shareLines } from "./sharecard.js";

const root = document.getElementById("daily-page");
const $ = (selector) => root.querySelector(selector);
const status = $("[data-status]");
const stateLine = $("[data-daily-state]");
const play = $("[data-daily-play]");
const setSecondsLeft = startCountdown($("[data-countdown]"));

function gameHref(id) {
  return `/play/${encodeURIComponent(id)}/`;
}

function showAttempt(daily) {
  const attempt = daily.attempt || { state: "none" };
  play.hidden = false;
  play.onclick = () => location.assign(gameHref(attempt.game));
  if (attempt.state === "finished") {
    stateLine.textContent = gettext("Done for today.");
    play.textContent = gettext("See the final table");
  } else if (attempt.state === "active") {
    stateLine.textContent = gettext("In progress: resume where you left off.");
    play.textContent = gettext("Resume today's daily");
  } else if (attempt.state === "expired") {
    stateLine.textContent = gettext("Today's attempt was closed unfinished.");
    play.hidden = true;
  } else {
    stateLine.textContent = gettext("Not started yet. Finish it to see how everyone did and to get your share card.");
    play.textContent = gettext("Play today's daily");
    play.onclick = async () => {
      play.disabled = true;
      try {
        const created = await api.startGame("daily", daily.level);
        location.assign(gameHref((created.game || created).id));
      } catch (error) {
        play.disabled = false;
        showMessage(status, error);
      }
    };
  }
}

function showResult(result, board) {
  const line = $("[data-daily-result]");
  let text = format(gettext("Your result: %(contracts)s, %(points)s, place %(place)s at your table."), {
    contracts: counts.contractsDone(result.contracts), points: counts.penaltyPoints(result.penalty),
    place: result.place,
  });
  if (board?.me) {
    text += " " + format(gettext("Rank %(rank)s of %(n)s today."), { rank: board.me.rank, n: board.count });
  }
  line.textContent = text;
  line.hidden = false;
}

function showStreak(history) {
  if (!history) return;
  const line = $("[data-streak]");
  line.textContent = format(gettext("Daily streak: %(days)s (longest: %(longest)s)."), {
    days: counts.days(history.current_streak), longest: counts.days(history.longest_streak),
  });
  line.hidden = false;
}

// One column per number of contracts completed (0-10), as tall as its share of the players;
// yours is marked. Each column also says itself in words for screen readers.
function showDistribution(board, mine) {
  const counted = board?.distribution;
  if (!Array.isArray(counted)) return;
  const most = Math.max(1, ...counted);
  const columns = counted.map((n, contracts) => {
    const li = document.createElement("li");
    if (contracts === mine) li.className = "mine";
    const said = document.createElement("span");
    said.className = "visually-hidden";
    said.textContent = format(ngettext("%(contracts)s: %(n)s player", "%(contracts)s: %(n)s players", n),
      { contracts: counts.contracts(contracts), n }) + (contracts === mine ? ` (${gettext("you")})` : "");
    const count = document.createElement("span");
    count.className = "bar-count";
    count.textContent = number(n);
    const bar = document.createElement("span");
    bar.className = "bar";
    bar.style.setProperty("--share", String(n / most));
    const label = document.createElement("span");
    label.className = "bar-label";
    label.textContent = number(contracts);
    for (const part of [count, bar, label]) part.setAttribute("aria-hidden", "true");
    li.append(said, count, bar, label);
    return li;
  });
  $("[data-distribution]").replaceChildren(...columns);
  $("[data-distribution-note]").textContent = format(
    ngettext("Contracts completed by the %(n)s player who finished today's daily.",
      "Contracts completed by the %(n)s players who finished today's daily.", board.count),
    { n: board.count });
  $("[data-distribution-box]").hidden = false;
}

async function showShare(daily, result, game) {
  const box = $("[data-share-box]");
  await fillShareBox(box, shareLines(daily, result, game ? dealSymbols(game) : ""));
  box.hidden = false;
}

async function load() {
  const daily = await dailyOrWhyNot(root, stateLine, (error) => showMessage(status, error));
  if (!daily) return;
  setSecondsLeft(daily.seconds_left);
  const when = $("[data-daily-date]");
  when.textContent = date(daily.date, { dateStyle: "long" });
  when.dateTime = daily.date;
  $("[data-daily-commitment]").textContent = daily.commitment;
  showAttempt(daily);
  const attempt = daily.attempt || {};
  if (attempt.state !== "finished" && attempt.state !== "expired") return;
  const hasPlayer = document.body.dataset.player === "1";
  const [board, history, game] = await Promise.all([
    root.dataset.board === "1" ? api.dailyBoard(daily.date, 1).catch(() => null) : null,
    hasPlayer ? api.myHistory().catch(() => null) : null,
    attempt.game ? api.game(attempt.game).catch(() => null) : null,
  ]);
  const result = attempt.result;
  if (result) showResult(result, board);
  showStreak(history);
  showDistribution(board, result?.contracts);
  if (result) await showShare(daily, result, game);
}

load().finally(() => { root.dataset.loaded = ""; });
