"""Row locks (PostgreSQL): 20 simultaneous submissions of the same action on the same version
apply it once; the other 19 get 409 stale_version. SQLite serialises writers without row
locks, so this runs on PostgreSQL only."""

import pytest
from django.db import connection

from games.models import Game, GameAction
from games.reads import check_replay
from tests.games.conftest import bearer_api, new_bearer_api
from tests.races import at_once

SUBMISSIONS = 20


@pytest.mark.django_db(transaction=True)
def test_twenty_parallel_submissions_of_one_action_apply_it_once():
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (SQLite ignores SELECT ... FOR UPDATE)")
    owner = new_bearer_api()
    game = owner.new_game("easy")
    clients = [bearer_api(owner.token) for _ in range(SUBMISSIONS)]
    statuses = at_once(*[lambda api=api: api.act(game, {"type": "draw", "from": "stock"})
                         .status_code for api in clients], refused=Exception)

    assert sorted(statuses) == [200] + [409] * (SUBMISSIONS - 1)
    stored = Game.objects.get(public_id=game["id"])
    assert stored.version == game["version"] + 1
    assert GameAction.objects.filter(game=stored).count() == stored.version
    assert check_replay(stored)
