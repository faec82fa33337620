"""WSGI entry point (HTTP only; websockets need the ASGI app in ladder/asgi.py)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ladder.settings")

application = get_wsgi_application()
