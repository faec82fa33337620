// The table drawn from the store (controllers/store.js): the deal and contract lines, whose
// turn, seats, piles, melds, ladder, hand, the action buttons and the composer. Reads the
// store, never changes the game's state (but for dropping from the selection the cards no
// longer in hand); idempotent, so any change is followed by one call.
import { format, gettext, levelName } from "../i18n.js";
import { tableTitle } from "../tables.js";
import { renderHand } from "./hand.js";
import { renderLadder } from "./ladder.js";
import { contractLine, renderMelds, renderPiles } from "./melds.js";
import { renderScores } from "./scores.js";
import { renderSeats, seatName, withPeople } from "./seats.js";
import { renderAway, renderTurnClock } from "./timer.js";

// What the game is: a table's game by the table's name and the friends at it (the people
// other than the viewer, bots aside), not as a practice game played alone.
export function gameTitle(v) {
  if (v.mode === "daily") return gettext("Daily");
  if (!v.table_name) return format(gettext("Practice (%(level)s)"), { level: levelName(v.level) });
  return tableTitle(v.table_name, v.players.filter((p) => !p.bot && p.seat !== v.you).map((p) => p.name));
}

export const TOUCH = globalThis.matchMedia?.("(hover: none) and (pointer: coarse)");

// els: the table's elements (GameController.els); ladder: rung -> contract text; lastMoves:
// seat -> its last move this deal (views/log.js).
export function renderTable(root, els, store, { composer, ladder, lastMoves }) {
  const v = store.shown;
  if (!v) return;
  const legal = store.legal();
  const myTurn = store.myTurn;
  const me = v.players[v.you];
  els.dealInfo.textContent = format(gettext("Deal %(deal)s of 10"), { deal: v.deal }) + " · " + gameTitle(v);
  els.contract.textContent = contractLine(v);
  els.turn.textContent = turnText(store);
  root.classList.toggle("my-turn", myTurn);
  // The version on screen once it shows the server's view (not mid-playback): tests read it.
  root.dataset.version = v === store.view ? String(v.version) : "";
  // The ladder's height, for the narrow layout (the game is the window plus the ladder below
  // it): read in the frame the ladder changes in (pages/table.js's ResizeObserver would come
  // a frame late and shift everything down once, Lighthouse's layout shift), and before the
  // seats, piles, melds and hand change, so the read does not lay them all out anew.
  if (renderLadder(els.ladder, v, ladder, els.legend)) {
    root.style.setProperty("--ladder-h", `${els.ladder.closest(".ladder-box").offsetHeight}px`);
  }
  renderSeats(els.seats, v, lastMoves, store.away);
  renderTurnClock(els, store);
  renderAway(els, store);
  renderPiles(els, v, { canDraw: (f) => store.canDraw(f), below: (v.pile_below || store.pileBelow || []).at(-1) });
  const single = store.selected.size === 1 ? [...store.selected][0] : null;
  renderMelds(els.melds, v, single ? store.targetsFor(single) : new Map());
  const cards = store.handCards();
  const composerIds = composer.ids();
  for (const id of [...store.selected]) if (!cards.some((c) => c.id === id)) store.selected.delete(id);
  renderHand(els.hand, cards, {
    selected: store.selected, focusId: store.focusId, fresh: store.fresh,
    discardable: new Set(legal.discard || []), inComposer: composerIds, hinted: store.hinted?.cards,
    phase: myTurn ? v.phase : "wait", laidDown: Boolean(me?.laid_down),
  });
  els.stock.classList.toggle("hinted", store.hinted?.pile === "stock");
  els.discard.classList.toggle("hinted", store.hinted?.pile === "discard");
  const playing = myTurn && v.phase === "play";
  // "Lay down…" is live only when the server offers a lay-down; otherwise a press says why.
  const ready = playing && legal.may_lay_down && !composer.open && store.layDowns().length > 0;
  els.actions.laydown.disabled = composer.open;
  els.actions.laydown.setAttribute("aria-disabled", String(!ready));
  els.actions.laydown.classList.toggle("ready", ready);
  els.actions.laydown.classList.toggle("primary", ready);
  els.actions.layoff.disabled = !(playing && single && store.targetsFor(single).size);
  els.actions.discard.disabled = !(playing && single && (legal.discard || []).includes(single));
  els.hint.hidden = v.mode !== "practice" || v.phase === "finished" || withPeople(v);
  els.hint.disabled = !myTurn;
  if (composer.open) {
    els.composer.hidden = false;
    els.layDownConfirm.disabled = !composer.render(store.byId(), store.selected.size > 0) || !playing;
  } else {
    els.composer.hidden = true;
  }
  if (me) root.querySelector("[data-me-name]").textContent = gettext("You");
  if (!els.scoresPanel.hidden) renderScores(els.scores, v);
}

function turnText(store) {
  const v = store.shown;
  if (v.phase === "finished") return gettext("The game is over.");
  if (withPeople(v) && v.turn !== v.you) return format(gettext("Waiting for %(who)s…"), { who: seatName(v, v.turn) });
  if (withPeople(v) && (store.busy || v !== store.view)) return gettext("Showing the latest moves…");
  if (store.busy || v !== store.view) return gettext("The computer players are playing…");
  if (v.turn !== v.you) return gettext("Waiting for the computer players…");
  if (v.phase === "draw") return gettext("Your turn: draw from the stock or take the discard.");
  return TOUCH?.matches
    ? gettext("Your turn: lay down or lay off if you can, then discard (tap a card twice).")
    : gettext("Your turn: lay down or lay off if you can, then discard (double-click a card, or D).");
}
