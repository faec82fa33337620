"""Signals the leaderboards send; friend leagues listen (the leaderboards never import them:
docs/design.md, "Dependencies").

``scores_relisted(sender=Score, player_ids=[...])`` is sent inside a moderation's transaction
after some of these players' scores went off the boards or back on (a hide, a restore, a ban,
an unban): a league's all-time tallies that counted them are dropped with it.
"""

from django.dispatch import Signal

scores_relisted = Signal()
