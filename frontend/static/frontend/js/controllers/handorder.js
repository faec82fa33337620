// The order of your hand, as you arranged it: kept in this browser for each game. A card new
// to the hand (drawn, taken, dealt) goes where the chosen sort puts it, or at the end of the
// hand when no sort was chosen; the cards already held keep their order.
import { sortByRank, sortBySuit } from "../cards.js";

const key = (gameId) => `ladder.order.${gameId}`;

export function loadOrder(gameId) {
  try { return JSON.parse(localStorage.getItem(key(gameId)) || "[]"); }
  catch { return []; }
}

export function saveOrder(gameId, order) {
  try { localStorage.setItem(key(gameId), JSON.stringify(order)); }
  catch { /* private mode */ }
}

export function sortedIds(cards, by) {
  return (by === "rank" ? sortByRank(cards) : sortBySuit(cards)).map((c) => c.id);
}

// The ids of `hand` (cards from the GameView) in the player's order: known cards keep their
// place; each new card goes just after the card that comes before it in the chosen sort
// (first when none does), or at the end without a sort.
export function arrange(order, hand, sortBy) {
  const byId = new Map(hand.map((c) => [c.id, c]));
  const kept = order.filter((id) => byId.has(id));
  const held = new Set(kept);
  const added = hand.map((c) => c.id).filter((id) => !held.has(id));
  if (!sortBy || !added.length) return [...kept, ...added];
  const sorted = sortedIds([...kept, ...added].map((id) => byId.get(id)), sortBy);
  const result = [...kept];
  for (const id of added) {
    let at = 0;
    for (let j = sorted.indexOf(id) - 1; j >= 0; j--) {
      const before = result.indexOf(sorted[j]);
      if (before >= 0) { at = before + 1; break; }
    }
    result.splice(at, 0, id);
  }
  return result;
}

// The order with card `id` swapped with its neighbour `delta` places away (null: no move).
export function swapped(order, id, delta) {
  const i = order.indexOf(id), j = i + delta;
  if (i < 0 || j < 0 || j >= order.length) return null;
  const next = [...order];
  [next[i], next[j]] = [next[j], next[i]];
  return next;
}

// The order with card `id` moved to `index`.
export function movedTo(order, id, index) {
  const rest = order.filter((x) => x !== id);
  rest.splice(Math.max(0, Math.min(index, rest.length)), 0, id);
  return rest;
}
