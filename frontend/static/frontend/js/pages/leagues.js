// The leagues page: your leagues, create one, join one with a typed code.
import * as api from "../api.js";
import { gettext } from "../i18n.js";
import { leagueError, leagueName, memberCount } from "../leagues.js";

const root = document.getElementById("leagues");
const list = root.querySelector("[data-leagues]");
const none = root.querySelector("[data-none]");
const createForm = root.querySelector("[data-create]");
const joinForm = root.querySelector("[data-join]");

function say(el, text, kind = "error") {
  el.classList.remove("error", "info");
  el.classList.add("message", kind);
  el.textContent = text;
}

async function load() {
  let data = { leagues: [] }; // a browser with no player yet is in no league
  if (document.body.dataset.player === "1") try {
    data = await api.myLeagues();
  } catch (error) {
    say(createForm.querySelector(".form-message"), leagueError(error));
  }
  list.replaceChildren(...data.leagues.map((league) => {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = `/leagues/${encodeURIComponent(league.id)}/`;
    a.textContent = leagueName(league);
    const size = document.createElement("span");
    size.className = "muted";
    size.textContent = ` · ${memberCount(league.members)}`;
    li.append(a, size);
    return li;
  }));
  none.hidden = data.leagues.length > 0;
}

async function submit(form, messageSelector, call) {
  const message = form.querySelector(messageSelector);
  const button = form.querySelector("button");
  button.disabled = true;
  try {
    const league = await call();
    location.assign(`/leagues/${encodeURIComponent(league.id)}/`);
  } catch (error) {
    say(message, leagueError(error));
    button.disabled = false;
  }
}

createForm.addEventListener("submit", (e) => {
  e.preventDefault();
  const name = createForm.elements.name.value.trim();
  submit(createForm, "[data-create-message]", () => api.createLeague(name));
});

joinForm.addEventListener("submit", (e) => {
  e.preventDefault();
  const code = joinForm.elements.code.value.trim();
  if (!code) return;
  say(joinForm.querySelector("[data-join-message]"), gettext("Joining…"), "info");
  submit(joinForm, "[data-join-message]", () => api.joinLeague(code));
});

load();
