// Home and the daily page: today in each of your leagues (results once you have finished
// today's daily, before that only who has played). A browser with no player is in no league.
import { showStandings } from "../leagues.js";

const section = document.getElementById("league-standings");
if (section && document.body.dataset.player === "1") showStandings(section);
