"""Hard: searches possible worlds, with the normal player as everyone's guide.

Where the normal player has a clear choice (lay down, lay off, an obvious draw or discard) hard
plays it. Where it hesitates (take the top discard or draw blind; which of its few best
discards), hard imagines worlds consistent with what it knows (:mod:`.determinize`: the unseen
cards dealt at random, each opponent keeping the cards seen taken), plays each candidate in
each world, lets the normal player play every seat for a few turns, and keeps the candidate
that leaves it best placed against the others. Every candidate meets the same worlds, so the
comparison is fair even with few of them.

The work is a fixed number of worlds and turns, never a wall-clock budget: the same view and
the same rng give the same choice on any machine (R24).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import exp

from games.engine.actions import DISCARD_PILE, STOCK, Action, Discard, Draw
from games.engine.cards import FACES, hand_penalty, is_joker
from games.engine.rng import Stream
from games.engine.rules import apply
from games.engine.state import DRAW, FINISHED, SEATS, GameState
from games.engine.view import PlayerView, player_view

from . import normal
from .determinize import sample_world
from .memory import JOKER, Memory
from .outlook import outlook
from .tactics import lay_off

WORLDS = 6  # worlds imagined per decision
HORIZON_TURNS = 8  # turns played ahead in each: two rounds of the table
CANDIDATES = 3  # discards weighed at most
HESITATION = 0.6  # normal's runner-up discards within this many draws of its best are weighed
CLIMB_POINTS = 120  # a contract laid down, in penalty points (R22: climbs rank first)
OPPONENT_WEIGHT = 0.5  # how much the others' gains count against this player's
LAID_DOWN_SHARE = 0.5  # share of a laid-down hand's penalty likely still held at the end
# A hand still playing for its contract will be mostly other cards by the end of the deal: its
# penalty now says little about its penalty then.
PLAYING_SHARE = 0.2
CLIMB_PER_DRAW = 0.35  # decay of the chance to lay down per draw still needed
NORMAL_BONUS = 2.0  # points the normal player's own choice gets, so noise alone never wins


@dataclass(frozen=True)
class Hard:
    worlds: int = WORLDS
    horizon: int = HORIZON_TURNS
    candidates: int = CANDIDATES

    def __call__(self, view: PlayerView, memory: Memory, rng: Stream) -> Action:
        if view.phase == DRAW:
            options = self._draws(view, memory)
        else:
            found = normal.may_lay_down(view, memory) or lay_off(view)
            if found is not None:
                return found
            options = self._discards(view, memory)
        if len(options) == 1:
            return options[0]
        return self._search(view, memory, rng, options)

    def _draws(self, view: PlayerView, memory: Memory) -> list[Action]:
        """The normal player's draw, and the other source when the choice is a real one."""
        chosen = normal.choose(view, memory, None)
        if view.me.laid_down or DISCARD_PILE not in view.legal.draw or not normal.could_help(
                view.discard_top, view):
            return [chosen]
        other = STOCK if chosen.source == DISCARD_PILE else DISCARD_PILE
        return [chosen, Draw(other)]

    def _discards(self, view: PlayerView, memory: Memory) -> list[Action]:
        ranked = sorted(normal.discard_order(view, memory))
        if view.me.laid_down:
            return [Discard(ranked[0][1])]
        best = ranked[0][0]
        return [Discard(c) for cost, c in ranked[:self.candidates] if cost <= best + HESITATION]

    def _search(self, view: PlayerView, memory: Memory, rng: Stream,
                options: list[Action]) -> Action:
        totals = [NORMAL_BONUS * self.worlds] + [0.0] * (len(options) - 1)
        for _ in range(self.worlds):
            world = sample_world(view, memory, rng)
            unseen = _unseen_counts(world)
            for i, action in enumerate(options):
                totals[i] += self._play_out(world, unseen, view.seat, action)
        return options[max(range(len(options)), key=lambda i: (totals[i], -i))]

    def _play_out(self, world: GameState, unseen: list[int], seat: int,
                  action: Action) -> float:
        state, _ = apply(world, seat, action)
        deal, stop = world.deal, world.turn_number + self.horizon
        while state.deal == deal and state.phase != FINISHED and not (
                state.turn_number >= stop and state.phase == DRAW):
            view = player_view(state, state.turn)
            state, _ = apply(state, state.turn, normal.choose(view, Memory.from_view(view), None))
        if state.deal != deal or state.phase == FINISHED:
            result = state.history[-1]
            scores = [CLIMB_POINTS * result.climbed[s] - result.penalties[s] for s in range(SEATS)]
        else:
            scores = _prospects(state, unseen)
        others = sum(scores) - scores[seat]
        return scores[seat] - OPPONENT_WEIGHT * others / (SEATS - 1)


def _unseen_counts(world: GameState) -> list[int]:
    """Per face, the world's cards out of sight (stock and hands) when the search began."""
    counts = [0] * (FACES + 1)
    for cards in (world.stock, *world.hands):
        for card in cards:
            counts[JOKER if is_joker(card) else card % FACES] += 1
    return counts


def _prospects(state: GameState, unseen: list[int]) -> list[float]:
    """Each seat's expected score for a deal still running: a contract laid down counts in
    full, one still to make by its chance given the draws it needs; cards in hand by their
    penalty (R21), less for a hand already down that will shrink by lay-offs.

    The live cards are those out of sight when the search began, less the seat's own: so a
    hand that every candidate left alike is priced once (the outlook is memoised)."""
    scores = []
    for seat, hand in enumerate(state.hands):
        if state.laid_down_turn[seat] is not None:
            scores.append(CLIMB_POINTS - LAID_DOWN_SHARE * hand_penalty(hand))
            continue
        live = list(unseen)
        for card in hand:
            face = JOKER if is_joker(card) else card % FACES
            live[face] = max(live[face] - 1, 0)
        draws = outlook(hand, state.contract(seat), tuple(live)).distance
        scores.append(CLIMB_POINTS * exp(-CLIMB_PER_DRAW * max(draws, 0.0))
                      - PLAYING_SHARE * hand_penalty(hand))
    return scores


choose = Hard()
