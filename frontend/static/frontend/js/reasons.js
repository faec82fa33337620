// The expert's reason codes (games.bots.advice, docs/api.md), in the player's language: the
// hint's (controllers/hint.js) and the replay's analysis (views/marks.js) give the same codes.
import { gettext } from "./i18n.js";

export const REASONS = {
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
