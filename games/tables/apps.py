from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "games.tables"
    label = "tables"
    verbose_name = "Tables for friends"
