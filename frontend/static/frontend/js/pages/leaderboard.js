// Leaderboards: today's daily and this week, your own entry highlighted, refreshed live.
// Pages of PAGE_SIZE entries follow the API's keyset cursor ("next" -> "after"); while more
// than the first page is shown, the live refresh waits (it would pull the rows away).
import * as api from "../api.js";
import * as counts from "../counts.js";
import { showMessage } from "../errors.js";
import { date, dateRange, format, gettext, ngettext, number } from "../i18n.js";
import { openSocket } from "../socket.js";

const root = document.getElementById("board");
const rows = root.querySelector("[data-rows]");
const title = root.querySelector("[data-board-title]");
const empty = root.querySelector("[data-board-empty]");
const mine = root.querySelector("[data-board-me]");
const status = root.querySelector("[data-status]");
const more = root.querySelector("[data-board-more]");
const count = root.querySelector("[data-board-count]");
const REFRESH_MS = 30000;
const PAGE_SIZE = 25;
let board = "day";
let next = null; // the cursor of the page after the rows shown
let pages = 0;

function today() {
  return new Date().toISOString().slice(0, 10);
}

// ISO week of a date, as "2026-W48".
function isoWeek(d = new Date()) {
  const t = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  const day = t.getUTCDay() || 7;
  t.setUTCDate(t.getUTCDate() + 4 - day);
  const start = new Date(Date.UTC(t.getUTCFullYear(), 0, 1));
  const week = Math.ceil(((t - start) / 86400000 + 1) / 7);
  return `${t.getUTCFullYear()}-W${String(week).padStart(2, "0")}`;
}

// The Monday and Sunday of the ISO week of a date.
function weekDays(d = new Date()) {
  const monday = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - ((d.getUTCDay() || 7) - 1)));
  return [monday, new Date(monday.getTime() + 6 * 86400000)];
}

function weekTitle(starts, ends) {
  return format(gettext("Week %(dates)s"), { dates: dateRange(starts, ends) });
}

function entryRow(entry, isMe) {
  const tr = document.createElement("tr");
  if (isMe) { tr.className = "me"; tr.setAttribute("aria-current", "true"); }
  for (const text of [number(entry.rank), entry.player?.name ?? "", number(entry.contracts), number(entry.penalty)]) {
    const td = document.createElement("td");
    td.textContent = text;
    tr.append(td);
  }
  if (entry.linked) {
    // Another identity played this daily from the same address or browser (Fairness page).
    const mark = document.createElement("small");
    mark.className = "linked";
    mark.textContent = ` ${gettext("(under review)")}`;
    mark.title = board === "day"
      ? gettext("Another identity played this daily from the same address or browser.")
      : gettext("Another identity played one of the dailies counted here from the same address or browser.");
    tr.children[1].append(mark);
  }
  return tr;
}

function fetchPage(after) {
  return board === "day"
    ? api.dailyBoard(today(), PAGE_SIZE, after)
    : api.weekBoard(isoWeek(), PAGE_SIZE, after);
}

function showPage(data, append) {
  const entries = data.entries || [];
  const myId = data.me?.player?.id;
  const rowsOf = entries.map((e) => entryRow(e, myId !== undefined && e.player?.id === myId));
  if (append) rows.append(...rowsOf); else rows.replaceChildren(...rowsOf);
  next = data.next || null;
  pages = append ? pages + 1 : 1;
  more.hidden = !next;
  const total = data.count ?? 0;
  count.textContent = total
    ? format(ngettext("Showing %(shown)s of %(n)s player", "Showing %(shown)s of %(n)s players", total),
      { shown: rows.children.length, n: total })
    : "";
}

async function loadMore() {
  if (!next) return;
  more.disabled = true;
  try {
    showPage(await fetchPage(next), true);
    if (more.hidden) count.focus(); // the button went away with the last page
  } catch (error) {
    showMessage(status, error);
  } finally {
    more.disabled = false;
  }
}

async function load() {
  title.textContent = board === "day"
    ? format(gettext("Daily of %(date)s"), { date: date(today()) })
    : weekTitle(...weekDays());
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
    showMessage(status, error);
    return;
  }
  showPage(data, false);
  if (board === "week" && data.starts && data.ends) title.textContent = weekTitle(data.starts, data.ends);
  const me = data.me || null;
  empty.hidden = rows.children.length > 0;
  mine.textContent = me
    ? format(gettext("You: rank %(rank)s, %(contracts)s, %(points)s."),
      { rank: me.rank, contracts: counts.contracts(me.contracts), points: counts.penaltyPoints(me.penalty) })
    : "";
}

for (const tab of root.querySelectorAll("[data-board]")) {
  tab.addEventListener("click", () => {
    board = tab.dataset.board;
    for (const t of root.querySelectorAll("[data-board]")) t.setAttribute("aria-selected", String(t === tab));
    load();
  });
}

more.addEventListener("click", loadMore);
const refresh = () => { if (pages <= 1) load(); };

load();
if (root.dataset.available === "1") {
  openSocket("/ws/leaderboards/daily/", () => { if (board === "day") refresh(); });
  setInterval(refresh, REFRESH_MS);
}
