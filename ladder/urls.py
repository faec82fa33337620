"""URL routes: the API under /api/v1/, Django admin at /admin/, the pages at /."""

from django.contrib import admin
from django.urls import include, path

from ladder.api import api

urlpatterns = [
    path("api/v1/", api.urls),
    path("admin/", admin.site.urls),
    path("", include("frontend.urls")),
]

handler404 = "ladder.views.not_found"
handler500 = "ladder.views.server_error"
