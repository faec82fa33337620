// Leaderboards: a day's daily or an ISO week, any past one (previous/next, a date picker; the
// address carries it: ?day=YYYY-MM-DD or ?week=YYYY-Www), your own entry highlighted, each
// player a link to their page, and an ended day's entries a link to their game's replay.
// Pages of PAGE_SIZE entries follow the API's keyset cursor ("next" -> "after"); today's board
// (and this week's) refresh live, and wait while more than the first page is shown.
import * as api from "../api.js";
import * as counts from "../counts.js";
import { addDays, dayHref, isDay, mondayOf, playerHref, replayHref, today, weekOf } from "../days.js";
import { showMessage } from "../errors.js";
import { date, dateRange, format, gettext, ngettext, number } from "../i18n.js";
import { openSocket } from "../socket.js";

const root = document.getElementById("board");
const $ = (selector) => root.querySelector(selector);
const rows = $("[data-rows]");
const title = $("[data-board-title]");
const empty = $("[data-board-empty]");
const mine = $("[data-board-me]");
const status = $("[data-status]");
const more = $("[data-board-more]");
const count = $("[data-board-count]");
const previous = $("[data-board-previous]");
const next = $("[data-board-next]");
const pick = $("[data-board-pick]");
const watchColumn = $("[data-watch-column]");
const dayLink = $("[data-board-day-link]");
const REFRESH_MS = 30000;
const PAGE_SIZE = 25;
// The board shown: {kind: "day", day} or {kind: "week", week, monday}.
let shown = fromAddress();
let cursor = null; // the cursor of the page after the rows shown
let pages = 0;
let loading = 0; // answers to an older choice are dropped

function fromAddress() {
  const params = new URLSearchParams(location.search);
  const week = params.get("week");
  if (week && mondayOf(week) && mondayOf(week) <= today()) return { kind: "week", week, monday: mondayOf(week) };
  const day = params.get("day");
  if (day && isDay(day) && day <= today()) return { kind: "day", day };
  return { kind: "day", day: today() };
}

function address(board) {
  return board.kind === "day" ? `?day=${board.day}` : `?week=${board.week}`;
}

const isLive = () => (shown.kind === "day" ? shown.day === today() : shown.week === weekOf(today()));
const hasEnded = () => shown.kind === "day" && shown.day < today();

function weekTitle(starts, ends) {
  return format(gettext("Week %(dates)s"), { dates: dateRange(starts, ends) });
}

function cell(content) {
  const td = document.createElement("td");
  td.append(content);
  return td;
}

function entryRow(entry, isMe) {
  const tr = document.createElement("tr");
  if (isMe) { tr.className = "me"; tr.setAttribute("aria-current", "true"); }
  const name = document.createElement("a");
  name.href = playerHref(entry.player?.id ?? "");
  name.textContent = entry.player?.name ?? "";
  tr.append(cell(number(entry.rank)), cell(name), cell(number(entry.contracts)), cell(number(entry.penalty)));
  if (entry.linked) {
    // Another identity played this daily from the same address or browser (Fairness page).
    const mark = document.createElement("small");
    mark.className = "linked";
    mark.textContent = ` ${gettext("(under review)")}`;
    mark.title = shown.kind === "day"
      ? gettext("Another identity played this daily from the same address or browser.")
      : gettext("Another identity played one of the dailies counted here from the same address or browser.");
    tr.children[1].append(mark);
  }
  if (hasEnded()) {
    const watch = cell("");
    watch.className = "watch";
    if (entry.game) {
      const link = document.createElement("a");
      link.href = replayHref(entry.game);
      link.textContent = gettext("Watch");
      link.setAttribute("aria-label", format(gettext("Watch how %(name)s played"), { name: entry.player?.name ?? "" }));
      watch.replaceChildren(link);
    }
    tr.append(watch);
  }
  return tr;
}

function fetchPage(after) {
  return shown.kind === "day"
    ? api.dailyBoard(shown.day, PAGE_SIZE, after)
    : api.weekBoard(shown.week, PAGE_SIZE, after);
}

