// Leaderboards: today's daily and this week, your own entry highlighted, refreshed live.
import * as api from "../api.js";
import { showMessage } from "../errors.js";
import { date, format, gettext, number } from "../i18n.js";
import { openSocket, socketsAvailable } from "../socket.js";

const root = document.getElementById("board");
const rows = root.querySelector("[data-rows]");
const title = root.querySelector("[data-board-title]");
const empty = root.querySelector("[data-board-empty]");
const mine = root.querySelector("[data-board-me]");
const status = root.querySelector("[data-status]");
const REFRESH_MS = 30000;
let board = "day";

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

function entryRow(entry, isMe) {
  const tr = document.createElement("tr");
  if (isMe) { tr.className = "me"; tr.setAttribute("aria-current", "true"); }
  for (const text of [number(entry.rank), entry.player?.name ?? "", number(entry.contracts), number(entry.penalty)]) {
    const td = document.createElement("td");
    td.textContent = text;
    tr.append(td);
  }
  return tr;
}

async function load() {
  title.textContent = board === "day"
    ? format(gettext("Daily of %(date)s"), { date: date(today()) })
    : format(gettext("Week %(week)s"), { week: isoWeek() });
  if (root.dataset.available !== "1") {
    rows.replaceChildren();
    empty.hidden = false;
    empty.textContent = gettext("The leaderboards are not open on this server yet.");
    return;
  }
  let data;
  try {
    data = board === "day" ? await api.dailyBoard(today()) : await api.weekBoard(isoWeek());
  } catch (error) {
    showMessage(status, error);
    return;
  }
  const entries = data.entries || [];
  const me = data.me || null;
  const myId = me?.player?.id;
  rows.replaceChildren(...entries.map((e) => entryRow(e, myId !== undefined && e.player?.id === myId)));
  empty.hidden = entries.length > 0;
  mine.textContent = me
    ? format(gettext("You: rank %(rank)s, %(contracts)s contracts, %(penalty)s penalty."), { rank: me.rank, contracts: me.contracts, penalty: me.penalty })
    : "";
}

for (const tab of root.querySelectorAll("[data-board]")) {
  tab.addEventListener("click", () => {
    board = tab.dataset.board;
    for (const t of root.querySelectorAll("[data-board]")) t.setAttribute("aria-selected", String(t === tab));
    load();
  });
}

load();
if (root.dataset.available === "1") {
  if (socketsAvailable()) openSocket("/ws/leaderboards/daily/", () => { if (board === "day") load(); });
  setInterval(load, REFRESH_MS);
}
