"""The remembered questions: conversation tasks left waiting for an answer, kept across restarts.

One JSON file under the data dir (DATA_DIR/inbox.json), written whole and atomically (files.py), read back as
untrusted-ish bytes: a file too large, not JSON, or of another shape reads as nothing remembered, and each entry
is taken only when its fields have the types and sizes expected (the others are dropped, never a crash). It holds
ids, the agent's name and address, the state and the agent's question (through the caller's redactor): never an
answer, so never a credential. Several processes share it (the TUI, `switchboard answer` in another terminal): a
change is read, modified and written under an exclusive lock on a file beside it.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..files import write_atomically
from ..paths import data_dir

try:
    import fcntl
except ImportError:  # not on POSIX: no lock (last writer wins)
    fcntl = None  # type: ignore[assignment]

FILE_NAME = "inbox.json"
VERSION = 1
MAX_BYTES = 1 << 20  # a larger file is not one we wrote: read as nothing remembered
MAX_ENTRIES = 500
MAX_ID = 512  # characters of an id, a name or a URL
MAX_QUESTION = 4000  # characters of a question kept
STATES = ("input-required", "auth-required")


@dataclass(frozen=True)
class Remembered:
    """A conversation task waiting for the person, as the inbox keeps it between starts."""

    agent: str
    agent_url: str
    task_id: str
    context_id: str
    state: str
    question: str
    since: float | None

    @property
    def key(self) -> tuple[str, str]:
        return (self.agent_url.rstrip("/"), self.task_id)

    def to_json(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "agentUrl": self.agent_url,
            "taskId": self.task_id,
            "contextId": self.context_id,
            "state": self.state,
            "question": self.question,
            "since": self.since,
        }


def store_path() -> Path:
    return data_dir() / FILE_NAME


def _text(value: Any, limit: int, *, required: bool = True) -> str | None:
    if not isinstance(value, str) or (required and not value) or len(value) > limit or "\x00" in value:
        return None
    return value


def _entry(raw: Any) -> Remembered | None:
    if not isinstance(raw, dict):
        return None
    agent, url, task = (_text(raw.get(name), MAX_ID) for name in ("agent", "agentUrl", "taskId"))
    context = _text(raw.get("contextId", ""), MAX_ID, required=False)
    question = raw.get("question", "")
    state = raw.get("state")
    since = raw.get("since")
    if agent is None or url is None or task is None or context is None or state not in STATES:
        return None
    if not isinstance(question, str):
        return None
    if isinstance(since, bool) or not isinstance(since, int | float) or not (0 <= since < 1e11):
        since = None  # not a time we wrote: the item shows no age
    return Remembered(agent, url, task, context, str(state), question[:MAX_QUESTION], float(since) if since else None)


def parse_remembered(data: bytes) -> list[Remembered]:
    """The remembered questions in `data` (the file's bytes): whatever is not one is left out; never raises."""
    if len(data) > MAX_BYTES:
        return []
    try:
        doc = json.loads(data.decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError):
        return []
    questions = doc.get("questions") if isinstance(doc, dict) else None
    if not isinstance(questions, list):
        return []
    found: dict[tuple[str, str], Remembered] = {}
    for raw in questions[:MAX_ENTRIES]:
        entry = _entry(raw)
        if entry is not None:
            found[entry.key] = entry  # one per task: the last one written wins
    return list(found.values())


def load_remembered(path: Path | None = None) -> list[Remembered]:
    """The remembered questions (none when the file is missing or cannot be read)."""
    path = path or store_path()
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError:
        return []
    return parse_remembered(data)


def signature(path: Path | None = None) -> tuple[int, int] | None:
    """What changes when the file is written (its inode and modification time): a watcher stats, not reads."""
    try:
        stat = os.stat(path or store_path())
    except OSError:
        return None
    return (stat.st_ino, stat.st_mtime_ns)


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path.with_name(path.name + ".lock"), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing lets go of the lock


def _change(path: Path | None, change: Callable[[list[Remembered]], list[Remembered]]) -> bool:
    path = path or store_path()
    with _locked(path):
        before = load_remembered(path)
        after = change(list(before))[-MAX_ENTRIES:]
        if after == before:
            return False
        doc = {"version": VERSION, "questions": [entry.to_json() for entry in after]}
        write_atomically(path, json.dumps(doc, ensure_ascii=False, indent=1))
        os.chmod(path, 0o600)
        return True


def remember(entry: Remembered, path: Path | None = None) -> bool:
    """Keep `entry` (replacing what was kept of its task); whether the file changed."""

    def add(entries: list[Remembered]) -> list[Remembered]:
        kept = [e for e in entries if e.key != entry.key]
        return [*kept, entry]

    return _change(path, add)


def forget(agent_url: str, task_id: str, path: Path | None = None) -> bool:
    """Let go of the task's remembered question (answered, ended, dismissed); whether it was kept."""
    key = (agent_url.rstrip("/"), task_id)
    return _change(path, lambda entries: [e for e in entries if e.key != key])
