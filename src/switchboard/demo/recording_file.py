"""Reading a recording for `demo --replay FILE` and `switchboard replay FILE`: a file that may come from someone else.

So it is read only up to a bound (never whole into memory past it), parsed as strict UTF-8 JSON with bounded
nesting, every field checked for its type (export.json_doc.load), and every event checked servable by the replay
agents' SDK server (demo.replay.check_playable). Any problem is a UsageError (exit 2) that names the file, says what
is wrong, and how to get a file that works; nothing else escapes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..a2a.errors import UsageError
from ..export.json_doc import TranscriptError, load
from ..export.transcript import Transcript
from .replay import UnplayableError, agent_names, check_playable

MAX_BYTES = 64 * 2**20  # a writer's 4 MB document recorded chunk by chunk is ~6 MB; ten such turns fit
MAX_NESTING = 200  # levels of JSON: a recording's own structure is ~12, an agent's data is cut at 64 below that
MAX_AGENTS = 64  # agents one replay serves, each on a port of its own: a recording of more is refused
HOW = (
    "Record one with `switchboard send AGENT TEXT --record FILE.json`, "
    "or export a run with `switchboard export RUN --out FILE.json`."
)
_NOT_JSON = (".har", ".md", ".markdown", ".html", ".htm")


def read_recording(path: Path) -> Transcript:
    """The transcript in `path`; UsageError for a missing, unreadable, oversized, malformed or unplayable file."""
    if path.suffix.lower() in _NOT_JSON:
        raise UsageError(
            f"{path.name} is a {path.suffix} export; only a JSON transcript holds the events a replay plays", hint=HOW
        )
    doc = parse_recording(_read_bounded(path), path)
    try:
        transcript = load(doc)
        check_playable(transcript)
    except (TranscriptError, UnplayableError) as exc:
        raise UsageError(f"{path} is not a recording switchboard can replay: {exc}", hint=HOW) from None
    agents = agent_names(transcript)
    if len(agents) > MAX_AGENTS:
        raise UsageError(
            f"{path} holds exchanges with {len(agents)} agents; a replay serves at most {MAX_AGENTS}", hint=HOW
        )
    return transcript


def _read_bounded(path: Path) -> bytes:
    """The file's bytes, MAX_BYTES at most: a bigger file (or a device that never ends) is refused unread."""
    too_big = UsageError(
        f"{path} is larger than {MAX_BYTES // 2**20} MB, more than a recording holds",
        hint="Check the file name; " + HOW,
    )
    try:
        if path.is_dir():
            raise UsageError(f"{path} is a directory, not a recording", hint=HOW)
        with path.open("rb") as file:
            if path.is_file() and path.stat().st_size > MAX_BYTES:
                raise too_big
            raw = file.read(MAX_BYTES + 1)
    except OSError as exc:
        raise UsageError(f"cannot read the recording {path}: {exc.strerror or exc}", hint=HOW) from None
    if len(raw) > MAX_BYTES:
        raise too_big
    return raw


def parse_recording(raw: bytes, path: Path) -> Any:
    """The JSON document in `raw` (the bytes of `path`); UsageError when it is not UTF-8 JSON within the bounds."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UsageError(
            f"{path} is not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start}), so not a recording",
            hint=HOW,
        ) from None
    try:
        doc = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise UsageError(f"{path} is JSON nested too deeply to be a recording", hint=HOW) from None
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path} is not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})", hint=HOW) from None
    except ValueError as exc:  # NaN or Infinity, or a number of thousands of digits
        raise UsageError(f"{path} is not JSON a recording holds ({str(exc)[:100]})", hint=HOW) from None
    problem = _beyond_bounds(doc)
    if problem:
        raise UsageError(f"{path} is not a recording switchboard can replay: {problem}", hint=HOW)
    return doc


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _beyond_bounds(doc: Any) -> str | None:
    """What makes the parsed document unusable whatever its shape: nesting past MAX_NESTING, or a string holding
    a lone surrogate (`\\ud800` escapes: text no UTF-8 encoder can write back out). None when it is within bounds."""
    stack: list[tuple[Any, int]] = [(doc, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            lone = None if value.isascii() else _lone_surrogate(value)
            if lone is not None:
                return f"a string holds the escape \\u{lone:04x}, which is no character (half a UTF-16 pair)"
        elif isinstance(value, dict | list):
            if depth > MAX_NESTING:
                return f"it is nested more than {MAX_NESTING} levels deep"
            items = [*value.keys(), *value.values()] if isinstance(value, dict) else value
            stack.extend((item, depth + 1) for item in items)
    return None


def _lone_surrogate(text: str) -> int | None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return ord(text[exc.start])
    return None
