from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    """Friend leagues: private daily boards joined from a link or a short code (issue 31)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "leaderboards.leagues"
    label = "leagues"  # its tables, migrations and permissions keep the name they were made with

    def ready(self) -> None:
        from leaderboards.leagues import receivers  # noqa: F401  (connects the game_finished receiver)
