"""The games' HTTP endpoints (players, me, games, actions, daily), mounted at /api/v1/.

Thin: validate input, call games.services, shape the response.
"""

from ninja import Router

router = Router(tags=["games"])
