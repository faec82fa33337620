from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from frontend import league_pages, views

app_name = "frontend"

urlpatterns = [
    path("", views.home, name="home"),
    path("play/<str:game_id>/", views.table, name="table"),
    path("daily/", views.daily, name="daily"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("rules/", views.rules, name="rules"),
    path("about/", views.about, name="about"),
    path("profile/", views.profile, name="profile"),
    path("leagues/", league_pages.leagues, name="leagues"),
    path("leagues/join/<str:code>/", league_pages.join, name="league_join"),
    path("leagues/<str:league_id>/", league_pages.league, name="league"),
    # The scripts' strings (djangojs domain) for the current language: gettext() in JS.
    path("jsi18n/", JavaScriptCatalog.as_view(packages=["frontend"]), name="jsi18n"),
    path("i18n/", include("django.conf.urls.i18n")),  # set_language
]
