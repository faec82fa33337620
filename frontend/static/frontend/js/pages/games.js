// My games: every game of this browser's player, newest first, a page at a time (GET
// /api/v1/games with its status and mode filters), each with Resume or Watch. The filters
// and the page live in the address, so Back and a reload show the same list.
import * as api from "../api.js";
import * as counts from "../counts.js";
import { showInfo, showMessage } from "../errors.js";
import { date, format, gettext, levelName, ngettext, number } from "../i18n.js";
import { tableTitle } from "../tables.js";

const root = document.getElementById("my-games");
const list = root.querySelector("[data-games]");
const status = root.querySelector("[data-status]");
const filters = root.querySelector("[data-filters]");
const pager = root.querySelector("[data-pager]");
const PAGE_SIZE = Number(root.dataset.pageSize);

function wanted() {
  const params = new URLSearchParams(location.search);
  return {
    status: params.get("status") || "", mode: params.get("mode") || "",
    page: Math.max(1, Math.trunc(Number(params.get("page"))) || 1),
  };
}

function text(tag, className, content) {
  const el = document.createElement(tag);
  el.className = className;
  el.textContent = content;
  return el;
}

function link(href, label, primary = false) {
  const a = document.createElement("a");
  a.className = "btn small" + (primary ? " primary" : "");
  a.href = href;
  a.textContent = label;
  return a;
}

function row(game) {
  const li = document.createElement("li");
  li.className = "game-row";
  li.dataset.game = game.id;
  // A table's game by its table and the friends who sat at it, not as one played alone.
  const what = game.mode === "daily"
    ? format(gettext("Daily of %(day)s"), { day: date(game.daily) })
    : game.table_name ? tableTitle(game.table_name, (game.people || []).map((p) => p.name))
      : format(gettext("Practice (%(level)s)"), { level: levelName(game.level) });
  li.append(text("p", "what", what));
  li.append(text("p", "when", format(gettext("Started %(when)s"), {
    when: date(game.created_at, { dateStyle: "medium", timeStyle: "short" }) })));
  const how = document.createElement("p");
  how.className = "how";
  const go = document.createElement("p");
  go.className = "go";
  if (game.status === "active") {
    how.textContent = format(gettext("In progress: deal %(deal)s of 10"), { deal: game.deal });
    go.append(link(`/play/${encodeURIComponent(game.id)}/`, gettext("Resume"), true));
  } else if (game.status === "finished") {
    const r = game.result;
    how.append(text("span", "place", format(gettext("Place %(place)s"), { place: r.place })),
      " · " + counts.contracts(r.contracts) + " · " + counts.penaltyPoints(r.penalty));
    if (game.replay) go.append(link(`/replay/${encodeURIComponent(game.id)}/`, gettext("Watch")));
    else go.append(text("span", "note", gettext("Replay when the day has ended (UTC)")));
  } else {
    how.textContent = format(gettext("Closed unfinished at deal %(deal)s of 10"), { deal: game.deal });
  }
  li.append(how, go);
  return li;
}

async function load() {
  const { status: state, mode, page } = wanted();
  filters.elements.status.value = state;
  filters.elements.mode.value = mode;
  if (document.body.dataset.player !== "1") {
    list.replaceChildren();
    showInfo(status, gettext("No games yet: start one from the home page, and it will be listed here."));
    return;
  }
  showInfo(status, gettext("Loading…"));
  let games;
  try {
    games = await api.myGames({ status: state, mode, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
  } catch (error) {
    showMessage(status, error);
    return;
  }
  list.replaceChildren(...games.items.map(row));
  const pages = Math.max(1, Math.ceil(games.count / PAGE_SIZE));
  status.textContent = games.count ? format(ngettext("%(n)s game", "%(n)s games", games.count), { n: games.count })
    : gettext("No games to show.");
  pager.hidden = pages < 2;
  pager.querySelector("[data-page-info]").textContent = format(gettext("Page %(page)s of %(pages)s"), { page: number(page), pages: number(pages) });
  pager.querySelector("[data-newer]").disabled = page <= 1;
  pager.querySelector("[data-older]").disabled = page >= pages;
}

function show(changes) {
  const params = { ...wanted(), ...changes };
  const query = new URLSearchParams();
  if (params.status) query.set("status", params.status);
  if (params.mode) query.set("mode", params.mode);
  if (params.page > 1) query.set("page", String(params.page));
  const text = query.toString();
  history.pushState(null, "", text ? `?${text}` : location.pathname);
  load();
}

filters.addEventListener("change", () => show({
  status: filters.elements.status.value, mode: filters.elements.mode.value, page: 1 }));
filters.addEventListener("submit", (e) => e.preventDefault());
pager.querySelector("[data-newer]").addEventListener("click", () => show({ page: wanted().page - 1 }));
pager.querySelector("[data-older]").addEventListener("click", () => show({ page: wanted().page + 1 }));
window.addEventListener("popstate", load);
load();
