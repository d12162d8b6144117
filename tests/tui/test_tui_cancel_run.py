"""f8 cancels a whole run only once the person says so: a small question, whose keyboard starts on "Keep running"
(esc and enter keep it too). Against the demo fleet: the interview workflow, waiting for its first answer."""

from __future__ import annotations

import pytest
from textual.widgets import Button, OptionList
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


def offers_cancel_step(app) -> bool:
    active = app.screen.active_bindings.get("ctrl+g")
    return active is not None and active.enabled and active.binding.description == "Cancel step"


async def test_ctrl_g_is_offered_only_on_a_step_that_is_going(app):
    async with app.run_test(size=SIZE) as pilot:
        view = await launch_workflow(pilot, "interview.yaml")
        await until(lambda: bool(view.query("PromptPane Input")))  # the interview step waits for the person
        steps = view.query_one("#steps", OptionList)
        steps.focus()
        steps.highlighted = 0
        await until(lambda: view.selected_step() == "interview" and offers_cancel_step(app))
        steps.highlighted = 1
        await until(lambda: view.selected_step() == "welcome")
        await pilot.pause()
        assert not offers_cancel_step(app)  # pending: nothing to cancel yet
        steps.highlighted = 0
        await until(lambda: offers_cancel_step(app))
        await pilot.press("ctrl+g")
        await until(lambda: view.steps["interview"].status == "canceled")
        await until(lambda: view.selected_step() == "interview" and view.status != "running")
        await pilot.pause()
        assert not offers_cancel_step(app)  # ended: the key would do nothing
