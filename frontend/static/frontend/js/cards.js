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

export const rankValue = (rank) => RANKS.indexOf(rank) + 1;
export const isJoker = (card) => Boolean(card && card.joker);

export function cardName(card) {
  if (!card) return gettext("no card");
  if (isJoker(card)) {
    if (card.as) {
      const as = card.as.suit
        ? format(gettext("%(rank)s of %(suit)s"), { rank: RANK_NAMES[card.as.rank], suit: SUIT_NAMES[card.as.suit] })
        : RANK_NAMES[card.as.rank];
      return format(gettext("joker as %(card)s"), { card: as });
    }
    return gettext("joker");
  }
  return format(gettext("%(rank)s of %(suit)s"), { rank: RANK_NAMES[card.rank], suit: SUIT_NAMES[card.suit] });
}

export function penalty(card) {
  if (isJoker(card)) return 25;
  const v = rankValue(card.rank);
  return v === 1 ? 15 : Math.min(v, 10);
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
  for (const aceHigh of [false, true]) {
    const value = (c) => (c.rank === "A" && aceHigh ? 14 : rankValue(c.rank));
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

// --- Contract search, for the practice hint ------------------------------------------------

function groupCandidates(hand, size) {
  const out = [];
  const jokers = hand.filter(isJoker);
  for (const rank of RANKS) {
    const same = hand.filter((c) => c.rank === rank && !isJoker(c));
    if (same.length < 2) continue;
    const missing = Math.max(0, size - same.length);
    if (missing <= jokers.length) out.push([...same, ...jokers.slice(0, missing)]);
  }
  return out;
}

function runCandidates(hand, size) {
  const out = [];
  const jokers = hand.filter(isJoker);
  for (const suit of SUITS) {
    const bySuit = hand.filter((c) => c.suit === suit && !isJoker(c));
    for (let low = 1; low + size - 1 <= 14; low++) {
      const picked = [];
      let missing = 0;
      for (let r = low; r < low + size; r++) {
        const rank = RANKS[(r - 1) % 13];
        const card = bySuit.find((c) => c.rank === rank && !picked.includes(c));
        if (card) picked.push(card); else missing++;
      }
      if (picked.length >= 2 && missing <= jokers.length) {
        const cards = [...picked, ...jokers.slice(0, missing)];
        out.push(cards);
      }
    }
  }
  return out;
}

// One way to lay down `contract` from `hand` (list of card lists, one per requirement, in
// the contract's order), or null. Small hands make a plain backtracking search cheap.
export function findContract(hand, contract) {
  const reqs = contract.melds.map((m, i) => ({ ...m, i }));
  const order = [...reqs].sort((a, b) => (a.kind === "run" ? 0 : 1) - (b.kind === "run" ? 0 : 1));
  const chosen = [];
  function search(k, pool) {
    if (k === order.length) return true;
    const req = order[k];
    const candidates = req.kind === "group" ? groupCandidates(pool, req.min_cards) : runCandidates(pool, req.min_cards);
    for (const cards of candidates) {
      const rest = pool.filter((c) => !cards.includes(c));
      if (!checkMeld(cards, req.kind, req.min_cards).ok) continue;
      chosen[req.i] = cards;
      if (search(k + 1, rest)) return true;
    }
    return false;
  }
  return search(0, hand) ? chosen : null;
}
