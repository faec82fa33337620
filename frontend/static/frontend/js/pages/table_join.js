// A table's join link: its name and how many sit, then one confirmation. Someone already
// seated goes straight to the table (or its running game).
import * as api from "../api.js";
import * as counts from "../counts.js";
import { format, gettext, levelName } from "../i18n.js";
import { joinByCode } from "../join.js";
import { gamePath, lobbyPath, runningGame, tableError } from "../tables.js";

// A full or started table still offers the button: someone seated there already is let in,
// anyone else is told why not.
joinByCode("table-join", {
  preview: api.tablePreview,
  question: (preview) => format(gettext("Sit at “%(name)s”? %(people)s, computer players at %(level)s level."), {
    name: preview.name, people: counts.people(preview.people), level: levelName(preview.level) }),
  join: api.joinTable,
  open: (table) => {
    const game = runningGame(table);
    location.assign(game ? gamePath(game.id) : lobbyPath(table.id));
  },
  errorText: tableError,
});
