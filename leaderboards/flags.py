"""Automatic flags: scores a moderator should look at (README, "How to play": moderation).
A flag never hides a score by itself; it puts it in the admin's "needs review" list.

``too_fast``
    The person's actions came faster than :data:`MIN_SECONDS_PER_ACTION` on average, from the
    game's start to its end. A quick person needs well over a second per draw or discard
    (read the hand, choose, click); a script does not.
``shared_address``
    :data:`MANY_IDENTITIES_PER_ADDRESS` or more identities played the same daily from one
    client address (compared through the day's keyed hash, games.daily.address_hash). Every
    score of that address and day is flagged once the threshold is reached. A school or an
    office behind one address trips it too, which is why it is a flag and not a ban.
``linked_attempt``
    Scouting (R26: one deal for all, so a throwaway identity could learn the day's
    cards and the bots' replies for the ranked attempt of another): when an identity starts
    the daily from the same client address or the same browser (its device cookie,
    games.players.identity) as another identity's attempt of that day, an
    :class:`~leaderboards.models.AttemptLink` joins the two and both are flagged, whether or
    not they finish. Until a moderator resolves the link, the day's board marks both entries.
    Starting the attempt is the moment that counts: a scout need not finish its game.
"""

from __future__ import annotations

from django.db.models import Q

from games.models import SOLO_SEAT, Game, GameAction
from leaderboards.models import AttemptLink, Score

MIN_SECONDS_PER_ACTION = 0.5
MANY_IDENTITIES_PER_ADDRESS = 5


def person_actions(game: Game) -> int:
    """The person's actions in a daily (played alone, at SOLO_SEAT)."""
    return GameAction.objects.filter(game=game, seat=SOLO_SEAT).count()


def flags_for(score: Score, game: Game) -> list[str]:
    """The flags of a score being recorded."""
    flags = []
    if score.play_seconds < score.person_actions * MIN_SECONDS_PER_ACTION:
        flags.append(Score.TOO_FAST)
    if game.address_hash and _identities_from(game) >= MANY_IDENTITIES_PER_ADDRESS:
        flags.append(Score.SHARED_ADDRESS)
    if AttemptLink.objects.unresolved().touching([game.pk]).exists():
        flags.append(Score.LINKED)
    return flags


def attempts_sharing_with(game: Game) -> list[tuple[Game, bool, bool]]:
    """Other identities' attempts at ``game``'s daily from its address or its browser, each
    with (same address, same browser)."""
    same = Q()
    if game.address_hash:
        same |= Q(address_hash=game.address_hash)
    if game.device_hash:
        same |= Q(device_hash=game.device_hash)
    if not same:
        return []
    others = (Game.objects.filter(same, daily_id=game.daily_id).exclude(owner_id=game.owner_id)
              .only("id", "address_hash", "device_hash", "created_at").order_by("id"))
    return [(other, bool(game.address_hash) and other.address_hash == game.address_hash,
             bool(game.device_hash) and other.device_hash == game.device_hash)
            for other in others]


def _identities_from(game: Game) -> int:
    return (Game.objects.filter(daily_id=game.daily_id, address_hash=game.address_hash)
            .values("owner_id").distinct().count())
