"""A run at a terminal: its questions and its progress share stderr, and take turns.

The engine asks a question as it emits the event that says so, while the progress lines (and `--stream`'s
events) are written by the run's consumer, a little later: a question waits until the consumer has shown
everything that came before it. Progress that comes while the `answer>` prompt waits is held until the answer
is typed: a line written over the prompt would split it from what the person types (a terminal in cooked mode
echoes the keys, and no program can redraw them).
"""

from __future__ import annotations

import asyncio
import getpass
import sys
import threading
from collections.abc import Callable

from ..a2a.errors import SwitchboardError
from ..a2a.model import DataPart, TextPart
from ..safe_text import strip_controls
from ..workflow.state import AskRequest, SignIn
from .output import json_text, warn


class RunTerminal:
    """One run's terminal: `show` each event's output, `reached` each question's event, `ask` as the engine's ask."""

    def __init__(self) -> None:
        self._lock = asyncio.Lock()  # one question at a time
        self._reached: dict[int, tuple[AskRequest, asyncio.Event]] = {}  # the request is kept: its id stays its own
        self._held: list[Callable[[], None]] | None = None  # None: no prompt waits

    def show(self, write: Callable[[], None]) -> None:
        """An event's output: written now, or once the prompt that waits has its answer."""
        if self._held is None:
            write()
        else:
            self._held.append(write)

    def reached(self, request: AskRequest) -> None:
        """The consumer has shown the event that says `request` was asked: its question may be shown."""
        self._shown(request).set()

    async def ask(self, request: AskRequest) -> str | None:
        """The engine's `ask`: the question on stderr, the answer from the terminal (masked for auth-required)."""
        async with self._lock:
            await self._shown(request).wait()
            self._reached.pop(id(request), None)
            self._held = []
            try:
                return await _question(request)
            finally:
                held, self._held = self._held, None
                for write in held:
                    write()

    def _shown(self, request: AskRequest) -> asyncio.Event:
        if id(request) not in self._reached:
            self._reached[id(request)] = (request, asyncio.Event())
        return self._reached[id(request)][1]


async def _question(request: AskRequest) -> str | None:
    where = f" ({request.agent})" if request.agent else ""
    sys.stderr.write(f"\n{request.step}{where} asks ({request.state.value}):\n")
    text = "".join(p.text for p in request.question if isinstance(p, TextPart))
    if text:
        sys.stderr.write(strip_controls(text).rstrip("\n") + "\n")
    for part in request.question:
        if isinstance(part, DataPart):
            sys.stderr.write(json_text(part.data, indent=2) + "\n")
    sys.stderr.flush()
    if request.sign_in is not None and await _signed_in(request.sign_in):
        return request.sign_in.answer
    while True:
        line = await read_line("answer (hidden)> " if request.secret else "answer> ", request.secret)
        if line is None or line.strip():
            return line
        sys.stderr.write("an empty answer is not sent: type one, or press Ctrl+C to stop watching\n")


async def _signed_in(sign_in: SignIn) -> bool:
    """Offer the sign-in the question asks for; run it when the person agrees. Whether it was done (if not, the
    person types the credential instead)."""
    line = await read_line(f"{sign_in.offer.wanted_by('it')}. Sign in now? [Y/n] ", False)
    if line is None or line.strip().lower() not in ("", "y", "yes"):
        return False
    try:
        await sign_in.run()
    except SwitchboardError as exc:
        warn(f"the sign-in failed: {exc.message}; type the credential instead")
        return False
    return True


async def read_line(prompt: str, secret: bool) -> str | None:
    """One line from the terminal on a daemon thread, so Ctrl+C never waits for Enter."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[str | None] = loop.create_future()

    def read() -> None:
        try:
            if secret:
                line: str | None = getpass.getpass(prompt, stream=sys.stderr)
            else:
                sys.stderr.write(prompt)
                sys.stderr.flush()
                raw = sys.stdin.readline()
                line = raw.rstrip("\n") if raw else None
        except (EOFError, OSError):
            line = None

        def deliver() -> None:
            if not future.done():  # canceled meanwhile (Ctrl+C): a result now would raise
                future.set_result(line)

        loop.call_soon_threadsafe(deliver)

    threading.Thread(target=read, name="switchboard-answer", daemon=True).start()
    return await future
