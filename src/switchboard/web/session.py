"""The session's side of `switchboard web`: knowing it runs under textual-serve, and saying so when it cannot start.

textual-serve starts each session with Textual's web driver named in TEXTUAL_DRIVER and pipes for its standard
streams. The driver speaks a small protocol on stdout (a `__GANGLION__` line, then packets: a type byte, a
four-byte big-endian length, the payload); a failure before the app runs is written in it, as screen data, so
the browser shows the message instead of waiting for a screen that never comes.
"""

from __future__ import annotations

import os
import sys

WEB_DRIVER = "textual.drivers.web_driver:WebDriver"


def web_session() -> bool:
    """True in a session textual-serve started: there is no terminal, and Textual's web driver is the screen."""
    return os.environ.get("TEXTUAL_DRIVER") == WEB_DRIVER


def packet(kind: bytes, payload: bytes) -> bytes:
    return kind + len(payload).to_bytes(4, "big") + payload


def report_failure(message: str, hint: str | None = None) -> None:
    """Show why switchboard could not start in the browser that asked for the session (and on stderr, which
    textual-serve copies to its log)."""
    lines = ["", "  switchboard could not start", "", f"  {message}"]
    if hint:
        lines += ["", f"  {hint}"]
    lines += ["", "  Fix this, then reload the page.", ""]
    text = "\r\n".join(lines).encode("utf-8", "replace")
    print("\n".join(lines), file=sys.stderr, flush=True)
    out = sys.__stdout__.buffer if sys.__stdout__ is not None else None
    if out is None:
        return
    out.write(b"__GANGLION__\n")
    out.write(packet(b"D", b"\x1b[2J\x1b[H" + text))  # a clear screen, then the message
    out.flush()
