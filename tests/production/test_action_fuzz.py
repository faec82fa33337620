"""Fuzzing POST /games/{id}/actions: random JSON, random shapes, random card ids. Every
answer is a 4xx in the API's error shape and the game is exactly as it was (state, version,
action log). The game is put in its play phase first, and the card ids come from outside the
person's hand, so no generated action can be legal."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from games import reads, services
from games.models import GameAction
from tests.factories import player_with_token, practice_game
from tests.production.conftest import API, bearer_client

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
EVERY_CARD_ID = [f"{r}{s}.{c}" for r in RANKS for s in "SHDC" for c in (1, 2)]
EVERY_CARD_ID += ["JK.1", "JK.2", "JK.3"]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner,
                                                                  max_size=5),
    max_leaves=20,
)


@pytest.fixture(scope="module")
def game_in_play(django_db_setup, django_db_blocker):
    """One game, the person having drawn: only a discard or a lay-down of held cards is legal."""
    with django_db_blocker.unblock():
        owner, token = player_with_token("Fuzzer")
        game = practice_game(owner)
        played = services.act(game.public_id, owner, game.version,
                              {"type": "draw", "from": "stock"})
        hand = {c["id"] for c in reads.game_view(played.seated, played.state)["hand"]}
        yield played.game, token, sorted(set(EVERY_CARD_ID) - hand)
        owner.delete()


def strategies(foreign_ids: list[str], version: int):
    card = st.sampled_from(foreign_ids) | st.text(max_size=8) | json_values
    versions = st.sampled_from([version, version - 1, version + 1, 0]) | json_values
    action = st.one_of(
        json_values,
        st.fixed_dictionaries({"type": st.sampled_from(["draw", "discard", "lay_down",
                                                        "lay_off", "pass", ""]) | st.text()},
                              optional={"from": st.sampled_from(["stock", "discard"]) | card,
                                        "card": card,
                                        "meld": st.integers(-3, 20) | json_values,
                                        "end": st.sampled_from(["low", "high"]) | card,
                                        "melds": st.lists(st.lists(card, max_size=15),
                                                          max_size=5) | json_values}),
    )
    bodies = st.one_of(
        st.fixed_dictionaries({"version": versions, "action": action}),
        json_values,
    )
    return bodies.map(lambda body: json.dumps(body).encode()) | st.binary(max_size=64)


def snapshot(game):
    game.refresh_from_db()
    return game.version, game.state, GameAction.objects.filter(game=game).count()


@pytest.mark.slow
@pytest.mark.django_db(transaction=False)
def test_random_bodies_are_always_refused_with_a_4xx_and_change_nothing(game_in_play, settings):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "actions": "off"}
    game, token, foreign_ids = game_in_play
    client: Client = bearer_client(token)
    before = snapshot(game)
    seen_statuses = set()

    @hypothesis_settings(max_examples=300, deadline=None, database=None,
                         suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                HealthCheck.too_slow])
    @given(strategies(foreign_ids, game.version))
    def post_random(body: bytes):
        response = client.post(f"{API}/games/{game.public_id}/actions", data=body,
                               content_type="application/json")
        assert 400 <= response.status_code < 500, (body, response.status_code, response.content)
        assert "code" in response.json()["error"], response.content
        seen_statuses.add(response.status_code)

    post_random()

    assert snapshot(game) == before
    assert seen_statuses >= {400, 422}  # both malformed JSON and refused actions were tried


@pytest.mark.django_db
def test_someone_elses_game_is_404_whatever_the_body(game_in_play):
    game, _, _ = game_in_play
    _, other_token = player_with_token("Other")

    response = bearer_client(other_token).post(
        f"{API}/games/{game.public_id}/actions", content_type="application/json",
        data={"version": game.version, "action": {"type": "discard", "card": "7H.1"}})

    assert response.status_code == 404
