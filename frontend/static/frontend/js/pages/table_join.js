// A table's join link: its name and how many sit, then one confirmation. Someone already
// seated goes straight to the table (or its running game).
import * as api from "../api.js";
import * as counts from "../counts.js";
import { format, gettext, levelName } from "../i18n.js";
import { gamePath, lobbyPath, runningGame, tableError } from "../tables.js";

const root = document.getElementById("table-join");
const code = JSON.parse(document.getElementById("join-code").textContent);
const what = root.querySelector("[data-what]");
const explainer = root.querySelector("[data-explain]");
const join = root.querySelector("[data-join]");
const status = root.querySelector("[data-status]");

const open = (table) => {
  const game = runningGame(table);
  location.assign(game ? gamePath(game.id) : lobbyPath(table.id));
};

async function load() {
  let preview;
  try {
    preview = await api.tablePreview(code);
  } catch (error) {
    what.textContent = tableError(error);
    return;
  }
  what.textContent = format(gettext("Sit at “%(name)s”? %(people)s, computer players at %(level)s level."), {
    name: preview.name, people: counts.people(preview.people), level: levelName(preview.level) });
  // A full or started table still offers the button: someone seated there already is let in,
  // anyone else is told why not.
  explainer.hidden = false;
  join.hidden = false;
  join.focus();
}

join.addEventListener("click", async () => {
  join.disabled = true;
  try {
    open(await api.joinTable(code));
  } catch (error) {
    status.classList.add("message", "error");
    status.textContent = tableError(error);
    join.disabled = false;
  }
});

load();
