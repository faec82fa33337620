// A league's page: today's daily among the members (ranked once you have finished, only who
// has played before), yesterday's with a link to each member's replay, this week, all time,
// the members, and the creator's controls. Read
// again whenever the league's socket says something changed (a member finished, joined,
// left) and on a slow timer in case the socket is down.
import * as api from "../api.js";
import { replayHref } from "../days.js";
import { date, format, gettext, locale, number } from "../i18n.js";
import { leagueError, leagueName, memberCount, names } from "../leagues.js";
import { openSocket } from "../socket.js";

const root = document.getElementById("league");
const leagueId = JSON.parse(document.getElementById("league-id").textContent);
const $ = (selector) => root.querySelector(selector);
const status = $("[data-status]");
const REFRESH_MS = 60000;
const SETTLE_MS = 300; // frames that come together (a finish, a join) cause one read
let confirmAction = null;
let confirmReturn = null;

function say(text, kind = "error") {
  status.classList.remove("error", "info");
  status.classList.add("message", kind);
  status.textContent = text;
}

function row(cells, isMe) {
  const tr = document.createElement("tr");
  if (isMe) { tr.className = "me"; tr.setAttribute("aria-current", "true"); }
  for (const text of cells) {
    const td = document.createElement("td");
    td.textContent = text;
    tr.append(td);
  }
  return tr;
}

function renderToday(today, me) {
  const table = $("[data-today-table]");
  $("[data-today-note]").hidden = today.results_shown;
  table.hidden = !today.results_shown || today.entries.length === 0;
  $("[data-today-rows]").replaceChildren(...today.entries.map((e) => row(
    [number(e.rank), e.player.name, number(e.contracts), number(e.penalty)], e.player.id === me)));
  const played = $("[data-played]");
  played.hidden = today.results_shown || today.played.length === 0;
  played.textContent = format(gettext("Played today: %(names)s"), { names: names(today.played) });
  const notPlayed = $("[data-not-played]");
  notPlayed.hidden = today.not_played.length === 0;
  notPlayed.textContent = format(gettext("Not played yet: %(names)s"), { names: names(today.not_played) });
}

// An entry's game is given once its day has ended (never today's): a real link, so a click,
// a tap and Enter all open the replay viewer.
function watchCell(entry) {
  const td = document.createElement("td");
  td.className = "watch";
  if (entry.game) {
    const link = document.createElement("a");
    link.href = replayHref(entry.game);
    link.textContent = gettext("Watch");
    link.setAttribute("aria-label", format(gettext("Watch how %(name)s played"), { name: entry.player.name }));
    td.append(link);
  }
  return td;
}

function renderYesterday(yesterday, me) {
  $("[data-yesterday]").hidden = yesterday.entries.length === 0;
  $("[data-yesterday-rows]").replaceChildren(...yesterday.entries.map((e) => {
    const tr = row([number(e.rank), e.player.name, number(e.contracts), number(e.penalty)], e.player.id === me);
    tr.append(watchCell(e));
    return tr;
  }));
}

// Today's results join the week once the viewer has finished today's daily: until then a
// member who has not played is told so (others may have played: the week is not empty).
function renderWeek(week, today, me) {
  const hiddenToday = !today.results_shown && today.played.length > 0;
  $("[data-week-table]").hidden = week.entries.length === 0;
  $("[data-week-empty]").hidden = week.entries.length > 0 || hiddenToday;
  $("[data-week-hidden]").hidden = !hiddenToday;
  $("[data-week-rows]").replaceChildren(...week.entries.map((e) => row(
    [number(e.rank), e.player.name, number(e.contracts), number(e.penalty), number(e.days)],
    e.player.id === me)));
}

function renderAllTime(entries, me) {
  $("[data-all-table]").hidden = entries.length === 0;
  $("[data-all-empty]").hidden = entries.length > 0;
  const average = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
  $("[data-all-rows]").replaceChildren(...entries.map((e) => row(
    [e.player.name, number(e.dailies), number(e.contracts), average.format(e.average_rank),
      format(gettext("%(current)s (%(best)s)"), { current: e.current_streak, best: e.longest_streak })],
    e.player.id === me)));
}

