import time

from games.management.commands.loadtest import Stats


def test_an_answer_after_the_window_closes_is_timed_but_not_counted_in_the_rates():
    stats = Stats(measuring=True, window_end=time.monotonic() + 60)
    stats.record("draw", 12.0)
    stats.window_end = time.monotonic() - 1  # the window has closed; this one was in flight
    stats.record("discard", 2500.0)
    assert stats.latencies_ms == {"draw": [12.0], "discard": [2500.0]}
    assert stats.answered_in_window == {"draw": 1}
    assert stats.requests == 2


def test_nothing_is_recorded_outside_the_measurement():
    stats = Stats()
    stats.record("draw", 12.0)
    assert (stats.requests, stats.latencies_ms, dict(stats.answered_in_window)) == (0, {}, {})
