# Turn timers (a game's deadline and its seats' timeouts), the snapshot and the log written
# and read by orjson (games.models.OrjsonEncoder: the same JSON in the same columns, nothing
# to migrate but the fields' options) and the post-game analysis, in one migration: the three
# were made in one stop and never released apart.
import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models

import games.models


def orjson_field():
    return models.JSONField(decoder=games.models.OrjsonDecoder,
                            encoder=games.models.OrjsonEncoder)


class Migration(migrations.Migration):
    # A database that applied the three as they first were counts this one as applied.
    replaces = [("games", "0008_turn_timers"), ("games", "0009_snapshot_orjson"),
                ("games", "0010_analysis")]
    dependencies = [("games", "0007_seat_left_at")]

    operations = [
        migrations.AddField(model_name="game", name="turn_deadline",
                            field=models.DateTimeField(blank=True, null=True)),
        migrations.AddField(model_name="game", name="turn_seconds",
                            field=models.PositiveSmallIntegerField(blank=True, null=True)),
        migrations.AddField(model_name="seat", name="timeouts",
                            field=models.PositiveSmallIntegerField(db_default=0, default=0)),
        migrations.AddIndex(model_name="game", index=models.Index(
            condition=models.Q(("turn_deadline__isnull", False)), fields=["turn_deadline"],
            name="games_turn_deadline")),
        migrations.AlterField(model_name="game", name="state", field=orjson_field()),
        migrations.AlterField(model_name="gameaction", name="action", field=orjson_field()),
        migrations.CreateModel(
            name="Analysis",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False,
                                           verbose_name="ID")),
                ("seat", models.PositiveSmallIntegerField()),
                ("failed", models.BooleanField(default=False)),
                ("data", models.JSONField(default=dict)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("game", models.ForeignKey(
                    db_index=False, on_delete=django.db.models.deletion.CASCADE,
                    related_name="analyses", to="games.game")),
            ],
            options={"constraints": [models.UniqueConstraint(
                fields=("game", "seat"), name="games_analysis_one_per_seat")]},
        ),
    ]
