from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "games.tables"
    label = "tables"
    verbose_name = "Tables for friends"

    def ready(self) -> None:
        from games.tables import receivers  # noqa: F401  (connects the game_finished and player_renamed receivers)
