// Replays the events of an action response on a copy of the view, one step at a time, so the
// computer players' turns can be shown in order (draw, lay down, lay off, discard). The rules
// stay on the server: whose turn it is and each hand's size come in the events (`turn`,
// `hand_size`, `first`), never worked out here.
import { theCard } from "../cards.js";
import { describeContract } from "../contracts.js";
import { format, gettext } from "../i18n.js";
import { seatName } from "../views/seats.js";

export const eventType = (e) => e.t ?? e.type;
export const eventData = (e) => e.data ?? e;

export function cloneView(view) {
  return structuredClone(view);
}

function removeFromHand(view, ids) {
  const gone = new Set(ids);
  view.hand = view.hand.filter((c) => !gone.has(c.id));
}

// The discard pile after one event: its top and the cards beneath it (`pile_below`, oldest
// first), all of them public, so a card taken from the pile uncovers the one beneath.
export function pileStep(view, event) {
  const d = eventData(event);
  const below = view.pile_below || [];
  switch (eventType(event)) {
    case "deal_started":
      view.discard_top = d.discard_top;
      view.pile_below = [];
      break;
    case "discarded":
      view.pile_below = view.discard_top ? [...below, view.discard_top] : below;
      view.discard_top = d.card;
      break;
    case "drew":
      if (d.from === "discard") {
        view.pile_below = below.slice(0, -1);
        view.discard_top = below.at(-1) ?? null;
      }
      break;
    case "stock_rebuilt":
      view.pile_below = [];
      break;
    default:
      break;
  }
}

// Apply one event to `view` (a clone), in place.
export function applyEvent(view, event) {
  pileStep(view, event);
  const d = eventData(event);
  const p = view.players[d.seat];
  const mine = d.seat === view.you;
  switch (eventType(event)) {
    case "drew":
      p.hand_size = d.hand_size;
      view.turn = d.seat;
      view.phase = "play";
      if (d.from === "discard") {
        view.discard_size -= 1;
      } else {
        view.stock_size -= 1;
      }
      if (mine && d.card) view.hand.push(d.card);
      break;
    case "laid_down": {
      const melds = d.melds || [];
      for (const m of melds) view.table[m.id] = m;
      p.hand_size = d.hand_size;
      p.laid_down = true;
      if (d.climbed !== undefined) p.climbed = d.climbed;
      if (mine) removeFromHand(view, melds.flatMap((m) => m.cards.map((c) => c.id)));
      break;
    }
    case "laid_off":
      if (d.meld) view.table[d.meld.id] = d.meld;
      p.hand_size = d.hand_size;
      if (mine) removeFromHand(view, [d.card.id]);
      break;
    case "discarded":
      view.discard_size += 1;
      p.hand_size = d.hand_size;
      if (mine) removeFromHand(view, [d.card.id]);
      // No `turn` when the discard went out: deal_ended and the next deal_started follow.
      if (d.turn !== undefined) {
        view.turn = d.turn;
        view.phase = "draw";
      }
      break;
    case "stock_rebuilt":
      view.stock_size = d.stock_size;
      view.discard_size = view.discard_top ? 1 : 0;
      break;
    case "deal_ended":
      view.deals = [...(view.deals || []), d];
      (d.totals || []).forEach((t, s) => { view.players[s].penalty = t; });
      (d.contracts || []).forEach((c, s) => { view.players[s].climbed = c; });
      break;
    case "deal_started":
      view.deal = d.deal;
      view.dealer = d.dealer;
      view.turn = d.first;
      view.phase = "draw";
      view.table = [];
      view.discard_size = 1;
      view.stock_size = d.stock_size;
      view.players.forEach((pl, s) => {
        pl.hand_size = d.hand_size;
        pl.laid_down = false;
        if (d.rungs) pl.rung = d.rungs[s];
      });
      if (d.hand) view.hand = d.hand;
      break;
    case "game_finished":
      view.phase = "finished";
      view.result = d.result;
      break;
    default:
      break;
  }
}

