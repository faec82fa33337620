// What the league pages share: a league's name as members see it (a hidden one is
// "League #n", in the page's language), the messages of the leagues' error codes, and today's
// standings in every league of the player (home and the daily page).
import * as api from "./api.js";
import * as counts from "./counts.js";
import { explain } from "./errors.js";
import { format, gettext, ngettext } from "./i18n.js";

export function leagueName(league) {
  return league.name_hidden ? format(gettext("League #%(n)s"), { n: league.number }) : league.name;
}

export function memberCount(n) {
  return format(ngettext("%(n)s member", "%(n)s members", n), { n });
}

const MESSAGES = {
  invalid_name: gettext("A league's name has 2 to 40 letters, digits, spaces and - _ . ', at least two of them letters or digits."),
  reserved_name: gettext("That name is reserved: choose another."),
  invalid_league_code: gettext("No league has that code. Its creator may have made a new one: ask for the new link."),
  already_member: gettext("You are in this league already."),
  league_full: gettext("This league is full (100 members)."),
  too_many_leagues: gettext("You are in 20 leagues already: leave one first."),
  creator_only: gettext("Only the league's creator can do that."),
  not_found: gettext("This league was not found: you may no longer be a member."),
};

// The words for a refused league action (falls back to the site's messages).
export function leagueError(error) {
  return MESSAGES[error.code] || explain(error).text;
}

export const names = (players) => players.map((p) => p.name).join(", ");

function standingBlock(standing, resultsShown) {
  const box = document.createElement("div");
  box.className = "league-standing";
  const h = document.createElement("h3");
  const a = document.createElement("a");
  a.href = `/leagues/${encodeURIComponent(standing.league.id)}/`;
  a.textContent = leagueName(standing.league);
  h.append(a);
  box.append(h);
  if (resultsShown) {
    const list = document.createElement("ol");
    list.className = "standing-list";
    for (const entry of standing.entries) {
      const li = document.createElement("li");
      li.value = entry.rank;
      li.textContent = format(gettext("%(name)s: %(contracts)s, %(penalty)s"), {
        name: entry.player.name,
        contracts: counts.contracts(entry.contracts), penalty: counts.penaltyPoints(entry.penalty),
      });
      list.append(li);
    }
    box.append(list);
  } else if (standing.played.length) {
    const p = document.createElement("p");
    p.textContent = format(gettext("Played today: %(names)s"), { names: names(standing.played) });
    box.append(p);
  } else {
    const p = document.createElement("p");
    p.className = "muted";
    p.textContent = gettext("Nobody has played today yet.");
    box.append(p);
  }
  if (resultsShown && standing.not_played.length) {
    const p = document.createElement("p");
    p.className = "muted small";
    p.textContent = format(gettext("Not played yet: %(names)s"), { names: names(standing.not_played) });
    box.append(p);
  }
  return box;
}

// Fills `section` (hidden until there is something to show) with today in each league.
export async function showStandings(section) {
  let data;
  try {
    data = await api.leaguesToday();
  } catch {
    return; // the rest of the page does not depend on it
  }
  const body = section.querySelector("[data-league-standings]");
  const note = section.querySelector("[data-league-note]");
  if (!data.leagues.length) { section.hidden = true; return; }
  note.hidden = data.results_shown;
  body.replaceChildren(...data.leagues.map((s) => standingBlock(s, data.results_shown)));
  section.hidden = false;
}
