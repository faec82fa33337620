from django.apps import AppConfig


class FrontendConfig(AppConfig):
    """The pages: each renders a shell; the data comes from the API."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "frontend"