// A sentence for the log (read by screen readers) and the status line. The person's own
// actions have sentences of their own: "you" takes another verb form in many languages.
export function describeEvent(view, event) {
  const d = eventData(event);
  // A spectator (a replay of someone else's game) reads every seat by its name.
  if (d.seat !== undefined && d.seat === view.you && !view.spectator) {
    return event.bot ? describeForMe(view, event, d) : describeMine(view, event, d);
  }
  const who = d.seat === undefined ? "" : seatName(view, d.seat);
  // A friend's move the computer chose for them (their time ran out, or they are away).
  if (event.bot) {
    const line = describeEvent(view, { ...event, bot: false });
    return line && format(gettext("%(move)s (The computer played it for %(who)s.)"), { move: line, who });
  }
  switch (eventType(event)) {
    case "drew":
      return d.from === "discard"
        ? format(gettext("%(who)s took %(card)s from the discard pile."), { who, card: theCard(d.card) })
        : d.card
          ? format(gettext("%(who)s drew %(card)s from the stock."), { who, card: theCard(d.card) })
          : format(gettext("%(who)s drew from the stock."), { who });
    case "laid_down":
      return format(gettext("%(who)s laid down %(contract)s."), { who, contract: meldsText(view, d) });
    case "laid_off":
      return format(gettext("%(who)s laid off %(card)s."), { who, card: theCard(d.card) });
    case "discarded":
      return format(gettext("%(who)s discarded %(card)s."), { who, card: theCard(d.card) });
    case "stock_rebuilt":
      return gettext("The discard pile was shuffled into a new stock.");
    case "deal_ended":
      if (d.went_out === view.you && !view.spectator) return format(gettext("You went out: deal %(deal)s is over."), { deal: d.deal });
      if (d.went_out !== null && d.went_out !== undefined) {
        return format(gettext("%(who)s went out: deal %(deal)s is over."), { who: seatName(view, d.went_out), deal: d.deal });
      }
      return format(gettext("Deal %(deal)s is over."), { deal: d.deal });
    case "deal_started":
      return format(gettext("Deal %(deal)s begins."), { deal: d.deal });
    case "game_finished":
      return gettext("The game is over.");
    default:
      return "";
  }
}

// The contract a lay-down filled, from its melds' kinds and sizes.
function meldsText(view, d) {
  const melds = (d.melds || []).map((m) => ({ kind: m.kind, min_cards: m.cards.length }));
  return melds.length ? describeContract({ melds }) : describeContract(view.players[d.seat]?.contract);
}

// One of the player's own moves that the computer chose for them (GET /events' `bot`).
function describeForMe(view, event, d) {
  const card = d.card ? theCard(d.card) : "";
  switch (eventType(event)) {
    case "drew":
      return d.from === "discard"
        ? format(gettext("The computer took %(card)s from the discard pile for you."), { card })
        : format(gettext("The computer drew %(card)s from the stock for you."), { card });
    case "laid_down":
      return format(gettext("The computer laid down %(contract)s for you."), { contract: meldsText(view, d) });
    case "laid_off":
      return format(gettext("The computer laid off %(card)s for you."), { card });
    case "discarded":
      return format(gettext("The computer discarded %(card)s for you."), { card });
    default:
      return "";
  }
}

function describeMine(view, event, d) {
  const card = d.card ? theCard(d.card) : "";
  switch (eventType(event)) {
    case "drew":
      return d.from === "discard"
        ? format(gettext("You took %(card)s from the discard pile."), { card })
        : format(gettext("You drew %(card)s from the stock."), { card });
    case "laid_down":
      return format(gettext("You laid down %(contract)s."), { contract: meldsText(view, d) });
    case "laid_off":
      return format(gettext("You laid off %(card)s."), { card });
    case "discarded":
      return format(gettext("You discarded %(card)s."), { card });
    default:
      return "";
  }
}
