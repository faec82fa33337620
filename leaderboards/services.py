"""The only code that writes scores and moderation (docs/design.md, "The apps"): check, then
change in one transaction, then tell the websocket board after commit.

:func:`record_score` is called by the ``game_finished`` receiver (leaderboards.receivers)
inside the transaction that finishes a ranked game, from the game's own result (R23): if the
game rolls back, so does its score. The moderation services are what Django admin's actions
call; each one writes a :class:`~leaderboards.models.ModerationLog` row and never deletes a
score.

Locks: a player's row is locked (``SELECT ... FOR UPDATE``) before any of their scores change,
so a finishing game and a moderator's action on the same player take turns; the tallies are
written last, in one sorted order (:class:`Tallies`).
"""

from __future__ import annotations

from collections import defaultdict
from functools import partial

from django.contrib.auth.models import Group, Permission
from django.db import IntegrityError, transaction
from django.db.models import Count, F, Max, Model, Sum
from django.utils import timezone

from games import daily
from games.models import Game
from games.players import services as players
from games.players.models import Player
from games.web.groups import group_send
from leaderboards import flags
from leaderboards.models import (
    AttemptLink,
    ContractTally,
    ModerationLog,
    Score,
    Tally,
    WeekScore,
    week_of,
)
from leaderboards.ranking import Row, day_board
from leaderboards.signals import scores_relisted

BOARD_GROUP = "leaderboards.daily"  # the websocket group of today's board


class ReasonRequired(ValueError):
    """Every moderation action needs a reason: it goes into the log."""


# --- Entries as the API and the websocket show them --------------------------------------------


def player_json(player: Player) -> dict:
    return {"id": player.public_id, "name": player.name}


def entry_json(rank: int, row: Row) -> dict:
    entry = {"rank": rank, "player": {"id": row.player_id, "name": row.player_name},
             "contracts": row.contracts, "penalty": row.penalty, "finished_at": row.at,
             "linked": row.linked}
    if row.days is not None:
        entry["days"] = row.days
    return entry


# --- Recording ----------------------------------------------------------------------------------


def record_score(game: Game) -> Score | None:
    """The score of a finished ranked game, from the game's own result (never a client's
    number). Idempotent: a game has at most one score. Must run inside the finishing
    transaction (the ``game_finished`` signal)."""
    if not game.ranked or not game.finished:
        return None
    existing = Score.objects.filter(game=game).first()
    if existing is not None:
        return existing
    player = Player.objects.select_for_update(no_key=True).get(pk=game.owner_id)
    score = Score(
        game=game, player=player, day=game.daily.date, week=week_of(game.daily.date),
        contracts=game.contracts, penalty=game.penalty, place=game.place,
        finished_at=game.finished_at,
        play_seconds=max(0, int((game.finished_at - game.created_at).total_seconds())),
        person_actions=flags.person_actions(game),
        listed=player.banned_at is None,
    )
    score.flags = flags.flags_for(score, game)
    score.flagged = bool(score.flags)
    score.linked = Score.LINKED in score.flags
    score.save(force_insert=True)
    if Score.SHARED_ADDRESS in score.flags:
        _flag_address_neighbours(game)
    if score.listed:
        tallies = Tallies()
        tallies.add(score.day.isoformat(), score.contracts, score.penalty, +1)
        _refresh_week(player, score.week, tallies)
        tallies.write()
        _announce_entry(score)
    return score


def _flag_address_neighbours(game: Game) -> None:
    """Once an address reaches the threshold, flag its earlier scores of the day as well."""
    neighbours = (Score.objects.filter(game__daily_id=game.daily_id,
                                       game__address_hash=game.address_hash)
                  .exclude(game=game))
    for score in neighbours:
        if Score.SHARED_ADDRESS not in score.flags:
            score.flags = [*score.flags, Score.SHARED_ADDRESS]
            score.flagged = True
            score.save(update_fields=["flags", "flagged"])