function showPage(data, append) {
  const entries = data.entries || [];
  const myId = data.me?.player?.id;
  const rowsOf = entries.map((e) => entryRow(e, myId !== undefined && e.player?.id === myId));
  if (append) rows.append(...rowsOf); else rows.replaceChildren(...rowsOf);
  cursor = data.next || null;
  pages = append ? pages + 1 : 1;
  more.hidden = !cursor;
  const total = data.count ?? 0;
  count.textContent = total
    ? format(ngettext("Showing %(shown)s of %(n)s player", "Showing %(shown)s of %(n)s players", total),
      { shown: rows.children.length, n: total })
    : "";
}

async function loadMore() {
  if (!cursor) return;
  more.disabled = true;
  try {
    showPage(await fetchPage(cursor), true);
    if (more.hidden) count.focus(); // the button went away with the last page
  } catch (error) {
    showMessage(status, error);
  } finally {
    more.disabled = false;
  }
}

// The previous and next day or week, the picker's value, the tabs and the day's page link.
function showNavigation() {
  const isDayBoard = shown.kind === "day";
  for (const tab of root.querySelectorAll("[data-board]")) {
    tab.setAttribute("aria-selected", String(tab.dataset.board === shown.kind));
  }
  const step = isDayBoard ? 1 : 7;
  const at = isDayBoard ? shown.day : shown.monday;
  const [before, after] = [addDays(at, -step), addDays(at, step)];
  previous.textContent = `← ${isDayBoard ? gettext("Previous day") : gettext("Previous week")}`;
  next.textContent = `${isDayBoard ? gettext("Next day") : gettext("Next week")} →`;
  previous.dataset.target = before;
  next.dataset.target = after;
  next.hidden = after > today();
  pick.max = today();
  pick.value = at;
  $("[data-board-pick-label]").textContent = isDayBoard ? gettext("Go to the day") : gettext("Go to the week of");
  watchColumn.hidden = !hasEnded();
  dayLink.hidden = !isDayBoard;
  dayLink.querySelector("a").href = isDayBoard ? dayHref(shown.day) : "#";
  title.textContent = isDayBoard
    ? format(gettext("Daily of %(date)s"), { date: date(shown.day) })
    : weekTitle(shown.monday, addDays(shown.monday, 6));
}

async function load() {
  const ticket = ++loading;
  showNavigation();
  if (root.dataset.available !== "1") {
    rows.replaceChildren();
    empty.hidden = false;
    empty.textContent = gettext("The leaderboards are not open on this server yet.");
    return;
  }
  let data;
  try {
    data = await fetchPage(null);
  } catch (error) {
    if (ticket === loading) showMessage(status, error);
    return;
  }
  if (ticket !== loading) return;
  status.textContent = "";
  showPage(data, false);
  if (shown.kind === "week" && data.starts && data.ends) title.textContent = weekTitle(data.starts, data.ends);
  const me = data.me || null;
  empty.hidden = rows.children.length > 0;
  mine.textContent = me
    ? format(gettext("You: rank %(rank)s, %(contracts)s, %(points)s."),
      { rank: me.rank, contracts: counts.contracts(me.contracts), points: counts.penaltyPoints(me.penalty) })
    : "";
}

function go(board) {
  shown = board;
  history.pushState(null, "", address(board));
  load().finally(() => { root.dataset.loaded = address(board); });
}

function goToDay(day) {
  if (!isDay(day) || day > today()) return;
  go(shown.kind === "day" ? { kind: "day", day } : { kind: "week", week: weekOf(day), monday: mondayOf(weekOf(day)) });
}

for (const tab of root.querySelectorAll("[data-board]")) {
  tab.addEventListener("click", () => {
    const at = shown.kind === "day" ? shown.day : (shown.week === weekOf(today()) ? today() : addDays(shown.monday, 6));
    go(tab.dataset.board === "day" ? { kind: "day", day: at } : { kind: "week", week: weekOf(at), monday: mondayOf(weekOf(at)) });
  });
}
previous.addEventListener("click", () => goToDay(previous.dataset.target));
next.addEventListener("click", () => goToDay(next.dataset.target));
pick.addEventListener("change", () => goToDay(pick.value));
addEventListener("popstate", () => {
  shown = fromAddress();
  load();
});
more.addEventListener("click", loadMore);
const refresh = () => { if (pages <= 1 && isLive()) load(); };

load().finally(() => { root.dataset.loaded = address(shown); });
if (root.dataset.available === "1") {
  openSocket("/ws/leaderboards/daily/", () => { if (shown.kind === "day") refresh(); });
  setInterval(refresh, REFRESH_MS);
}
