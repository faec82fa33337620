// The game page at a table for friends: it also hears the table's socket. Reactions (a
// "React" panel in the toolbar; each one shown by the seat that sent it), the end of the
// game (the host's "Play again" starts the table's next game; everyone else follows it when
// the socket says it began), and a way back to the table's lobby. The game's own moves come
// through the game's socket as for any game (controllers/game.js).
import * as api from "../api.js";
import { showMessage } from "../errors.js";
import { format, gettext } from "../i18n.js";
import { gamePath, hearTable, lobbyPath, runningGame, tableError } from "../tables.js";
import { renderReactionBar, showReaction } from "../views/reactions.js";
import { seatName } from "../views/seats.js";
import { useResultActions } from "./dialogs.js";

export class Together {
  constructor(game, tableId) {
    this.game = game;
    this.tableId = tableId;
    this.table = null;
    const root = game.root;
    game.els.seats.setAttribute("aria-label", gettext("Other players")); // people, not only bots
    this.toggle = button(gettext("React"), "btn small");
    this.toggle.setAttribute("aria-expanded", "false");
    this.toggle.setAttribute("aria-controls", "reactions");
    this.toggle.dataset.reactToggle = "";
    root.querySelector(".tools").prepend(this.toggle);
    this.panel = document.createElement("section");
    this.panel.className = "reactions-panel overlay-panel";
    this.panel.id = "reactions";
    this.panel.hidden = true;
    this.panel.setAttribute("aria-label", gettext("Reactions"));
    const bar = document.createElement("div");
    bar.className = "reactions";
    const lobby = document.createElement("a");
    lobby.className = "btn small";
    lobby.href = `${lobbyPath(tableId)}?game=${encodeURIComponent(game.gameId)}`;
    lobby.textContent = gettext("The table: seats and invitation");
    this.panel.append(bar, lobby);
    root.querySelector(".topbar").after(this.panel);
    renderReactionBar(bar, (code) => this.react(code));
    this.toggle.addEventListener("click", () => this.open(this.panel.hidden));
    this.onKey = (e) => { if (e.key === "Escape" && !this.panel.hidden) { e.stopPropagation(); this.open(false); this.toggle.focus(); } };
    this.onPointer = (e) => { if (!this.panel.hidden && !this.panel.contains(e.target) && !this.toggle.contains(e.target)) this.open(false); };
    document.addEventListener("keydown", this.onKey, true);
    document.addEventListener("pointerdown", this.onPointer, true);
    useResultActions((view, els) => this.resultActions(view, els));
    this.heard = hearTable(tableId, {
      onTable: (table) => this.onTable(table),
      onReaction: (d) => this.showReaction(d),
    });
    this.heard.read();
  }

  stop() {
    this.heard.socket.close();
    document.removeEventListener("keydown", this.onKey, true);
    document.removeEventListener("pointerdown", this.onPointer, true);
  }

  open(show) {
    this.panel.hidden = !show;
    this.toggle.setAttribute("aria-expanded", String(show));
    if (show) this.panel.querySelector("button")?.focus();
  }

  async react(code) {
    try {
      await api.react(this.tableId, code);
      this.open(false);
    } catch (error) {
      showMessage(this.game.els.message, error);
      this.game.els.message.textContent = tableError(error);
    }
  }

  // To the table's next game, once (the start's answer and the socket's news both lead there).
  goTo(gameId) {
    if (this.going) return;
    this.going = true;
    location.assign(gamePath(gameId));
  }

  // By the seat that sent it: on another seat's box, or just above this player's own section
  // (its title and the turn's line stay readable).
  showReaction({ seat, reaction }) {
    const view = this.game.store.shown || this.game.view;
    if (!view) return;
    const mine = seat === view.you;
    const anchor = mine ? this.game.root.querySelector("section.me")
      : this.game.els.seats.querySelector(`.seat[data-seat="${seat}"]`);
    showReaction(anchor, reaction, seatName(view, seat), seat, { above: mine });
  }

  // The table read again (a frame): a new game of this table began, so everyone goes to it.
  onTable(table) {
    if (!table) return;
    const previous = this.table;
    this.table = table;
    const next = runningGame(table);
    if (previous && next && next.id !== this.game.gameId) this.goTo(next.id);
    // Someone at the table took a new name (PATCH /me tells the table's sockets): the game
    // is read again, so its seats and its log say it.
    const view = this.game.view;
    if (view && table.seats.some((s) => !s.bot && view.players[s.seat] && !view.players[s.seat].bot
      && view.players[s.seat].name !== s.name)) this.game.renamed();
    this.fillNext();
  }

  waitingText() {
    const host = this.table?.seats.find((s) => s.host);
    return host ? format(gettext("Waiting for %(host)s to start the next game…"), { host: host.name })
      : gettext("Waiting for the host to start the next game…");
  }

  // The result dialog's actions at a table: the host starts the next game; the others wait
  // for it (the table's socket brings them there). Filled again as the table is read.
  resultActions(view, els) {
    this.nextBox = document.createElement("div");
    this.nextBox.className = "table-next";
    this.resultEls = els;
    this.fillNext();
    return [this.nextBox];
  }

  fillNext() {
    const box = this.nextBox;
    if (!box) return;
    const mine = this.table?.seats[this.table.you];
    const lobby = document.createElement("a");
    lobby.className = "btn";
    lobby.href = `${lobbyPath(this.tableId)}?game=${encodeURIComponent(this.game.gameId)}`;
    lobby.textContent = gettext("Back to the table");
    if (!mine?.host) {
      const waiting = document.createElement("p");
      waiting.className = "waiting-next";
      waiting.setAttribute("role", "status");
      waiting.textContent = this.waitingText();
      box.replaceChildren(waiting, lobby);
      return;
    }
    if (box.querySelector("[data-play-again]")) return;
    const again = button(gettext("Play again"), "btn primary");
    again.dataset.playAgain = "";
    again.addEventListener("click", async () => {
      again.disabled = true;
      try {
        const started = await api.startTable(this.tableId);
        this.goTo(started.game.id);
      } catch (error) {
        again.disabled = false;
        showMessage(this.resultEls.message, error);
        this.resultEls.message.textContent = tableError(error);
      }
    });
    box.replaceChildren(again, lobby);
    again.focus({ preventScroll: true }); // the dialog stays at its title (dialogs.js)
  }
}

function button(text, className) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = className;
  b.textContent = text;
  return b;
}
