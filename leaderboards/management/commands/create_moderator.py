"""``python manage.py create_moderator NAME``: a staff account that can moderate, and nothing
more.

Creates (or updates) the user NAME as staff in the ``moderators`` group, which may view
players, games, daily deals, scores, linked attempts and the moderation log, and change
players, scores and linked attempts (the admin's logged actions need "change"). The
password comes from the ``MODERATOR_PASSWORD`` environment variable, or is asked for. The
very first administrator can instead be made with Django's own ``createsuperuser``.
"""

from __future__ import annotations

import getpass
import os

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from leaderboards import services


class Command(BaseCommand):
    help = "Create or update a staff user in the 'moderators' group."

    def add_arguments(self, parser) -> None:
        parser.add_argument("username")
        parser.add_argument("--email", default="")

    def handle(self, *args, username: str, email: str, **options) -> None:
        password = os.environ.get("MODERATOR_PASSWORD") or self._ask_password()
        try:
            created = services.make_moderator(username, email, password)
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from None
        verb = "Created" if created else "Updated"
        self.stdout.write(self.style.SUCCESS(f"{verb} moderator {username}: log in at /admin/"))

    def _ask_password(self) -> str:
        try:
            first = getpass.getpass("Password: ")
            second = getpass.getpass("Password (again): ")
        except EOFError:
            raise CommandError("No password: set MODERATOR_PASSWORD or run interactively.") \
                from None
        if first != second:
            raise CommandError("The passwords differ.")
        return first
