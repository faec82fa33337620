"""A league's boards, as its members see them (DESIGN §11): today's daily ranked as the public
board ranks it (R22: leaderboards.ranking, narrowed to the members), this ISO week's sums, all
time since the league began (dailies played, contracts, average place among the members,
streaks), and who has not played today.

No spoilers: until the viewer has finished today's daily, today's results are left out of
every board (today shows only who has played, the week and all time count the days before
today), so a league never gives away the deal. Scores off the public boards (hidden by a
moderator, or a banned player's) are off league boards too: every read starts from
``Score.objects.listed()``.

Reads only, in a fixed number of queries whatever the number of members (pinned by
tests/leaderboards/leagues/test_boards.py): the league and its members, the viewer's own
score of today, today's ranked rows, the week's sums, and one SQL statement for all time.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import date, timedelta

from django.core.cache import cache
from django.db import connection
from django.db.models import Count, Max, Sum

from games import daily
from games.players.models import Player
from leaderboards.leagues.models import League, Membership, shown_code
from leaderboards.models import ModerationLog, Score, week_of
from leaderboards.ranking import Row, day_board

ONE_DAY = timedelta(days=1)
HISTORY_CACHE_S = 24 * 3600  # a history is keyed by its day: it is not read after tomorrow
LATE_FINISH_DAYS = timedelta(days=2)  # a daily still open may finish this long after its day
logger = logging.getLogger(__name__)


class NotMember(LookupError):
    """The league does not exist or the viewer is not in it: the same answer (404) for both."""


def league_of(viewer: Player, public_id: str) -> League:
    league = (League.objects.of(viewer).filter(public_id=public_id)
              .select_related("creator").first())
    if league is None:
        raise NotMember(public_id)
    return league


def player_json(player: Player | MemberRow) -> dict:
    return {"id": player.public_id, "name": player.name}


def league_json(league: League, viewer: Player, members: int) -> dict:
    """What a member sees of a league itself (not its boards)."""
    return {"id": league.public_id, "number": league.pk, "name": league.shown_name,
            "name_hidden": league.name_hidden, "code": shown_code(league.code),
            "join_path": f"/leagues/join/{league.code}/", "members": members,
            "created_at": league.created_at,
            "creator": player_json(league.creator) if league.creator_id else None,
            "you_created": league.creator_id == viewer.pk}


def summary(league: League, viewer: Player) -> dict:
    """The league itself with its member count (after a change: rename, new code, join)."""
    return league_json(league, viewer, Membership.objects.filter(league=league).count())


def has_finished_today(viewer: Player, today: date) -> bool:
    """Whether the viewer has a score today (listed or not: their own result is no spoiler)."""
    return Score.objects.filter(player=viewer, day=today).exists()


@dataclass(frozen=True, slots=True)
class MemberRow:
    """A member as the boards need them: read straight from a tuple, no model instances."""

    pk: int
    public_id: str
    name: str


@dataclass(frozen=True)
class Members:
    players: list[MemberRow]  # in order of joining

    @property
    def ids(self) -> list[int]:
        return [p.pk for p in self.players]


def members_of(league: League) -> Members:
    rows = (Membership.objects.filter(league=league).order_by("joined_at", "id")
            .values_list("player_id", "player__public_id", "player__name"))
    return Members([MemberRow(*row) for row in rows])


def today_json(rows: list[Row], names: dict[int, MemberRow], today: date, finished: bool) -> dict:
    """Today's daily among the members (``rows``: the day's board narrowed to them): ranked
    entries once the viewer has finished, else only who has played; and who has not."""
    by_public_id = {p.public_id: p for p in names.values()}
    played = [by_public_id[row.player_id] for row in rows]
    played_ids = {p.pk for p in played}
    entries = []
    if finished:
        entries = [{"rank": rank, "player": {"id": row.player_id, "name": row.player_name},
                    "contracts": row.contracts, "penalty": row.penalty,
                    "finished_at": row.at} for rank, row in enumerate(rows, start=1)]
    return {"date": today, "results_shown": finished, "entries": entries,
            "played": [player_json(p) for p in played],
            "not_played": [player_json(p) for pk, p in names.items() if pk not in played_ids]}


def week_json(ids: list[int], names: dict[int, MemberRow], today: date, last_day: date) -> dict:
    """The ISO week's sums over the members' listed dailies up to ``last_day`` (as
    leaderboards.models.WeekScore sums them, and ranked as its board is)."""
    week = week_of(today)
    sums = (Score.objects.listed().filter(player_id__in=ids, week=week, day__lte=last_day)
            .values("player_id")
            .annotate(contracts_sum=Sum("contracts"), penalty_sum=Sum("penalty"),
                      days=Count("id"), reached_at=Max("finished_at"))
            .order_by("-contracts_sum", "penalty_sum", "reached_at", "player_id"))
    return {"week": week, "entries": [
        {"rank": rank, "player": player_json(names[row["player_id"]]),
         "contracts": row["contracts_sum"], "penalty": row["penalty_sum"], "days": row["days"]}
        for rank, row in enumerate(sums, start=1)]}


def _day_number(column: str) -> str:
    """SQL for a date column as a whole number of days, so that consecutive days differ by
    one (a streak is a run of such numbers)."""
    if connection.vendor == "postgresql":
        return f"({column} - DATE '2000-01-01')"
    return f"CAST(julianday({column}) AS INTEGER)"


def history_sql(league: League, first_day: date, yesterday: date) -> tuple[str, list]:
    """Per member with a listed daily in [first_day, yesterday]: (player pk, dailies,
    contracts, sum of places among the members on those days, longest streak, the length of
    the streak that ends yesterday), in one statement: a window numbers each day's places
    (R22 order, as the day's board), a second finds runs of consecutive days (a day's number
    minus its position in the member's days is the same along a run)."""
    score, membership = Score._meta.db_table, Membership._meta.db_table
    adapt = connection.ops.adapt_datefield_value
    sql = f"""
        WITH scored AS (
            SELECT s.player_id, s.day, s.contracts,
                   ROW_NUMBER() OVER (PARTITION BY s.day ORDER BY s.contracts DESC, s.penalty,
                                      s.finished_at, s.id) AS place,
                   {_day_number('s.day')}
                   - ROW_NUMBER() OVER (PARTITION BY s.player_id ORDER BY s.day) AS run
            FROM {score} s
            WHERE s.listed AND s.day >= %s AND s.day <= %s
              AND s.player_id IN (SELECT m.player_id FROM {membership} m
                                  WHERE m.league_id = %s)
        ), runs AS (
            SELECT player_id, COUNT(*) AS length, MAX(day) AS last_day
            FROM scored GROUP BY player_id, run
        ), streaks AS (
            SELECT player_id, MAX(length) AS longest,
                   MAX(CASE WHEN last_day = %s THEN length ELSE 0 END) AS to_yesterday
            FROM runs GROUP BY player_id
        )
        SELECT totals.player_id, totals.dailies, totals.contracts, totals.places,
               streaks.longest, streaks.to_yesterday
        FROM (SELECT player_id, COUNT(*) AS dailies, SUM(contracts) AS contracts,
                     SUM(place) AS places
              FROM scored GROUP BY player_id) totals
        JOIN streaks ON streaks.player_id = totals.player_id
    """
    return sql, [adapt(first_day), adapt(yesterday), league.pk, adapt(yesterday)]


def history_stamp(league: League, yesterday: date) -> tuple:
    """What the days before today depend on, read in one cheap statement: the membership
    (count and newest row: a join raises the newest, a leave lowers the count), the newest
    moderation of scores and players (a hide or a ban takes scores off the boards), and the
    members' newest score of the last days (a daily finished just after midnight still
    counts for its own day; an older one cannot finish any more)."""
    score, membership = Score._meta.db_table, Membership._meta.db_table
    log = ModerationLog._meta.db_table
    adapt = connection.ops.adapt_datefield_value
    sql = f"""
        SELECT (SELECT COUNT(*) FROM {membership} WHERE league_id = %s),
               (SELECT MAX(id) FROM {membership} WHERE league_id = %s),
               (SELECT MAX(id) FROM {log}),
               (SELECT MAX(s.id) FROM {score} s
                WHERE s.day >= %s AND s.day <= %s
                  AND s.player_id IN (SELECT m.player_id FROM {membership} m
                                      WHERE m.league_id = %s))
    """
    params = [league.pk, league.pk, adapt(yesterday - LATE_FINISH_DAYS), adapt(yesterday),
              league.pk]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return tuple(cursor.fetchone())


def history(league: League, yesterday: date) -> dict[int, tuple]:
    """The all-time figures of the days before today, by player pk. They change only with
    the membership, moderation, or a late finish (:func:`history_stamp`), so they are kept
    in Django's cache under that stamp: a page read after every member's finish repeats
    none of the history's sorting. The cache being away only costs the query."""
    first_day = league.created_at.date()
    if first_day > yesterday:
        return {}
    key = f"leagues:history:{league.pk}:{yesterday}:" + ":".join(
        str(part) for part in history_stamp(league, yesterday))
    try:
        found = cache.get(key)
    except Exception:  # the cache is unreachable: compute
        found = None
    if found is not None:
        return found
    sql, params = history_sql(league, first_day, yesterday)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = {pk: (dailies, int(contracts), int(places), longest, to_yesterday)
                for pk, dailies, contracts, places, longest, to_yesterday in cursor.fetchall()}
    try:
        cache.set(key, rows, HISTORY_CACHE_S)
    except Exception:
        logger.warning("Could not cache a league's history", exc_info=True)
    return rows


def all_time_json(league: League, names: dict[int, MemberRow], today: date,
                  todays_places: dict[str, tuple[int, int]]) -> list[dict]:
    """Since the league began: the history of the days before today (:func:`history`) plus
    today's places among the members (``todays_places``: public id -> (place, contracts),
    empty until the viewer has finished today). A streak is current while it ends today or
    yesterday (leaderboards.history). Most contracts first, then the better average place,
    then more dailies."""
    past = history(league, today - ONE_DAY)
    entries = []
    for pk, player in names.items():
        dailies, contracts, places, longest, current = past.get(pk, (0, 0, 0, 0, 0))
        if player.public_id in todays_places:
            place, today_contracts = todays_places[player.public_id]
            dailies, contracts, places = dailies + 1, contracts + today_contracts, places + place
            current += 1
            longest = max(longest, current)
        if dailies:
            entries.append({"player": player_json(player), "dailies": dailies,
                            "contracts": contracts, "average_rank": round(places / dailies, 2),
                            "current_streak": current, "longest_streak": longest})
    entries.sort(key=lambda e: (-e["contracts"], e["average_rank"], -e["dailies"],
                                e["player"]["id"]))
    return entries


def league_page(league: League, viewer: Player) -> dict:
    """Everything the league's page shows, for one member."""
    today = daily.today()
    members = members_of(league)
    names = {p.pk: p for p in members.players}
    finished = has_finished_today(viewer, today)
    last_day = today if finished else today - ONE_DAY  # no spoilers of today's deal
    todays_rows = day_board(today).among(members.ids)
    todays_places = ({row.player_id: (place, row.contracts)
                      for place, row in enumerate(todays_rows, start=1)} if finished else {})
    return {
        "league": league_json(league, viewer, len(members.players)),
        "members": [{**player_json(p), "creator": p.pk == league.creator_id}
                    for p in members.players],
        "today": today_json(todays_rows, names, today, finished),
        "week": week_json(members.ids, names, today, last_day),
        "all_time": all_time_json(league, names, today, todays_places),
    }


# --- The viewer's leagues ---------------------------------------------------------------------


def my_leagues(viewer: Player) -> list[dict]:
    """The viewer's leagues, newest membership first, with their member counts."""
    leagues = (League.objects.of(viewer).select_related("creator")
               .annotate(member_count=Count("memberships", distinct=True))
               .order_by("-memberships__joined_at", "-id"))
    return [league_json(league, viewer, league.member_count) for league in leagues]


def my_standings_today(viewer: Player) -> dict:
    """Today in each of the viewer's leagues (for home and the daily page): ranked entries
    once the viewer has finished, only who has played before."""
    today = daily.today()
    finished = has_finished_today(viewer, today)
    leagues = list(League.objects.of(viewer).order_by("-memberships__joined_at", "-id"))
    rows = (Membership.objects.filter(league__in=leagues).select_related("player")
            .order_by("joined_at", "id"))
    members: dict[int, dict[int, Player]] = {league.pk: {} for league in leagues}
    for row in rows:
        members[row.league_id][row.player_id] = row.player
    everyone = sorted({pk for names in members.values() for pk in names})
    ranked = day_board(today).among(everyone)  # one query for every league's members
    standings = []
    for league in leagues:
        names = members[league.pk]
        in_league = {p.public_id for p in names.values()}
        rows_here = [row for row in ranked if row.player_id in in_league]
        played = {row.player_id for row in rows_here}
        standings.append({
            "league": {"id": league.public_id, "number": league.pk, "name": league.shown_name,
                       "name_hidden": league.name_hidden, "members": len(names)},
            "entries": [{"rank": rank, "player": {"id": row.player_id, "name": row.player_name},
                         "contracts": row.contracts, "penalty": row.penalty,
                         "finished_at": row.at}
                        for rank, row in enumerate(rows_here, start=1)] if finished else [],
            "played": [player_json(p) for p in names.values() if p.public_id in played],
            "not_played": [player_json(p) for p in names.values()
                           if p.public_id not in played],
        })
    return {"date": today, "results_shown": finished, "leagues": standings}


# --- A join link, before joining --------------------------------------------------------------


def preview(code: str) -> dict | None:
    """What a join link shows before joining: the league's name and member count, nothing
    else (not its members, not its boards). None for a code no league has (``code`` already
    normalised: leaderboards.leagues.models.normalise_code)."""
    league = (League.objects.filter(code=code)
              .annotate(member_count=Count("memberships")).first())
    if league is None:
        return None
    return {"number": league.pk, "name": league.shown_name, "name_hidden": league.name_hidden,
            "members": league.member_count}
