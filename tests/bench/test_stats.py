"""bench/stats.py: the one place the benchmarks' figures are computed."""

import os
import time

import pytest

from bench.stats import ProcessGroup, Window, cpu_seconds, percentile, summary


def test_percentiles_are_nearest_rank_so_each_is_a_measured_value():
    values = list(range(100, 0, -1))  # unsorted on purpose
    assert percentile(values, 50) == 50
    assert percentile(values, 99) == 99
    assert percentile(values, 100) == 100
    assert percentile([7.5], 99) == 7.5


def test_the_percentile_of_no_values_is_not_a_number():
    assert percentile([], 50) != percentile([], 50)  # NaN


def test_a_summary_gives_count_median_tail_and_maximum():
    assert summary([1.0, 2.0, 3.0, 4.0]) == {"n": 4, "p50": 2.0, "p95": 4.0, "p99": 4.0,
                                             "max": 4.0}


def test_the_cpu_seconds_of_a_process_grow_while_it_works():
    before = cpu_seconds(os.getpid())
    deadline = time.process_time() + 0.1
    while time.process_time() < deadline:
        pass
    assert cpu_seconds(os.getpid()) - before == pytest.approx(0.1, abs=0.05)
    assert ProcessGroup([os.getpid()]).cpu() >= before + 0.05


def measuring(seconds: float) -> Window:
    window = Window()
    window.begin(until=time.monotonic() + seconds)
    return window


def test_an_answer_after_the_window_closes_is_timed_but_not_counted_in_the_rates():
    window = measuring(60)
    window.record("draw", 12.0)
    window.window_end = time.monotonic() - 1  # the window has closed; this one was in flight
    window.record("discard", 2500.0)
    assert window.latencies_ms == {"draw": [12.0], "discard": [2500.0]}
    assert window.answered_in_window == {"draw": 1}
    assert window.requests == 2


def test_an_error_is_timed_but_not_counted_as_served():
    window = measuring(60)
    window.record("discard", 3.0, ok=False)
    window.record("discard", 15.0)
    assert window.latencies_ms == {"discard": [3.0, 15.0]}
    assert window.answered_in_window == {"discard": 1}


def test_rates_are_answers_per_second_of_the_window():
    window = measuring(60)
    window.window_start, window.window_end = 100.0, 130.0  # a 30 s window
    window.answered_in_window.update({"draw": 30, "discard": 60, "get": 3})
    assert window.rate("draw", "discard") == 3.0
    assert window.rate() == 3.1


def test_nothing_is_recorded_outside_the_measurement():
    window = Window()
    window.record("draw", 12.0)
    window.error("draw: HTTP 500")
    assert (window.requests, window.latencies_ms, dict(window.errors)) == (0, {}, {})
