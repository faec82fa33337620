"""Where the optional compiled build of the engine and the bots is taken from (docs/bots.md,
"The compiled build").

``games.build`` compiles the hot modules of ``games.engine`` and ``games.bots``, unchanged,
with Cython into ``build/compiled/`` beside the repository's packages, and records each
source's SHA-256 in ``build/compiled/manifest.json``. A package puts that folder first on its
``__path__`` (Python's documented way for a package to say where its modules are) only when
every source of that package in the manifest is byte for byte the file on disk and the build
was made for this interpreter, so an edited ``.py`` is never shadowed by an old build: the
package then runs as plain Python, the same code the build was made from.

``LADDER_PURE_PYTHON=1`` ignores the build (the suite runs the engine and the bots both ways).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import warnings
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]
FOLDER = REPOSITORY / "build" / "compiled"
MANIFEST = FOLDER / "manifest.json"


def source_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def pure_python_asked() -> bool:
    return os.environ.get("LADDER_PURE_PYTHON", "") not in ("", "0")


def compiled_folder(package: str) -> list[str]:
    """The folders to put first on ``package``'s ``__path__``: the build's, when it holds this
    package's modules and matches their sources; none otherwise."""
    if pure_python_asked() or not MANIFEST.exists():
        return []
    try:
        manifest = json.loads(MANIFEST.read_text())
        recorded, cache_tag = dict(manifest["sources"]), manifest["cache_tag"]
    except (OSError, ValueError, KeyError, TypeError):  # half written, or not ours
        warnings.warn(f"{package} runs as plain Python: {MANIFEST} is unreadable "
                      "(rebuild: python -m games.build)", stacklevel=2)
        return []
    prefix = package.replace(".", "/") + "/"
    sources = [name for name in recorded if name.startswith(prefix)]
    if cache_tag != sys.implementation.cache_tag or not sources:
        return []
    stale = [name for name in sources
             if not (REPOSITORY / name).exists()
             or source_digest(REPOSITORY / name) != recorded[name]]
    if stale:
        warnings.warn(f"{package} runs as plain Python: its compiled build is older than "
                      f"{', '.join(stale)} (rebuild: python -m games.build)", stacklevel=2)
        return []
    return [str(FOLDER / package.replace(".", "/"))]
