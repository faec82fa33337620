"""The tournament's arithmetic and the command that prints it."""

import pytest
from django.core.management import CommandError, call_command

from games.bots import STRATEGIES, yardstick
from games.bots.arena import Tally, p99, play_game, schedule, wilson


@pytest.fixture(autouse=True)
def quick_yardstick(monkeypatch):
    """The command's reference games would double these tests' time (tested on their own)."""
    monkeypatch.setattr(yardstick, "game_ms", lambda: 131.0)


def test_the_wilson_interval_matches_the_textbook_figures():
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4)
    assert high == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0
    assert wilson(10, 10)[1] == pytest.approx(1.0)


def test_every_seed_is_played_in_all_four_rotations():
    games = list(schedule(5, ("hard", "normal", "easy", "random"), "s"))
    assert len(games) == 8  # rounded up to whole rotations
    first = [seats for seed, seats in games if seed == "s-0"]
    assert first == [("hard", "normal", "easy", "random"), ("random", "hard", "normal", "easy"),
                     ("easy", "random", "hard", "normal"), ("normal", "easy", "random", "hard")]


def test_the_99th_percentile_lies_between_the_two_largest_values():
    values = list(range(1, 101))
    assert 99 <= p99(values) <= 100
    assert p99([7.0]) == 7.0


def test_the_tally_counts_each_level_and_each_rung():
    tally = Tally()
    for seed, seats in schedule(4, ("normal", "easy", "easy", "random"), "tally"):
        tally.add(play_game(seed, seats))
    assert tally.games == 4
    assert tally.levels["easy"].seats == 8
    assert sum(t.wins for t in tally.levels.values()) == pytest.approx(4)
    assert sum(tally.rung_deals.values()) == 4 * 10 * 4
    report = tally.report()
    assert "normal" in report and "95% Wilson" in report and "stock limit (R20)" in report


def test_the_command_prints_the_figures(capsys):
    call_command("tournament", games=4, seats="normal,easy,random,easy", seed="cmd")
    out = capsys.readouterr().out
    assert out.startswith("4 games, 40 deals")
    assert "laid down" in out
    assert out.splitlines()[-1] == yardstick.describe(131.0, 131.0)


def test_the_command_refuses_an_unknown_level():
    with pytest.raises(CommandError):
        call_command("tournament", games=4, seats="normal,genius,easy,easy")


def _without_times(report: str) -> list[str]:
    """The report's lines less the CPU times, which vary from run to run."""
    lines = []
    for line in report.splitlines():
        if line.startswith(("game CPU time", "host yardstick")):
            continue
        if line.split() and line.split()[0] in STRATEGIES:
            line = " ".join(line.split()[:-2])  # decision time p50 and p99
        lines.append(line)
    return lines


def test_two_jobs_give_the_figures_of_one(capsys):
    figures = []
    for jobs in (1, 2):
        call_command("tournament", games=8, seats="easy,random,easy,random", seed="jobs",
                     jobs=jobs, every=4)
        figures.append(_without_times(capsys.readouterr().out))
    assert figures[0] == figures[1]
    assert figures[0][0] == "4 games, 40 deals"  # the report after 4 games, then after 8
    assert "8 games, 80 deals" in figures[0]


def test_the_command_refuses_no_jobs():
    with pytest.raises(CommandError):
        call_command("tournament", games=4, seats="normal,easy,easy,easy", jobs=0)
