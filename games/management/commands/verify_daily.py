"""``python manage.py verify_daily --seed S --commitment C``: check a revealed daily (R24, R26).

Recomputes ``sha256(seed)`` and compares it with the commitment published while the day ran,
then re-deals the day's ten deals from the seed alone and prints each deal's dealer, upcard
(the first card of the discard pile) and the four hands, seat 0 being the person. Every
player of that day was dealt exactly these cards.

Only the rules engine is used (no database, no network): the shuffle is the documented one
in ``games/engine/rng.py`` (SHA-256 derived keys, a counter-mode SHA-256 stream,
Fisher-Yates), so the same check can be written in any language. ``--date D`` reads a
revealed seed and its commitment from this server's database instead.

Exits with status 1 (``MISMATCH``) when the seed does not match the commitment.
"""

from __future__ import annotations

from datetime import date

from django.core.management.base import BaseCommand, CommandError

from games.engine.cards import card_id
from games.engine.redeal import ten_deals
from games.players.models import sha256_hex


def deals_of(seed: str) -> list[dict]:
    """The ten deals of ``seed``: for each, its number, dealer, upcard and the four hands."""
    return [{"deal": d.deal, "dealer": d.dealer, "upcard": card_id(d.discard_top),
             "hands": [[card_id(c) for c in hand] for hand in d.hands]}
            for d in ten_deals(seed)]


class Command(BaseCommand):
    help = "Check a revealed daily seed against its commitment and print the deals it makes."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser) -> None:
        parser.add_argument("--seed", help="the revealed seed (GET /api/v1/daily/{date})")
        parser.add_argument("--commitment", help="the published sha256(seed), hex")
        parser.add_argument("--date", type=date.fromisoformat,
                            help="read a revealed day's seed and commitment from the database")

    def handle(self, *args, seed=None, commitment=None, date=None, **options) -> None:
        if date is not None:
            seed, commitment = self._from_database(date)
        if not seed:
            raise CommandError("Give --seed (and --commitment), or --date.")
        computed = sha256_hex(seed)
        self.stdout.write(f"seed        {seed}")
        self.stdout.write(f"sha256      {computed}")
        if commitment:
            self.stdout.write(f"commitment  {commitment.strip().lower()}")
        for deal in deals_of(seed):
            self.stdout.write(f"\ndeal {deal['deal']:>2}  dealer seat {deal['dealer']}  "
                              f"upcard {deal['upcard']}")
            for seat, hand in enumerate(deal["hands"]):
                self.stdout.write(f"  seat {seat}  {' '.join(hand)}")
        if not commitment:
            self.stdout.write("\nno commitment given: nothing to check")
            return
        if computed != commitment.strip().lower():
            self.stdout.write("\nMISMATCH: sha256(seed) is not the commitment")
            raise CommandError("MISMATCH")
        self.stdout.write(self.style.SUCCESS("\nOK: sha256(seed) equals the commitment"))

    def _from_database(self, day: date) -> tuple[str, str]:
        from games import daily
        from games.models import DailyDeal

        deal = DailyDeal.objects.filter(date=day).first()
        if deal is None:
            raise CommandError(f"No daily on {day}.")
        seed = daily.revealed_seed(deal)
        if seed is None:
            raise CommandError(f"The daily of {day} is still running: its seed is secret.")
        return seed, deal.commitment
