"""The only code that writes leagues (docs/api.md, "Friend leagues"): check, then change in
one transaction, then tell the league's websocket after commit.

Players: create a league, join one from its code (once: 409 the second time), leave one.
The creator: rename, remove a member, renew the code (the old one stops working at once),
delete. Moderators (Django admin): hide or restore a league's name, delete a league, each
with a reason, logged in :class:`~leaderboards.leagues.models.LeagueModerationLog`.

Bounds: a league has at most ``MEMBERS_MAX`` members and a player at most
``LEAGUES_PER_PLAYER_MAX`` leagues. Both are counted under row locks, always taken in one
order (the league's row, then the player's row), so two joins cannot both take the last
place and two actions never wait on each other in a circle. The locks are PostgreSQL's FOR NO
KEY UPDATE: they exclude one another as FOR UPDATE does, but let a row that refers to the
locked one be written meanwhile (a foreign key's check takes KEY SHARE), so a moderation
marking a league's tallies and a join writing a tally of the moderated player never wait on
each other. A join finds its league with
``SELECT ... FOR UPDATE WHERE code = ...``: a code renewed meanwhile makes PostgreSQL
re-read the row after the renewal commits, find the code gone, and the join answers 404.

When the creator leaves, the league passes to the member who joined earliest; the last
member to leave deletes it.

Tallies (:class:`~leaderboards.leagues.models.LeagueTally`): counted again from every score
inside a join's or a leave's transaction (places among the members change with them);
marked for a recount (:class:`~leaderboards.leagues.models.TallyRecount`) inside a
moderation's transaction that takes scores they count off the boards or puts them back, and
counted again just after it commits; carried forward to the newest closed day each night
(leaderboards.leagues.tasks), which also counts again any league still marked. A league
whose tallies are missing or marked is read right, from its scores.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial

from django.db import DatabaseError, IntegrityError, transaction
from django.utils import timezone

from games import daily
from games.models import Game
from games.players.models import Player
from games.players.names import clean_name
from games.web.errors import Refusal
from games.web.groups import group_send
from leaderboards.leagues import boards
from leaderboards.leagues.models import (
    LEAGUES_PER_PLAYER_MAX,
    MEMBERS_MAX,
    NAME_MAX_CHARS,
    League,
    LeagueModerationLog,
    LeagueTally,
    Membership,
    TallyRecount,
    new_code,
    normalise_code,
)
from leaderboards.services import ReasonRequired

logger = logging.getLogger(__name__)
CODE_ATTEMPTS = 5  # a new code that collides with another league's is drawn again


def not_found() -> Refusal:
    # A league you are not in is "not found", never "forbidden": don't confirm it exists.
    return Refusal(404, "not_found", "No such league.")


def unknown_code() -> Refusal:
    return Refusal(404, "invalid_league_code",
                   "No league has that code (its creator may have replaced it).")


def group_name(league: League) -> str:
    return f"leagues.{league.pk}"


def clean_league_name(raw: str) -> str:
    """The player names' rules (games.players.names), up to ``NAME_MAX_CHARS``. Raises Refusal."""
    return clean_name(raw, max_chars=NAME_MAX_CHARS)


def _lock_player(player: Player) -> Player:
    return Player.objects.select_for_update(no_key=True).get(pk=player.pk)


def _check_room_for(player: Player) -> None:
    """The caller holds the player's lock."""
    if Membership.objects.filter(player=player).count() >= LEAGUES_PER_PLAYER_MAX:
        raise Refusal(409, "too_many_leagues",
                      f"You are in {LEAGUES_PER_PLAYER_MAX} leagues already: leave one first.")


def _locked_league(player: Player, public_id: str) -> League:
    """The league ``player`` is in, its row locked; Refusal 404 otherwise."""
    league = (League.objects.select_for_update(no_key=True).filter(public_id=public_id,
                                                        memberships__player=player).first())
    if league is None:
        raise not_found()
    return league


def _creator_only(league: League, player: Player) -> None:
    # A member knows the league exists: 403 tells them it is the creator's to do.
    if league.creator_id != player.pk:
        raise Refusal(403, "creator_only", "Only the league's creator can do that.")


def _save_with_new_code(league: League, **kwargs) -> None:
    """Save with a fresh code; another league's code is never reused (unique column)."""
    for attempt in range(CODE_ATTEMPTS):
        league.code = new_code()
        league.code_changed_at = timezone.now()
        try:
            with transaction.atomic():
                league.save(**kwargs)
            return
        except IntegrityError:
            if attempt == CODE_ATTEMPTS - 1:
                raise


def answered(player: Player, write: Callable[[], League]) -> dict:
    """Run ``write`` (a join, a rename, a new code) and read its answer, the league as
    ``player`` now sees it (boards.summary), in the same transaction: the write holds the
    league's row lock to the end, so a deletion waits for the answer instead of leaving it
    a league with no members; had the deletion come first, the write was refused with 404."""
    with transaction.atomic():
        return boards.summary(write(), player)


