"""Signals the leaderboards send; friend leagues listen (the leaderboards never import them:
docs/design.md, "Dependencies").

``scores_relisted(sender=Score, player_ids=[...], days=[...])`` is sent inside a moderation's
transaction after some of these players' scores of these days went off the boards or back on
(a hide, a restore, a ban, an unban): a league's all-time tallies that count them are marked
for a recount with it.
"""

from django.dispatch import Signal

scores_relisted = Signal()
