"""Preset reactions at a table (POST /tables/{id}/reactions): a code from a short list, sent
to everyone at the table's socket from the sender's seat; refused in the one error shape,
throttled per player, never to or from anyone not sitting there."""

from __future__ import annotations

import pytest

from games.lists import REACTION_CODES
from games.tables import services
from tests.games.helpers import error_of
from tests.games.test_tables import join, open_table, refused

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch) -> list[tuple[str, dict]]:
    """What the services published to the channel layer's groups."""
    published: list[tuple[str, dict]] = []
    monkeypatch.setattr(services, "group_send", lambda group, m: published.append((group, m)))
    return published


def test_a_reaction_goes_to_the_table_from_the_senders_seat(alice, bob, sent):
    table = open_table(alice)
    join(bob, table)
    sent.clear()
    response = bob.post(f"/tables/{table['id']}/reactions", {"reaction": "good_game"})
    assert response.status_code == 204, response.content
    assert sent == [(f"table.{table['id']}",
                     {"type": "table.reaction", "seat": 1, "reaction": "good_game"})]


def test_only_the_preset_reactions_are_taken_and_nothing_is_echoed(alice, sent):
    table = open_table(alice)
    typed = "<b>buy cheap cards</b>" * 20
    for body in ({"reaction": typed}, {"reaction": ""}, {}, {"reaction": 3}):
        response = alice.post(f"/tables/{table['id']}/reactions", body)
        assert response.status_code == 422, response.content
        assert "error" in response.json() and "buy cheap" not in response.content.decode()
    assert sent == []


def test_nobody_reacts_at_a_table_they_do_not_sit_at(alice, bob, nobody, sent):
    table = open_table(alice)
    refused(bob.post(f"/tables/{table['id']}/reactions", {"reaction": "nice"}), 404,
            "not_found")
    refused(bob.post("/tables/AAAAAAAAAAAAAAAA/reactions", {"reaction": "nice"}), 404,
            "not_found")
    response = nobody.post(f"/tables/{table['id']}/reactions", {"reaction": "nice"})
    assert response.status_code == 401 and error_of(response)["code"] == "no_identity"
    assert alice.post(f"/tables/{table['id']}/leave").status_code == 204
    refused(alice.post(f"/tables/{table['id']}/reactions", {"reaction": "nice"}), 404,
            "not_found")
    assert sent == []


def test_reactions_are_throttled_per_player(alice, bob, settings, throttle_clock, sent):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "reactions": "3/m"}
    table = open_table(alice)
    join(bob, table)
    path = f"/tables/{table['id']}/reactions"
    for _ in range(3):
        assert alice.post(path, {"reaction": "nice"}).status_code == 204
    response = alice.post(path, {"reaction": "nice"})
    assert response.status_code == 429 and error_of(response)["code"] == "throttled"
    assert int(response["Retry-After"]) >= 1
    assert bob.post(path, {"reaction": "oops"}).status_code == 204  # Bob's own count
    assert [m["seat"] for _, m in sent if m["type"] == "table.reaction"] == [0, 0, 0, 1]


def test_the_document_names_the_reactions(nobody, settings):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "reactions": "10/m"}  # on, as deployed
    document = nobody.get("/openapi.json").json()
    operation = document["paths"]["/api/v1/tables/{table_id}/reactions"]["post"]
    assert set(operation["responses"]) >= {"204", "404", "422", "429"}
    schema = document["components"]["schemas"]["NewReaction"]["properties"]["reaction"]
    assert schema["enum"] == list(REACTION_CODES)  # tests/games/test_lists.py pins them
