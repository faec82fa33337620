"""A table's sockets hear when its game is over (games.signals.game_finished), so its lobby
offers "Play again" without a reload; another game's end says nothing to it."""

from __future__ import annotations

import pytest

from games.models import Game
from games.signals import game_finished
from games.tables import services
from tests.factories import player_with_token, practice_game

pytestmark = pytest.mark.django_db


def test_a_tables_game_over_is_news_at_the_table_and_nowhere_else(
        monkeypatch, django_capture_on_commit_callbacks):
    sent = []
    monkeypatch.setattr(services, "group_send", lambda group, m: sent.append((group, m)))
    (ada, _), (bea, _) = player_with_token(), player_with_token()
    table = services.open_table(ada, "Friday cards")
    services.join(bea, table.code)
    game = services.start(ada, table.public_id).game
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        game_finished.send(sender=Game, game=game)
        game_finished.send(sender=Game, game=practice_game(ada))
    assert sent == [(f"table.{table.public_id}", {"type": "table.changed"})]