function renderMembers(members, league, me) {
  $("[data-members]").replaceChildren(...members.map((m) => {
    const li = document.createElement("li");
    const name = document.createElement("span");
    name.textContent = m.name;
    li.append(name);
    if (m.creator) {
      const tag = document.createElement("small");
      tag.className = "muted";
      tag.textContent = ` (${gettext("creator")})`;
      li.append(tag);
    }
    if (league.you_created && m.id !== me) {
      const remove = document.createElement("button");
      remove.type = "button";
      remove.className = "btn";
      remove.textContent = gettext("Remove");
      remove.setAttribute("aria-label", format(gettext("Remove %(name)s"), { name: m.name }));
      remove.addEventListener("click", () => ask(
        format(gettext("Remove %(name)s from the league? They can join again with the code until you make a new one."), { name: m.name }),
        gettext("Remove"), remove, () => api.removeMember(leagueId, m.id)));
      li.append(" ", remove);
    }
    return li;
  }));
}

function render(page) {
  const { league } = page;
  const me = myId;
  const name = leagueName(league);
  $("[data-name]").textContent = name;
  document.title = `${name} · ${gettext("Ladder Rummy")}`;
  $("[data-summary]").textContent = format(gettext("%(members)s · since %(date)s"),
    { members: memberCount(league.members), date: date(league.created_at) });
  $("[data-link]").value = new URL(league.join_path, location.origin).href;
  $("[data-code]").textContent = league.code;
  renderToday(page.today, me);
  renderYesterday(page.yesterday, me);
  renderWeek(page.week, page.today, me);
  renderAllTime(page.all_time, me);
  renderMembers(page.members, league, me);
  $("[data-manage]").hidden = !league.you_created;
  const rename = $("[data-rename]").elements.name;
  if (document.activeElement !== rename) rename.value = league.name_hidden ? "" : league.name;
}

let myId = null;

async function load() {
  try {
    if (myId === null) myId = (await api.me()).id;
    render(await api.league(leagueId));
  } catch (error) {
    say(leagueError(error));
  }
}

let settle = null;
function soon() {
  clearTimeout(settle);
  settle = setTimeout(load, SETTLE_MS);
}

// One confirmation for what cannot be undone; focus returns where it was.
const confirmBox = $("[data-confirm]");
function ask(text, yes, from, action) {
  confirmAction = action;
  confirmReturn = from;
  $("[data-confirm-text]").textContent = text;
  $("[data-confirm-yes]").textContent = yes;
  confirmBox.hidden = false;
  $("[data-confirm-no]").focus();
}
function closeConfirm() {
  confirmBox.hidden = true;
  confirmAction = null;
  confirmReturn?.focus();
}
$("[data-confirm-no]").addEventListener("click", closeConfirm);
confirmBox.addEventListener("keydown", (e) => { if (e.key === "Escape") closeConfirm(); });
$("[data-confirm-yes]").addEventListener("click", async () => {
  const action = confirmAction;
  closeConfirm();
  try {
    const after = await action();
    if (after === "gone") location.assign("/leagues/");
    else await load();
  } catch (error) {
    say(leagueError(error));
  }
});

$("[data-copy]").addEventListener("click", async () => {
  const link = $("[data-link]");
  try {
    await navigator.clipboard.writeText(link.value);
    say(gettext("Link copied."), "info");
  } catch {
    link.select(); // the clipboard is refused (no permission): the reader copies by hand
  }
});

$("[data-leave]").addEventListener("click", (e) => ask(
  gettext("Leave this league? You can join again with its code."), gettext("Leave"), e.currentTarget,
  async () => { await api.removeMember(leagueId, myId); return "gone"; }));

$("[data-delete]").addEventListener("click", (e) => ask(
  gettext("Delete this league for every member? This cannot be undone."), gettext("Delete"),
  e.currentTarget, async () => { await api.deleteLeague(leagueId); return "gone"; }));

$("[data-new-code]").addEventListener("click", async (e) => {
  ask(gettext("Make a new code? The old link and code stop working at once."), gettext("Make a new code"),
    e.currentTarget, () => api.newLeagueCode(leagueId));
});

$("[data-rename]").addEventListener("submit", async (e) => {
  e.preventDefault();
  try {
    await api.renameLeague(leagueId, e.currentTarget.elements.name.value.trim());
    say(gettext("Renamed."), "info");
    await load();
  } catch (error) {
    say(leagueError(error));
  }
});

openSocket(`/ws/leagues/${encodeURIComponent(leagueId)}/`, (frame) => {
  if (frame.t === "deleted") {
    say(gettext("This league was deleted."));
    return;
  }
  if (["played", "members", "league"].includes(frame.t)) soon();
});
setInterval(load, REFRESH_MS);
load();
