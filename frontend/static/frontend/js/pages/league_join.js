// A join link: the league's name and member count, then one confirmation. A member already in
// it goes straight to the league.
import * as api from "../api.js";
import { format, gettext } from "../i18n.js";
import { joinByCode } from "../join.js";
import { leagueError, leagueName, memberCount } from "../leagues.js";

const canonical = (text) => text.toUpperCase().replace(/[\s-]/g, "");

async function alreadyIn(code) {
  if (document.body.dataset.player !== "1") return null; // no player yet: in no league
  try {
    const mine = await api.myLeagues();
    return mine.leagues.find((l) => canonical(l.code) === canonical(code)) || null;
  } catch {
    return null;
  }
}

joinByCode("league-join", {
  preview: api.leaguePreview,
  question: (preview) => format(gettext("Join “%(name)s” (%(members)s)?"),
    { name: leagueName(preview), members: memberCount(preview.members) }),
  join: api.joinLeague,
  open: (league) => location.assign(`/leagues/${encodeURIComponent(league.id)}/`),
  errorText: leagueError,
  alreadyIn,
});
