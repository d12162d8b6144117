"""Closing a tab, or quitting, while a task is open at an agent (or a workflow run is going): cancel it, leave it
running, or stay. Closing only stops the watching; the task goes on at the agent unless it is canceled, so the
question says where to find it again. Not so at a demo agent of `switchboard --demo`: the fleet stops with the
app, and its tasks end with it (a tab closed goes on only while the app runs)."""

from __future__ import annotations

import asyncio
from typing import Literal

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ...safe_text import strip_controls
from ..open_work import OpenWork

Choice = Literal["cancel", "leave", "stay"]
WAITING = ("input-required", "auth-required")  # a conversation task's states that wait for the person
CANCEL_WAIT = 15.0  # seconds an agent gets to answer a cancel before the tab closes or the app quits anyway


async def cancel_all(work: list[OpenWork], timeout: float = CANCEL_WAIT) -> list[str]:
    """Cancel each at once; a sentence per item on how it went (and where to find one that would not end)."""

    async def one(item: OpenWork) -> str:
        try:
            async with asyncio.timeout(timeout):
                await item.cancel()
        except Exception as exc:  # the agent refused, failed or took too long: the task may go on
            reason = getattr(exc, "message", None) or str(exc) or type(exc).__name__
            return f"{item.label}: not canceled ({reason}); find it again with {item.find}"
        return f"{item.label}: canceled"

    return list(await asyncio.gather(*(one(item) for item in work)))


async def leave_all(work: list[OpenWork], *, quitting: bool = False) -> list[str]:
    """Let each go on without us; a sentence per item on where to find it again (or, quitting, that a demo
    agent's task ends with the app)."""
    for item in work:
        if item.leave is not None:
            await item.leave()
    return [_left(item, quitting) for item in work]


def _left(item: OpenWork, quitting: bool) -> str:
    if item.ends_with_app and quitting:
        return f"{item.label} ended: the demo agents stopped with the app"
    going = "goes on while the app runs" if item.ends_with_app else "goes on"
    return f"{item.label} {going}; {_kept(item, quitting)}find it again with {item.find}"


def _kept(item: OpenWork, quitting: bool) -> str:
    """A task left at a question stays in the inbox (remembered across a restart): said where it is. Not a demo
    agent's once the app quits: the fleet stops with it, and the task with the fleet."""
    if item.state not in WAITING or (item.ends_with_app and quitting):
        return ""
    return "the Inbox (f5) keeps it; " if item.ends_with_app else "the Inbox (f5, `switchboard inbox`) keeps it; "


def _where(item: OpenWork, quitting: bool) -> Content:
    """The line under an item: where to find it again, or why there is nowhere."""
    if item.ends_with_app and quitting:
        return Content.styled("\n  ends when the app quits: the demo agents stop with it", "$text-muted")
    kept = _kept(item, quitting)
    lead = "goes on while the app runs (the demo agents stop when it quits); " if item.ends_with_app else ""
    said = lead + (kept or "find it again: ")
    return Content.assemble(
        ("\n  " + said, "$text-muted"), strip_controls(item.find if not kept else f"or {item.find}")
    )


class LeaveWorkScreen(ModalScreen[Choice]):
    BINDINGS = [Binding("escape", "stay", "Stay", id="leave.stay")]

    def __init__(self, work: list[OpenWork], *, quitting: bool) -> None:
        super().__init__()
        self.work = work
        self.quitting = quitting

    def compose(self) -> ComposeResult:
        many = len(self.work) > 1
        doing = "Quit" if self.quitting else "Close this tab"
        # Quitting `switchboard --demo` stops the demo fleet: its agents' tasks end, nothing is left running.
        ending = self.quitting and all(item.ends_with_app for item in self.work)
        if ending:
            head = (
                f"Quit? The demo agents stop with the app, and {'these end' if many else 'this task ends'} with them:"
            )
        else:
            head = f"{doing}? {'These go' if many else 'This goes'} on at the agent unless canceled:"
        with Vertical(classes="dialog leave"):
            yield Static(Content.styled(head, "bold"))
            with VerticalScroll(id="open-work"):
                for item in self.work:
                    yield Static(
                        Content.assemble(
                            (strip_controls(f"{item.label} ({item.state})"), "bold $warning"),
                            _where(item, self.quitting),
                        ),
                        classes="open-work",
                    )
            with Horizontal(classes="dialog-buttons"):
                yield Button(f"Cancel {'them' if many else 'it'}", variant="error", id="cancel")
                yield Button("Quit" if ending else "Leave running", variant="primary", id="leave")
                yield Button("Stay", id="stay")

    def on_mount(self) -> None:
        self.query_one("#stay", Button).focus()

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.dismiss("cancel")

    @on(Button.Pressed, "#leave")
    def _leave(self) -> None:
        self.dismiss("leave")

    @on(Button.Pressed, "#stay")
    def action_stay(self) -> None:
        self.dismiss("stay")
