"""Whole seeded games of every level: every action legal, every game over, every choice
reproducible from the seed (R24)."""

from games.bots import LEVELS, STRATEGIES
from games.bots.arena import play_game, schedule
from games.bots.hard import Hard

# The search itself is exercised in full by the tournament command; here a small budget keeps
# the suite quick while still running every part of it.
QUICK = {**STRATEGIES, "hard": Hard(worlds=1, horizon=2, candidates=2)}
GAMES = 300
MAX_ACTIONS = 20_000  # far more than any game takes: a loop would show here


def test_the_levels_and_the_baseline_are_all_offered():
    assert LEVELS == ("easy", "normal", "hard")
    assert set(STRATEGIES) == {"random", *LEVELS}


def test_every_level_plays_only_legal_actions_and_every_game_ends():
    lineup = ("random", "easy", "normal", "hard")
    played = 0
    for seed, seats in schedule(GAMES, lineup, "legal"):
        # play_game applies every action with the engine, which refuses any illegal one.
        record = play_game(seed, seats, QUICK)
        assert len(record.deals) == 10
        assert sum(len(t) for t in record.decision_ms) < MAX_ACTIONS
        played += 1
    assert played >= GAMES
