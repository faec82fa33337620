"""The Celery app. Settings prefixed ``CELERY_`` configure it (see ladder/settings.py).

Without ``REDIS_URL`` tasks run eagerly in the calling process; with it, run
``celery -A ladder worker`` and ``celery -A ladder beat``.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ladder.settings")

app = Celery("ladder")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
