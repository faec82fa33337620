"""How fast a big day's board is: ``.venv/bin/python -m bench.leaderboard --scores 1000000``.

Fills one day (default 2000-01-03, far from real dailies) with N finished dailies of N bench
players, then prints p50/p99 over repeated runs of:

- the top 50 (``day_board(day).page(50, None)``, the query behind the API's first page);
- a player's own rank (``Board.rank_of``: tallies of the better pairs plus the same pair's
  earlier entries), for players sampled across the whole board;
- a deep page (keyset cursor half way down);
- for comparison, the naive rank: ``COUNT(*)`` of the entries ahead through the index;
- the whole ``GET /api/v1/leaderboards/daily/{day}`` request with ``me``, in process;

and PostgreSQL's ``EXPLAIN ANALYZE`` of each query. Targets: top 50 <= 2 ms, own rank
<= 5 ms at p99. On PostgreSQL the rows are made by ``INSERT ... SELECT generate_series``
(about a minute for a million); elsewhere by ``bulk_create`` (small N only). The bench rows
are deleted afterwards unless ``--keep``. Never run against production: it writes N players.
It uses the database of the settings (``DATABASE_URL``), like ``manage.py``.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from datetime import UTC, date, datetime
from datetime import time as dtime

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ladder.settings")
django.setup()  # a script, not a command: it sets Django up itself (a no-op under pytest)

from django.db import connection, transaction  # noqa: E402
from django.db.models import Count, Q  # noqa: E402
from django.test import Client  # noqa: E402

from bench.dailies import finished_daily, score_of  # noqa: E402
from bench.stats import ms_line, timings  # noqa: E402
from games.engine import ENGINE_VERSION  # noqa: E402
from games.models import DailyDeal, Game  # noqa: E402
from games.players.identity import hash_token, new_token  # noqa: E402
from games.players.models import Player  # noqa: E402
from leaderboards.models import ContractTally, Score, Tally, week_of  # noqa: E402
from leaderboards.ranking import day_board, encode_cursor  # noqa: E402

PREFIX = "bench"
BATCH = 5000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scores", type=int, default=1_000_000)
    parser.add_argument("--day", type=date.fromisoformat, default=date(2000, 1, 3))
    parser.add_argument("--samples", type=int, default=300,
                        help="timed runs per query (default 300)")
    parser.add_argument("--keep", action="store_true", help="keep the bench rows")
    parser.add_argument("--reuse", action="store_true",
                        help="measure rows a previous --keep run left")
    parser.add_argument("--quiet-plans", action="store_true",
                        help="do not print EXPLAIN ANALYZE plans")
    args = parser.parse_args()
    try:
        BoardBench().run(args.scores, args.day, args.samples, args.keep, args.reuse,
                         args.quiet_plans)
    except ValueError as refused:
        parser.error(str(refused))
    return 0


class BoardBench:
    """Fill one day with N scores and time the board's queries; prints to ``out``."""

    def __init__(self, out=sys.stdout):
        self.out = out

    def say(self, line: str) -> None:
        print(line, file=self.out, flush=True)

    def run(self, scores: int, day: date, samples: int = 300, keep: bool = False,
            reuse: bool = False, quiet_plans: bool = False) -> None:
        if scores < 1:
            raise ValueError("--scores must be positive")
        self.pg = connection.vendor == "postgresql"
        existing = Score.objects.filter(day=day).count()
        if existing and not reuse:
            raise ValueError(f"{day} already has {existing} scores: pick another --day, or "
                               f"--reuse a kept bench day.")
        if not existing:
            start = time.perf_counter()
            self._fill(day, scores)
            self.say(f"filled {day} with {scores} scores in "
                              f"{time.perf_counter() - start:.1f} s ({connection.vendor})")
        else:
            self._tally(day)
        try:
            self._measure(day, samples, quiet_plans)
        finally:
            if not keep:
                start = time.perf_counter()
                self._clean(day)
                self.say(f"deleted the bench rows in {time.perf_counter() - start:.1f} s")

    # --- Filling ------------------------------------------------------------------------------

    def _fill(self, day: date, n: int) -> None:
        seed = f"{PREFIX}-{day.isoformat()}"
        deal = DailyDeal.objects.create(date=day, seed=seed, commitment="0" * 64)
        if self.pg:
            self._fill_postgresql(day, deal, n)
        else:
            self._fill_orm(day, deal, n)
        self._tally(day)

    def _tally(self, day: date) -> None:
        """The tallies of the bench day, counted from its scores (what record_score keeps)."""
        Tally.objects.filter(board=day.isoformat()).delete()
        ContractTally.objects.filter(board=day.isoformat()).delete()
        pairs = (Score.objects.filter(day=day, listed=True).values("contracts", "penalty")
                 .annotate(n=Count("id")))
        Tally.objects.bulk_create(
            [Tally(board=day.isoformat(), contracts=p["contracts"], penalty=p["penalty"],
                   entries=p["n"]) for p in pairs], batch_size=BATCH)
        contracts = (Score.objects.filter(day=day, listed=True).values("contracts")
                     .annotate(n=Count("id")))
        ContractTally.objects.bulk_create(
            [ContractTally(board=day.isoformat(), contracts=c["contracts"], entries=c["n"])
             for c in contracts])
        if self.pg and not connection.in_atomic_block:  # VACUUM refuses transactions
            with connection.cursor() as cursor:
                for table in ("games_player", "games_game", "leaderboards_score",
                              "leaderboards_tally", "leaderboards_contracttally"):
                    cursor.execute(f"VACUUM ANALYZE {table}")

    def _fill_postgresql(self, day: date, deal: DailyDeal, n: int) -> None:
        """Contracts ~ Normal(5, 2) clipped to 0-10; penalty ~ Normal(900 - 60 c, 250) >= 0;
        finishes spread over the day; one player in 200 banned-and-unlisted."""
        opened = datetime.combine(day, dtime.min, tzinfo=UTC)
        params = {"n": n, "prefix": PREFIX + day.strftime("%Y%m%d") + "-", "deal": deal.pk,
                  "day": day, "week": week_of(day), "opened": opened,
                  "engine": ENGINE_VERSION}
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SELECT setseed(0.42)")
            cursor.execute("""
                INSERT INTO games_player (public_id, name, cookie_epoch, created_at,
                                          last_seen_at)
                SELECT %(prefix)s || g, 'bench ' || g, 0, %(opened)s, %(opened)s
                FROM generate_series(1, %(n)s) AS g""", params)
            cursor.execute("""
                CREATE TEMP TABLE bench_result ON COMMIT DROP AS
                SELECT p.id AS owner_id, p.public_id,
                       c.contracts,
                       greatest(0, round(900 - 60 * c.contracts + 250 * sqrt(-2 * ln(
                           1 - random())) * cos(2 * pi() * random())))::int AS penalty,
                       %(opened)s + make_interval(secs => 1800 + random() * 84000)
                           AS finished_at
                FROM games_player p
                CROSS JOIN LATERAL (
                    SELECT least(10, greatest(0, round(5 + 2 * sqrt(-2 * ln(1 - random()))
                        * cos(2 * pi() * random()) + 0 * p.id)))::int AS contracts
                ) c
                WHERE p.public_id LIKE %(prefix)s || '%%'""", params)
            cursor.execute("""
                INSERT INTO games_game (public_id, owner_id, mode, level, daily_id, seed,
                    engine_version, status, version, state, contracts, penalty, place,
                    created_at, updated_at, finished_at, address_hash)
                SELECT r.public_id, r.owner_id, 'daily', 'normal', %(deal)s, 'bench',
                    %(engine)s, 'finished', 200, '{}'::jsonb, r.contracts, r.penalty, 1,
                    r.finished_at - interval '25 minutes', r.finished_at, r.finished_at, ''
                FROM bench_result r""", params)
            cursor.execute("""
                INSERT INTO leaderboards_score (game_id, player_id, day, week, contracts,
                    penalty, place, finished_at, play_seconds, person_actions, listed,
                    flags, flagged, created_at)
                SELECT g.id, g.owner_id, %(day)s, %(week)s, g.contracts, g.penalty, 1,
                    g.finished_at, 1500, 200, g.owner_id %% 200 <> 0, '[]'::jsonb, false,
                    g.finished_at
                FROM games_game g WHERE g.daily_id = %(deal)s""", params)

    def _fill_orm(self, day: date, deal: DailyDeal, n: int) -> None:
        rng = random.Random(42)
        opened = datetime.combine(day, dtime.min, tzinfo=UTC)
        prefix = PREFIX + day.strftime("%Y%m%d") + "-"
        for first in range(0, n, BATCH):
            count = min(BATCH, n - first)
            with transaction.atomic():
                players = Player.objects.bulk_create(
                    [Player(public_id=f"{prefix}{first + i}", name=f"bench {first + i}")
                     for i in range(count)])
                games = Game.objects.bulk_create(
                    [finished_daily(rng, player, deal, player.public_id, opened, 84000)
                     for player in players])
                Score.objects.bulk_create([score_of(game, day) for game in games])

    def _clean(self, day: date) -> None:
        with transaction.atomic():
            Tally.objects.filter(board=day.isoformat()).delete()
            ContractTally.objects.filter(board=day.isoformat()).delete()
            deal = DailyDeal.objects.filter(date=day).first()
            # One DELETE a table: the ORM's delete() would load a million rows to cascade.
            players = f"SELECT id FROM {Player._meta.db_table} WHERE public_id LIKE %s"
            like = PREFIX + day.strftime("%Y%m%d") + "-%"
            with connection.cursor() as cursor:
                cursor.execute(f"DELETE FROM {Score._meta.db_table} WHERE day = %s "
                               f"AND player_id IN ({players})", [day, like])
                cursor.execute(f"DELETE FROM {Game._meta.db_table} WHERE daily_id = %s "
                               f"AND owner_id IN ({players})", [deal.pk if deal else None, like])
                cursor.execute(f"DELETE FROM {Player._meta.db_table} WHERE public_id LIKE %s",
                               [like])
            if deal is not None and not deal.games.exists():
                deal.delete()

    # --- Measuring ----------------------------------------------------------------------------

    def _measure(self, day: date, samples: int, quiet_plans: bool) -> None:
        board = day_board(day)
        total = board.count()
        self.say(f"\nboard {day}: {total} listed entries "
                          f"({Score.objects.filter(day=day).count()} scores), "
                          f"{Tally.objects.filter(board=day.isoformat()).count()} tally pairs")
        if self.pg:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_size_pretty(pg_relation_size('scores_day_board'))")
                self.say(f"board index size {cursor.fetchone()[0]}")

        board.page(50, None)  # warm the caches
        top = timings(lambda: board.page(50, None), samples)
        self.say(f"top 50 (page of rows)        {ms_line(top)}")

        ids = list(board.rows.values_list("id", flat=True).order_by("id"))
        rng = random.Random(7)
        sample = [Score.objects.get(pk=pk) for pk in rng.sample(ids, min(samples, len(ids)))]
        ranks, rank_times = [], []
        for score in sample:
            start = time.perf_counter()
            ranks.append(board.rank_of(score))
            rank_times.append(time.perf_counter() - start)
        self.say(f"own rank (tallies + pair)    {ms_line(rank_times)}   "
                          f"ranks {min(ranks)}..{max(ranks)}")

        middle = board.ranked()[total // 2] if total else None
        if middle is not None:
            cursor = encode_cursor(middle.contracts, middle.penalty, middle.finished_at,
                                   middle.id, total // 2 + 1)
            deep = timings(lambda: board.page(50, cursor), samples)
            self.say(f"page at rank {total // 2 + 2:<8}        {ms_line(deep)}")

        naive = []
        for score in sample[:max(1, samples // 10)]:
            ahead = (Q(contracts__gt=score.contracts)
                     | Q(contracts=score.contracts, penalty__lt=score.penalty)
                     | Q(contracts=score.contracts, penalty=score.penalty,
                         finished_at__lt=score.finished_at))
            start = time.perf_counter()
            board.rows.filter(ahead).count()
            naive.append(time.perf_counter() - start)
        self.say(f"naive rank COUNT(*) ahead    {ms_line(naive)}")

        self._api(day, sample, samples)
        if self.pg and not quiet_plans and sample:
            self._plans(board, sample[len(sample) // 2])

    def _api(self, day: date, sample: list[Score], samples: int) -> None:
        """The whole request, in process: auth, top 50, count, own entry and rank, JSON."""
        if not sample:
            return
        token = new_token()
        player = sample[len(sample) // 2].player
        Player.objects.filter(pk=player.pk).update(token_hash=hash_token(token))
        client = Client(headers={"Authorization": f"Bearer {token}"})
        url = f"/api/v1/leaderboards/daily/{day.isoformat()}"
        response = client.get(url)
        if response.status_code != 200:
            self.say(f"API request answered {response.status_code}: skipped")
            return
        times = timings(lambda: client.get(url), max(1, samples // 3))
        self.say(f"GET board + me (in process)  {ms_line(times)}   "
                          f"me rank {response.json()['me']['rank']}")
        Player.objects.filter(pk=player.pk).update(token_hash=None)

    def _plans(self, board, score: Score) -> None:
        queries = {
            "top 50 (with names)": board.ranked().select_related("player")[:50],
            f"own rank (rank {board.rank_of(score)})": board.ahead_of(score),
        }
        for name, queryset in queries.items():
            plan = queryset.explain(analyze=True, buffers=True).replace("\n", "\n    ")
            self.say(f"\nEXPLAIN ANALYZE {name}:\n    {plan}")

if __name__ == "__main__":
    sys.exit(main())
