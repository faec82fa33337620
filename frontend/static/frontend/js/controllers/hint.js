// The practice hint: the server's expert player's move in your seat (GET /games/{id}/hint,
// docs/api.md), shown on the table: the pile to draw from, the lay-down ready in the composer,
// the card to lay off (and its meld) or to discard; the reason, translated, in the message line.
import * as api from "../api.js";
import { showInfo, showMessage } from "../errors.js";
import { gettext } from "../i18n.js";

// The server's reason codes, in the player's language (the English is the server's message).
const REASONS = {
  not_your_turn: gettext("It is not your turn."),
  game_over: gettext("The game is over."),
  take_to_complete_contract: gettext("Take the top discard: with it you hold your contract."),
  take_brings_contract_nearer: gettext("Take the top discard: it brings your contract nearer than a card from the stock would, on average."),
  take_to_lay_off: gettext("Take the top discard: it fits a meld on the table, so it can leave your hand this turn."),
  stock_discard_does_not_help: gettext("Draw from the stock: the top discard does nothing for your contract."),
  stock_discard_helps_too_little: gettext("Draw from the stock: the top discard helps your contract less than a card from the stock would, on average."),
  stock_discard_unmatched: gettext("Draw from the stock: none of your cards is close to the top discard (the same rank, for a group; the same suit within three ranks, for a run)."),
  stock_discard_fits_nowhere: gettext("Draw from the stock: the top discard fits no meld on the table."),
  stock_only: gettext("Draw from the stock: the top discard may not be taken now."),
  lay_down_contract: gettext("Lay your contract down now: it climbs you a rung, and from your next turn you may lay off on any meld."),
  lay_off_card: gettext("Lay this card off on the highlighted meld: a card laid off costs no points when the deal ends."),
  discard_does_nothing: gettext("Discard this card: it does nothing for your contract."),
  discard_least_useful: gettext("Discard this card: your contract needs it least."),
  discard_high_points: gettext("Discard this card: its penalty points weigh more than the little it does for your contract."),
  discard_not_feeding: gettext("Discard this card: the next player seems to collect the cards you could spare instead."),
  discard_points_or_feeding: gettext("Discard this card: each card your contract needs less has fewer penalty points, or the next player seems to collect it."),
  discard_after_lay_down: gettext("Discard this card: it fits no meld on the table and would cost you the most points if the deal ended."),
  discard_fits_nowhere: gettext("Discard this card: it fits no meld on the table."),
  discard_all_fit: gettext("Discard this card: every card you may discard fits a meld on the table."),
  discard_to_go_out: gettext("Discard your last card: you go out, and the deal ends."),
  best_in_play_outs: gettext("Played out over possible deals from here, this move came out best."),
};

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
  // The answer is about the version asked for: if the table has moved on since, it is stale.
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
