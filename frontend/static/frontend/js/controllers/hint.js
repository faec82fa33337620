// The practice hint: the server's lay-down and lay-offs when there are any, else a simple
// reading of the view: which pile to draw from, which card to discard.
import * as api from "../api.js";
import { findContract } from "../cards.js";
import { showInfo } from "../errors.js";
import { gettext } from "../i18n.js";

export async function giveHint(game) {
  if (!game.myTurn || game.view.mode !== "practice") return;
  const v = game.view, legal = game.legal();
  if (v.phase === "draw") {
    const top = v.discard_top;
    const useful = Boolean(top) && game.canDraw("discard") && (top.joker
      || v.hand.some((c) => c.rank === top.rank)
      || v.hand.some((c) => c.suit === top.suit && Math.abs(rankNumber(c.rank) - rankNumber(top.rank)) === 1));
    game.hinted = { pile: useful ? "discard" : "stock" };
    game.render();
    showInfo(game.els.message, useful
      ? gettext("Hint: take the discard, it goes with cards in your hand.")
      : gettext("Hint: draw from the stock."));
    (useful ? game.els.discard : game.els.stock).focus();
    return;
  }
  let server = null;
  try { server = await api.hint(game.gameId); } catch { /* fall back to the view */ }
  const me = v.players[v.you];
  const byId = game.byId();
  const melds = server?.lay_down
    ? server.lay_down.map((ids) => ids.map((id) => byId.get(id)))
    : legal.lay_down ? findContract(v.hand, me.contract) : null;
  if (melds && legal.lay_down) {
    game.composer.start(me.contract);
    game.composer.fill(assignToRequirements(melds, me.contract));
    game.render();
    showInfo(game.els.message, gettext("Hint: you hold your contract. The melds are ready: lay them down."));
    game.els.layDownConfirm.focus();
    return;
  }
  const offs = server?.lay_off?.length ? server.lay_off : legal.lay_off || [];
  if (offs.length) {
    game.selected = new Set([offs[0].card]);
    game.hinted = { cards: new Set([offs[0].card]) };
    game.focusId = offs[0].card;
    game.render();
    showInfo(game.els.message, gettext("Hint: lay off the selected card on the highlighted meld."));
    return;
  }
  const choices = v.hand.filter((c) => (legal.discard || []).includes(c.id) && !c.joker);
  const loner = (c) => !v.hand.some((o) => o !== c && (o.rank === c.rank || (o.suit === c.suit && Math.abs(rankNumber(o.rank) - rankNumber(c.rank)) <= 2)));
  const worst = [...choices].sort((a, b) => (loner(b) - loner(a)) || (rankNumber(b.rank) - rankNumber(a.rank)))[0];
  if (worst) {
    game.selected = new Set([worst.id]);
    game.hinted = { cards: new Set([worst.id]) };
    game.focusId = worst.id;
    game.render();
    game.focusHand();
    showInfo(game.els.message, gettext("Hint: discard the selected card: it does little for your contract."));
  }
}

function rankNumber(rank) {
  return ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"].indexOf(rank) + 1;
}

// Put each meld in the slot of a requirement it fills (groups to groups, runs to runs).
function assignToRequirements(melds, contract) {
  const slots = contract.melds.map(() => null);
  const kindOf = (cards) => {
    const naturals = cards.filter((c) => !c.joker);
    return naturals.every((c) => c.rank === naturals[0].rank) ? "group" : "run";
  };
  const rest = [...melds].sort((a, b) => b.length - a.length);
  for (const cards of rest) {
    const i = contract.melds.findIndex((m, k) => !slots[k] && m.kind === kindOf(cards) && cards.length >= m.min_cards);
    if (i >= 0) slots[i] = cards;
  }
  return slots.map((s) => s || []);
}
