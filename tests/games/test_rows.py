"""games.web.rows: the hand-built statements read and write exactly what the ORM would."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Game, GameAction
from games.players.models import Player
from games.web.rows import insert_rows_and_update, select_row
from tests.factories import player_with_token, practice_game

pytestmark = pytest.mark.django_db


def _fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def test_select_row_reads_every_field_as_the_orm_does():
    player, _ = player_with_token("Row Reader")
    game = practice_game(player)
    by_orm = Game.objects.get(pk=game.pk)
    by_row = select_row(Game, public_id=game.public_id, owner_id=player.pk)
    assert _fields(by_row) == _fields(by_orm)  # JSON state, datetimes, foreign keys
    assert isinstance(by_row.state, dict) and by_row.created_at.tzinfo is not None
    assert not by_row._state.adding  # a saved instance, as from the ORM


def test_select_row_reads_a_player_as_the_orm_does():
    player, _ = player_with_token("Row Player")
    by_row = select_row(Player, public_id=player.public_id)
    assert _fields(by_row) == _fields(Player.objects.get(pk=player.pk))
    assert by_row.last_seen_at.tzinfo is not None


def test_select_row_refuses_a_model_whose_fields_it_cannot_read():
    from django.contrib.auth.models import User  # a BooleanField: SQLite gives back 0 or 1

    with pytest.raises(TypeError, match="is_superuser"):
        select_row(User, username="nobody")


def test_select_row_is_none_when_nothing_matches():
    player, _ = player_with_token()
    other, _ = player_with_token()
    game = practice_game(player)
    assert select_row(Game, public_id=game.public_id, owner_id=other.pk) is None
    assert select_row(Player, token_hash="0" * 64) is None


def test_select_row_locks_the_row_where_the_database_can():
    player, _ = player_with_token()
    with CaptureQueriesContext(connection) as queries:
        select_row(Player, for_update=True, id=player.pk)
    locked = queries[0]["sql"].endswith("FOR UPDATE")
    assert locked == connection.features.has_select_for_update


def test_insert_rows_and_update_writes_both_in_one_statement_on_postgresql():
    player, _ = player_with_token()
    game = practice_game(player)
    first = game.version
    game.version = first + 2
    rows = [(game.pk, first + i, 1, {"type": "draw", "from": "stock"}, game.updated_at)
            for i in range(2)]
    with CaptureQueriesContext(connection) as queries:
        insert_rows_and_update(GameAction, ["game", "index", "seat", "action", "created_at"],
                               rows, game, ["version"])
    assert len(queries) == (1 if connection.vendor == "postgresql" else 2)
    assert Game.objects.get(pk=game.pk).version == first + 2
    logged = GameAction.objects.filter(game=game, index__gte=first).order_by("index")
    assert [(a.index, a.action) for a in logged] == [
        (first, {"type": "draw", "from": "stock"}), (first + 1, {"type": "draw", "from": "stock"})]


def test_the_log_has_one_index_by_game_the_unique_one():
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, GameAction._meta.db_table)
    by_game = [c for c in constraints.values()
               if (c["index"] or c["unique"]) and c["columns"][:1] == ["game_id"]]
    assert [(c["columns"], c["unique"]) for c in by_game] == [(["game_id", "index"], True)]
