from django.apps import AppConfig


class GamesConfig(AppConfig):
    """Games: persistence, services, API and websockets around the pure engine."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        from games import receivers  # noqa: F401  (connects the game_finished receiver)
