"""Which A2A task an agent call's MCP task follows, kept on disk so that a restarted bridge can answer tasks/get
and tasks/result for it by reading the task again from its agent. Only what names the task is kept: the agent's
name in the agents file, the task and context ids, when the MCP task was made and its ttl. Never a credential,
never the call's arguments. One small file per MCP task (several bridges, one per host, share the folder without
ever rewriting each other's entries); bounded (the newest MAX_ENTRIES) and each entry dropped once its ttl has
run out, the ttl the bridge announced for the task."""

from __future__ import annotations

import json
import math
import os
import re
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..files import write_atomically

MAX_ENTRIES = 1000
MAX_FILE_BYTES = 10_000  # far above one entry: a larger file is not ours
ENDED = ("completed", "failed", "cancelled")
_TASK_ID = re.compile(r"^[A-Za-z0-9-]{1,100}$")  # our MCP task ids (uuid4): a file name, never a path


@dataclass(frozen=True)
class LedgerEntry:
    """One agent call's MCP task: the A2A task it follows."""

    mcp_task_id: str
    agent: str
    task_id: str
    context_id: str | None
    created_at: float  # seconds since the epoch
    ttl_ms: int
    status: str | None = None  # the MCP status it ended in, as this process last saw it (None: not seen to end)
    message: str | None = None
    updated_at: float | None = None

    def expired(self, now: float) -> bool:
        return now > self.created_at + self.ttl_ms / 1000


class TaskLedger:
    def __init__(self, folder: Path, max_ttl_ms: int) -> None:
        self.folder = folder
        self.max_ttl_ms = max_ttl_ms

    def remember(self, entry: LedgerEntry) -> None:
        """Keep `entry` (replacing one of the same MCP task); the expired and the oldest past the bound go."""
        if not _TASK_ID.match(entry.mcp_task_id):
            return
        path = self.folder / f"{entry.mcp_task_id}.json"
        write_atomically(path, json.dumps({"version": 1, **asdict(entry)}))
        os.chmod(path, 0o600)  # task ids of the person's agents: theirs to read
        self._prune()

    def entries(self) -> list[LedgerEntry]:
        """Every entry kept, expired or not, newest first."""
        try:
            paths = sorted(self.folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
        except OSError:
            return []
        return [e for e in (_read(p) for p in paths[:MAX_ENTRIES]) if e is not None]

    def find(self, mcp_task_id: str) -> LedgerEntry | None:
        """The entry of that MCP task (expired or not: the caller says which); None for one never kept here (or
        not a task id of ours)."""
        if not _TASK_ID.match(mcp_task_id):
            return None
        found = _read(self.folder / f"{mcp_task_id}.json")
        return found if found is not None and found.mcp_task_id == mcp_task_id else None

    def _prune(self) -> None:
        """By the files' times, without reading them: past the longest ttl the bridge announces, or past the bound."""
        try:
            aged = sorted((p.stat().st_mtime, p) for p in self.folder.glob("*.json"))
        except OSError:
            return
        oldest = time.time() - self.max_ttl_ms / 1000
        for index, (written, path) in enumerate(aged):
            if index < len(aged) - MAX_ENTRIES or written < oldest:
                path.unlink(missing_ok=True)


def _read(path: Path) -> LedgerEntry | None:
    """The entry a file holds; a missing, damaged or foreign file reads as none."""
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            return None
        return _entry(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, UnicodeError):
        return None


def _entry(item: Any) -> LedgerEntry | None:
    if not isinstance(item, dict):
        return None
    ids = [item.get(k) for k in ("mcp_task_id", "agent", "task_id")]
    context_id, created_at, ttl_ms = item.get("context_id"), item.get("created_at"), item.get("ttl_ms")
    if not all(isinstance(v, str) and 0 < len(v) <= 500 for v in ids):
        return None
    if context_id is not None and not (isinstance(context_id, str) and len(context_id) <= 500):
        return None
    if not isinstance(created_at, int | float) or isinstance(created_at, bool) or not math.isfinite(created_at):
        return None
    if not isinstance(ttl_ms, int) or isinstance(ttl_ms, bool) or ttl_ms < 0:
        return None
    status, message, updated_at = item.get("status"), item.get("message"), item.get("updated_at")
    status = status if status in ENDED else None
    message = message[:2000] if isinstance(message, str) and status else None
    ended_at = None
    if isinstance(updated_at, int | float) and not isinstance(updated_at, bool) and math.isfinite(updated_at):
        ended_at = float(updated_at) if status else None
    return LedgerEntry(
        str(ids[0]), str(ids[1]), str(ids[2]), context_id, float(created_at), ttl_ms, status, message, ended_at
    )
