"""The folder the documented examples run in, as a person following the pages has it."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def workspace(agents_file: Path, tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A folder as a person following the pages has it: `demo.yaml` is the running demo's agents file, `examples/`
    the repository's; its own SWITCHBOARD_HOME, and no credentials but the demo's (the agents file names them)."""
    folder = tmp_path / "work"
    folder.mkdir()
    (folder / "demo.yaml").symlink_to(agents_file)
    (folder / "examples").symlink_to(REPO / "examples")
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("A2ACLI_", "SWITCHBOARD_")) and key != "COLUMNS"
    }
    env.update(
        SWITCHBOARD_HOME=str(tmp_path / "home"),
        PYTHONPATH=str(REPO / "src"),
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
    )
    return folder, env
