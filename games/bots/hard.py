"""Hard: an expert's judgment of its own hand, and a search of possible worlds to win the game.

Hard plays its hand as :data:`normal.EXPERT` does: the normal player's plan, but taking the top
discard only when it beats what a stock draw would bring on average, where the normal player
takes any card that helps (normal.py). Until someone lays down that is all: the deal's end is
far off and a few imagined futures say less than the outlook. Once a player has laid down, the
end is in sight and the choices that decide it are searched where the expert hesitates: take
the top discard or draw blind, and which of its close best discards to throw (after laying
down, close in penalty points).

For each choice hard imagines worlds consistent with what it knows (:mod:`.determinize`: the
unseen cards dealt at random, each opponent keeping the cards seen taken, a player who has laid
down holding only cards that fit nowhere), plays the choice in each world and lets the normal
player play every seat for a round of the table or to the end of the deal. It then prices where
that leaves everyone: a finished deal by its result, a running one by each player's chance to
lay down (from the draws its contract still needs, how late it is and who has gone down
already: a model fitted to games of expert players) and the points each is likely to be caught
with; and turns those into hard's chance of winning the game from the standings
(:mod:`.standings`), so that a climb counts most when it decides the winner, and penalty points
when the contracts are level (R22). Every choice meets the same worlds, so each world tells how
much better one choice did than another; hard keeps the expert's choice unless those
differences, over up to 8 worlds, say with confidence that another is better (it stops after 4
when no other looks promising). Up to 32 worlds, stopping after 8, took 7.1 s a game against
2.6 s (an 8-game probe against the 2000-game tournament), and no budget has shown the search
a gain over the expert's own choices beyond the noise (docs/bots.md). A mean of a few worlds is
mostly noise: overturning the choice on it made hard lose to the expert alone (22.4 % of 2000
games, when the normal level played as the expert does).

The work is a fixed number of worlds and turns, never a wall-clock budget: the same view and
the same rng give the same choice on any machine (R24).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import exp, inf, sqrt
from statistics import mean, stdev

from games.engine.actions import DISCARD_PILE, STOCK, Action, Discard, Draw
from games.engine.cards import FACES, hand_penalty, is_joker
from games.engine.contracts import TOP_RUNG
from games.engine.rng import Stream
from games.engine.rules import apply
from games.engine.state import DEALS, DRAW, FINISHED, SEATS, GameState
from games.engine.view import PlayerView, player_view

from . import normal
from .determinize import sample_world
from .memory import JOKER, Memory
from .outlook import outlook
from .standings import win_chance
from .tactics import lay_off

WORLDS = 8  # worlds imagined at most per decision
FIRST_LOOK = 4  # worlds after which a choice no alternative challenges is settled
HORIZON_TURNS = 4  # turns played ahead at most: one round of the table
CANDIDATES = 3  # discards weighed at most
HESITATION = 0.6  # the expert's runner-up discards within this many draws of its best are weighed
# How sure the worlds must be, as a paired t statistic over them, that an alternative beats the
# expert's own choice: after FIRST_LOOK worlds to look further, after all to take it.
# The differences are small against the worlds' spread; overturning the expert on a mean of a
# few noisy worlds made hard lose to it (22.4 % of 2000 games).
PROMISE = 0.5
CONFIDENCE = 2.0
# The chance to lay down in this deal: a logistic model fitted to 48 000 draw decisions of
# players of the expert's judgment, the normal level's until 2026-12-02 (weights for: 1, draws
# needed, turn / 10, opponents down, an opponent about to go out, draws needed x turn / 10). The
# play-outs' normal players now take more discards and lay down less often: not fitted again.
CLIMB_MODEL = (2.214, -0.557, -0.088, -0.211, -0.337, -0.093)
POINTS_IF_CLIMBED = 4.0  # mean points of a player who lays down in the deal (same games)
POINTS_IF_STUCK = 70.0  # and of one who does not
HAND_SHARE = 0.3  # how much the points now in hand say about the points if stuck
LAID_DOWN_SHARE = 0.5  # share of a laid-down hand's points likely still held at the end


@dataclass(frozen=True)
class Hard:
    worlds: int = WORLDS
    horizon: int = HORIZON_TURNS
    candidates: int = CANDIDATES
    first_look: int = FIRST_LOOK

    def __call__(self, view: PlayerView, memory: Memory, rng: Stream) -> Action:
        if not any(p.laid_down for p in view.players):  # the deal's end is not in sight
            return normal.EXPERT(view, memory, rng)
        return self._decide(view, memory, rng)

    def _decide(self, view: PlayerView, memory: Memory, rng: Stream) -> Action:
        """The expert's lay-downs and lay-offs; a search of the draws and discards it hesitates
        over."""
        if view.phase == DRAW:
            options = self._draws(view, memory, rng)
        else:
            found = normal.may_lay_down(view, memory) or lay_off(view)
            if found is not None:
                return found
            options = self._discards(view, memory)
        if len(options) == 1:
            return options[0]
        return self.search(view, memory, rng, options)

    def _draws(self, view: PlayerView, memory: Memory, rng: Stream) -> list[Action]:
        """The expert's draw, and the other source when the choice is a real one."""
        chosen = normal.EXPERT(view, memory, rng)
        if view.me.laid_down or DISCARD_PILE not in view.legal.draw or not normal.could_help(
                view.discard_top, view):
            return [chosen]
        other = STOCK if chosen.source == DISCARD_PILE else DISCARD_PILE
        return [chosen, Draw(other)]

    def _discards(self, view: PlayerView, memory: Memory) -> list[Action]:
        """The best discards (the expert's and the normal player's are one), as many as are
        close to the first choice."""
        ranked = sorted(normal.discard_order(view, memory))
        best = ranked[0][0]
        return [Discard(c) for cost, c in ranked[:self.candidates] if cost <= best + HESITATION]

    def search(self, view: PlayerView, memory: Memory, rng: Stream,
               options: list[Action]) -> Action:
        """The expert's choice (``options[0]``) unless the worlds show an alternative clearly
        better: called only when there is a choice to search (tests count the calls).

        Every option meets the same worlds, so each world gives a paired difference, each the
        :meth:`play_out` of an option (tests script those values to try the decision rule)."""
        values: list[list[float]] = [[] for _ in options]
        for n in range(1, self.worlds + 1):
            world = self._world(view, memory, rng)
            unseen = _unseen_counts(world)
            for i, action in enumerate(options):
                values[i].append(self.play_out(world, unseen, view.seat, action))
            if n == self.first_look < self.worlds and _best_challenger(values)[1] < PROMISE:
                return options[0]
        best, sureness = _best_challenger(values)
        return options[best] if sureness >= CONFIDENCE else options[0]

    def gain(self, view: PlayerView, memory: Memory, rng: Stream, option: Action,
             instead: Action) -> float:
        """How much more of the game ``option`` wins than ``instead``, as the search weighs
        moves: the mean, over ``worlds`` worlds both meet, of the difference of their
        :meth:`play_out` (a chance to win, so between -1 and 1). The post-game review prices
        a person's move against the expert's with it (:mod:`.postgame`)."""
        total = 0.0
        for _ in range(self.worlds):
            world = self._world(view, memory, rng)
            unseen = _unseen_counts(world)
            total += (self.play_out(world, unseen, view.seat, option)
                      - self.play_out(world, unseen, view.seat, instead))
        return total / self.worlds

    def _world(self, view: PlayerView, memory: Memory, rng: Stream) -> GameState:
        return sample_world(view, memory, rng)

    def play_out(self, world: GameState, unseen: list[int], seat: int,
                 action: Action) -> float:
        """Hard's chance to win after playing ``action`` in ``world`` and letting the normal
        player play every seat for ``horizon`` turns or to the end of the deal."""
        state, _ = apply(world, seat, action)
        deal, stop = world.deal, world.turn_number + self.horizon
        while state.deal == deal and state.phase != FINISHED and not (
                state.turn_number >= stop and state.phase == DRAW):
            view = player_view(state, state.turn)
            state, _ = apply(state, state.turn, normal.choose(view, Memory.from_view(view), None))
        if state.deal != deal or state.phase == FINISHED:
            rungs = [state.rung(s) for s in range(SEATS)]
            return win_chance(seat, state.climbed, state.penalties, rungs, [0.0] * SEATS,
                              [0.0] * SEATS, DEALS - deal)
        climbs, points = _prospects(state, unseen)
        contracts = [state.climbed[s] - (state.laid_down_turn[s] is not None)
                     for s in range(SEATS)]
        rungs = [min(c + 1, TOP_RUNG) for c in contracts]
        return win_chance(seat, contracts, state.penalties, rungs, climbs, points, DEALS - deal)


