"""The nudge when something new waits: the terminal asked to notify, and a command of the person's choosing.

An item's text comes from an agent (untrusted): before it goes into an escape sequence every control character
(ESC, BEL, C1 controls such as the 8-bit ST, DEL, NUL), bidi override and line break is taken out, `;` (the
separator of OSC 777's fields) is replaced, and the length is bounded, so the text can neither end the sequence
early nor start one of its own. The notify command is the person's own argv (from their settings): the item
reaches it in environment variables, never in its arguments or through a shell.
"""

from __future__ import annotations

import asyncio
import os
import re
import shlex
from collections.abc import Sequence

from .item import InboxItem

TEXT_MAX = 160  # characters of an item's text in a notification
ENV_MAX = 2000  # characters of one environment variable's value
COMMAND_TIMEOUT = 10.0  # seconds a notify command may take before it is stopped
TITLE = "switchboard"

# C0 and C1 controls (tab, newline and the rest), DEL, the bidi embeddings, overrides and isolates, the line and
# paragraph separators, and lone surrogates (which cannot be encoded).
_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff]")


def notification_text(text: str, limit: int = TEXT_MAX) -> str:
    """`text` made safe for a terminal's notification escape: one line, no control character, no `;`, at most
    `limit` characters."""
    cleaned = " ".join(_UNSAFE.sub(" ", text).replace(";", ",").split())
    return cleaned if len(cleaned) <= limit else cleaned[: max(0, limit - 1)] + "…"


def describe(item: InboxItem) -> tuple[str, str]:
    """A notification's title and body for `item`, both sanitized."""
    title = notification_text(f"{item.who} asks", 60)
    return title, notification_text(item.first_line)


def _tmux_wrapped(sequence: str) -> str:
    """Under tmux an OSC reaches the outer terminal only wrapped in tmux's passthrough (allow-passthrough on)."""
    return "\x1bPtmux;" + sequence.replace("\x1b", "\x1b\x1b") + "\x1b\\"


def terminal_escapes(item: InboxItem, *, bell: bool, desktop: bool, tmux: bool | None = None) -> str:
    """What to write to the terminal for `item`: the bell, then OSC 9 (iTerm2, Windows Terminal, WezTerm, kitty,
    foot...) and OSC 777 notify (rxvt-unicode, VTE terminals, Ghostty...). Empty when both are off."""
    tmux = bool(os.environ.get("TMUX")) if tmux is None else tmux
    title, body = describe(item)
    written = "\a" if bell else ""
    if desktop:
        # OSC 9's text is prefixed: ConEmu reads "9;4;..." as a progress report, so it never starts with a digit.
        for sequence in (f"\x1b]9;{TITLE}: {title}: {body}\x07", f"\x1b]777;notify;{TITLE}: {title};{body}\x07"):
            written += _tmux_wrapped(sequence) if tmux else sequence
    return written


def _env_value(text: str) -> str:
    return _UNSAFE.sub(" ", text.replace("\n", " "))[:ENV_MAX]


def notify_environment(item: InboxItem) -> dict[str, str]:
    """The item as environment variables for the notify command (values are data: no controls, bounded)."""
    return {
        "SWITCHBOARD_ITEM_ID": item.id,
        "SWITCHBOARD_ITEM_KIND": item.kind,
        "SWITCHBOARD_ITEM_STATE": item.state,
        "SWITCHBOARD_ITEM_WHO": _env_value(item.who),
        "SWITCHBOARD_ITEM_QUESTION": _env_value(item.first_line),
        "SWITCHBOARD_ITEM_WHERE": _env_value(item.where),
        "SWITCHBOARD_ITEM_TITLE": notification_text(f"{item.who} asks", 60),
    }


def command_argv(setting: str | Sequence[str] | None) -> list[str]:
    """The notify command as an argv: a list as given, a string split as a shell would (the person's own text,
    never an item's)."""
    if not setting:
        return []
    return shlex.split(setting) if isinstance(setting, str) else [str(word) for word in setting]


async def run_notify_command(argv: list[str], item: InboxItem, *, timeout: float = COMMAND_TIMEOUT) -> str | None:
    """Run the person's notify command with the item in its environment; None when it ran, else why not."""
    if not argv:
        return None
    env = {**os.environ, **notify_environment(item)}
    try:
        process = await asyncio.create_subprocess_exec(
            *argv,
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError as exc:
        return f"notify command {argv[0]}: {exc.strerror or exc}"
    try:
        async with asyncio.timeout(timeout):
            code = await process.wait()
    except TimeoutError:
        process.kill()
        await process.wait()
        return f"notify command {argv[0]} took over {timeout:g}s and was stopped"
    return None if code == 0 else f"notify command {argv[0]} exited {code}"
