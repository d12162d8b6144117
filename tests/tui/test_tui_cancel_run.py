"""f8 cancels a whole run only once the person says so: a small question, whose keyboard starts on "Keep running"
(esc and enter keep it too). Against the demo fleet: the interview workflow, waiting for its first answer."""

from __future__ import annotations

import pytest
from textual.widgets import Button
from tui_support import app_on_fleet, click, demo_fleet, launch_workflow, until

from switchboard.demo.base import DemoSettings
from switchboard.tui.screens.confirm import ConfirmScreen
from switchboard.tui.widgets.prompt_pane import PromptPane

SIZE = (130, 40)


@pytest.fixture(scope="module")
def fleet():
    with demo_fleet(DemoSettings()) as handle:
        yield handle


@pytest.fixture
def app(fleet, tmp_path, monkeypatch):
    return app_on_fleet(fleet, tmp_path, monkeypatch)


async def asked(pilot) -> ConfirmScreen:
    await until(lambda: isinstance(pilot.app.screen, ConfirmScreen))
    return pilot.app.screen


async def test_f8_asks_and_keeping_the_run_leaves_it_running(app):
    async with app.run_test(size=SIZE) as pilot:
        view = await launch_workflow(pilot, "interview.yaml")
        await until(lambda: bool(view.query("PromptPane Input")))  # waiting for the person
        run = view.run
        await pilot.press("f8")
        dialog = await asked(pilot)
        said = str(dialog.query_one("Static").render())
        assert f"Cancel the whole run {run.run_id} (interview)?" in said
        assert "1 step still going" in said
        assert dialog.focused is dialog.query_one("#no", Button)  # enter out of habit keeps the run
        await pilot.press("enter")
        await until(lambda: not isinstance(app.screen, ConfirmScreen))
        await pilot.press("f8")
        await asked(pilot)
        await pilot.press("escape")
        await until(lambda: not isinstance(app.screen, ConfirmScreen))
        await pilot.pause(0.2)
        assert run.status == "running"
        pane = view.query_one(PromptPane)
        assert pane.future is not None and not pane.future.done()  # its question still waits
        await pilot.press(*"Ada", "enter")  # and it goes on
        await until(lambda: "Ada" in str(view.steps["interview"].view.history))


async def test_f8_then_cancel_run_cancels_the_run_and_its_question(app):
    async with app.run_test(size=SIZE) as pilot:
        view = await launch_workflow(pilot, "interview.yaml")
        await until(lambda: bool(view.query("PromptPane Input")))
        run = view.run
        await pilot.press("f8")
        await asked(pilot)
        await click(pilot, "#yes")
        await until(lambda: run.status == "canceled")
        await until(lambda: not view.query(PromptPane))
        assert not view.waiting


def offers_f8(app) -> bool:
    active = app.screen.active_bindings.get("f8")
    return active is not None and active.enabled and active.binding.show


async def test_f8_is_offered_while_the_run_goes_and_not_once_it_ended(app):
    async with app.run_test(size=SIZE) as pilot:
        view = await launch_workflow(pilot, "interview.yaml")
        await until(lambda: bool(view.query("PromptPane Input")))
        view.focus()
        await pilot.pause()
        assert offers_f8(app)
        await pilot.press("f8")
        await asked(pilot)
        await click(pilot, "#yes")
        await until(lambda: view.run.status == "canceled")
        view.focus()
        await until(lambda: not offers_f8(app))
        await pilot.press("f8")  # nothing to cancel: no question either
        await pilot.pause(0.2)
        assert not isinstance(app.screen, ConfirmScreen)
