"""Clients made from the published document as a third party makes them: openapi-python-client's
package, and openapi-typescript's types (tools from the npm registry, tests/npm.py)."""

from __future__ import annotations

import json
import subprocess
import sysconfig
from pathlib import Path

PYTHON_GENERATOR = Path(sysconfig.get_path("scripts")) / "openapi-python-client"
PACKAGE = "ladder_client"


def generate_python_client(document: dict, folder: Path) -> subprocess.CompletedProcess:
    """``folder``/ladder_client, made from ``document`` (the run: its output, its status)."""
    (folder / "openapi.json").write_text(json.dumps(document))
    # The generator's own formatting step (ruff) is not about the document: left out.
    (folder / "config.yml").write_text("post_hooks: []\n")
    return subprocess.run(
        [PYTHON_GENERATOR, "generate", "--path", "openapi.json", "--config", "config.yml",
         "--meta", "none", "--output-path", PACKAGE],
        cwd=folder, capture_output=True, text=True, timeout=300, check=False)


def generate_typescript_types(document: dict, folder: Path, tools: Path,
                              output: str = "api.ts") -> subprocess.CompletedProcess:
    """``folder``/``output``: openapi-typescript's types of ``document`` (its default options);
    ``tools`` is an npm folder holding openapi-typescript."""
    (folder / "openapi.json").write_text(json.dumps(document))
    return subprocess.run(
        [str(tools / "node_modules" / ".bin" / "openapi-typescript"), "openapi.json",
         "-o", output], cwd=folder, capture_output=True, text=True, timeout=300)
