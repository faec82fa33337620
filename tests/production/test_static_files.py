"""Static files as production serves them (DEBUG=false: frontend.storage after collectstatic):
hashed names everywhere, ES module imports included, compressed copies, ten-year immutable
caching, and one favicon, the hashed icon the pages link."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.templatetags.static import static
from django.test import Client, override_settings

# collectstatic takes half a minute on a loaded host
pytestmark = [pytest.mark.django_db, pytest.mark.slow]

TEN_YEARS_S = 315360000


@pytest.fixture(scope="module")
def collected(tmp_path_factory):
    root = tmp_path_factory.mktemp("static")
    with override_settings(
            STATIC_ROOT=root, WHITENOISE_USE_FINDERS=False, WHITENOISE_AUTOREFRESH=False,
            STORAGES={"default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
                      "staticfiles": {"BACKEND": "frontend.storage.StaticFilesStorage"}}):
        call_command("collectstatic", "--noinput", verbosity=0)
        yield root


def test_pages_link_one_hashed_icon_and_it_is_cached_for_ten_years(collected):
    html = Client().get("/").content.decode()
    icons = re.findall(r'<link rel="icon" href="([^"]+)"', html)
    assert icons == [static("frontend/img/icon.svg")]
    assert re.fullmatch(r"/static/frontend/img/icon\.[0-9a-f]{12}\.svg", icons[0])

    response = Client().get(icons[0], headers={"accept-encoding": "gzip"})
    assert response.status_code == 200
    assert response["Content-Encoding"] == "gzip"
    assert response["Cache-Control"] == f"max-age={TEN_YEARS_S}, public, immutable"


def test_the_modules_import_each_other_by_hashed_name(collected):
    daily = next((collected / "frontend" / "js" / "daily").glob("today.*.js"))
    imports = re.findall(r'from "([^"]+)"', daily.read_text())
    assert imports and all(re.search(r"\.[0-9a-f]{12}\.js$", name) for name in imports)


def test_the_stylesheet_names_the_hashed_thai_fonts(collected):
    css = next((collected / "frontend" / "css").glob("ladder.*.css")).read_text()
    fonts = re.findall(r'url\("([^"]+\.woff2)"\)', css)
    assert len(fonts) == 2 and all(re.search(r"\.[0-9a-f]{12}\.woff2$", f) for f in fonts)
    assert "font-display: swap" in css and "unicode-range: U+0E01-0E5B" in css


def test_the_scripts_and_stylesheets_are_compressed_and_the_source_maps_are_not(collected):
    """Gzip and Brotli copies of our modules and stylesheets and the API docs' (WhiteNoise keeps
    a copy only where it saves 5 %: files under a kilobyte may have none); none of the source
    maps, which only a browser's developer tools fetch (docs/production.md)."""
    fetched = [path for pattern in ("frontend/js/**/*.js", "frontend/css/*.css", "ninja/*.js",
                                    "ninja/*.css")
               for path in collected.glob(pattern) if path.stat().st_size >= 1024]
    assert len(fetched) > 20
    for path in fetched:
        assert path.with_name(path.name + ".gz").exists(), path
        assert path.with_name(path.name + ".br").exists(), path
    maps = list(collected.glob("**/*.map"))
    assert maps and not [p for p in maps if p.with_name(p.name + ".br").exists()
                         or p.with_name(p.name + ".gz").exists()]
