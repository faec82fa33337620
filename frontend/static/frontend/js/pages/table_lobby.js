// A table's lobby: its seats (people, and the computer players of the empty ones), who is
// here now, the link and code to share, reactions; the host starts the game (or the next
// one), and everyone seated follows to it when the table's socket says it began.
import * as api from "../api.js";
import * as counts from "../counts.js";
import { format, gettext, levelName } from "../i18n.js";
import { gamePath, hearTable, joinLink, nameError, runningGame, shareLink, tableError } from "../tables.js";
import { renderReactionBar, showReaction } from "../views/reactions.js";

const root = document.getElementById("table-lobby");
const tableId = root.dataset.tableId;
const $ = (s) => root.querySelector(s);
const status = $("[data-status]");
const startButton = $("[data-start]");
const leaveButton = $("[data-leave]");
const toGame = $("[data-to-game]");
let table = null;
// A running game takes everyone seated to it, but the one they came back from (the game
// page's link to the table names it): "Back to the game" instead.
const cameFrom = new URLSearchParams(location.search).get("game");
let leaving = false;
let going = false; // to the game: once (the start's answer and the socket's news both lead there)

function goTo(gameId) {
  if (going) return;
  going = true;
  location.assign(gamePath(gameId));
}

let unsay = null;
function say(text, kind = "info") {
  clearTimeout(unsay);
  status.classList.remove("error", "info");
  status.classList.add("message", kind);
  status.textContent = text;
}

// A confirmation is true for a moment ("Link copied."): said, then gone, where an error
// stays until something else is said.
function sayForAMoment(text) {
  say(text);
  unsay = setTimeout(() => { status.classList.remove("message", "info"); status.textContent = ""; }, 4000);
}

function seatLine(seat) {
  const li = document.createElement("li");
  li.dataset.seat = seat.seat;
  li.className = seat.bot ? "bot" : "person";
  if (seat.seat === table.you) li.classList.add("me");
  const name = document.createElement("span");
  name.className = "seat-name";
  name.textContent = seat.seat === table.you ? format(gettext("%(name)s (you)"), { name: seat.name }) : seat.name;
  li.append(name);
  const note = document.createElement("span");
  note.className = "seat-note";
  if (seat.bot) {
    note.textContent = format(gettext("computer player (%(level)s)"), { level: levelName(table.level) });
  } else {
    const here = document.createElement("span");
    here.className = `presence ${seat.connected ? "here" : "away"}`;
    here.textContent = seat.connected ? gettext("here now") : gettext("not here");
    note.append(here);
    if (seat.host) {
      const host = document.createElement("span");
      host.className = "badge host";
      host.textContent = gettext("Host");
      note.append(" ", host);
    }
  }
  li.append(note);
  return li;
}

function render() {
  root.removeAttribute("data-loading");
  document.title = `${table.name} · ${gettext("Ladder Rummy")}`;
  $("[data-name]").textContent = table.name;
  $("[data-seats]").replaceChildren(...table.seats.map(seatLine));
  $("[data-level]").textContent = format(gettext("Their level: %(level)s."), { level: levelName(table.level) })
    + " " + (table.turn_seconds ? format(gettext("Time for a turn: %(n)s s."), { n: table.turn_seconds }) : gettext("No turn timer."));
  $("[data-link]").value = joinLink(table);
  $("[data-code]").textContent = table.code;
  const people = table.seats.filter((s) => !s.bot).length;
  const host = table.seats[table.you].host;
  const game = runningGame(table);
  const over = table.game && !game;
  $("[data-invite]").hidden = table.status !== "lobby";
  toGame.hidden = !game;
  if (game) toGame.href = gamePath(game.id);
  startButton.hidden = !host || Boolean(game);
  startButton.textContent = over ? gettext("Play again") : gettext("Start the game");
  startButton.setAttribute("aria-disabled", String(people < 2));
  const hostName = table.seats.find((s) => s.host)?.name || "";
  let state;
  if (game) state = gettext("A game is being played at this table.");
  else if (people < 2) state = gettext("Waiting for a friend: share the link or read the code aloud.");
  else if (host) state = format(gettext("%(people)s are seated: start when everyone is here."), { people: counts.people(people) });
  else state = format(gettext("%(people)s are seated. Waiting for %(host)s to start the game."), { people: counts.people(people), host: hostName });
  if (over && !host) state = format(gettext("The game is over. Waiting for %(host)s to start the next one."), { host: hostName });
  $("[data-state]").textContent = state;
  // One's own name, to change (PATCH /me): kept as typed while the person edits it.
  const mine = table.seats[table.you].name;
  if (document.activeElement !== nameInput && !nameForm.dataset.editing) nameInput.value = mine;
}

