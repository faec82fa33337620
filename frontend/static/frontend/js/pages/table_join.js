// A table's join link: its name and how many sit, then one confirmation. Someone already
// seated goes straight to the table (or its running game).
import * as api from "../api.js";
import * as counts from "../counts.js";
import { format, gettext, levelName } from "../i18n.js";
import { joinByCode } from "../join.js";
import { gamePath, lobbyPath, nameError, runningGame } from "../tables.js";

// The name to sit down under: the person's own (or the one a new browser would be given),
// theirs to change before they sit; Enter in it sits down as the button does.
const nameField = document.querySelector("[data-join-name]");
nameField.addEventListener("keydown", (e) => {
  if (e.key === "Enter") { e.preventDefault(); document.querySelector("[data-join]").click(); }
});
// A refusal of the name typed before is no longer true of the one being typed.
nameField.addEventListener("input", () => {
  const status = document.querySelector("#table-join [data-status]");
  status.textContent = "";
  status.classList.remove("message", "error");
});

// A full or started table still offers the button: someone seated there already is let in,
// anyone else is told why not.
joinByCode("table-join", {
  preview: api.tablePreview,
  question: (preview) => format(gettext("Sit at “%(name)s”? %(people)s, computer players at %(level)s level."), {
    name: preview.name, people: counts.people(preview.people), level: levelName(preview.level) }),
  join: (code) => api.joinTable(code, nameField.value.trim() || undefined),
  open: (table) => {
    const game = runningGame(table);
    location.assign(game ? gamePath(game.id) : lobbyPath(table.id));
  },
  errorText: nameError,
});
