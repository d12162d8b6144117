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


async def test_a_v08_form_then_the_booked_card_stays_live_and_its_button_starts_a_new_task(
    fleet, tmp_path, monkeypatch
):
    from textual.widgets import Button

    from switchboard.tui.widgets.transcript import TurnView

    app = app_on_fleet(fleet, tmp_path, monkeypatch)
    async with app.run_test(size=(130, 40)) as pilot:
        view = await talk(pilot, "booking", "book a table (v0.8)")
        await until(lambda: _form(view, "booking-form") is not None)
        await pilot.pause()
        await pilot.press(*"2026-12-25", "tab", "tab", "tab", "tab", *"Grace", "enter")
        await until(lambda: _form(view, "booking-confirm") is not None)
        event = _sent(view)
        assert client_event_errors(event, "v0.8") == []
        assert event["userAction"]["context"]["date"] == "2026-12-25"
        await pilot.pause()
        await pilot.press("enter")
        await until(lambda: view.conversation.last.view.state is TaskState.COMPLETED)
        first_task = view.conversation.last.view.task_id
        # the booked card is no question: it stays under its turn, live, and its button sends a new message
        await until(
            lambda: any(f.surface_id == "booking-done" for t in view.query(TurnView) for f in t.query(A2uiSurface))
        )
        card = next(f for t in view.query(TurnView) for f in t.query(A2uiSurface) if f.surface_id == "booking-done")
        await pilot.pause()
        card.query(Button).last().focus()
        await pilot.press("enter")
        await until(lambda: view.conversation.last.view.task_id not in (None, first_task))
        again = _sent(view)
        assert client_event_errors(again, "v0.8") == [] and again["userAction"]["name"] == "book_again"
        assert view.conversation.turns[-1].message.task_id is None  # a new task, in the same context
        await until(lambda: _form(view, "booking-form") is not None)
