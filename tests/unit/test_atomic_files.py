"""The settings and agents files are written atomically: a crash at any moment leaves the old file or the new
one, complete, never a torn mix; a failed write leaves no temp file behind."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from switchboard import files as files_module
from switchboard.agents import load_agents, save_agents
from switchboard.config import Settings, load_settings, save_settings
from switchboard.files import write_atomically

REPO = Path(__file__).resolve().parents[2]
KILL_TRIALS = int(os.environ.get("SWITCHBOARD_KILL_TRIALS", "20"))  # more for a longer soak

# A child that rewrites both files in a loop, alternating between two large versions, and says how many
# writes it finished; the parent kills it with SIGKILL at a random moment.
WRITER = r"""
import sys
from pathlib import Path
from switchboard.agents import save_agents
from switchboard.config import Settings, save_settings

folder = Path(sys.argv[1])
def settings(tag):
    return Settings(theme=tag, keymap={f"action_{i}": f"ctrl+{tag}{i}" for i in range(500)})
def entries(tag):
    return [{"name": f"{tag}-{i}", "url": f"http://127.0.0.1:{1000 + i}/", "apiKeyEnv": "KEY"} for i in range(200)]
versions = [(settings("a"), entries("a")), (settings("b"), entries("b"))]
count = 0
while True:
    s, e = versions[count % 2]
    save_settings(s, folder / "settings.yaml")
    save_agents(folder / "agents.yaml", e)
    count += 1
    print(count, flush=True)
"""


def settings_version(tag: str) -> Settings:
    return Settings(theme=tag, keymap={f"action_{i}": f"ctrl+{tag}{i}" for i in range(500)})


def entries_version(tag: str) -> list[dict]:
    return [{"name": f"{tag}-{i}", "url": f"http://127.0.0.1:{1000 + i}/", "apiKeyEnv": "KEY"} for i in range(200)]


def test_a_failed_rename_keeps_the_old_file_and_leaves_no_temp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    path = tmp_path / "settings.yaml"
    save_settings(Settings(theme="old"), path)
    before = path.read_bytes()

    def crash(*args, **kwargs):
        raise OSError("simulated crash before the rename")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError, match="simulated crash"):
        save_settings(Settings(theme="new"), path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["settings.yaml"]


def test_a_crash_while_writing_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    path = tmp_path / "agents.yaml"
    save_agents(path, [{"name": "old", "url": "http://127.0.0.1:1/"}])
    before = path.read_bytes()

    def crash(fd):
        raise OSError("simulated crash during fsync")

    monkeypatch.setattr(os, "fsync", crash)
    with pytest.raises(OSError, match="simulated crash"):
        save_agents(path, [{"name": "new", "url": "http://127.0.0.1:2/"}])
    assert path.read_bytes() == before
    assert [a.name for a in load_agents(path).agents] == ["old"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["agents.yaml"]


def test_settings_are_written_with_the_same_helper_as_the_agents_file(tmp_path: Path, monkeypatch):
    calls: list[Path] = []
    real = files_module.write_atomically
    monkeypatch.setattr(files_module, "write_atomically", lambda path, text: (calls.append(path), real(path, text)))
    save_settings(Settings(theme="x"), tmp_path / "settings.yaml")
    save_agents(tmp_path / "agents.yaml", [])
    assert calls == [tmp_path / "settings.yaml", tmp_path / "agents.yaml"]


def test_a_rewrite_keeps_the_file_mode_and_writes_bytes_too(tmp_path: Path):
    path = tmp_path / "notes.bin"
    write_atomically(path, b"\x00one")
    path.chmod(0o640)
    write_atomically(path, "two")
    assert path.read_bytes() == b"two" and (path.stat().st_mode & 0o777) == 0o640


def _whole(folder: Path) -> tuple[str, str]:
    """Which complete version each file holds; fails on a torn or mixed file."""
    settings, warnings = load_settings(folder / "settings.yaml")
    assert warnings == []
    tag = settings.theme
    assert tag in ("a", "b") and settings == settings_version(tag)
    raw = yaml.safe_load((folder / "agents.yaml").read_text(encoding="utf-8"))
    agents_tag = raw["agents"][0]["name"].split("-")[0]
    assert raw["agents"] == entries_version(agents_tag)
    return tag, agents_tag


def test_kill_9_at_random_moments_never_leaves_a_torn_file(tmp_path: Path):
    save_settings(settings_version("a"), tmp_path / "settings.yaml")
    save_agents(tmp_path / "agents.yaml", entries_version("a"))
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    rng = random.Random(7)
    seen: set[tuple[str, str]] = set()
    writes = 0
    for _ in range(KILL_TRIALS):
        child = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(tmp_path)], stdout=subprocess.PIPE, text=True, env=env
        )
        assert child.stdout is not None
        first = child.stdout.readline()  # one full round written: the loop is under way
        assert first.strip() == "1"
        time.sleep(rng.uniform(0.0, 0.6))
        child.send_signal(signal.SIGKILL)
        child.wait(10)
        finished = [line for line in child.stdout.read().splitlines() if line.strip()]
        child.stdout.close()
        writes += 1 + len(finished)
        seen.add(_whole(tmp_path))
    # The kills landed in different phases: both versions were found on disk.
    assert {s for s, _ in seen} == {"a", "b"}
    assert writes > KILL_TRIALS
    leftovers = [p.name for p in tmp_path.iterdir() if p.suffix == ".tmp"]
    print(
        f"{KILL_TRIALS} kills, {writes} rounds written, versions seen {sorted(seen)}, temp files left {len(leftovers)}"
    )
