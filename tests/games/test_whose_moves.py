"""Whose moves a replay and its review are about (issue 51, items 4 and 5): the replay's "you"
is the viewer's own seat at a friends' table, a person who left before the end included; the
review judges the moves a person chose, never those a bot played for them (their timer ran
out, they were away, they had left), and says how many turns it left out."""

from __future__ import annotations

import pytest
from django.utils import translation

from frontend import review
from games.bots import Verdict, advise
from games.models import Analysis, Game, GameAction, Seat
from games.schemas import Replay
from games.services import analysis
from tests.games.test_analysis import finish
from tests.games.test_tables import join, open_table, refused, start
from tests.games.test_turn_timers import play_turn, stored, table_game, two_timeouts

__all__ = ["table_game"]  # a fixture, used by name


@pytest.fixture
def every_decision_marked(monkeypatch):
    """The review differs from every move it is shown: each decision becomes a mark at its
    version, so the marks say exactly which moves were judged as the person's."""

    def differs(view, played, rng):
        advice = advise(view, rng)
        return Verdict(advice, forced=False, agrees=False,
                       kind=advice.action.to_json()["type"], cost=0.01)

    monkeypatch.setattr(analysis, "review", differs)


def test_a_deal_a_person_was_away_for_is_none_of_their_decisions_nor_marks(
        table_game, every_decision_marked):
    game_id = table_game["id"]
    away_from = stored(table_game).version
    seat = two_timeouts(table_game)  # away: the bot plays their turns at once
    deal = stored(table_game).load_state().deal
    while stored(table_game).load_state().deal == deal:  # the other plays out the deal
        play_turn(table_game)
    back_at = stored(table_game).version
    assert table_game["people"][seat].post(f"/games/{game_id}/back").status_code == 200
    for _ in range(4):  # both play on, the one who was away too
        play_turn(table_game)
    game = finish(stored(table_game))

    assert analysis.analyse(game_id) == 2

    moves = list(GameAction.objects.filter(game=game, seat=seat)
                 .values_list("index", "action", "bot"))
    for_them = [(index, action) for index, action, _ in moves if away_from <= index < back_at]
    theirs = [index for index, _, _ in moves if not away_from <= index < back_at]
    assert all(bot for index, _, bot in moves if away_from <= index < back_at)
    turns = sum(action["type"] == "draw" for _, action in for_them)  # a turn opens with one
    assert turns >= 3 and any(index > back_at for index in theirs)

    found = Analysis.objects.get(game=game, seat=seat).data
    assert [mark["v"] for mark in found["marks"]] == theirs  # each of their own, and no other
    assert found["decisions"] == len(theirs)
    assert found["bot_turns"] == turns
    other = Analysis.objects.get(game=game, seat=1 - seat).data
    assert other["bot_turns"] == 0
    assert other["decisions"] == GameAction.objects.filter(game=game, seat=1 - seat).count()

    body = table_game["people"][seat].get(f"/replays/{game_id}").json()
    assert (body["seat"], body["analysis"]["seat"]) == (seat, seat)
    assert body["analysis"]["bot_turns"] == turns
    with translation.override("en"):
        assert review.summary_lines(body["analysis"])[-1] == (
            f"{turns} turns the computer played for you are not counted.")


def test_the_turns_left_out_are_said_in_each_language():
    found = {"state": "ready", "decisions": 6, "agreed": 5, "marks": [], "costliest": None,
             "bot_turns": 1}
    said = {}
    for language in ("en", "es", "th"):
        with translation.override(language):
            said[language] = review.summary_lines(found)[-1]
            said[language + "3"] = review.summary_lines(found | {"bot_turns": 3})[-1]
            assert len(review.summary_lines(found | {"bot_turns": 0})) == 1  # nothing to say
    assert said == {
        "en": "1 turn the computer played for you is not counted.",
        "en3": "3 turns the computer played for you are not counted.",
        "es": "No se cuenta 1 turno que el ordenador jugó por ti.",
        "es3": "No se cuentan 3 turnos que el ordenador jugó por ti.",
        "th": "ไม่นับ 1 ตาที่คอมพิวเตอร์เล่นแทนคุณ",
        "th3": "ไม่นับ 3 ตาที่คอมพิวเตอร์เล่นแทนคุณ",
    }
    with translation.override("en"):  # a person the bots played for throughout
        assert review.summary_lines(found | {"decisions": 0, "agreed": 0}) == [
            "You made no decision the expert could review.",
            "1 turn the computer played for you is not counted."]


