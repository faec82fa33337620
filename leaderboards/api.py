"""The leaderboards' HTTP endpoints, mounted at /api/v1/leaderboards/."""

from ninja import Router

router = Router(tags=["leaderboards"])
