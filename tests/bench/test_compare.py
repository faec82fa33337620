"""bench/compare.py plays the same seeded games with two trees and says whether they agree."""

from __future__ import annotations

import argparse

import pytest

from bench.compare import lineup_of, main

pytestmark = pytest.mark.slow


def test_the_same_revision_plays_identical_games_and_reports_every_figure(capsys):
    assert main(["--against", "HEAD", "--games", "2", "--batch", "1",
                 "--lineups", "normal", "hard,normal,normal,normal"]) == 0
    printed = capsys.readouterr().out
    assert printed.count("2 games, actions identical") == 2
    assert "DIFFERENT" not in printed
    assert "game CPU median" in printed and "actions per CPU second" in printed
    assert "hard   decision CPU p50" in printed


def test_a_lineup_is_one_level_for_every_seat_or_four_levels():
    assert lineup_of("easy") == "easy,easy,easy,easy"
    assert lineup_of("hard,normal,normal,normal") == "hard,normal,normal,normal"
    with pytest.raises(argparse.ArgumentTypeError):
        lineup_of("hard,normal")