# --- The replay's "you" ---------------------------------------------------------------------


def friends_game(alice, bob) -> tuple[dict, str]:
    """Alice's table (easy bots) with Bob at seat 1, its game started: (the table, game id)."""
    table = open_table(alice, level="easy")
    join(bob, table)
    return table, start(alice, table)["game"]["id"]


def over(game_id: str) -> Game:
    """The game over (as test_analysis's ``finish``), with a result on each seat and the
    game, as ``GET /games`` lists a game that is over."""
    game = Game.objects.get(public_id=game_id)
    Seat.objects.filter(game=game).update(contracts=0, penalty=0, place=1)
    Game.objects.filter(pk=game.pk).update(contracts=0, penalty=0, place=1)
    return finish(game)


def replays_of(api, game_id: str) -> list[dict]:
    """The replay as both routes answer it to ``api``'s player (the same body)."""
    bodies = []
    for path in (f"/replays/{game_id}", f"/games/{game_id}/replay"):
        response = api.get(path)
        assert response.status_code == 200, (path, response.content)
        Replay.model_validate(response.json())
        bodies.append(response.json())
    return bodies


def test_a_friends_replay_is_from_their_own_seat_not_the_hosts(alice, bob, nobody):
    from tests.games.conftest import new_bearer_api

    _, game_id = friends_game(alice, bob)
    over(game_id)

    for api, seat in ((alice, 0), (bob, 1)):
        for body in replays_of(api, game_id):
            assert (body["yours"], body["seat"]) == (True, seat)
            assert body["analysis"]["seat"] == seat
    stranger = new_bearer_api()
    refused(stranger.get(f"/replays/{game_id}"), 404, "not_found")
    refused(stranger.get(f"/games/{game_id}/replay"), 404, "not_found")


def test_a_person_who_left_opens_the_replay_and_their_own_analysis_once_the_game_is_over(
        alice, bob):
    table, game_id = friends_game(alice, bob)
    assert bob.post(f"/tables/{table['id']}/leave").status_code == 204

    # Before the end: closed, and said so to someone who sat at it, as to anyone seated.
    refused(bob.get(f"/replays/{game_id}"), 404, "not_found")
    refused(bob.get(f"/games/{game_id}/replay"), 403, "replay_unavailable")
    [listed] = bob.get("/games").json()["items"]
    assert (listed["id"], listed["replay"]) == (game_id, False)

    for _ in range(3):  # Alice plays on; the bot plays Bob's seat
        view = alice.get(f"/games/{game_id}").json()
        assert alice.act(view, {"type": "draw", "from": "stock"}).status_code == 200
        view = alice.get(f"/games/{game_id}").json()
        card = view["legal"]["discard"][0]
        assert alice.act(view, {"type": "discard", "card": card}).status_code == 200
    over(game_id)
    analysis.analyse(game_id)

    [listed] = bob.get("/games").json()["items"]
    assert listed["replay"] is True  # the list's promise is kept
    for body in replays_of(bob, game_id):
        assert (body["yours"], body["seat"]) == (True, 1)
        found = body["analysis"]
        assert (found["state"], found["seat"]) == ("ready", 1)
        assert found["bot_turns"] >= 3  # every turn of his after he left
    assert [body["seat"] for body in replays_of(alice, game_id)] == [0, 0]
