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
    await _until(pilot, lambda: bool(view.query(A2uiSurface)) and view._throttle.drawn)
    await settle(pilot, 0.6)  # the tab's underline and the form's scroll into view, done before the picture
    await pilot.press(*"2026-12-24")
    await settle(pilot, 0.6)


HOSTILE = "\x1b]0;pwned\x07\x1b[31mred\x1b[0m [bold]not markup[/] \u202eevil"


def catalog_messages() -> list[dict]:
    """One surface with every component of the basic catalog, an unknown one, and hostile text (v0.9)."""
    components = [
        {"id": "root", "component": "Column", "children": [
            "title", "hostile", "image", "icon", "video", "audio", "row", "list", "card", "tabs", "rule", "modal",
            "field", "secret", "long", "check", "pick", "picks", "slider", "when", "link", "go", "fancy"]},
        {"id": "title", "component": "Text", "variant": "h1", "text": "Every component"},
        {"id": "hostile", "component": "Text", "text": HOSTILE},
        {"id": "image", "component": "Image", "url": "https://example.com/a.png", "description": "A photo"},
        {"id": "icon", "component": "Icon", "name": "star"},
        {"id": "video", "component": "Video", "url": "https://example.com/v.mp4"},
        {"id": "audio", "component": "AudioPlayer", "url": "https://example.com/a.mp3", "description": "A song"},
        {"id": "row", "component": "Row", "children": ["left", "right"]},
        {"id": "left", "component": "Text", "text": "left"},
        {"id": "right", "component": "Text", "text": "right"},
        {"id": "list", "component": "List", "children": {"path": "/items", "componentId": "item"}},
        {"id": "item", "component": "Text", "text": {"path": "name"}},
        {"id": "card", "component": "Card", "child": "card-text"},
        {"id": "card-text", "component": "Text", "text": "in a card"},
        {"id": "tabs", "component": "Tabs", "tabs": [
            {"title": "One", "child": "tab-1"}, {"title": "Two", "child": "tab-2"}]},
        {"id": "tab-1", "component": "Text", "text": "first tab"},
        {"id": "tab-2", "component": "Text", "text": "second tab"},
        {"id": "rule", "component": "Divider"},
        {"id": "modal", "component": "Modal", "trigger": "more", "content": "more-text"},
        {"id": "more", "component": "Button", "child": "more-label", "action": {"event": {"name": "more"}}},
        {"id": "more-label", "component": "Text", "text": "Details"},
        {"id": "more-text", "component": "Text", "text": "the details"},
        {"id": "field", "component": "TextField", "label": "Email", "value": {"path": "/email"},
         "checks": [{"condition": {"call": "email", "args": {"value": {"path": "/email"}}}, "message": "An email."}]},
        {"id": "secret", "component": "TextField", "label": "PIN", "variant": "obscured", "value": {"path": "/pin"}},
        {"id": "long", "component": "TextField", "label": "Notes", "variant": "longText", "value": {"path": "/notes"}},
        {"id": "check", "component": "CheckBox", "label": "Subscribe", "value": {"path": "/sub"}},
        {"id": "pick", "component": "ChoicePicker", "label": "One", "options": [
            {"label": "A", "value": "a"}, {"label": "B", "value": "b"}], "value": {"path": "/one"}},
        {"id": "picks", "component": "ChoicePicker", "label": "Many", "variant": "multipleSelection", "options": [
            {"label": "X", "value": "x"}, {"label": "Y", "value": "y"}], "value": {"path": "/many"}},
        {"id": "slider", "component": "Slider", "label": "Volume", "min": 0, "max": 10, "value": {"path": "/vol"}},
        {"id": "when", "component": "DateTimeInput", "label": "When", "enableDate": True, "enableTime": True,
         "value": {"path": "/when"}},
        {"id": "link", "component": "Button", "child": "link-label",
         "action": {"functionCall": {"call": "openUrl", "args": {"url": "https://example.com/menu"}}}},
        {"id": "link-label", "component": "Text", "text": "Open the menu"},
        {"id": "go", "component": "Button", "variant": "primary", "child": "go-label",
         "action": {"event": {"name": "go", "context": {"email": {"path": "/email"}, "pin": {"path": "/pin"}}}}},
        {"id": "go-label", "component": "Text", "text": "Send"},
        {"id": "fancy", "component": "HoloDeck", "power": 9},
    ]  # fmt: skip
    data = {"items": [{"name": "first item"}, {"name": "second item"}], "email": "", "one": ["b"], "many": ["x"],
            "vol": 3, "sub": True}  # fmt: skip
    return [
        {"version": "v0.9", "createSurface": {"surfaceId": "catalog", "catalogId": ui.CATALOG_V091}},
        {"version": "v0.9", "updateComponents": {"surfaceId": "catalog", "components": components}},
        {"version": "v0.9", "updateDataModel": {"surfaceId": "catalog", "value": data}},
    ]


def catalog_links() -> dict[str, ScriptedLink]:
    """The booking agent answering with the whole catalog in a completed task: a surface outside a question."""
    parts = [TextPart(text="Here is everything."), DataPart(data=catalog_messages(),
             metadata={"mimeType": "application/a2ui+json"})]  # fmt: skip
    message = Message(message_id="m-catalog", role=Role.AGENT, parts=parts, task_id=TASK, context_id=CONTEXT)
    done = StatusUpdate(task_id=TASK, context_id=CONTEXT, status=TaskStatus(state=TaskState.COMPLETED, message=message))
    first = [Task(id=TASK, context_id=CONTEXT, status=TaskStatus(state=TaskState.SUBMITTED)), done]
    return {"booking": ScriptedLink("booking", parse_card(BOOKING_CARD), [first, []])}