def _refresh_week(player: Player, week: str, tallies: Tallies) -> None:
    """Rebuild a player's WeekScore from their listed scores of ``week``."""
    sums = Score.objects.listed().filter(player=player, week=week).aggregate(
        contracts=Sum("contracts"), penalty=Sum("penalty"), days=Count("id"),
        reached_at=Max("finished_at"))
    current = WeekScore.objects.filter(player=player, week=week).first()
    if current is not None:
        tallies.add(week, current.contracts, current.penalty, -1)
    if not sums["days"]:
        if current is not None:
            current.delete()  # derived data: the scores themselves stay
        return
    if current is None:
        current = WeekScore(player=player, week=week)
    for name, value in sums.items():
        setattr(current, name, value)
    current.save()
    tallies.add(week, current.contracts, current.penalty, +1)


def _set_listed(scores: list[Score], listed: bool) -> list[Score]:
    """Put scores on or off the boards, keeping tallies and week sums right. Returns the
    scores that changed. The caller holds the players' locks."""
    changed = [s for s in scores if s.listed != listed]
    if not changed:
        return []
    tallies = Tallies()
    for score in changed:
        score.listed = listed
        score.save(update_fields=["listed", "hidden_at"])
        tallies.add(score.day.isoformat(), score.contracts, score.penalty, +1 if listed else -1)
    for player_id, week in sorted({(s.player_id, s.week) for s in changed}):
        _refresh_week(Player(pk=player_id), week, tallies)
    tallies.write()
    scores_relisted.send(sender=Score, player_ids=sorted({s.player_id for s in changed}),
                         days=sorted({s.day for s in changed}))
    return changed


# --- Linked attempts (scouting) ----------------------------------------------------------------


def link_attempt(game: Game) -> list[AttemptLink]:
    """A daily attempt just started: link it to other identities' attempts of the day from
    the same address or browser, and flag the scores those already have. Runs inside the
    starting transaction (the ``daily_started`` signal)."""
    sharing = flags.attempts_sharing_with(game)
    links = []
    for other, same_address, same_device in sharing:
        link, _ = AttemptLink.objects.get_or_create(
            earlier=other, later=game,
            defaults={"day": game.daily.date, "same_address": same_address,
                      "same_device": same_device})
        links.append(link)
    scores = Score.objects.filter(game__in=[other for other, _, _ in sharing])
    for player_id in sorted({score.player_id for score in scores}):
        _lock_player(player_id)
    for score in scores.select_for_update():
        if score.linked:
            continue
        if Score.LINKED not in score.flags:
            score.flags = [*score.flags, Score.LINKED]
        score.flagged = score.linked = True
        score.save(update_fields=["flags", "flagged", "linked"])
        if score.listed:
            _announce_entry(score)
    return links


def _resolve_links(links: list[AttemptLink], moderator) -> None:
    """Mark links resolved; their attempts' scores stay marked only while another unresolved
    link holds them. The caller holds a transaction."""
    if not links:
        return
    AttemptLink.objects.filter(pk__in=[link.pk for link in links]).update(
        resolved_at=timezone.now(), resolved_by=moderator.get_username())
    game_ids = {link.earlier_id for link in links} | {link.later_id for link in links}
    still_linked = set()
    for link in AttemptLink.objects.unresolved().touching(game_ids):
        still_linked |= {link.earlier_id, link.later_id}
    for score in Score.objects.filter(game__in=game_ids, linked=True).exclude(
            game__in=still_linked):
        score.linked = False
        score.save(update_fields=["linked"])
        if score.listed:
            _announce_entry(score)


def resolve_link(link: AttemptLink, moderator, reason: str) -> bool:
    """A moderator looked at two linked attempts (and hid what needed hiding): the link stops
    marking them. False if already resolved."""
    reason = _check_reason(reason)
    with transaction.atomic():
        link = AttemptLink.objects.select_for_update().select_related("later").get(pk=link.pk)
        if link.resolved:
            return False
        _resolve_links([link], moderator)
        _log(moderator, ModerationLog.REVIEW, Player(pk=link.later.owner_id), reason,
             link=link.pk, earlier_game=link.earlier_id, later_game=link.later_id)
    return True


