"""The benchmarks' arithmetic: percentiles of samples, a measuring window of timed requests,
and CPU seconds of processes.

Every figure the bench scripts print goes through here, so a p99 means the same in each.
"""

from __future__ import annotations

import contextlib
import math
import os
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")


def percentile(values: Sequence[float], p: float) -> float:
    """The nearest-rank ``p``-th percentile (NaN for no values): a value that was measured."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = math.ceil(p * len(ordered) / 100)
    return ordered[min(len(ordered) - 1, max(0, rank - 1))]


def ms_line(samples: Sequence[float]) -> str:
    """p50, p99 and max of samples in seconds, as milliseconds on one line."""
    return (f"p50 {percentile(samples, 50) * 1000:7.3f} ms   "
            f"p99 {percentile(samples, 99) * 1000:7.3f} ms   "
            f"max {max(samples) * 1000:7.3f} ms   (n={len(samples)})")


def summary(values: Sequence[float]) -> dict[str, float]:
    """Count, p50, p95, p99 and max of samples (in their own unit)."""
    return {"n": len(values), "p50": percentile(values, 50), "p95": percentile(values, 95),
            "p99": percentile(values, 99), "max": max(values, default=float("nan"))}


def fastest(call: Callable, *args, repeats: int = 3) -> float:
    """Seconds of the fastest of a few calls: on a shared machine a single run is often
    stretched by another process taking the core, which says nothing about the code."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        call(*args)
        best = min(best, time.perf_counter() - start)
    return best


def timings(call: Callable, repeats: int) -> list[float]:
    """Seconds of each of ``repeats`` calls."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return times


@dataclass
class Window:
    """Requests timed in a measuring window, by kind. Every answer while measuring gives a
    latency, those in flight when the window closes too (dropping them would drop the
    slowest); the rates count the answers inside it."""

    measuring: bool = False
    window_start: float = 0.0  # time.monotonic(), set when measuring begins
    window_end: float = math.inf
    latencies_ms: dict[str, list[float]] = field(default_factory=dict)
    answered_in_window: Counter = field(default_factory=Counter)  # by kind
    requests: int = 0
    errors: Counter = field(default_factory=Counter)
    games_finished: int = 0
    frames: int = 0

    def begin(self, until: float) -> None:
        self.measuring, self.window_start, self.window_end = True, time.monotonic(), until

    def record(self, kind: str, ms: float, ok: bool = True) -> None:
        if self.measuring:
            self.requests += 1
            self.latencies_ms.setdefault(kind, []).append(ms)
            if ok and time.monotonic() <= self.window_end:
                self.answered_in_window[kind] += 1

    def rate(self, *kinds: str) -> float:
        """Successful answers per second of the window, of these kinds (all: none named)."""
        answered = self.answered_in_window
        count = sum(answered[k] for k in kinds) if kinds else sum(answered.values())
        return count / (self.window_end - self.window_start)

    def error(self, kind: str) -> None:
        if self.measuring:
            self.errors[kind] += 1


# --- Processes (Linux /proc) -------------------------------------------------------------------


def _stat(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def cpu_seconds(pid: int, with_children: bool = False) -> float:
    """User + system CPU of a process (and, optionally, of its children that have exited)."""
    fields = _stat(pid)
    ticks = int(fields[11]) + int(fields[12])
    if with_children:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / CLOCK_TICKS


def rss_mib(pid: int) -> float:
    return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE_BYTES / 2**20


def children_of(parent: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                if int(_stat(int(entry.name))[1]) == parent:
                    found.append(int(entry.name))
    return found


class ProcessGroup:
    """Processes whose CPU is counted together; ``tree=True`` adds a parent's children, those
    alive and those exited meanwhile (a PostgreSQL postmaster and its backends)."""

    def __init__(self, pids: Sequence[int], tree: bool = False):
        self.roots, self.tree = list(pids), tree

    def pids(self) -> list[int]:
        if not self.tree:
            return list(self.roots)
        return [p for root in self.roots for p in (root, *children_of(root))]

    def cpu(self) -> float:
        total = 0.0
        for root in self.roots:
            with contextlib.suppress(OSError):
                total += cpu_seconds(root, with_children=self.tree)
            for child in children_of(root) if self.tree else ():
                with contextlib.suppress(OSError):
                    total += cpu_seconds(child)
        return total

    def rss(self) -> float:
        total = 0.0
        for pid in self.pids():
            with contextlib.suppress(OSError):
                total += rss_mib(pid)
        return total
