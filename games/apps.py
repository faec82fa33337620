from django.apps import AppConfig


class GamesConfig(AppConfig):
    """Games: persistence, services, API and websockets around the pure engine."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