# --- Players --------------------------------------------------------------------------------


def create_league(player: Player, raw_name: str) -> League:
    name = clean_league_name(raw_name)
    with transaction.atomic():
        player = _lock_player(player)
        _check_room_for(player)
        league = League(name=name, creator=player)
        _save_with_new_code(league, force_insert=True)
        Membership.objects.create(league=league, player=player)
    return league


def join(player: Player, raw_code: str) -> League:
    code = normalise_code(raw_code)
    if code is None:
        raise unknown_code()
    with transaction.atomic():
        league = League.objects.select_for_update(no_key=True).filter(code=code).first()
        if league is None:
            raise unknown_code()
        player = _lock_player(player)
        if Membership.objects.filter(league=league, player=player).exists():
            raise Refusal(409, "already_member", "You are in this league already.")
        if Membership.objects.filter(league=league).count() >= MEMBERS_MAX:
            raise Refusal(409, "league_full", f"This league has {MEMBERS_MAX} members: "
                                              "it is full.")
        _check_room_for(player)
        try:
            with transaction.atomic():
                Membership.objects.create(league=league, player=player)
        except IntegrityError:  # a join of the same player that ran without our lock order
            raise Refusal(409, "already_member", "You are in this league already.") from None
        _write_tallies(league, afresh=True)
        _announce(league, "members")
    return league


def leave(player: Player, public_id: str) -> None:
    """The creator leaving hands the league to the member who joined earliest; the last
    member leaving deletes it."""
    with transaction.atomic():
        league = _locked_league(player, public_id)
        Membership.objects.filter(league=league, player=player).delete()
        if league.creator_id == player.pk:
            heir = Membership.objects.filter(league=league).order_by("joined_at", "id").first()
            if heir is None:
                league.delete()
                return
            league.creator_id = heir.player_id
            league.save(update_fields=["creator"])
        _write_tallies(league, afresh=True)
        _announce(league, "members", gone=[player.pk])


def remove_member(player: Player, public_id: str, member_public_id: str) -> None:
    """The creator takes someone out (they may join again while the code is the same: renew
    it to keep them out). Removing oneself is leaving."""
    if member_public_id == player.public_id:
        leave(player, public_id)
        return
    with transaction.atomic():
        league = _locked_league(player, public_id)
        _creator_only(league, player)
        gone = list(Membership.objects.filter(league=league, player__public_id=member_public_id)
                    .values_list("player_id", flat=True))
        if not gone:
            raise Refusal(404, "not_found", "No such member in this league.")
        Membership.objects.filter(league=league, player_id__in=gone).delete()
        _write_tallies(league, afresh=True)
        _announce(league, "members", gone=gone)


def rename(player: Player, public_id: str, raw_name: str) -> League:
    """A new name also replaces one a moderator hid (it has passed the name rules again)."""
    name = clean_league_name(raw_name)
    with transaction.atomic():
        league = _locked_league(player, public_id)
        _creator_only(league, player)
        league.name = name
        league.name_hidden_at = None
        league.save(update_fields=["name", "name_hidden_at"])
        _announce(league, "league")
    return league


def renew_code(player: Player, public_id: str) -> League:
    with transaction.atomic():
        league = _locked_league(player, public_id)
        _creator_only(league, player)
        _save_with_new_code(league, update_fields=["code", "code_changed_at"])
        _announce(league, "league", check_members=True)
    return league


def delete_league(player: Player, public_id: str) -> None:
    with transaction.atomic():
        league = _locked_league(player, public_id)
        _creator_only(league, player)
        _announce(league, "deleted")
        league.delete()


# --- A member finished today's daily ------------------------------------------------------------


def announce_finish(game: Game) -> None:
    """Inside the finishing transaction (the ``game_finished`` signal): after commit, tell the
    finisher's leagues (their pages read the board again). A banned player's scores stay off
    league boards, so their finish is no news."""
    if not game.ranked or game.owner.banned_at is not None:
        return
    player = {"id": game.owner.public_id, "name": game.owner.name}
    for league_pk in Membership.objects.filter(player_id=game.owner_id).values_list(
            "league_id", flat=True):
        _announce(League(pk=league_pk), "played", player=player)


def _announce(league: League, what: str, **data) -> None:
    """After commit, tell the league's sockets (leaderboards.leagues.consumers): ``what``
    changed; ``gone``, the pks of players who left or were removed (their sockets close);
    ``check_members``, every socket checks its player is still a member (a new code)."""
    message = {"type": "league.changed", "what": what, **data}
    transaction.on_commit(partial(group_send, group_name(league), message), robust=True)


# --- Tallies: all time up to the newest closed day ---------------------------------------------


