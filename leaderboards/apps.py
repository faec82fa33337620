from django.apps import AppConfig


class LeaderboardsConfig(AppConfig):
    """Leaderboards: scores of finished ranked games, rankings and moderation."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "leaderboards"

    def ready(self) -> None:
        from leaderboards import receivers  # noqa: F401  (connects the game_finished receiver)
