// "Play with friends" on the home page: open a table (a name, the computer players' level,
// the time for a turn),
// or go to a table's join page from its code.
import * as api from "../api.js";
import { showMessage } from "../errors.js";
import { canonicalCode, lobbyPath, tableError } from "../tables.js";

const status = document.querySelector("[data-friends-status]");
const say = (error) => { showMessage(status, error); status.textContent = tableError(error); };

document.getElementById("table-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const form = e.currentTarget;
  const data = new FormData(form);
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    const seconds = data.get("turn_seconds");
    const table = await api.openTable(String(data.get("name")).trim(), data.get("level") || "normal",
      seconds ? Number(seconds) : null);
    location.assign(lobbyPath(table.id));
  } catch (error) {
    button.disabled = false;
    say(error);
  }
});

document.getElementById("code-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const code = canonicalCode(String(new FormData(e.currentTarget).get("code")));
  location.assign(`/tables/join/${encodeURIComponent(code)}/`);
});