def _write_tallies(league: League, afresh: bool) -> None:
    """Store the league's all-time figures up to the newest closed day
    (boards.closed_day): counted from every score when ``afresh`` (what they count changed)
    or a moderation asked for a recount, else carried forward from the stored ones. Clears
    only the recounts it saw before reading the scores. The caller holds the league's row
    lock."""
    closed = boards.closed_day(daily.today())
    recounts = list(TallyRecount.objects.filter(league=league).values_list("pk", flat=True))
    tallies = boards.NO_TALLIES if afresh or recounts else boards.tallies_of(league)
    if tallies.through == closed:
        return
    history = boards.past(league, closed, tallies).history
    LeagueTally.objects.filter(league=league).delete()
    LeagueTally.objects.bulk_create([
        LeagueTally(league=league, player_id=pk, through=closed, dailies=dailies,
                    contracts=contracts, places=places, longest_streak=longest, streak=streak)
        for pk, (dailies, contracts, places, longest, streak) in history.items()])
    TallyRecount.objects.filter(pk__in=recounts).delete()


def _tally(league_pks, afresh: bool) -> None:
    """Each league in its own transaction, under its row lock. A league that fails is logged
    and left for the next night: its boards stay right, counting from the scores."""
    for pk in sorted(league_pks):
        try:
            with transaction.atomic():
                league = League.objects.select_for_update(no_key=True).filter(pk=pk).first()
                if league is not None:  # deleted meanwhile
                    _write_tallies(league, afresh)
        except DatabaseError:
            logger.exception("Could not count league %s's tallies", pk)


def carry_tallies_forward() -> int:
    """Every league's tallies up to the newest closed day (nightly: leaderboards.leagues.tasks),
    counted again where a moderation asked; returns the number of leagues."""
    leagues = list(League.objects.values_list("pk", flat=True))
    _tally(leagues, afresh=False)
    return len(leagues)


def recount_tallies(player_ids, days) -> None:
    """Scores of these players on these days went on or off the boards (the
    ``scores_relisted`` signal, inside the moderation's transaction). Their leagues' tallies
    count no day after the newest closed one, so nothing changes for a recent day; else each
    league gets a :class:`TallyRecount` mark with the moderation (the boards ignore its
    tallies until a recount), and is counted again once the moderation commits, holding none
    of its locks (a league's lock is always taken before a player's)."""
    if min(days) > boards.closed_day(daily.today()):
        return
    leagues = sorted(set(Membership.objects.filter(player_id__in=player_ids)
                         .values_list("league_id", flat=True)))
    TallyRecount.objects.bulk_create([TallyRecount(league_id=pk) for pk in leagues])

    def count_again():
        _tally(leagues, afresh=True)

    transaction.on_commit(count_again, robust=True)


# --- Moderation (Django admin) ------------------------------------------------------------------


def _check_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ReasonRequired("A moderation action needs a reason.")
    return reason


def _log(moderator, action: str, league: League, reason: str, **details) -> None:
    LeagueModerationLog.objects.create(
        moderator=moderator, moderator_name=moderator.get_username(), action=action,
        league=league if action != LeagueModerationLog.DELETE else None,
        league_number=league.pk, league_name=league.name, reason=reason, details=details)


def hide_name(league: League, moderator, reason: str) -> bool:
    """Members see "League #n" instead of the name. False if already hidden."""
    reason = _check_reason(reason)
    with transaction.atomic():
        league = League.objects.select_for_update(no_key=True).get(pk=league.pk)
        if league.name_hidden:
            return False
        league.name_hidden_at = timezone.now()
        league.save(update_fields=["name_hidden_at"])
        _log(moderator, LeagueModerationLog.HIDE_NAME, league, reason)
        _announce(league, "league")
    return True


def restore_name(league: League, moderator, reason: str) -> bool:
    reason = _check_reason(reason)
    with transaction.atomic():
        league = League.objects.select_for_update(no_key=True).get(pk=league.pk)
        if not league.name_hidden:
            return False
        league.name_hidden_at = None
        league.save(update_fields=["name_hidden_at"])
        _log(moderator, LeagueModerationLog.RESTORE_NAME, league, reason)
        _announce(league, "league")
    return True


def delete_by_moderator(league: League, moderator, reason: str) -> bool:
    """The league and its memberships go; the log keeps its number, name, creator and size
    (the scores were never the league's: they stay on the public boards)."""
    reason = _check_reason(reason)
    with transaction.atomic():
        league = League.objects.select_for_update(no_key=True).filter(pk=league.pk).first()
        if league is None:
            return False
        members = Membership.objects.filter(league=league).count()
        creator = league.creator.public_id if league.creator_id else None
        _log(moderator, LeagueModerationLog.DELETE, league, reason, members=members,
             creator=creator, public_id=league.public_id)
        _announce(league, "deleted")
        league.delete()
    return True
