"""Loading the byte-exact captures in tests/fixtures/transcripts (copied from shared/a2a-wire)."""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "fixtures" / "transcripts"
JSONRPC_DIRS = ("v10-jsonrpc", "v03-jsonrpc-sdk13-compat", "v03-jsonrpc-sdk03-native")


def body(path: Path) -> bytes:
    return path.read_bytes()


def sse_payloads(path: Path) -> list[tuple[str, dict]]:
    """(event name, parsed data) for each SSE event; comments such as `: ping` are skipped."""
    out = []
    for block in path.read_text().replace("\r\n", "\n").split("\n\n"):
        event, data = "message", []
        for line in block.splitlines():
            if line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].lstrip())
        if data:
            out.append((event, json.loads("\n".join(data))))
    return out


def files(directory: str, suffix: str) -> list[Path]:
    return sorted((ROOT / directory).glob(f"*{suffix}"))


def version_of(directory: str) -> str:
    return "1.0" if directory.startswith("v10") else "0.3"


def load_json(path: Path) -> dict | None:
    """The body as JSON, or None for the captures whose body is not JSON (404 text, 304 empty)."""
    try:
        value = json.loads(path.read_text())
    except ValueError:
        return None
    return value if isinstance(value, dict) else None
