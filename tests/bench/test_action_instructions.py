"""bench.action_instructions: the counted runs, and the profiles kept on request."""

from __future__ import annotations

import subprocess

from bench import action_instructions


def _count_with(monkeypatch, profile):
    calls = []

    def run(command, **kwargs):
        calls.append(command)
        return subprocess.CompletedProcess(command, 0, stdout="digest\n",
                                           stderr="==1== Collected : 1234\n")

    monkeypatch.setattr(action_instructions.subprocess, "run", run)
    monkeypatch.setattr(action_instructions, "psql", lambda statement: None)
    assert action_instructions.count(5, 20, 0, profile) == (1234, "digest")
    return next(c for c in calls if c[0] == "valgrind")


def test_a_count_keeps_no_profile_unless_asked(monkeypatch):
    assert "--callgrind-out-file=/dev/null" in _count_with(monkeypatch, None)


def test_a_count_keeps_its_callgrind_file_where_asked(monkeypatch, tmp_path):
    profile = str(tmp_path / "action.total")
    assert f"--callgrind-out-file={profile}" in _count_with(monkeypatch, profile)