# --- Moderation ---------------------------------------------------------------------------------


def _check_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ReasonRequired("A moderation action needs a reason.")
    return reason


def _log(moderator, action: str, player: Player, reason: str, score: Score | None = None,
         **details) -> ModerationLog:
    return ModerationLog.objects.create(
        moderator=moderator, moderator_name=moderator.get_username(), action=action,
        player=player, score=score, reason=reason, details=details)


def _lock_player(player_id: int) -> Player:
    # FOR NO KEY UPDATE (leaderboards.leagues.services says why): moderations exclude one
    # another, yet a league's tally of this player may be written meanwhile.
    return Player.objects.select_for_update(no_key=True).get(pk=player_id)


def hide_score(score: Score, moderator, reason: str) -> bool:
    """Take a score off every board (it stays in the database). False if already hidden."""
    reason = _check_reason(reason)
    with transaction.atomic():
        player = _lock_player(score.player_id)
        score = Score.objects.select_for_update().get(pk=score.pk)
        if score.hidden:
            return False
        score.hidden_at = timezone.now()
        if not _set_listed([score], False):
            score.save(update_fields=["hidden_at"])
        _log(moderator, ModerationLog.HIDE, player, reason, score)
        _announce_removal(score.day, player)
    return True


def restore_score(score: Score, moderator, reason: str) -> bool:
    """Undo a hide; the score is listed again unless its player is banned."""
    reason = _check_reason(reason)
    with transaction.atomic():
        player = _lock_player(score.player_id)
        score = Score.objects.select_for_update().get(pk=score.pk)
        if not score.hidden:
            return False
        score.hidden_at = None
        if player.banned_at is not None or not _set_listed([score], True):
            score.save(update_fields=["hidden_at"])
        _log(moderator, ModerationLog.RESTORE, player, reason, score)
        if score.listed:
            _announce_entry(score)
    return True


def ban_player(player: Player, moderator, reason: str) -> bool:
    """Keep a player off the boards: their scores (past and future) are unlisted."""
    reason = _check_reason(reason)
    with transaction.atomic():
        player = _lock_player(player.pk)
        if player.banned_at is not None:
            return False
        players.set_banned(player, True)
        changed = _set_listed(list(player.scores.filter(listed=True)), False)
        _log(moderator, ModerationLog.BAN, player, reason, unlisted=len(changed))
        for score in changed:
            _announce_removal(score.day, player)
    return True


def unban_player(player: Player, moderator, reason: str) -> bool:
    reason = _check_reason(reason)
    with transaction.atomic():
        player = _lock_player(player.pk)
        if player.banned_at is None:
            return False
        players.set_banned(player, False)
        changed = _set_listed(list(player.scores.filter(hidden_at__isnull=True)), True)
        _log(moderator, ModerationLog.UNBAN, player, reason, listed=len(changed))
        for score in changed:
            _announce_entry(score)
    return True


def reset_name(player: Player, moderator, reason: str) -> str:
    """Replace a display name with a fresh random one; returns the new name."""
    reason = _check_reason(reason)
    with transaction.atomic():
        player = _lock_player(player.pk)
        old = player.name
        players.give_random_name(player)
        _log(moderator, ModerationLog.RESET_NAME, player, reason, old_name=old,
             new_name=player.name)
    return player.name


def mark_reviewed(score: Score, moderator, reason: str) -> bool:
    """A moderator looked at a flagged score and let it stand (its flags are kept, its links
    to other attempts resolved)."""
    reason = _check_reason(reason)
    with transaction.atomic():
        player = _lock_player(score.player_id)
        score = Score.objects.select_for_update().get(pk=score.pk)
        if not score.flagged:
            return False
        score.flagged = False
        score.save(update_fields=["flagged"])
        _resolve_links(list(AttemptLink.objects.unresolved().touching([score.game_id])),
                       moderator)
        _log(moderator, ModerationLog.REVIEW, player, reason, score, flags=score.flags)
    return True


