// Cards as the API sends them: {id: "7H.1", rank: "7", suit: "H"} or {id: "JK.1", joker: true}.
// Names for screen readers, sorting, and meld checks that mirror the engine's (R5-R8, R11).
import { format, gettext, ngettext } from "./i18n.js";

export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
export const SUITS = ["S", "H", "D", "C"];
export const GLYPH = { S: "♠", H: "♥", D: "♦", C: "♣" };

const RANK_NAMES = {
  A: gettext("ace"), 2: gettext("two"), 3: gettext("three"), 4: gettext("four"),
  5: gettext("five"), 6: gettext("six"), 7: gettext("seven"), 8: gettext("eight"),
  9: gettext("nine"), 10: gettext("ten"), J: gettext("jack"), Q: gettext("queen"),
  K: gettext("king"),
};
const SUIT_NAMES = {
  S: gettext("spades"), H: gettext("hearts"), D: gettext("diamonds"), C: gettext("clubs"),
};

// A rank with its definite article, for the log's sentences: Spanish says "la jota" but "el
// rey" (each language's article agrees with its own word for the rank).
const THE_RANK = {
  A: gettext("the ace"), 2: gettext("the two"), 3: gettext("the three"), 4: gettext("the four"),
  5: gettext("the five"), 6: gettext("the six"), 7: gettext("the seven"), 8: gettext("the eight"),
  9: gettext("the nine"), 10: gettext("the ten"), J: gettext("the jack"), Q: gettext("the queen"),
  K: gettext("the king"),
};

export const rankValue = (rank) => RANKS.indexOf(rank) + 1;
export const isJoker = (card) => Boolean(card && card.joker);

export function cardName(card) {
  if (!card) return gettext("no card");
  if (isJoker(card)) {
    return card.as ? format(gettext("joker as %(card)s"), { card: standsFor(card.as) }) : gettext("joker");
  }
  return format(gettext("%(rank)s of %(suit)s"), { rank: RANK_NAMES[card.rank], suit: SUIT_NAMES[card.suit] });
}

// A card from its id alone ("KS.1", "10H.2", "JK.3"), as an action names it.
export function cardOfId(id) {
  const face = id.split(".")[0];
  return face === "JK" ? { id, joker: true } : { id, rank: face.slice(0, -1), suit: face.slice(-1) };
}

// "K♠": the short name the cards themselves show.
export const shortName = (card) => (isJoker(card) ? gettext("joker") : `${card.rank}${GLYPH[card.suit]}`);

// What a joker stands for: a rank in a group, a rank and suit in a run.
function standsFor(as) {
  return as.suit
    ? format(gettext("%(rank)s of %(suit)s"), { rank: RANK_NAMES[as.rank], suit: SUIT_NAMES[as.suit] })
    : RANK_NAMES[as.rank];
}

// The card's name with its definite article ("the jack of spades"), for sentences.
export function theCard(card) {
  if (!card) return gettext("no card");
  if (isJoker(card)) {
    return card.as ? format(gettext("the joker as %(card)s"), { card: standsFor(card.as) }) : gettext("the joker");
  }
  return format(gettext("%(rank)s of %(suit)s"), { rank: THE_RANK[card.rank], suit: SUIT_NAMES[card.suit] });
}

const suitKey = (c) => (isJoker(c) ? 99 : SUITS.indexOf(c.suit) * 20 + rankValue(c.rank));
const rankKey = (c) => (isJoker(c) ? 99 : rankValue(c.rank) * 5 + SUITS.indexOf(c.suit));
export const sortBySuit = (cards) => [...cards].sort((a, b) => suitKey(a) - suitKey(b));
export const sortByRank = (cards) => [...cards].sort((a, b) => rankKey(a) - rankKey(b));

// --- Melds ---------------------------------------------------------------------------------

// The placement of a run's cards: naturals by rank with jokers filling gaps, spare jokers at
// the high end unless `jokersLow` of them go low (R8: the player chooses). Aces low or high,
// whichever fits. Returns the ordered list, or null when no arrangement fits.
export function arrangeRun(cards, jokersLow = 0) {
  const naturals = cards.filter((c) => !isJoker(c));
  const jokers = cards.filter(isJoker);
  if (naturals.length === 0) return null;
  // Two aces: one low and one high, the ends of the 14-card run (R6).
  const aces = naturals.filter((c) => c.rank === "A");
  for (const aceHigh of [false, true]) {
    const value = (c) => (c.rank !== "A" ? rankValue(c.rank)
      : aces.length === 2 ? (c === aces[1] ? 14 : 1) : aceHigh ? 14 : 1);
    const sorted = [...naturals].sort((a, b) => value(a) - value(b));
    const lo = value(sorted[0]), hi = value(sorted[sorted.length - 1]);
    const span = hi - lo + 1;
    if (new Set(sorted.map(value)).size !== sorted.length) continue; // two of one rank
    const gaps = span - sorted.length;
    if (gaps > jokers.length) continue;
    let spare = jokers.length - gaps;
    let low = Math.min(jokersLow, spare, lo - 1);
    let high = spare - low;
    if (hi + high > 14) { low += hi + high - 14; high = 14 - hi; }
    if (lo - low < 1) continue;
    const pool = [...jokers];
    const out = [];
    for (let i = 0; i < low; i++) out.push(pool.pop());
    for (let r = lo, k = 0; r <= hi; r++) {
      if (k < sorted.length && value(sorted[k]) === r) out.push(sorted[k++]);
      else out.push(pool.pop());
    }
    for (let i = 0; i < high; i++) out.push(pool.pop());
    return out;
  }
  return null;
}

// Check cards as a meld of `kind` with at least `minCards` (one requirement of a contract).
// Returns {ok, cards (in meld order), problem}: `problem` is a sentence for the player.
export function checkMeld(cards, kind, minCards, jokersLow = 0) {
  const naturals = cards.filter((c) => !isJoker(c));
  const need = (n) => format(ngettext("add %(n)s more card", "add %(n)s more cards", n), { n });
  if (kind === "group") {
    if (naturals.some((c) => c.rank !== naturals[0]?.rank)) {
      return { ok: false, cards, problem: gettext("a group's cards share one rank (R5)") };
    }
    if (cards.length && naturals.length < 2) {
      return { ok: false, cards, problem: gettext("a meld needs two cards that are not jokers (R7)") };
    }
    if (cards.length < minCards) return { ok: false, cards, problem: need(minCards - cards.length) };
    return { ok: true, cards, problem: "" };
  }
  if (naturals.some((c) => c.suit !== naturals[0]?.suit)) {
    return { ok: false, cards, problem: gettext("a run's cards share one suit (R6)") };
  }
  if (cards.length && naturals.length < 2) {
    return { ok: false, cards, problem: gettext("a meld needs two cards that are not jokers (R7)") };
  }
  const ordered = cards.length ? arrangeRun(cards, jokersLow) : [];
  if (!ordered) {
    return { ok: false, cards, problem: gettext("a run's cards follow one another; jokers fill gaps (R6)") };
  }
  if (cards.length < minCards) return { ok: false, cards: ordered, problem: need(minCards - cards.length) };
  return { ok: true, cards: ordered, problem: "" };
}
