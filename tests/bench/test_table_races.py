"""The tables' races and bans script (the real run is on the production shape, in CI:
``.venv/bin/python -m bench.table_races``): its races against a live server, and a 5xx or a
refusal outside the one error shape counted as a failure. (Its ban checks play a whole game
first, close to a minute here: CI's run of the script is their test.)"""

from __future__ import annotations

import collections
import re

import httpx
import pytest

from bench import prodshape, table_races


@pytest.fixture
def failures(monkeypatch):
    """The script's failed checks (prodshape collects them for the exit status)."""
    found: list[str] = []
    monkeypatch.setattr(prodshape, "failures", found)
    return found


@pytest.fixture
def open_server(settings, live_server):
    """The live server with no rate limits: one address opens every table."""
    settings.THROTTLE_RATES = {scope: None for scope in settings.THROTTLE_RATES}
    return live_server


def answer(status: int, body: dict | None = None) -> httpx.Response:
    return httpx.Response(status, json=body) if body is not None else httpx.Response(status)


def test_a_5xx_or_a_refusal_outside_the_one_error_shape_is_counted_and_not_accepted():
    crashed = answer(500, {"error": {"code": "server_error", "message": "Server error."}})
    bare = answer(502)
    not_found = answer(404, {"error": {"code": "not_found", "message": "No such table."}})
    other = answer(404, {"detail": "Not Found"})
    nobody = answer(200, {"name": "Race", "people": 0})

    assert [table_races.outcome(r) for r in (crashed, bare, not_found, other)] == [
        "500 server_error", "502 (not the error shape)", "404 not_found",
        "404 (not the error shape)"]
    assert table_races.outcome(httpx.ReadTimeout("cut off")) == "ReadTimeout"
    for race in table_races.RACES:
        assert not table_races.acceptable(race, crashed)
        assert not table_races.acceptable(race, bare)
        assert not table_races.acceptable(race, other)
        assert table_races.acceptable(race, not_found)
    assert not table_races.acceptable("preview", nobody)
    assert table_races.failed(collections.Counter({
        "500 server_error": 2, "502 (not the error shape)": 1, "ReadTimeout": 1,
        "404 not_found": 3, "200": 5})) == 4
    assert table_races.acceptable("react", answer(204))


@pytest.mark.django_db(transaction=True)
@pytest.mark.slow
def test_the_races_count_every_answer_and_pass_on_todays_tables(open_server, failures,
                                                                 capsys):
    table_races.races([open_server.url], rounds=4, seed=1)

    out = capsys.readouterr().out
    assert failures == [], out
    for race, success in [("preview", "200"), ("read", "200"), ("react", "204")]:
        figures = re.search(rf"4 rounds in [\d.]+s; {race}: (.*); leave: 204 ×4\)", out)
        assert figures, out
        counts = dict(pair.split(" ×") for pair in figures.group(1).split(", "))
        assert set(counts) <= {success, "404 not_found"}, out
        assert sum(int(n) for n in counts.values()) == 4, out
