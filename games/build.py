"""Compile the hot modules of the engine and the bots with Cython: an optional build step.

The sources stay plain Python and are not changed: Cython compiles each ``.py`` as it is
(annotations ignored, so every value keeps its Python type and every sum its order, and no
decision can change), into ``build/compiled/``, and records each source's SHA-256 in
``build/compiled/manifest.json``. ``games.engine.compiled`` takes the build only while those
digests match the files on disk, so an edited module runs as plain Python until the next build.
``./dev`` runs this after setting up ``.venv``; it is quick when nothing changed. Without a C
compiler or the Python headers it says so and the game runs as plain Python. Two runs at once
(two ``./dev`` in two terminals) take turns: the check and the build hold an exclusive lock on
``build/compiled.lock``, so the second finds the first's build up to date instead of removing it
half made. It lives beside the games it compiles, an entry point of its own like the
management commands; the loader it writes for is ``games/engine/compiled.py``, which must stay
standard library only, as the engine does.

What it adds beyond the Python work (docs/bots.md, "The compiled build"), on a clean tree:
``.venv/bin/python -m bench.compare --against HEAD`` (the other tree has no build).

    .venv/bin/python -m games.build           # build if a source changed
    .venv/bin/python -m games.build --force   # build anyway
    .venv/bin/python -m games.build --clean   # remove the build
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import shutil
import sys
import sysconfig
import tempfile
import warnings
from contextlib import contextmanager
from pathlib import Path

with warnings.catch_warnings():  # "runs as plain Python: rebuild" is what this module does
    warnings.simplefilter("ignore")
    from games.engine.compiled import FOLDER, MANIFEST, REPOSITORY, source_digest

# Where a game's CPU goes (docs/bots.md): the bots' plans and memory, the engine's rules,
# melds, legal moves, states and views. The rest (the arena, the advice, the yardstick, the
# errors, the redeal check, this loader) runs outside the games' hot loops.
MODULES = (
    "games/engine/actions.py",
    "games/engine/cards.py",
    "games/engine/contracts.py",
    "games/engine/events.py",
    "games/engine/legal.py",
    "games/engine/melds.py",
    "games/engine/rng.py",
    "games/engine/rules.py",
    "games/engine/state.py",
    "games/engine/view.py",
    "games/bots/baseline.py",
    "games/bots/determinize.py",
    "games/bots/easy.py",
    "games/bots/hard.py",
    "games/bots/memo.py",
    "games/bots/memory.py",
    "games/bots/normal.py",
    "games/bots/outlook.py",
    "games/bots/standings.py",
    "games/bots/tactics.py",
)

DIRECTIVES = {
    "language_level": 3,
    "annotation_typing": False,  # a `float` annotation would make a C double, `list` exact
    "binding": True,  # functions introspect and compare as Python's do
}


def recipe() -> str:
    """What else makes the build: this file (modules, directives, flags) and Cython's version."""
    from Cython import __version__

    return f"{source_digest(Path(__file__))} cython {__version__}"


def wanted() -> dict[str, str]:
    return {name: source_digest(REPOSITORY / name) for name in MODULES}


def up_to_date() -> bool:
    try:
        manifest = json.loads(MANIFEST.read_text())
        return (manifest["cache_tag"] == sys.implementation.cache_tag
                and manifest["recipe"] == recipe() and manifest["sources"] == wanted())
    except (OSError, ValueError, KeyError, TypeError, ImportError):  # none, half written, an
        return False  # older form, or no Cython (then the build says why)


def build() -> None:
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension
    from setuptools.command.build_ext import build_ext

    shutil.rmtree(FOLDER, ignore_errors=True)
    with tempfile.TemporaryDirectory() as scratch:
        # The sources as hashed are what is compiled: copies, so that an edit during the build
        # cannot slip into it unrecorded.
        for name in MODULES:
            (Path(scratch) / "src" / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(name, Path(scratch) / "src" / name)
            for package in (Path(name).parent, Path(name).parent.parent):
                (Path(scratch) / "src" / package / "__init__.py").touch()
        sources = {name: source_digest(Path(scratch) / "src" / name) for name in MODULES}
        os.chdir(Path(scratch) / "src")  # module names from the folders, as in the repository
        # No fused multiply-add and no fast-math, whatever CFLAGS say: Cython's helpers do
        # float arithmetic in C, and a contracted a * b + c would round once, not twice.
        extensions = [Extension(name.removesuffix(".py").replace("/", "."), [name],
                                extra_compile_args=["-ffp-contract=off", "-fno-fast-math",
                                                    "-O3"])
                      for name in MODULES]
        distribution = Distribution({"name": "ladder-compiled", "ext_modules": cythonize(
            extensions, compiler_directives=DIRECTIVES, build_dir=f"{scratch}/c", quiet=True,
            nthreads=2)})
        command = build_ext(distribution)
        command.build_lib, command.build_temp, command.parallel = str(FOLDER), scratch, 2
        command.ensure_finalized()
        command.run()
        os.chdir(REPOSITORY)
    written = MANIFEST.with_suffix(".tmp")  # whole or not at all: the loader reads it
    written.write_text(json.dumps({"cache_tag": sys.implementation.cache_tag,
                                   "recipe": recipe(), "sources": sources}, indent=1) + "\n")
    os.replace(written, MANIFEST)


LOCK = FOLDER.with_name("compiled.lock")  # beside the build: the build removes its own folder


@contextmanager
def locked():
    """The build to ourselves: another process's check or build waits until this one ends."""
    LOCK.parent.mkdir(parents=True, exist_ok=True)
    with open(LOCK, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, or the process dies
        yield


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--force", action="store_true", help="build even if nothing changed")
    parser.add_argument("--clean", action="store_true", help="remove the build")
    args = parser.parse_args()
    os.chdir(REPOSITORY)  # the sources by their paths in the repository: their module names
    with locked():
        if args.clean:
            shutil.rmtree(FOLDER, ignore_errors=True)
        else:
            build_if_needed(args.force)


def build_if_needed(force: bool) -> None:
    if up_to_date() and not force:
        return
    if not (shutil.which(sysconfig.get_config_var("CC").split()[0])
            and Path(sysconfig.get_paths()["include"], "Python.h").exists()):
        print("compile: no C compiler or Python headers: the engine and the bots run as plain "
              "Python", file=sys.stderr)
        return
    print(f"compile: compiling {len(MODULES)} modules of the engine and the bots into "
          f"{FOLDER.relative_to(REPOSITORY)}/", file=sys.stderr)
    try:
        build()
    except Exception as error:  # the compiler's own messages are above
        shutil.rmtree(FOLDER, ignore_errors=True)
        print(f"compile: the build failed ({error}): the engine and the bots run as plain "
              "Python", file=sys.stderr)


if __name__ == "__main__":
    main()
