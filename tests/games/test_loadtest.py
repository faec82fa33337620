import asyncio
import time

from games.management.commands.loadtest import Sampler, Stats


def measuring(seconds: float) -> Stats:
    stats = Stats()
    stats.begin(until=time.monotonic() + seconds)
    return stats


def test_an_answer_after_the_window_closes_is_timed_but_not_counted_in_the_rates():
    stats = measuring(60)
    stats.record("draw", 12.0)
    stats.window_end = time.monotonic() - 1  # the window has closed; this one was in flight
    stats.record("discard", 2500.0)
    assert stats.latencies_ms == {"draw": [12.0], "discard": [2500.0]}
    assert stats.answered_in_window == {"draw": 1}
    assert stats.requests == 2


def test_an_error_is_timed_but_not_counted_as_served():
    stats = measuring(60)
    stats.record("discard", 3.0, ok=False)
    stats.record("discard", 15.0)
    assert stats.latencies_ms == {"discard": [3.0, 15.0]}
    assert stats.answered_in_window == {"discard": 1}


def test_rates_are_answers_per_second_of_the_window():
    stats = measuring(60)
    stats.window_start, stats.window_end = 100.0, 130.0  # a 30 s window
    stats.answered_in_window.update({"draw": 30, "discard": 60, "get": 3})
    assert stats.rate("draw", "discard") == 3.0
    assert stats.rate() == 3.1


def test_nothing_is_recorded_outside_the_measurement():
    stats = Stats()
    stats.record("draw", 12.0)
    assert (stats.requests, stats.latencies_ms, dict(stats.answered_in_window)) == (0, {}, {})


def test_the_sampler_takes_the_cpu_when_the_window_closes():
    sampler = Sampler({"server": []}, None)
    sampler.begin()
    asyncio.run(sampler.run(until=time.monotonic()))
    assert set(sampler.cpu_in_window) == {"server", "load generator"}
