from django.urls import include, path, re_path
from django.views.decorators.gzip import gzip_page
from django.views.i18n import JavaScriptCatalog

from frontend import league_pages, table_pages, views

app_name = "frontend"

urlpatterns = [
    path("", views.home, name="home"),
    path("play/<str:game_id>/", views.table, name="table"),
    path("games/", views.my_games, name="games"),
    path("replay/<str:game_id>/", views.replay, name="replay"),
    path("daily/", views.daily, name="daily"),
    re_path(r"^daily/(?P<day>[0-9]{4}-[0-9]{2}-[0-9]{2})/$", views.daily_day, name="daily_day"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    re_path(r"^players/(?P<player_id>[A-Za-z0-9_-]{1,32})/$", views.player, name="player"),
    path("rules/", views.rules, name="rules"),
    path("about/", views.about, name="about"),
    path("profile/", views.profile, name="profile"),
    path("leagues/", league_pages.leagues, name="leagues"),
    path("leagues/join/<str:code>/", league_pages.join, name="league_join"),
    path("leagues/<str:league_id>/", league_pages.league, name="league"),
    path("tables/join/<str:code>/", table_pages.join, name="table_join"),
    re_path(r"^tables/(?P<table_id>[A-Za-z0-9_-]{1,32})/$", table_pages.lobby,
            name="table_lobby"),
    # The scripts' strings (djangojs domain) for the current language: gettext() in JS.
    # Compressed: the Thai catalogue is some 60 KB of text, and holds nothing secret (BREACH).
    path("jsi18n/", gzip_page(JavaScriptCatalog.as_view(packages=["frontend"])), name="jsi18n"),
    path("i18n/", include("django.conf.urls.i18n")),  # set_language
]
