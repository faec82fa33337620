from games.bots.arena import play_game
from games.management import yardstick


def test_the_reference_game_is_the_same_game_every_time():
    first, second = (play_game(yardstick.SEED, ("normal",) * 4) for _ in range(2))
    assert len(first.deals) == 10
    assert (first.contracts, first.penalties, first.deals) == (
        second.contracts, second.penalties, second.deals)


def test_the_yardstick_is_the_reference_games_cpu_time():
    assert yardstick.game_ms() > 0
    assert yardstick.describe(131.4, 368.0) == (
        "host yardstick: the reference game of four normal bots took 131 ms of CPU before, "
        "368 ms after")
