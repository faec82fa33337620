"""Whole seeded games of every level: every action legal and every game over (R24, R25)."""

from games.bots import LEVELS, STRATEGIES
from games.bots.arena import play_game, schedule
from games.bots.hard import Hard

# The search runs in full in the tournament command; here a small budget keeps the suite quick
# while every part of it (worlds, play-outs, prospects) still runs.
QUICK = {**STRATEGIES, "hard": Hard(worlds=1, horizon=1, candidates=2)}
# Lineups cycle by seed; each is played in all four seat rotations. Hard sits in one seed in
# four, which is where the time goes.
LINEUPS = [("random", "easy", "normal", "hard"), ("easy", "normal", "random", "easy"),
           ("normal", "easy", "normal", "random"), ("easy", "random", "easy", "normal")]
GAMES = 300
MAX_ACTIONS = 20_000  # far more than any game takes: a loop would show here


def test_the_levels_and_the_baseline_are_all_offered():
    assert LEVELS == ("easy", "normal", "hard")
    assert set(STRATEGIES) == {"random", *LEVELS}


def test_every_level_plays_only_legal_actions_and_every_game_ends():
    played, levels_seen = 0, set()
    for number in range(GAMES // 4):
        lineup = LINEUPS[number % len(LINEUPS)]
        for seed, seats in schedule(4, lineup, f"legal-{number}"):
            # play_game applies every action with the engine, which refuses any illegal one.
            record = play_game(seed, seats, QUICK)
            assert len(record.deals) == 10
            assert sum(len(times) for times in record.decision_ms) < MAX_ACTIONS
            levels_seen |= set(seats)
            played += 1
    assert played == GAMES
    assert levels_seen == set(STRATEGIES)
