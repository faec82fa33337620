"""A league's boards, as its members see them (docs/api.md, "Friend leagues"): today's daily
ranked as the public board ranks it (R22: leaderboards.ranking, narrowed to the members),
yesterday's likewise, this ISO week's sums, all time since the league began (dailies played,
contracts, average place among the members, streaks), and who has not played today.

No spoilers: until the viewer has finished today's daily, today's results are left out of
every board (today shows only who has played, the week and all time count the days before
today), so a league never gives away the deal. Scores off the public boards (hidden by a
moderator, or a banned player's) are off league boards too: every read starts from
``Score.objects.listed()``.

Replays: a day's entry carries its ``game`` (the member's daily, for /replay/{id}/) once the
day has ended, the rule of games.reads.replays for a daily (R26: a score is a finished
daily, whose replay opens to everyone when its day ends); today's entries never do, so no
board gives away a running day's game.

Reads only, in a fixed number of queries whatever the number of members (pinned by
tests/leaderboards/leagues/test_boards.py): the league and its members, one statement for the
viewer's finish of today and what the days before today depend on (:func:`page_stamp`), and
today's ranked rows. The days before today (yesterday's board, the week's sums up to
yesterday, all time) change only with that stamp, so they are read in two more statements
(the league's tallies, then the days after them) once and then kept in Django's cache
(:func:`past_of`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import NamedTuple

from django.core.cache import cache
from django.db import connection
from django.db.models import Count, Exists, OuterRef
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from games import daily
from games.models import Game
from games.players.models import Player
from games.web.codes import shown_code
from games.web.errors import Refusal
from leaderboards.leagues.models import (
    League,
    LeagueTally,
    Membership,
    TallyRecount,
)
from leaderboards.models import ModerationLog, Score, week_of
from leaderboards.ranking import Row, day_board

ONE_DAY = timedelta(days=1)
CACHE_S = 24 * 3600  # cached boards are keyed by their day: not read after tomorrow
CACHE_VERSION = 2  # raised when a cached value changes shape: old entries are not read
LATE_FINISH_DAYS = timedelta(days=2)  # a daily still open may finish this long after its day
logger = logging.getLogger(__name__)


class NotMember(Refusal):
    """The league does not exist or the viewer is not in it: the same answer (404) for both."""

    status, code, message = 404, "not_found", "No such league."


def league_of(viewer: Player, public_id: str) -> League:
    league = (League.objects.of(viewer).filter(public_id=public_id)
              .select_related("creator").first())
    if league is None:
        raise NotMember()
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
    entries once the viewer has finished, else only who has played; and who has not. Both
    lists in order of joining (``names``): the board's order would tell the day's result."""
    by_public_id = {p.public_id: p for p in names.values()}
    played_ids = {by_public_id[row.player_id].pk for row in rows}
    entries = []
    if finished:
        # Names as read now (the rows may come from the cache); no game: today runs (R26).
        entries = [{"rank": rank, "player": player_json(by_public_id[row.player_id]),
                    "contracts": row.contracts, "penalty": row.penalty,
                    "finished_at": row.at, "game": None}
                   for rank, row in enumerate(rows, start=1)]
    return {"date": today, "results_shown": finished, "entries": entries,
            "played": [player_json(p) for pk, p in names.items() if pk in played_ids],
            "not_played": [player_json(p) for pk, p in names.items() if pk not in played_ids]}


def replay_of(day: date, game_id: str) -> str | None:
    """A member's daily as a board names it: only once its day has ended, when the replay
    service opens a finished daily to everyone (games.reads.replays; a score is always a
    finished daily). Before, a board must not even name the game (R26)."""
    return game_id if daily.has_ended(day) else None


def yesterday_json(rows: list[tuple], names: dict[int, MemberRow], day: date) -> dict:
    """Yesterday's daily among the members, ranked as its public board (R22), each entry with
    its game for the replay (``rows``: :attr:`Past.yesterday`)."""
    entries = []
    for pk, contracts, penalty, finished_at, game in rows:
        if pk in names:  # a member who left since the rows were read
            entries.append({"rank": len(entries) + 1, "player": player_json(names[pk]),
                            "contracts": contracts, "penalty": penalty,
                            "finished_at": finished_at, "game": replay_of(day, game)})
    return {"date": day, "entries": entries}


