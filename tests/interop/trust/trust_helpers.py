"""What the trust tests share besides fixtures."""

from __future__ import annotations


def fields(stdout: str) -> dict[str, str]:
    """`Label: value` lines (the last one wins)."""
    out = {}
    for line in stdout.splitlines():
        label, sep, value = line.partition(": ")
        if sep and label and not label.startswith(" "):
            out[label] = value
    return out
