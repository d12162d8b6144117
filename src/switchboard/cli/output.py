"""What every command writes: results on stdout (`-o text` as `Label: value` lines and blocks with no control
sequences, `-o json` documents), warnings and errors on stderr (or the error envelope under -o json).

Stdlib only, so a command that prints no protocol objects (`runs list`) loads no protocol model; how protocol
objects become fields is render.py's job.
"""

from __future__ import annotations

import re
import sys

from ..safe_text import strip_controls

TYPE_CHECKING = False  # neither typing nor json is imported on the way to --help (tests/unit/test_lazy_imports.py)
if TYPE_CHECKING:
    from typing import Any, TextIO

    from ..a2a.errors import SwitchboardError

# What json.dumps(ensure_ascii=False) leaves raw although a terminal acts on it (DEL, C1 controls, bidi
# overrides) or UTF-8 cannot encode it (a lone surrogate). These occur only inside JSON strings, so writing
# them as \uXXXX escapes gives the same JSON document.
_JSON_UNSAFE = re.compile(r"[\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def json_text(obj: Any, **kwargs: Any) -> str:
    """json.dumps with non-ASCII text kept readable and every terminal-active character escaped."""
    import json

    text = json.dumps(obj, ensure_ascii=False, **kwargs)
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


class Out:
    """Writes results to stdout; everything in text mode goes through strip_controls."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stdout
        self._closed = True  # the last thing written ended with a blank line (or nothing was written)

    def separate(self) -> None:
        """End a group of fields with a blank line, unless a block already did."""
        if not self._closed:
            self.stream.write("\n")
            self._closed = True

    def field(self, label: str, value: Any) -> None:
        if value is None or value == "":
            return
        text = strip_controls(str(value)).replace("\n", " ")
        self.stream.write(f"{label}: {text}\n")
        self._closed = False

    def block(self, label: str, content: str) -> None:
        """A label line, the content, then a blank line that closes the block."""
        content = strip_controls(content)
        self.stream.write(f"{label}:\n{content}{'' if content.endswith(chr(10)) else chr(10)}\n")
        self._closed = True

    def json_line(self, obj: Any) -> None:
        self.stream.write(json_text(obj, separators=(",", ":")) + "\n")
        self.stream.flush()

    def json_doc(self, obj: Any) -> None:
        self.stream.write(json_text(obj, indent=2) + "\n")

    def flush(self) -> None:
        self.stream.flush()


def warn(text: str) -> None:
    """A warning on stderr: the result on stdout stays clean for a pipe."""
    print(f"warning: {strip_controls(text)}", file=sys.stderr, flush=True)


def note(text: str) -> None:
    """Something worth knowing that is not a warning (where a result was also kept), on stderr like one."""
    print(f"note: {strip_controls(text)}", file=sys.stderr, flush=True)


def report(error: SwitchboardError, output: str) -> None:
    """One error: the JSON envelope on stdout under -o json, plain lines on stderr otherwise."""
    if output == "json":
        print(json_text(error.envelope()))
        return
    print(f"Error: {strip_controls(error.message)}", file=sys.stderr)
    print(f"Code: {error.code}", file=sys.stderr)
    if error.task_id:
        print(f"Task ID: {strip_controls(error.task_id)}", file=sys.stderr)
        if error.context_id:
            print(f"Context ID: {strip_controls(error.context_id)}", file=sys.stderr)
    if error.hint:
        print(f"Hint: {strip_controls(error.hint)}", file=sys.stderr)
