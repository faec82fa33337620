"""Whole seeded games of every level: every action legal and every game over (R24, R25)."""

from concurrent.futures import ProcessPoolExecutor

import pytest

from games.bots import LEVELS, STRATEGIES
from games.bots.arena import play_game, schedule
from games.bots.hard import Hard

# The search runs in full in the tournament command; here a small budget keeps the suite quick
# while every part of it (worlds, play-outs, standings) still runs.
QUICK = {**STRATEGIES, "hard": Hard(worlds=1, horizon=1, candidates=2)}
# Lineups cycle by seed; each is played in all four seat rotations. Hard sits in one seed in
# four, which is where the time goes.
LINEUPS = [("random", "easy", "normal", "hard"), ("easy", "normal", "random", "easy"),
           ("normal", "easy", "normal", "random"), ("easy", "random", "easy", "normal")]
GAMES = 300
WORKERS = 2  # the games are independent: both cores of the CI machine play them
MAX_ACTIONS = 20_000  # far more than any game takes: a loop would show here


def test_the_levels_and_the_baseline_are_all_offered():
    assert LEVELS == ("easy", "normal", "hard")
    assert set(STRATEGIES) == {"random", *LEVELS}


def play_seeds(numbers) -> list[tuple[tuple[str, ...], int, int]]:
    """(lineup, deals, actions) of every game of these seed numbers, four rotations each.
    play_game applies every action with the engine, which refuses any illegal one."""
    played = []
    for number in numbers:
        lineup = LINEUPS[number % len(LINEUPS)]
        for seed, seats in schedule(4, lineup, f"legal-{number}"):
            record = play_game(seed, seats, QUICK)
            played.append((seats, len(record.deals), sum(map(len, record.decision_ms))))
    return played


@pytest.mark.slow
def test_every_level_plays_only_legal_actions_and_every_game_ends():
    seeds = range(GAMES // 4)
    with ProcessPoolExecutor(WORKERS) as pool:
        chunks = pool.map(play_seeds, [seeds[i::WORKERS] for i in range(WORKERS)])
        games = [game for chunk in chunks for game in chunk]
    assert len(games) == GAMES
    assert all(deals == 10 and actions < MAX_ACTIONS for _, deals, actions in games)
    assert {level for seats, _, _ in games for level in seats} == set(STRATEGIES)
