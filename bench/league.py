"""How fast a friend league's page is: ``.venv/bin/python -m bench.league --members 100``.

Makes one league of N bench players (default 100, the most a league holds) with D days of
dailies (default 60; each member plays four days in five, the viewer every day), on days far
from real dailies (the daily's clock is set to ``--today``, default 2001-03-30, in this
process), then prints p50/p99/max over repeated runs of:

- ``leaderboards.leagues.boards.league_page``: today ranked (leaderboards.ranking narrowed to
  the members), yesterday's board, this week's sums, all time (one SQL statement: places by a
  window function, streaks from the days played);
- the whole ``GET /api/v1/leagues/{id}`` request, in process, as the viewer (a bearer token),
  who has finished today's daily, so today's results are read too; "warm": today's rows and
  the days before today come from the cache (leaderboards.leagues.boards.page_stamp);
- the same request with the cache cleared first ("cold"): today's rows and the days before
  today (all time, the week before today, yesterday's board) read again, as the first read
  of a day, or after a join or a moderation, does (after a finish, only today's rows are).
  All time comes from the league's tallies (up to the newest closed day, as the nightly job
  leaves them: leaderboards.leagues.tasks) and the few days after them;
- the same, cold and without tallies (every day counted from the scores, as for a league
  whose tallies a moderation has just dropped): the cost grows with the league's age;

and the number of queries of one (warm) request. Target: the request in <= 20 ms at the
median on PostgreSQL with 100 members, warm and cold. The bench rows are deleted afterwards
unless ``--keep``. Never run against production: it writes N players and their games. It
uses the settings' database (``DATABASE_URL``), like ``manage.py``.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from datetime import UTC, date, datetime, timedelta

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ladder.settings")
django.setup()  # a script, not a command: it sets Django up itself (a no-op under pytest)

from django.core.cache import cache  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from bench.dailies import finished_daily, score_of  # noqa: E402
from bench.stats import ms_line, timings  # noqa: E402
from games import daily  # noqa: E402
from games.models import DailyDeal, Game  # noqa: E402
from games.players.identity import hash_token, new_token  # noqa: E402
from games.players.models import Player  # noqa: E402
from leaderboards.leagues import boards, services  # noqa: E402
from leaderboards.leagues.models import League, LeagueTally, Membership  # noqa: E402
from leaderboards.models import Score  # noqa: E402

PREFIX = "bench-league-"
PLAYS_PER_DAY = 0.8


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", type=int, default=100)
    parser.add_argument("--days", type=int, default=60)
    parser.add_argument("--today", type=date.fromisoformat, default=date(2001, 3, 30))
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--keep", action="store_true", help="keep the bench rows")
    args = parser.parse_args()
    try:
        LeagueBench().run(args.members, args.days, args.today, args.samples, args.keep)
    except ValueError as refused:
        parser.error(str(refused))
    return 0


class LeagueBench:
    def __init__(self, out=sys.stdout):
        self.out = out

    def say(self, line: str) -> None:
        print(line, file=self.out, flush=True)

    def run(self, members: int, days: int, today: date, samples: int = 300,
            keep: bool = False) -> None:
        if Player.objects.filter(public_id__startswith=PREFIX).exists():
            raise ValueError("bench rows are left from a run with --keep: delete them first")
        first_day = today - timedelta(days=days - 1)
        if DailyDeal.objects.filter(date__range=(first_day, today)).exists():
            raise ValueError(f"{first_day}..{today} already has dailies: choose --today")
        noon = datetime(today.year, today.month, today.day, 12, tzinfo=UTC)
        real_now = daily.now
        daily.now = lambda: noon  # the daily's clock, for this process only
        try:
            start = time.perf_counter()
            league, token = self._fill(members, days, today)
            scores = Score.objects.filter(player__public_id__startswith=PREFIX).count()
            self.say(f"league of {members} members, {days} days, {scores} scores "
                     f"(filled in {time.perf_counter() - start:.1f} s) on {connection.vendor}")
            self._measure(league, token, samples)
        finally:
            daily.now = real_now
            if not keep:
                self._clean(first_day, today)

    def _fill(self, members: int, days: int, today: date) -> tuple[League, str]:
        rng = random.Random(42)
        token = new_token()
        first_day = today - timedelta(days=days - 1)
        with transaction.atomic():
            players = Player.objects.bulk_create(
                [Player(public_id=f"{PREFIX}{i}", name=f"Bench {i}",
                        token_hash=hash_token(token) if i == 0 else None)
                 for i in range(members)])
            league = League.objects.create(
                name="Bench League", creator=players[0],
                created_at=datetime(first_day.year, first_day.month, first_day.day, tzinfo=UTC))
            Membership.objects.bulk_create([Membership(league=league, player=p)
                                            for p in players])
            for offset in range(days):
                day = first_day + timedelta(days=offset)
                deal = DailyDeal.objects.create(date=day, seed=f"{PREFIX}{day}",
                                                commitment="0" * 64)
                opened = datetime(day.year, day.month, day.day, tzinfo=UTC)
                games = Game.objects.bulk_create(
                    [finished_daily(rng, player, deal, f"bl{day:%y%m%d}-{i}", opened, 40000)
                     for i, player in enumerate(players)
                     if not i or rng.random() <= PLAYS_PER_DAY])
                Score.objects.bulk_create([score_of(game, day) for game in games])
        services.carry_tallies_forward()  # as the nightly job leaves them
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                for table in ("games_player", "leaderboards_score", "leagues_membership",
                              "leagues_league", "leagues_leaguetally"):
                    cursor.execute(f"ANALYZE {table}")
        return league, token

    def _measure(self, league: League, token: str, samples: int) -> None:
        viewer = Player.objects.get(public_id=f"{PREFIX}0")
        client = Client(headers={"Authorization": f"Bearer {token}"})
        path = f"/api/v1/leagues/{league.public_id}"
        response = client.get(path)
        assert response.status_code == 200, response.content[:200]
        body = response.json()
        with CaptureQueriesContext(connection) as queries:
            client.get(path)
        self.say(f"today: {len(body['today']['entries'])} entries, week: "
                 f"{len(body['week']['entries'])}, all time: {len(body['all_time'])}; "
                 f"{len(queries)} queries a request")
        for _ in range(10):  # warm-up
            boards.league_page(league, viewer)
        self.say("league_page (boards)   " + ms_line(timings(
            lambda: boards.league_page(league, viewer), samples)))
        self.say("GET /api/v1/leagues/id " + ms_line(timings(lambda: client.get(path), samples)))

        def cold():  # the history of the days before today not in the cache (once a day)
            cache.clear()
            client.get(path)

        self.say("the same, history cold " + ms_line(timings(cold, max(1, samples // 3))))
        tallies = LeagueTally.objects.filter(league=league).count()
        LeagueTally.objects.filter(league=league).delete()
        self.say(f"cold, without the {tallies} tallies (every day from the scores) "
                 + ms_line(timings(cold, max(1, samples // 3))))

    def _clean(self, first_day: date, today: date) -> None:
        with transaction.atomic():
            League.objects.filter(name="Bench League",
                                  creator__public_id__startswith=PREFIX).delete()
            Score.objects.filter(player__public_id__startswith=PREFIX).delete()
            Game.objects.filter(owner__public_id__startswith=PREFIX).delete()
            Player.objects.filter(public_id__startswith=PREFIX).delete()
            DailyDeal.objects.filter(date__range=(first_day, today),
                                     seed__startswith=PREFIX).delete()


if __name__ == "__main__":
    sys.exit(main())
