from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    """Friend leagues: private daily boards joined from a link or a short code (issue 31)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "leagues"

    def ready(self) -> None:
        from leagues import receivers  # noqa: F401  (connects the game_finished receiver)
