"""The booking agent's A2UI form in the TUI, from the keyboard alone: the prompt pane is the form; each event the
client sends validates against the spec's schema of its version and answers the task that asked."""

from __future__ import annotations

from a2ui_schemas import client_event_errors
from textual.widgets import Input
from tui_support import app_on_fleet, talk, until

from switchboard.a2a.model import DataPart, TaskState
from switchboard.tui.widgets.a2ui.surface import A2uiSurface
from switchboard.tui.widgets.prompt_pane import PromptPane


def _form(view, surface_id: str) -> A2uiSurface | None:
    forms = [f for p in view.query(PromptPane) for f in p.query(A2uiSurface) if f.surface_id == surface_id]
    return forms[0] if forms else None


def _sent(view) -> dict:
    part = view.conversation.turns[-1].message.parts[0]
    assert isinstance(part, DataPart)
    return part.data


async def test_the_booking_form_is_filled_and_sent_from_the_keyboard(fleet, tmp_path, monkeypatch):
    app = app_on_fleet(fleet, tmp_path, monkeypatch)
    async with app.run_test(size=(130, 40)) as pilot:
        view = await talk(pilot, "booking", "book a table")
        await until(lambda: _form(view, "booking-form") is not None)
        await pilot.pause()
        assert isinstance(app.focused, Input)  # the keyboard is in the form's first field: the date
        # date, tab: time (kept), tab: party size (two more), tab: seating (the terrace), tab: name, enter sends
        await pilot.press(*"2026-12-24", "tab", "tab", "right", "right", "tab", "down", "space", "tab", *"Ada", "enter")
        await until(lambda: _form(view, "booking-confirm") is not None)
        task_id = view.conversation.turns[0].view.task_id
        sent = view.conversation.turns[1].message
        assert sent.task_id == task_id  # the answer goes to the task that asked
        assert sent.metadata and "a2uiClientCapabilities" in sent.metadata
        event = _sent(view)
        assert client_event_errors(event, "v0.9.1") == []
        action = event[0]["action"]
        assert (action["name"], action["surfaceId"], action["sourceComponentId"]) == ("book", "booking-form", "book")
        assert action["context"] == {
            "date": "2026-12-24", "time": "19:30", "party": 4, "seating": ["terrace"], "name": "Ada", "notes": "",
        }  # fmt: skip
        await pilot.pause()
        await pilot.press("enter")  # the confirmation card: the keyboard is on Confirm
        await until(lambda: view.conversation.last.view.state is TaskState.COMPLETED)
        assert client_event_errors(_sent(view), "v0.9.1") == []
        assert _sent(view)[0]["action"]["name"] == "confirm"