def week_json(past: dict[int, tuple], todays_rows: list[Row], names: dict[int, MemberRow],
              today: date) -> dict:
    """The ISO week's sums over the members' listed dailies (as leaderboards.models.WeekScore
    sums them, and ranked as its board is): the days up to yesterday (:attr:`Past.week`) and
    ``todays_rows`` (today's board among the members once the viewer has finished, else
    none)."""
    sums = {pk: sums for pk, sums in past.items() if pk in names}
    pk_of = {p.public_id: p.pk for p in names.values()}
    for row in todays_rows:
        pk = pk_of[row.player_id]
        contracts, penalty, days, reached_at = sums.get(pk, (0, 0, 0, row.at))
        sums[pk] = (contracts + row.contracts, penalty + row.penalty, days + 1,
                    max(reached_at, row.at))
    ranked = sorted(sums.items(), key=lambda item: (-item[1][0], item[1][1], item[1][3],
                                                    item[0]))
    return {"week": week_of(today), "entries": [
        {"rank": rank, "player": player_json(names[pk]), "contracts": contracts,
         "penalty": penalty, "days": days}
        for rank, (pk, (contracts, penalty, days, _)) in enumerate(ranked, start=1)]}


def _days_before(day_param: str, column: str) -> str:
    """SQL for how many days a date column lies before a date parameter (0: the same day)."""
    if connection.vendor == "postgresql":
        return f"(CAST({day_param} AS DATE) - {column})"
    return f"CAST(julianday({day_param}) - julianday({column}) AS INTEGER)"


def _joined(column: str) -> str:
    """SQL aggregating a group's integers as one comma-separated text."""
    if connection.vendor == "postgresql":
        return f"string_agg(CAST({column} AS TEXT), ',')"
    return f"group_concat({column}, ',')"


def past_sql(league: League, yesterday: date, counted_from: date) -> tuple[str, list]:
    """The days before today in one statement, per member with a listed daily in them:
    (player pk,
    all time from ``counted_from`` to yesterday: dailies, contracts, sum of places among the
    members, the days played as days before yesterday, comma-separated;
    this ISO week before today: contracts, penalty, dailies, the latest finish;
    yesterday: place, contracts, penalty, finish, the game's public id).

    One window numbers each day's places among the members (R22 order, as the day's board),
    so yesterday's board is its places. The week's sums count days before the league began,
    as the public week board does; all time does not. The streaks come from the days
    (:func:`streaks`): a second window sorting every row by player and day cost as much
    again (EXPLAIN ANALYZE, 100 members and 60 days on PostgreSQL: two sorts of 4800 rows
    and a materialised CTE, 11-15 ms, against 5-7 ms for one). One statement, not one for
    each board: the cold page (after a join, a moderation, a new day) read the same rows
    three times (``bench.league``)."""
    score, membership, game = (Score._meta.db_table, Membership._meta.db_table,
                               Game._meta.db_table)
    monday = yesterday + ONE_DAY - timedelta(days=(yesterday + ONE_DAY).weekday())
    since = min(counted_from, monday, yesterday)

    def when(flag: str, column: str) -> str:
        return f"CASE WHEN {flag} THEN {column} END"

    sql = f"""
        SELECT p.player_id, p.dailies, p.contracts, p.places, p.days, p.week_contracts,
               p.week_penalty, p.week_days, p.reached_at, p.place, p.day_contracts,
               p.day_penalty, p.finished_at, g.public_id
        FROM (SELECT player_id,
                     COUNT({when('kept', '1')}) AS dailies,
                     SUM({when('kept', 'contracts')}) AS contracts,
                     SUM({when('kept', 'place')}) AS places,
                     {_joined(when('kept', 'ago'))} AS days,
                     SUM({when('this_week', 'contracts')}) AS week_contracts,
                     SUM({when('this_week', 'penalty')}) AS week_penalty,
                     COUNT({when('this_week', '1')}) AS week_days,
                     MAX({when('this_week', 'finished_at')}) AS reached_at,
                     MAX({when('ago = 0', 'place')}) AS place,
                     MAX({when('ago = 0', 'contracts')}) AS day_contracts,
                     MAX({when('ago = 0', 'penalty')}) AS day_penalty,
                     MAX({when('ago = 0', 'finished_at')}) AS finished_at,
                     MAX({when('ago = 0', 'game_id')}) AS game_id
              FROM (SELECT s.player_id, s.contracts, s.penalty, s.finished_at, s.game_id,
                           {_days_before('%s', 's.day')} AS ago,
                           s.day >= %s AS kept, s.day >= %s AS this_week,
                           ROW_NUMBER() OVER (PARTITION BY s.day ORDER BY s.contracts DESC,
                                              s.penalty, s.finished_at, s.id) AS place
                    FROM {score} s
                    WHERE s.listed AND s.day >= %s AND s.day <= %s
                      AND s.player_id IN (SELECT m.player_id FROM {membership} m
                                          WHERE m.league_id = %s)) scored
              GROUP BY player_id) p
        LEFT JOIN {game} g ON g.id = p.game_id
    """
    return sql, [yesterday, counted_from, monday, since, yesterday, league.pk]


