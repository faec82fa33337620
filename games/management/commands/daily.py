"""``python manage.py daily prepare|close|show``: the daily's jobs by hand.

- ``prepare``: create today's and tomorrow's deals if missing (what beat does hourly);
- ``close``: reveal ended days and expire their unfinished dailies (beat, hourly);
- ``show [--date D]``: a day's commitment, attempts, and the seed if the day has ended.
"""

from __future__ import annotations

from datetime import date

from django.core.management.base import BaseCommand, CommandError

from games import daily
from games.models import DailyDeal, Game
from games.services.daily import close_ended_days, prepare_deals


class Command(BaseCommand):
    help = "Prepare, close or show the daily deals."

    def add_arguments(self, parser) -> None:
        parser.add_argument("job", choices=["prepare", "close", "show"])
        parser.add_argument("--date", type=date.fromisoformat, help="for show (default today)")

    def handle(self, *args, job: str, date=None, **options) -> None:
        if job == "prepare":
            created = prepare_deals()
            self.stdout.write(f"created: {', '.join(d.isoformat() for d in created) or 'none'}")
        elif job == "close":
            counts = close_ended_days()
            self.stdout.write(f"revealed {counts['revealed']} day(s), "
                              f"expired {counts['expired']} unfinished daily game(s)")
        else:
            self._show(date or daily.today())

    def _show(self, day: date) -> None:
        deal = DailyDeal.objects.filter(date=day).first()
        if deal is None:
            raise CommandError(f"No daily on {day}.")
        games = Game.objects.filter(daily=deal)
        self.stdout.write(f"date        {deal.date}")
        self.stdout.write(f"commitment  {deal.commitment}")
        seed = daily.revealed_seed(deal) or "(secret until the day ends)"
        self.stdout.write(f"seed        {seed}")
        for status, _ in Game.STATUSES:
            self.stdout.write(f"{status:<11} {games.filter(status=status).count()}")
