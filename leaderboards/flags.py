"""Automatic flags: scores a moderator should look at (DESIGN §8). A flag never hides a score
by itself; it puts it in the admin's "needs review" list.

``too_fast``
    The person's actions came faster than :data:`MIN_SECONDS_PER_ACTION` on average, from the
    game's start to its end. A quick person needs well over a second per draw or discard
    (read the hand, choose, click); a script does not.
``shared_address``
    :data:`MANY_IDENTITIES_PER_ADDRESS` or more identities played the same daily from one
    client address (compared through the day's keyed hash, games.daily.address_hash). Every
    score of that address and day is flagged once the threshold is reached. A school or an
    office behind one address trips it too, which is why it is a flag and not a ban.
"""

from __future__ import annotations

from games.models import Game, GameAction
from leaderboards.models import Score

MIN_SECONDS_PER_ACTION = 0.5
MANY_IDENTITIES_PER_ADDRESS = 5
PERSON_SEAT = 0


def person_actions(game: Game) -> int:
    return GameAction.objects.filter(game=game, seat=PERSON_SEAT).count()


def flags_for(score: Score, game: Game) -> list[str]:
    """The flags of a score being recorded."""
    flags = []
    if score.play_seconds < score.person_actions * MIN_SECONDS_PER_ACTION:
        flags.append(Score.TOO_FAST)
    if game.address_hash and _identities_from(game) >= MANY_IDENTITIES_PER_ADDRESS:
        flags.append(Score.SHARED_ADDRESS)
    return flags


def _identities_from(game: Game) -> int:
    return (Game.objects.filter(daily_id=game.daily_id, address_hash=game.address_hash)
            .values("owner_id").distinct().count())
