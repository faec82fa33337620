"""``celery -A ladder beat`` with every scheduled task on a short interval, for the smoke test.

The production schedule (``CELERY_BEAT_SCHEDULE`` in ladder/settings.py) runs the daily's
tasks hourly; a smoke test cannot wait for that. This runs the same beat, the same task
names, the same broker and worker, only every ``BEAT_EVERY_S`` seconds (default 2).
Arguments go to ``celery beat``.
"""

import os
import sys
from datetime import timedelta

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ladder.settings")

from ladder.celery import app  # noqa: E402

every = timedelta(seconds=float(os.environ.get("BEAT_EVERY_S", "2")))
app.conf.beat_schedule = {name: {**entry, "schedule": every}
                          for name, entry in app.conf.beat_schedule.items()}

if __name__ == "__main__":
    app.start(["beat", *sys.argv[1:]])
