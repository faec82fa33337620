// The practice hint: the server's expert player's move in your seat (GET /games/{id}/hint,
// docs/api.md), shown on the table: the pile to draw from, the lay-down ready in the composer,
// the card to lay off (and its meld) or to discard; the reason, translated, in the message line.
import * as api from "../api.js";
import { showInfo, showMessage } from "../errors.js";
import { REASONS } from "../lists.js";

export async function giveHint(game) {
  if (!game.myTurn || game.view.mode !== "practice") return;
  const asked = game.view.version;
  let hint;
  try {
    hint = await api.hint(game.gameId);
  } catch (error) {
    showMessage(game.els.message, error);
    return;
  }
  // The answer is about the version asked for: if the table has moved on since, it is stale
  // (a read of the game begun meanwhile says whether it has).
  await game.readDone();
  if (!game.myTurn || game.view.version !== asked || hint.version !== asked) return;
  const action = hint.action;
  if (action?.type === "draw") showPile(game, action.from);
  else if (action?.type === "lay_down") showLayDown(game, action.melds);
  else if (action?.type === "lay_off") showCard(game, action.card, action.meld);
  else if (action?.type === "discard") showCard(game, action.card, null);
  showInfo(game.els.message, REASONS[hint.reason.code] || hint.reason.message);
}

function showPile(game, pile) {
  game.store.hinted = { pile };
  game.render();
  (pile === "discard" ? game.els.discard : game.els.stock).focus();
}

function showLayDown(game, melds) {
  game.composer.start(game.view.players[game.view.you].contract);
  game.composer.fillFrom(melds, game.store.byId());
  game.render();
  game.els.layDownConfirm.focus();
}

// The card selected and highlighted; for a lay-off, its meld highlighted and scrolled to.
function showCard(game, cardId, meld) {
  game.store.selected = new Set([cardId]);
  game.store.hinted = { cards: new Set([cardId]) };
  game.store.focusId = cardId;
  game.render();
  game.focusHand();
  if (meld === null) return;
  const box = game.els.melds.querySelector(`[data-meld="${meld}"]`);
  if (!box) return;
  box.classList.add("hinted");
  box.scrollIntoView({ block: "nearest", inline: "nearest" });
}
