"""Agent-supplied text is data: strip terminal control sequences before it reaches a terminal or a log."""

from __future__ import annotations

import re

# CSI (ESC [ ... final), OSC (ESC ] ... BEL or ESC \), other ESC-introduced sequences, then lone C0/C1 controls.
_ESCAPES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC
    r"|\x1b[PX^_][^\x1b]*(?:\x1b\\)?"  # DCS, SOS, PM, APC
    r"|\x1b[ -/]*[0-~]?"  # other escapes (ESC ( B, ESC 7, ESC c ...), or a lone ESC
    r"|\x9b[0-?]*[ -/]*[@-~]"  # 8-bit CSI
    r"|[\x00-\x08\x0b-\x1f\x7f-\x9f]"  # remaining controls, keeping \t and \n
)


def strip_controls(text: str) -> str:
    """Remove escape sequences and control characters; newlines and tabs stay. \\r\\n becomes \\n."""
    return _ESCAPES.sub("", text.replace("\r\n", "\n"))
