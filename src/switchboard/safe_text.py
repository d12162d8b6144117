"""Agent-supplied text is data: strip terminal control sequences before it reaches a terminal or a log."""

from __future__ import annotations

import re

# CSI (ESC [ ... final), OSC (ESC ] ... BEL or ESC \), other ESC-introduced sequences, then lone C0/C1 controls,
# then the bidi embeddings, overrides and isolates that can make text display in another order than it is stored.
# A string sequence (OSC, DCS ...) whose terminator never comes ends at the line's end: its payload is dropped, but
# an agent cannot hide every later line behind one unterminated ESC ].
_ESCAPES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI
    r"|\x1b\][^\x07\x1b\n]*(?:\x07|\x1b\\)?"  # OSC
    r"|\x1b[PX^_][^\x1b\n]*(?:\x1b\\)?"  # DCS, SOS, PM, APC
    r"|\x1b[ -/]*[0-~]?"  # other escapes (ESC ( B, ESC 7, ESC c ...), or a lone ESC
    r"|\x9b[0-?]*[ -/]*[@-~]"  # 8-bit CSI
    r"|[\x00-\x08\x0b-\x1f\x7f-\x9f]"  # remaining controls, keeping \t and \n
    r"|[\u202a-\u202e\u2066-\u2069]"  # bidi LRE RLE PDF LRO RLO, LRI RLI FSI PDI
)
# A lone surrogate (from a JSON "\ud800" escape) cannot be encoded to UTF-8: writing it would raise.
_SURROGATES = re.compile(r"[\ud800-\udfff]")


def strip_controls(text: str) -> str:
    """Remove escape sequences, control characters and bidi overrides; newlines and tabs stay.

    \\r\\n becomes \\n, and a lone surrogate becomes U+FFFD so the text can always be written out.
    """
    return _SURROGATES.sub("\ufffd", _ESCAPES.sub("", text.replace("\r\n", "\n")))
