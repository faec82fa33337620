// The daily page: today's deal and your attempt; after it, your result, how today's players
// did (contracts completed, a small column chart), your streak, the countdown, and a
// spoiler-free share card, as text and as a PNG drawn here, carrying the day's commitment.
import * as api from "../api.js";
import * as counts from "../counts.js";
import { startCountdown } from "../countdown.js";
import { showMessage } from "../errors.js";
import { date, format, gettext, lang, ngettext, number } from "../i18n.js";
import { dealSymbols } from "../views/summary.js";

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

function shareLines(daily, result, symbols) {
  return [
    format(gettext("Ladder Rummy daily %(date)s"), { date: date(daily.date) }),
    format(gettext("🪜 %(contracts)s/10 contracts · %(points)s · place %(place)s"),
      { contracts: result.contracts, points: counts.penaltyPoints(result.penalty), place: result.place }),
    symbols,
    format(gettext("Commitment %(hash)s"), { hash: daily.commitment }),
    `${location.origin}/daily/`,
  ];
}

const FONT = '"Ladder Thai", system-ui, sans-serif';
const SQUARE = { "🟨": "#ffd166", "🟩": "#57c27a", "⬜": "#c9d6cf" };

// The card as a 1200x630 picture (a link preview's size). The squares are drawn, not emoji,
// which depend on the drawing machine's fonts; Thai text waits for the site's Thai font.
async function shareImage(lines) {
  const [title, summary, symbols, commitment, address] = lines;
  if (lang === "th" && document.fonts) {
    await Promise.all(["400", "700"].map((w) => document.fonts.load(`${w} 40px ${FONT}`, title + summary)))
      .catch(() => {});
  }
  const canvas = document.createElement("canvas");
  canvas.width = 1200;
  canvas.height = 630;
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#0d3b2e";
  ctx.fillRect(0, 0, 1200, 630);
  ctx.textBaseline = "top";
  const write = (text, x, y, px, { weight = "400", colour = "#f4f1e6", family = FONT } = {}) => {
    let size = px;
    do { ctx.font = `${weight} ${size}px ${family}`; size -= 1; } while (ctx.measureText(text).width > 1200 - 2 * x && size > 12);
    ctx.fillStyle = colour;
    ctx.fillText(text, x, y);
  };
  write(title, 64, 60, 56, { weight: "700" });
  write(summary.replace(/^\S+\s/u, ""), 64, 150, 44);
  [...symbols].forEach((symbol, i) => {
    ctx.fillStyle = SQUARE[symbol] || SQUARE["⬜"];
    ctx.fillRect(64 + i * 104, 240, 88, 88);
  });
  const hash = commitment.slice(commitment.lastIndexOf(" ") + 1);
  write(commitment.slice(0, commitment.lastIndexOf(" ")), 64, 380, 28, { colour: "#c9d6cf" });
  write(hash.slice(0, 32), 64, 420, 34, { family: "ui-monospace, monospace", colour: "#ffd166" });
  write(hash.slice(32), 64, 462, 34, { family: "ui-monospace, monospace", colour: "#ffd166" });
  write(address, 64, 550, 30, { colour: "#c9d6cf" });
  return canvas.toDataURL("image/png");
}

async function showShare(daily, result, game) {
  const lines = shareLines(daily, result, game ? dealSymbols(game) : "");
  const text = lines.join("\n");
  $("[data-share-text]").value = text;
  const copy = $("[data-share-copy]");
  copy.addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(text); copy.textContent = gettext("Copied"); }
    catch { $("[data-share-text]").select(); }
  });
  const png = await shareImage(lines);
  $("[data-share-download]").href = png;
  const img = $("[data-share-image]");
  img.src = png;
  img.alt = text;
  $("[data-share-box]").hidden = false;
}

async function load() {
  if (root.dataset.available !== "1") {
    stateLine.textContent = gettext("The daily deal is not open on this server yet. Practice games are.");
    return;
  }
  let daily;
  try {
    daily = await api.daily();
  } catch (error) {
    stateLine.textContent = gettext("The daily deal could not be loaded.");
    showMessage(status, error);
    return;
  }
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
