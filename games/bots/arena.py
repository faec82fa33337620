"""Bot tournaments: seat-rotated duplicate games, and the figures they give.

Each seed is played four times with the lineup rotated one seat further each time, so every
level sits in every seat of every deal and no one's result owes anything to the cards alone.
The ``tournament`` management command prints what :class:`Tally` gathers here; keeping the
arithmetic in this pure module lets the tests check it without Django.

Times are CPU time of this process (``time.process_time``), so that other work on a shared
machine does not inflate them; on an idle core they equal wall-clock time.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from statistics import median, quantiles
from time import process_time

from games.engine.contracts import TOP_RUNG
from games.engine.rules import apply, new_game, places
from games.engine.state import FINISHED, SEATS, STOCK_EXHAUSTED, WENT_OUT
from games.engine.view import player_view

from . import STRATEGIES, Memory, Strategy, rng_for
from .memo import clear_memo

Z_95 = 1.959964  # the normal quantile of a two-sided 95 % interval


@dataclass(frozen=True)
class DealRecord:
    rungs: tuple[int, ...]  # the rung each seat played
    laid_down: tuple[bool, ...]
    turns: int
    ending: str  # WENT_OUT or STOCK_EXHAUSTED


@dataclass(frozen=True)
class GameRecord:
    seed: str
    lineup: tuple[str, ...]  # the level at each seat
    contracts: tuple[int, ...]
    penalties: tuple[int, ...]
    places: tuple[int, ...]
    deals: tuple[DealRecord, ...]
    decision_ms: tuple[tuple[float, ...], ...]  # per seat
    seconds: float


def schedule(games: int, lineup: Sequence[str], seed: str) -> Iterator[tuple[str, tuple]]:
    """(seed, lineup by seat) for ``games`` games, rounded up to whole rotations."""
    for number in range(-(-games // SEATS)):
        for turn in range(SEATS):
            yield f"{seed}-{number}", tuple(lineup[(s - turn) % SEATS] for s in range(SEATS))


def play_game(seed: str, lineup: Sequence[str],
              strategies: Mapping[str, Strategy] = STRATEGIES) -> GameRecord:
    """Play a whole game with these levels at seats 0-3; time every decision. Each strategy
    is handed its seat's view alone (R25)."""
    clear_memo()
    started = process_time()
    state, _ = new_game(seed)
    times: list[list[float]] = [[] for _ in range(SEATS)]
    deals = []
    deal_rungs = tuple(state.rung(s) for s in range(SEATS))
    while state.phase != FINISHED:
        seat, deal, turn = state.turn, state.deal, state.turn_number
        view = player_view(state, seat)
        tick = process_time()
        action = strategies[lineup[seat]](view, Memory.from_view(view),
                                          rng_for(seed, seat, state.actions))
        times[seat].append((process_time() - tick) * 1000)
        state, _ = apply(state, seat, action)
        if state.deal != deal or state.phase == FINISHED:
            result = state.history[-1]
            deals.append(DealRecord(deal_rungs, result.climbed, turn, result.ending))
            deal_rungs = tuple(state.rung(s) for s in range(SEATS))
    return GameRecord(seed, tuple(lineup), state.climbed, state.penalties,
                      tuple(places(state.climbed, state.penalties)), tuple(deals),
                      tuple(tuple(t) for t in times), process_time() - started)


@dataclass
class LevelTally:
    seats: int = 0  # seats played: a level at two seats of a game counts twice
    wins: float = 0.0  # a first place shared by k players counts 1/k to each
    contracts: int = 0
    penalty: int = 0
    decision_ms: list[float] = field(default_factory=list)


@dataclass
class Tally:
    levels: dict[str, LevelTally] = field(default_factory=dict)
    rung_deals: Counter = field(default_factory=Counter)  # rung -> deals played on it
    rung_laid: Counter = field(default_factory=Counter)  # rung -> deals it was laid down
    turns: list[int] = field(default_factory=list)
    endings: Counter = field(default_factory=Counter)
    game_seconds: list[float] = field(default_factory=list)

    def add(self, game: GameRecord) -> None:
        firsts = game.places.count(1)
        for seat, level in enumerate(game.lineup):
            tally = self.levels.setdefault(level, LevelTally())
            tally.seats += 1
            tally.wins += (game.places[seat] == 1) / firsts
            tally.contracts += game.contracts[seat]
            tally.penalty += game.penalties[seat]
            tally.decision_ms.extend(game.decision_ms[seat])
        for deal in game.deals:
            for rung, laid in zip(deal.rungs, deal.laid_down, strict=True):
                self.rung_deals[rung] += 1
                self.rung_laid[rung] += laid
            self.turns.append(deal.turns)
            self.endings[deal.ending] += 1
        self.game_seconds.append(game.seconds)

    @property
    def games(self) -> int:
        return len(self.game_seconds)

    def report(self) -> str:
        lines = [f"{self.games} games, {len(self.turns)} deals",
                 "level    seats  win rate  95% Wilson      contracts  penalty  "
                 "decision CPU ms p50   p99"]
        for level, t in sorted(self.levels.items()):
            low, high = wilson(t.wins, t.seats)
            lines.append(
                f"{level:<8} {t.seats:>5}  {t.wins / t.seats:7.1%}  [{low:5.1%}, {high:5.1%}]"
                f"  {t.contracts / t.seats:9.2f}  {t.penalty / t.seats:7.1f}"
                f"  {median(t.decision_ms):19.2f} {p99(t.decision_ms):6.2f}")
        lines.append("rung                 " + "".join(f"{r:>6}" for r in range(1, TOP_RUNG + 1)))
        lines.append("players on it        " + "".join(
            f"{self.rung_deals[r]:>6}" for r in range(1, TOP_RUNG + 1)))
        lines.append("laid down            " + "".join(
            f"{self.rung_laid[r] / self.rung_deals[r]:>6.0%}" if self.rung_deals[r] else
            f"{'-':>6}" for r in range(1, TOP_RUNG + 1)))
        deals = len(self.turns) or 1
        lines.append(f"turns per deal: mean {sum(self.turns) / deals:.1f}; deals ending: "
                     f"someone went out {self.endings[WENT_OUT] / deals:.0%}, "
                     f"stock limit (R20) {self.endings[STOCK_EXHAUSTED] / deals:.0%}")
        lines.append(f"game CPU time: median {median(self.game_seconds) * 1000:.0f} ms, "
                     f"p99 {p99(self.game_seconds) * 1000:.0f} ms")
        return "\n".join(lines)


def wilson(successes: float, n: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(centre - half, 0.0), min(centre + half, 1.0)


def p99(values: Sequence[float]) -> float:
    """The 99th percentile, by the standard library (a single value is its own)."""
    return quantiles(values, n=100, method="inclusive")[98] if len(values) > 1 else values[0]
