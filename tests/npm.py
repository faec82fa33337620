"""Tools from the npm registry for the tests that check the published documents as other
languages' clients read them: installed once into the user's cache (npm's own cache serves
them again), or the test is skipped where node is not installed (under CI it fails)."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
from pathlib import Path

import pytest

CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "ladder-rummy"


def npm_folder(*packages: str) -> Path:
    """A folder whose node_modules holds ``packages`` (exact versions: ``name@1.2.3``)."""
    if not (shutil.which("node") and shutil.which("npm")):
        if os.environ.get("CI"):
            pytest.fail("node and npm are needed to check the published documents")
        pytest.skip("node and npm are not installed")
    folder = CACHE / ("npm-" + "-".join(p.replace("/", "+") for p in packages))
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ".lock", "w") as lock:  # xdist's workers install it once
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / ".installed").exists():
            subprocess.run(["npm", "install", "--prefix", str(folder), "--no-audit", "--no-fund",
                            "--ignore-scripts", *packages], check=True, capture_output=True,
                           timeout=600)
            (folder / ".installed").touch()
    return folder
