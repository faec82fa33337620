"""The game's snapshot and log are written and read by orjson through the JSONField's
documented encoder and decoder (games.models): the same JSON as the standard library's."""

from __future__ import annotations

import json

import pytest
from django.db import connection

from games import services
from games.engine.cards import card_id
from games.models import Game, GameAction, OrjsonDecoder, OrjsonEncoder
from tests.factories import player_with_token, practice_game

pytestmark = pytest.mark.django_db


def test_the_encoder_and_decoder_write_and_read_what_the_standard_library_does():
    value = {"seat": 3, "hand": [[1, "H", 0], None, True, 1.5], "text": "Dora's ♠", 7: "k"}
    written = json.dumps(value, cls=OrjsonEncoder)
    assert json.loads(written) == json.loads(json.dumps(value))  # 7 -> "7" as json does
    assert json.loads(written, cls=OrjsonDecoder) == json.loads(json.dumps(value))


def test_a_played_game_is_stored_as_plain_json_and_read_back_unchanged():
    player, _ = player_with_token("Snapshot Keeper")
    game = practice_game(player)
    # the person draws and discards, the bots play up to them again: the log has actions
    drawn = services.act(game.public_id, player, game.version, {"type": "draw", "from": "stock"})
    card = card_id(drawn.state.hands[drawn.seated.seat][0])
    services.act(game.public_id, player, drawn.seated.game.version,
                 {"type": "discard", "card": card})
    game.refresh_from_db()
    state = game.load_state()
    with connection.cursor() as cursor:  # what the database holds, read without the field
        cursor.execute(f"SELECT state FROM {Game._meta.db_table} WHERE id = %s", [game.pk])
        (raw,) = cursor.fetchone()
    assert (json.loads(raw) if isinstance(raw, str) else raw) == state.to_json()
    read = Game.objects.get(pk=game.pk)
    assert read.state == state.to_json() and read.load_state().to_json() == state.to_json()
    logged = list(GameAction.objects.filter(game=game).order_by("index"))
    assert logged and all(isinstance(a.action, dict) and "type" in a.action for a in logged)