const nameForm = $("[data-name-form]");
const nameInput = nameForm.querySelector("input");
nameInput.addEventListener("input", () => { nameForm.dataset.editing = "1"; });
nameInput.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && table) { nameInput.value = table.seats[table.you].name; delete nameForm.dataset.editing; }
});
// The new name is everyone's to see: the table's socket tells every page at it to read it.
nameForm.addEventListener("submit", async (e) => {
  e.preventDefault();
  const button = nameForm.querySelector("button");
  button.disabled = true;
  try {
    const me = await api.renameMe(nameInput.value.trim());
    delete nameForm.dataset.editing;
    nameInput.value = me.name;
    sayForAMoment(format(gettext("Saved. You are now %(name)s."), { name: me.name }));
    heard.read();
  } catch (error) {
    say(nameError(error), "error");
    nameInput.focus();
  } finally {
    button.disabled = false;
  }
});

function onTable(read, error) {
  if (leaving || going) return;
  if (!read) {
    if (error?.code === "not_found") { say(gettext("You no longer sit at this table."), "error"); startButton.hidden = true; }
    return;
  }
  table = read;
  const game = runningGame(table);
  if (game && game.id !== cameFrom) { goTo(game.id); return; }
  render();
}

const listen = () => hearTable(tableId, {
  onTable,
  onReaction: ({ seat, reaction }) => {
    const line = $(`[data-seats] [data-seat="${seat}"]`);
    showReaction(line, reaction, table?.seats[seat]?.name);
  },
});
let heard = listen();
heard.read();

renderReactionBar($("[data-reactions]"), async (code) => {
  try { await api.react(tableId, code); } catch (error) { say(tableError(error), "error"); }
});

startButton.addEventListener("click", async () => {
  if (startButton.getAttribute("aria-disabled") === "true") { say(tableError({ code: "not_enough_people" }), "error"); return; }
  startButton.disabled = true;
  try {
    const started = await api.startTable(tableId);
    goTo(started.game.id);
  } catch (error) {
    startButton.disabled = false;
    say(tableError(error), "error");
  }
});

const shareButton = $("[data-share]");
shareButton.hidden = !navigator.share;
const share = async () => {
  if (!table) return;
  const done = await shareLink(table, $("[data-link]"));
  if (done === "copied") sayForAMoment(gettext("Link copied."));
  else if (done === "select") say(gettext("Copy the selected link."));
};
shareButton.addEventListener("click", share);
$("[data-copy]").addEventListener("click", async () => {
  try { await navigator.clipboard.writeText($("[data-link]").value); sayForAMoment(gettext("Link copied.")); } catch { $("[data-link]").select(); }
});

// Leaving asks once more, in the button itself: a second press within a few seconds leaves.
let armed = null;
leaveButton.addEventListener("click", async () => {
  if (!armed) {
    leaveButton.textContent = gettext("Press again to leave for good");
    armed = setTimeout(() => { armed = null; leaveButton.textContent = gettext("Leave the table"); }, 5000);
    return;
  }
  clearTimeout(armed);
  leaving = true;
  leaveButton.disabled = true;
  heard.socket.close(); // its news of this leaving would read a table no longer ours
  try {
    await api.leaveTable(tableId);
    location.assign("/#friends");
  } catch (error) {
    leaving = false;
    leaveButton.disabled = false;
    say(tableError(error), "error");
    heard = listen();
    heard.read();
  }
});
window.addEventListener("pagehide", () => heard.socket.close());
// Shown again from the back-forward cache, its socket closed: load it afresh (as table.js).
window.addEventListener("pageshow", (e) => { if (e.persisted) location.reload(); });