# --- Today's board on the websocket -------------------------------------------------------------


def _announce_entry(score: Score) -> None:
    """After commit, push a new (or restored) entry of today's board with its rank."""
    if score.day != daily.today():
        return
    board = day_board(score.day)
    entry = entry_json(board.rank_of(score), board.row_of(score))
    entry["finished_at"] = entry["finished_at"].isoformat()
    message = {"type": "board.entry", "date": score.day.isoformat(), "entry": entry}
    transaction.on_commit(partial(_publish, message), robust=True)


def _announce_removal(day, player: Player) -> None:
    if day != daily.today():
        return
    message = {"type": "board.removed", "date": day.isoformat(),
               "player": player_json(player)}
    transaction.on_commit(partial(_publish, message), robust=True)


def _publish(message: dict) -> None:
    """Never raises: it runs after commit (see games.services.publish)."""
    group_send(BOARD_GROUP, message)


# --- Moderators ---------------------------------------------------------------------------------

MODERATORS = "moderators"
PERMISSIONS = [
    ("games", "view_player"), ("games", "change_player"), ("games", "view_game"),
    ("games", "view_gameaction"), ("games", "view_dailydeal"),
    ("leaderboards", "view_score"), ("leaderboards", "change_score"),
    ("leaderboards", "view_moderationlog"),
    ("leaderboards", "view_attemptlink"), ("leaderboards", "change_attemptlink"),
    # friend leagues (named, not imported: leagues builds on leaderboards)
    ("leagues", "view_league"), ("leagues", "change_league"),
    ("leagues", "view_leaguemoderationlog"),
    ("games", "view_seat"), ("tables", "view_table"), ("tables", "view_tableseat"),
]


def _moderators_group() -> Group:
    group, _ = Group.objects.get_or_create(name=MODERATORS)
    group.permissions.set([Permission.objects.get(content_type__app_label=app, codename=code)
                           for app, code in PERMISSIONS])
    return group


def make_moderator(username: str, email: str, password: str) -> bool:
    """Create (or update) ``username`` as a staff user in the ``moderators`` group with this
    password; True if created. Raises ValidationError (a weak password), changing nothing."""
    with transaction.atomic():
        return players.make_staff_user(username, email, password, _moderators_group())


# --- Tallies ------------------------------------------------------------------------------------


class Tallies:
    """Changes to the tallies collected during one transaction and written in one sorted
    order, so that two transactions never take the same tally rows' locks in opposite orders
    (which PostgreSQL would break as a deadlock)."""

    def __init__(self) -> None:
        self.deltas: dict[tuple[str, int, int], int] = defaultdict(int)

    def add(self, board: str, contracts: int, penalty: int, delta: int) -> None:
        self.deltas[(board, contracts, penalty)] += delta

    def write(self) -> None:
        by_contracts: dict[tuple[str, int], int] = defaultdict(int)
        for (board, contracts, _penalty), delta in self.deltas.items():
            by_contracts[(board, contracts)] += delta
        for (board, contracts), delta in sorted(by_contracts.items()):
            if delta:
                _bump(ContractTally, delta, board=board, contracts=contracts)
        for (board, contracts, penalty), delta in sorted(self.deltas.items()):
            if delta:
                _bump(Tally, delta, board=board, contracts=contracts, penalty=penalty)
        self.deltas.clear()


def _bump(model: type[Model], delta: int, **key) -> None:
    row = model.objects.filter(**key)
    if row.update(entries=F("entries") + delta):
        return
    try:
        with transaction.atomic():
            model.objects.create(**key, entries=delta)
    except IntegrityError:  # another transaction created the row first
        row.update(entries=F("entries") + delta)
