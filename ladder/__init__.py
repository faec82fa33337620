"""The Django project: settings, URLs, ASGI/WSGI entry points, the Celery app, the API root."""

from .celery import app as celery_app

__all__ = ["celery_app"]
