# The snapshot and the log written and read by orjson (games.models.OrjsonEncoder): the
# same JSON in the same columns, nothing to migrate but the fields' options.

from django.db import migrations, models

import games.models


def orjson_field():
    return models.JSONField(decoder=games.models.OrjsonDecoder,
                            encoder=games.models.OrjsonEncoder)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0008_turn_timers"),
    ]

    operations = [
        migrations.AlterField(model_name="game", name="state", field=orjson_field()),
        migrations.AlterField(model_name="gameaction", name="action", field=orjson_field()),
    ]
