"""What every check of a workflow file shares: the issue list, unknown keys, durations, names."""

from __future__ import annotations

import difflib
import re
from typing import Any

from .source import LineDict
from .spec import Issue

NAME_PATTERN = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]*")  # a step, input or agent name usable in templates


class Checker:
    """Collects issues for one file."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.issues: list[Issue] = []
        self.warnings: list[str] = []

    def add(self, line: int | None, message: str, fix: str) -> None:
        self.issues.append(Issue(self.file, line, message, fix))

    def warn(self, line: int | None, message: str) -> None:
        self.warnings.append(f"{self.file}:{line}: {message}" if line else f"{self.file}: {message}")

    def unknown_keys(self, mapping: LineDict, known: tuple[str, ...], what: str) -> None:
        for key in mapping:
            if key not in known:
                close = difflib.get_close_matches(str(key), known, n=1, cutoff=0.6)
                fix = f"Did you mean {close[0]}?" if close else f"{what} takes: {', '.join(known)}."
                self.add(mapping.line_of(key), f"{what} has an unknown key {key!r}", fix)
        for key, line in mapping.duplicates:
            self.add(line, f"{key!r} appears twice in {what}", "Keep one of them: YAML keeps only the last.")


def suggest(name: str, known: list[str]) -> str:
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    return f" Did you mean {close[0]}?" if close else ""


_DURATION_PART = re.compile(r"(\d+(?:\.\d+)?)(ms|s|m|h)")


def parse_duration(value: Any) -> float | None:
    """Seconds from 30, 2.5, "30", "500ms", "30s", "5m", "1h" or "1m30s"; None when it is none of those."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value) if value >= 0 else None
    if not isinstance(value, str):
        return None
    text = value.strip().replace(" ", "")
    if re.fullmatch(r"\d+(?:\.\d+)?", text):
        return float(text)
    if not text or not re.fullmatch(rf"(?:{_DURATION_PART.pattern})+", text):
        return None
    units = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}
    return sum(float(n) * units[u] for n, u in _DURATION_PART.findall(text))


def duration(chk: Checker, mapping: LineDict, key: str, what: str) -> float | None:
    """A positive duration under `key`, or None (with an issue when it is there but wrong)."""
    if key not in mapping or mapping[key] is None:
        return None
    seconds = parse_duration(mapping[key])
    if seconds is None or seconds <= 0:
        chk.add(
            mapping.line_of(key, value=True),
            f"{what}: {key} {mapping[key]!r} is not a duration",
            "Give seconds (30) or a number with a unit: 500ms, 30s, 5m, 1h, 1m30s.",
        )
        return None
    return seconds