def streaks(days_ago: list[int], longest: int = 0, run: int = 0,
            run_ends: int | None = None) -> tuple[int, int]:
    """(longest run of consecutive days, the run that ends yesterday or 0) of the days
    played, each given as days before yesterday (0: yesterday), carrying on from a tally:
    ``run`` days that end ``run_ends`` days before yesterday, and the ``longest`` so far."""
    previous, current = run_ends, run
    for ago in sorted(days_ago, reverse=True):  # the oldest first
        current = current + 1 if previous is not None and ago == previous - 1 else 1
        longest = max(longest, current)
        previous = ago
    return longest, current if previous == 0 else 0


def _moment(value: datetime | str | None) -> datetime | None:
    """A timestamp as raw SQL gives it: typed by PostgreSQL, UTC text from SQLite."""
    if isinstance(value, str):
        value = parse_datetime(value)
    if value is not None and timezone.is_naive(value):
        value = timezone.make_aware(value, UTC)
    return value


class Stamp(NamedTuple):
    """What a league's boards depend on, read in one cheap statement (:func:`page_stamp`)."""

    finished: bool  # the viewer has a score today (listed or not: their own is no spoiler)
    past: tuple  # what the days before today depend on
    today: tuple  # what today's board among the members depends on


def page_stamp(league: League, viewer: Player, today: date) -> Stamp:
    """The viewer's finish of today, and the boards' inputs: the membership (count and newest
    row: a join raises the newest, a leave lowers the count), the newest moderation of scores
    and players (a hide or a ban takes scores off the boards, an unban puts them back), the
    members' newest score of the last days before today (a daily finished just after midnight
    still counts for its own day; an older one cannot finish any more) and of today, and the
    newest of the league's tallies (written again, they take new ids). Scores are only ever
    added, and unlisted or listed again by a logged moderation (leaderboards.services), so
    these numbers change whenever the boards would."""
    score, membership = Score._meta.db_table, Membership._meta.db_table
    log, tally = ModerationLog._meta.db_table, LeagueTally._meta.db_table
    yesterday = today - ONE_DAY
    members_scores = (f"SELECT MAX(s.id) FROM {score} s WHERE s.day >= %s AND s.day <= %s AND "
                      f"s.player_id IN (SELECT m.player_id FROM {membership} m "
                      f"WHERE m.league_id = %s)")
    sql = f"""
        SELECT EXISTS(SELECT 1 FROM {score} WHERE player_id = %s AND day = %s),
               (SELECT COUNT(*) FROM {membership} WHERE league_id = %s),
               (SELECT MAX(id) FROM {membership} WHERE league_id = %s),
               (SELECT MAX(id) FROM {log}),
               ({members_scores}),
               ({members_scores}),
               (SELECT MAX(id) FROM {tally} WHERE league_id = %s)
    """
    params = [viewer.pk, today, league.pk, league.pk,
              yesterday - LATE_FINISH_DAYS, yesterday, league.pk,
              today, today, league.pk, league.pk]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        finished, count, newest_member, moderation, late, todays, tallied = cursor.fetchone()
    return Stamp(bool(finished), (count, newest_member, moderation, late, tallied),
                 (count, newest_member, moderation, todays))


def closed_day(today: date) -> date:
    """The newest day whose dailies can no longer change: the day before those that
    :func:`page_stamp` watches for a late finish. A league's tallies count up to it."""
    return today - ONE_DAY - LATE_FINISH_DAYS - ONE_DAY


class Past(NamedTuple):
    """What the boards take from the days before today (:func:`past`)."""

    history: dict[int, tuple]  # all time, by pk: (dailies, contracts, sum of places,
    #                            longest streak, the streak that ends yesterday)
    week: dict[int, tuple]  # this week before today, by pk: (contracts, penalty, days,
    #                         the latest finish)
    yesterday: list[tuple]  # yesterday's board in R22 order: (pk, contracts, penalty,
    #                         finished_at, the game's public id)


class Tallies(NamedTuple):
    """A league's stored all-time figures (:class:`~leaderboards.leagues.models.LeagueTally`)."""

    through: date | None  # None: no tallies, every day counts from the scores
    players: dict[int, tuple]  # by pk: (dailies, contracts, places, longest, streak)


NO_TALLIES = Tallies(None, {})


def tallies_of(league: League) -> Tallies:
    """The league's tallies, or none while a moderation waits for their recount."""
    pending = TallyRecount.objects.filter(league=OuterRef("league"))
    rows = (LeagueTally.objects.filter(~Exists(pending), league=league)
            .values_list("player_id", "through", "dailies", "contracts", "places",
                         "longest_streak", "streak"))
    players, days = {}, set()
    for pk, day, *figures in rows:
        players[pk] = tuple(figures)
        days.add(day)
    if len(days) != 1:  # none, or (never written so) not one league's tallies of one day
        return NO_TALLIES
    return Tallies(days.pop(), players)


