"""Races for the PostgreSQL tests (SQLite has no row locks): calls released together."""

from __future__ import annotations

import threading

from django.db import connections


def at_once(*calls, refused: type[Exception]) -> list:
    """Run the calls in threads released together; their results, or the ``refused``
    exception each raised."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait()
            results[index] = call()
        except refused as refusal:
            results[index] = refusal
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results
