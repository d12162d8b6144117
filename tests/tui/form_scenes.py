"""The form scene: a booking agent (scripted, as the other scenes' agents) asks with an A2UI form, and the prompt
pane is that form. Its agent is opened by the scene itself, so the other scenes' agents table stays as it was."""

from __future__ import annotations

from scenes import CONTEXT, TASK, ScriptedLink, _interfaces, _until, settle

from switchboard.a2a.cards import parse_card
from switchboard.a2a.model import DataPart, Message, Role, StatusUpdate, Task, TaskState, TaskStatus, TextPart
from switchboard.agent_status import AgentStatus
from switchboard.agents import AgentEntry
from switchboard.demo import booking_surfaces as ui

BOOKING_URL = "https://booking.agents.example/"
BOOKING_CARD = {
    "name": "Booking",
    "description": "Books a table with an A2UI form.",
    "version": "1.0.0",
    "provider": {"organization": "a2a-switchboard demo"},
    "supportedInterfaces": _interfaces(BOOKING_URL),
    "capabilities": {"streaming": True, "extensions": [{"uri": "https://a2ui.org/a2a-extension/a2ui/v0.9.1"}]},
    "defaultInputModes": ["text/plain"],
    "defaultOutputModes": ["text/plain", "application/a2ui+json"],
    "skills": [{"id": "book", "name": "Book a table", "description": "A form.", "tags": ["a2ui"]}],
}


def form_question() -> StatusUpdate:
    form = ui.surface_v091(ui.FORM, ui.form_components(), {"booking": dict(ui.DEFAULTS)})
    parts = [TextPart(text="Book a table: fill in the form."),
             DataPart(data=form, metadata={"mimeType": "application/a2ui+json"})]  # fmt: skip
    message = Message(message_id="m-form", role=Role.AGENT, parts=parts, task_id=TASK, context_id=CONTEXT)
    status = TaskStatus(state=TaskState.INPUT_REQUIRED, message=message, timestamp="2026-11-21T09:41:05.000000Z")
    return StatusUpdate(task_id=TASK, context_id=CONTEXT, status=status)


def form_links() -> dict[str, ScriptedLink]:
    first = [Task(id=TASK, context_id=CONTEXT, status=TaskStatus(state=TaskState.SUBMITTED)), form_question()]
    return {"booking": ScriptedLink("booking", parse_card(BOOKING_CARD), [first])}


async def form_scene(pilot) -> None:
    """The booking form in the prompt pane, its date typed in."""
    from switchboard.tui.widgets.a2ui.surface import A2uiSurface

    await settle(pilot)
    status = AgentStatus(AgentEntry(name="booking", url=BOOKING_URL), checked_at=1_700_000_000.0)
    status.card = parse_card(BOOKING_CARD)
    view = await pilot.app.screen.open_conversation(status)
    await _until(pilot, lambda: view.conversation is not None)
    view.query_one("#message").focus()
    await pilot.press(*"book a table", "enter")
    await _until(pilot, lambda: bool(view.query(A2uiSurface)))
    await settle(pilot, 0.3)
    await pilot.press(*"2026-12-24")
    await settle(pilot)
