"""Join codes of 12 characters (60 bits) instead of 8 (issue 42): every league gets a new one,
as if its creator had asked for it (the old code and link stop working; members stay)."""

import secrets

from django.db import migrations, models
from django.utils import timezone

import leaderboards.leagues.models

CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # models.CODE_ALPHABET, as of this migration
CODE_CHARS = 12


def new_codes(apps, schema_editor):
    League = apps.get_model("leagues", "League")
    taken = set()
    for league in League.objects.only("pk").iterator():
        code = None
        while code is None or code in taken:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_CHARS))
        taken.add(code)
        League.objects.filter(pk=league.pk).update(code=code, code_changed_at=timezone.now())


class Migration(migrations.Migration):

    dependencies = [
        ("leagues", "0002_member_tallies"),
    ]

    operations = [
        migrations.AlterField(
            model_name="league",
            name="code",
            field=models.CharField(default=leaderboards.leagues.models.new_code, max_length=12,
                                   unique=True),
        ),
        migrations.RunPython(new_codes, migrations.RunPython.noop),
    ]
