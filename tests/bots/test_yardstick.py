from types import SimpleNamespace

from games.bots import yardstick
from games.bots.arena import play_game


def test_the_reference_game_is_the_same_game_every_time():
    first, second = (play_game(yardstick.SEED, ("normal",) * 4) for _ in range(2))
    assert len(first.deals) == 10
    assert (first.contracts, first.penalties, first.deals) == (
        second.contracts, second.penalties, second.deals)


def test_the_yardstick_is_the_median_of_three_plays_in_milliseconds(monkeypatch):
    plays = []

    def play(seed, lineup):
        plays.append((seed, lineup))
        return SimpleNamespace(seconds=(0.1, 0.3, 0.2)[len(plays) - 1])

    monkeypatch.setattr(yardstick, "play_game", play)
    assert yardstick.game_ms() == 200.0
    assert plays == [("yardstick", ("normal",) * 4)] * 3


def test_the_yardstick_line_gives_both_figures_in_whole_milliseconds_before_then_after():
    line = yardstick.describe(131.4, 368.0)
    assert "131 ms" in line and "368 ms" in line
    assert line.index("131 ms") < line.index("368 ms")
