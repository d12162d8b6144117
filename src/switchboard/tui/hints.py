"""An error's hint as the TUI says it: the core's hints name the command line's flags and commands, which a
person in the TUI cannot type. One place turns them into what this surface offers (a key, the agents file),
so every screen that shows an error shows a hint that fits it."""

from __future__ import annotations

import re

from ..a2a.errors import ProtocolError, SwitchboardError

WIRE = "F2 shows the exchange in the wire view"

# (error, operation) -> the TUI's own hint, where the command line's names a way the TUI does not have.
_BY_OPERATION: dict[tuple[str, str | None], str] = {
    ("UnsupportedOperationError", "send"): "The agent takes no new message on this task: open a new conversation "
    "with the agent (F1, then enter) to start a new task.",
    ("UnsupportedOperationError", "stream"): "The agent takes no new message on this task: open a new conversation "
    "with the agent (F1, then enter) to start a new task.",
}

# The command line's words -> the TUI's, in order; what is left naming a flag or a command is dropped.
_PHRASES = [
    (re.compile(r"[Rr]un with --verbose to see (the exchange|it|the answer)|--verbose shows it"), WIRE),
    (re.compile(r"name (the variable holding them|it) with --api-key-env or --bearer-env"),
     r"name \1 with apiKeyEnv or bearerEnv for the agent in the agents file"),
    (re.compile(r"check the user \(--basic-user, or auth: [^)]*\) and the password in the variable "
                r"--basic-password-env names"),
     "check the user and the password's variable in the agent's auth: entry of the agents file"),
    (re.compile(r"raise --timeout"), "try again later"),
    (re.compile(r"check --svc-param, the|Check --svc-param, the"), "Check the"),
]  # fmt: skip
_CLI_WORDS = re.compile(r"(?<![\w-])--[a-z][\w-]*|`switchboard [^`]*`|`task [^`]*`")
# A sentence ends at ".", "!" or "?" followed by a space and a capital (or the end), or at "; ": never inside a
# token, so a URL, a file name, a version or a decimal ("http://127.0.0.1:9101/", "agents.yaml", "1.0") stays whole.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'(`])|(?<=;)\s+")


def tui_hint(error: SwitchboardError) -> str | None:
    """The hint of `error` as the TUI says it, or None when it has none that fits here."""
    if isinstance(error, ProtocolError) and (error.code, error.operation) in _BY_OPERATION:
        return _BY_OPERATION[(error.code, error.operation)]
    hint = error.hint or ""
    for pattern, words in _PHRASES:
        hint = pattern.sub(words, hint)
    sentences = _SENTENCE_END.split(hint.strip())
    kept = [part.strip() for part in sentences if part.strip() and not _CLI_WORDS.search(part)]
    text = " ".join(kept).rstrip(";").strip()
    if text and text[-1] not in ".!?)":
        text += "."
    return (text[0].upper() + text[1:]) if text else None


def error_text(error: SwitchboardError, *, code: bool = True) -> str:
    """An error as a few lines for the TUI: what happened, then what to do about it here."""
    head = f"{error.code}: {error.message}" if code else error.message
    hint = tui_hint(error)
    return f"{head}\n{hint}" if hint else head