def _best_challenger(values: list[list[float]]) -> tuple[int, float]:
    """The alternative to ``values[0]`` with the highest paired t statistic, and that t."""
    best, best_t = 0, -inf
    for i in range(1, len(values)):
        gains = [a - b for a, b in zip(values[i], values[0], strict=True)]
        if len(gains) < 2:
            continue
        gain, spread = mean(gains), stdev(gains)
        if spread:
            t = gain / (spread / sqrt(len(gains)))
        else:  # every world agrees
            t = inf if gain > 0 else 0.0
        if t > best_t:
            best, best_t = i, t
    return best, best_t


def _unseen_counts(world: GameState) -> list[int]:
    """Per face, the world's cards out of sight (stock and hands) when the search began."""
    counts = [0] * (FACES + 1)
    for cards in (world.stock, *world.hands):
        for card in cards:
            counts[JOKER if is_joker(card) else card % FACES] += 1
    return counts


def _prospects(state: GameState, unseen: list[int]) -> tuple[list[float], list[float]]:
    """Each seat's chance to lay down in this deal and the points it will likely score in it.

    The live cards are those out of sight when the search began, less the seat's own: so a
    hand that every candidate left alike is priced once (the outlook is memoised)."""
    climbs, points = [], []
    down = [state.laid_down_turn[s] is not None for s in range(SEATS)]
    for seat, hand in enumerate(state.hands):
        if down[seat]:
            climbs.append(1.0)
            points.append(LAID_DOWN_SHARE * hand_penalty(hand))
            continue
        live = list(unseen)
        for card in hand:
            face = JOKER if is_joker(card) else card % FACES
            live[face] = max(live[face] - 1, 0)
        draws = max(outlook(hand, state.contract(seat), tuple(live)).distance, 0.0)
        others_down = [len(state.hands[s]) for s in range(SEATS) if s != seat and down[s]]
        out_soon = max(0.0, 1.0 - 0.2 * (min(others_down) - 1)) if others_down else 0.0
        late = min(state.turn_number, 60) / 10
        w = CLIMB_MODEL
        logit = (w[0] + w[1] * draws + w[2] * late + w[3] * len(others_down) + w[4] * out_soon
                 + w[5] * draws * late)
        climb = 1 / (1 + exp(-logit))
        climbs.append(climb)
        stuck = HAND_SHARE * hand_penalty(hand) + (1 - HAND_SHARE) * POINTS_IF_STUCK
        points.append(climb * POINTS_IF_CLIMBED + (1 - climb) * stuck)
    return climbs, points


choose = Hard()
