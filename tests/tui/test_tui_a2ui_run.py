"""A run's step that asks with an A2UI form: the run view's prompt pane is the form, filled from the keyboard; the
event goes to the step's task (validated against the spec's schema) and the run completes."""

from __future__ import annotations

from a2ui_schemas import client_event_errors
from tui_support import app_on_fleet, launch_workflow, until

from switchboard.a2a.model import DataPart, Role
from switchboard.tui.widgets.a2ui.surface import A2uiSurface
from switchboard.tui.widgets.prompt_pane import PromptPane

WORKFLOW = """\
version: 1
name: booking
description: Book a table, then say so.
steps:
  - name: book
    agent: booking
    task: book a table
  - name: tell
    agent: echo
    task: "{{steps.book.output}}"
    dependsOn: [book]
"""


def _form(view, surface_id: str) -> bool:
    return any(f.surface_id == surface_id for p in view.query(PromptPane) for f in p.query(A2uiSurface))


async def test_a_steps_form_is_answered_from_the_run_view(fleet, tmp_path, monkeypatch):
    (tmp_path / "config" / "workflows").mkdir(parents=True)
    (tmp_path / "config" / "workflows" / "booking.yaml").write_text(WORKFLOW)
    app = app_on_fleet(fleet, tmp_path, monkeypatch)
    async with app.run_test(size=(130, 40)) as pilot:
        view = await launch_workflow(pilot, "booking.yaml")
        await until(lambda: _form(view, "booking-form"))
        await pilot.pause()
        await pilot.press(*"2026-12-31", "tab", "tab", "tab", "tab", *"Lin", "enter")
        await until(lambda: _form(view, "booking-confirm"))
        await pilot.pause()
        await pilot.press("enter")
        await until(lambda: view.status == "completed", timeout=60)
        # the form's values reached the agent in the step's task: the booking is Lin's, on the date typed
        assert "Lin, 2 people, 2026-12-31 at 19:30" in view.steps["book"].output
        assert "Lin, 2 people, 2026-12-31" in view.steps["tell"].output
        # the events as sent, from the agent's own record of the task
        link = await app.open_link(next(a for a in app.agents() if a.name == "booking"))
        async with link:
            task = await link.get_task(view.steps["book"].task_id)
        events = [p.data for m in task.history or [] if m.role is Role.USER for p in m.parts if isinstance(p, DataPart)]
        assert [e[0]["action"]["name"] for e in events] == ["book", "confirm"]
        assert all(client_event_errors(e, "v0.9.1") == [] for e in events)