def past(league: League, yesterday: date, tallies: Tallies) -> Past:
    """The days before today: ``tallies`` up to their day (ignored if they run past
    yesterday), and the days after it from the scores (:func:`past_sql`)."""
    first_day = league.created_at.date()
    if tallies.through is None or tallies.through > yesterday:
        tallies, counted_from = NO_TALLIES, first_day
    else:
        counted_from = max(first_day, tallies.through + ONE_DAY)
    sql, params = past_sql(league, yesterday, counted_from)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    history = {}
    if tallies.through is not None:
        tally_ends = (yesterday - tallies.through).days
        for pk, (dailies, contracts, places, longest, run) in tallies.players.items():
            history[pk] = (dailies, contracts, places, *streaks([], longest, run, tally_ends))
    week, ranked = {}, []
    for (pk, dailies, contracts, places, days, week_contracts, week_penalty, week_days,
         reached_at, place, y_contracts, y_penalty, finished_at, game) in rows:
        if dailies:
            before = tallies.players.get(pk)
            carried = (before[3], before[4], tally_ends) if before else ()
            longest, to_yesterday = streaks([int(ago) for ago in days.split(",")], *carried)
            contracts, places = int(contracts), int(places)
            if before:
                dailies, contracts, places = (dailies + before[0], contracts + before[1],
                                              places + before[2])
            history[pk] = (dailies, contracts, places, longest, to_yesterday)
        if week_days:
            week[pk] = (int(week_contracts), int(week_penalty), week_days,
                        _moment(reached_at))
        if place is not None:
            ranked.append((place, (pk, y_contracts, y_penalty, _moment(finished_at), game)))
    ranked.sort()
    return Past(history, week, [row for _, row in ranked])


def cached(key: str, compute):
    """``compute()``, kept in Django's cache under ``key`` (which names everything the value
    depends on: a stamp). The cache being away only costs the computing."""
    try:
        found = cache.get(key)
    except Exception:  # the cache is unreachable: compute
        found = None
    if found is not None:
        return found
    value = compute()
    try:
        cache.set(key, value, CACHE_S)
    except Exception:
        logger.warning("Could not cache a league's board", exc_info=True)
    return value


def _key(what: str, league: League, day: date, stamp: tuple) -> str:
    return ":".join(["leagues", what, f"v{CACHE_VERSION}", str(league.pk), str(day),
                     *(str(part) for part in stamp)])


def past_of(league: League, today: date, stamp: Stamp) -> Past:
    """The days before today, which change only with :attr:`Stamp.past`: a page read after
    every member's finish repeats none of the history's sorting."""
    yesterday = today - ONE_DAY
    key = _key("past", league, yesterday, stamp.past)
    return cached(key, lambda: past(league, yesterday, tallies_of(league)))


def todays_rows(league: League, ids: list[int], today: date, stamp: Stamp) -> list[Row]:
    """Today's board among the members. A member's finish sends every member's open page to
    read the board again (the league's socket): cached under :attr:`Stamp.today`, that burst
    of reads ranks the rows once."""
    key = _key("today", league, today, stamp.today)
    return cached(key, lambda: day_board(today).among(ids))


def all_time_json(past: dict[int, tuple], names: dict[int, MemberRow],
                  todays_places: dict[str, tuple[int, int]]) -> list[dict]:
    """Since the league began: the history of the days before today (:attr:`Past.history`)
    plus today's places among the members (``todays_places``: public id -> (place,
    contracts), empty until the viewer has finished today). A streak is current while it ends
    today or yesterday (leaderboards.history). Most contracts first, then the better average
    place, then more dailies."""
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
    # The stamp before the rest: what is then read, and cached under it, is at least as new.
    stamp = page_stamp(league, viewer, today)
    members = members_of(league)
    names = {p.pk: p for p in members.players}
    past = past_of(league, today, stamp)
    public_ids = {p.public_id for p in members.players}
    # Cached rows may name someone who left after this page's stamp was read.
    rows = [row for row in todays_rows(league, members.ids, today, stamp)
            if row.player_id in public_ids]
    counted = rows if stamp.finished else []  # no spoilers of today's deal
    todays_places = {row.player_id: (place, row.contracts)
                     for place, row in enumerate(counted, start=1)}
    return {
        "league": league_json(league, viewer, len(members.players)),
        "members": [{**player_json(p), "creator": p.pk == league.creator_id}
                    for p in members.players],
        "today": today_json(rows, names, today, stamp.finished),
        "yesterday": yesterday_json(past.yesterday, names, today - ONE_DAY),
        "week": week_json(past.week, counted, names, today),
        "all_time": all_time_json(past.history, names, todays_places),
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
                         "finished_at": row.at, "game": None}  # today runs (R26)
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
