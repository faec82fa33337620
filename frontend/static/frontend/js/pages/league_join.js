// A join link: the league's name and member count, then one confirmation. A member already in
// it goes straight to the league.
import * as api from "../api.js";
import { format, gettext } from "../i18n.js";
import { leagueError, leagueName, memberCount } from "../leagues.js";

const root = document.getElementById("league-join");
const code = JSON.parse(document.getElementById("join-code").textContent);
const what = root.querySelector("[data-what]");
const explainer = root.querySelector("[data-explain]");
const join = root.querySelector("[data-join]");
const status = root.querySelector("[data-status]");

const canonical = (text) => text.toUpperCase().replace(/[\s-]/g, "");
const open = (league) => location.assign(`/leagues/${encodeURIComponent(league.id)}/`);

async function alreadyIn() {
  if (document.body.dataset.player !== "1") return null; // no player yet: in no league
  try {
    const mine = await api.myLeagues();
    return mine.leagues.find((l) => canonical(l.code) === canonical(code)) || null;
  } catch {
    return null;
  }
}

async function load() {
  let preview;
  try {
    preview = await api.leaguePreview(code);
  } catch (error) {
    what.textContent = leagueError(error);
    return;
  }
  const mine = await alreadyIn();
  if (mine) { open(mine); return; }
  what.textContent = format(gettext("Join “%(name)s” (%(members)s)?"),
    { name: leagueName(preview), members: memberCount(preview.members) });
  explainer.hidden = false;
  join.hidden = false;
  join.focus();
}

join.addEventListener("click", async () => {
  join.disabled = true;
  try {
    open(await api.joinLeague(code));
  } catch (error) {
    if (error.code === "already_member") {
      const mine = await alreadyIn();
      if (mine) { open(mine); return; }
    }
    status.classList.add("message", "error");
    status.textContent = leagueError(error);
    join.disabled = false;
  }
});

load();
