"""The optional compiled build (games/build.py, games/engine/compiled.py): taken only while it
matches the sources, never shadowing an edited module, and playing every game as the plain
Python does."""

from __future__ import annotations

import fcntl
import importlib
import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import games.build
from games.build import MODULES
from games.engine import compiled

WORKER = compiled.REPOSITORY / "bench" / "compare_worker.py"


@pytest.fixture
def repository(tmp_path, monkeypatch):
    """A repository of two sources with a build made from them."""
    for name in ("games/engine/rules.py", "games/bots/outlook.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(f"# {name}\n")
    folder = tmp_path / "build" / "compiled"
    folder.mkdir(parents=True)
    manifest = folder / "manifest.json"
    manifest.write_text(json.dumps({
        "cache_tag": sys.implementation.cache_tag,
        "sources": {name: compiled.source_digest(tmp_path / name)
                    for name in ("games/engine/rules.py", "games/bots/outlook.py")}}))
    monkeypatch.setattr(compiled, "REPOSITORY", tmp_path)
    monkeypatch.setattr(compiled, "FOLDER", folder)
    monkeypatch.setattr(compiled, "MANIFEST", manifest)
    monkeypatch.delenv("LADDER_PURE_PYTHON", raising=False)
    return tmp_path


def test_a_build_that_matches_its_sources_is_found_first(repository):
    assert compiled.compiled_folder("games.engine") == [
        str(repository / "build" / "compiled" / "games" / "engine")]
    assert compiled.compiled_folder("games.bots") == [
        str(repository / "build" / "compiled" / "games" / "bots")]


def test_an_edited_source_runs_as_plain_python_and_says_so(repository):
    (repository / "games/bots/outlook.py").write_text("# edited\n")
    with pytest.warns(UserWarning, match=r"games\.bots runs as plain Python.*outlook\.py"):
        assert compiled.compiled_folder("games.bots") == []
    assert compiled.compiled_folder("games.engine") != []  # its sources did not change


def test_a_deleted_source_runs_as_plain_python(repository):
    (repository / "games/engine/rules.py").unlink()
    with pytest.warns(UserWarning, match="rules.py"):
        assert compiled.compiled_folder("games.engine") == []


def test_no_build_another_interpreter_or_the_switch_mean_plain_python(repository, monkeypatch):
    manifest = json.loads(compiled.MANIFEST.read_text())
    compiled.MANIFEST.write_text(json.dumps({**manifest, "cache_tag": "cpython-312"}))
    assert compiled.compiled_folder("games.engine") == []
    compiled.MANIFEST.write_text(json.dumps(manifest))
    monkeypatch.setenv("LADDER_PURE_PYTHON", "1")
    assert compiled.compiled_folder("games.engine") == []
    monkeypatch.delenv("LADDER_PURE_PYTHON")
    compiled.MANIFEST.unlink()
    assert compiled.compiled_folder("games.engine") == []


def test_an_unreadable_manifest_means_plain_python(repository):
    compiled.MANIFEST.write_text('{"sources": ')
    with pytest.warns(UserWarning, match="unreadable"):
        assert compiled.compiled_folder("games.engine") == []


def test_a_broken_or_older_manifest_asks_for_a_build(tmp_path, monkeypatch):
    manifest = tmp_path / "manifest.json"
    monkeypatch.setattr(games.build, "MANIFEST", manifest)
    assert not games.build.up_to_date()  # none
    for text in ('{"sources": ', '{"cache_tag": "cpython-311", "sources": {}}', "[]"):
        manifest.write_text(text)
        assert not games.build.up_to_date()


def _lock_is_free(path) -> bool:
    """Whether another process could take the build's lock now (a second open of the file is
    another holder to flock, as another process's would be)."""
    with open(path, "w") as other:
        try:
            fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        fcntl.flock(other, fcntl.LOCK_UN)
        return True


@pytest.mark.parametrize("argv", [[], ["--clean"]])
def test_two_builds_at_once_take_turns_on_the_lock(tmp_path, monkeypatch, argv):
    """Two ./dev at once: the check and the build (or the clean) hold the lock throughout, so
    a second run waits, then finds the first's build up to date instead of removing it."""
    lock = tmp_path / "build" / "compiled.lock"
    monkeypatch.setattr(games.build, "LOCK", lock)
    monkeypatch.setattr(games.build, "FOLDER", tmp_path / "build" / "compiled")
    monkeypatch.chdir(tmp_path)  # main() moves to the repository: put back afterwards
    monkeypatch.setattr(sys, "argv", ["games.build", *argv])
    free_while_working = []
    monkeypatch.setattr(games.build, "build_if_needed",
                        lambda force: free_while_working.append(_lock_is_free(lock)))
    monkeypatch.setattr(games.build.shutil, "rmtree",
                        lambda *args, **kwargs: free_while_working.append(_lock_is_free(lock)))
    games.build.main()
    assert free_while_working == [False]
    assert _lock_is_free(lock)  # and let go after


def uses_the_build() -> bool:
    return compiled.MANIFEST.exists() and not compiled.pure_python_asked()


def test_the_modules_come_from_where_they_should():
    """With a current build every compiled module is its extension; with none, its source."""
    suffix = ".py" if not uses_the_build() else sysconfig.get_config_var("EXT_SUFFIX")
    for name in MODULES:
        module = importlib.import_module(name.removesuffix(".py").replace("/", "."))
        assert module.__file__.endswith(suffix), module.__file__
        if uses_the_build():
            assert Path(module.__file__).is_relative_to(compiled.FOLDER)


def play(lineup: str, pure: bool) -> list[dict]:
    environment = {**os.environ, "PYTHONPATH": str(compiled.REPOSITORY)}
    environment.pop("LADDER_PURE_PYTHON", None)
    if pure:
        environment["LADDER_PURE_PYTHON"] = "1"
    run = subprocess.run([sys.executable, str(WORKER), str(compiled.REPOSITORY), "same-games",
                          lineup, "0", "2"], env=environment, capture_output=True, text=True,
                         check=True)
    return [json.loads(line) for line in run.stdout.splitlines()]


@pytest.mark.slow
@pytest.mark.skipif(not uses_the_build(), reason="no compiled build here (games/build.py)")
@pytest.mark.parametrize("lineup", ["normal,normal,normal,normal", "hard,normal,normal,normal",
                                    "easy,easy,easy,easy", "random,random,random,random"])
def test_the_build_plays_every_action_as_the_plain_python_does(lineup):
    compiled_games, plain_games = play(lineup, pure=False), play(lineup, pure=True)
    assert all(game["compiled"] for game in compiled_games)  # not a stale build's fallback
    assert not any(game["compiled"] for game in plain_games)
    assert [game["digest"] for game in compiled_games] == [game["digest"]
                                                          for game in plain_games]
    assert all(game["actions"] > 50 for game in compiled_games)
