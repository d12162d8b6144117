"""Where the keyboard goes around questions (Pilot, scripted agents): esc in a prompt pane puts it in the message box
the pane names, and in a run with two questions waiting, answering one puts it in the other's field, in view with
the title that says which step asks. At 130x40, 80x24 and 60x15."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from scenes import CONTEXT, TASK, build_app, interviewer_question, run_record, scene_links, settle
from textual.widgets import Footer, Input
from tui_support import until

from switchboard.a2a.model import TaskState, TextPart
from switchboard.tui.widgets.composer import MessageArea
from switchboard.tui.widgets.prompt_pane import PromptPane
from switchboard.tui.widgets.run_view import RunView
from switchboard.workflow.state import AskRequest

SIZES = [(130, 40), (80, 24), (60, 15)]


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    return build_app(tmp_path, links=scene_links())


def footer_text(app) -> str:
    return " ".join(str(widget.render()) for widget in app.screen.query_one(Footer).query("*"))


def seen(app, widget) -> bool:
    """On screen and not covered: what the person can see."""
    region = widget.region
    if not (region.height > 0 and app.screen.region.contains_region(region)):
        return False
    under, _ = app.screen.get_widget_at(*region.center)
    return under is widget or widget in under.ancestors


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_esc_in_a_question_puts_the_keyboard_in_the_message_box_it_names(app, size):
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("down", "enter")  # the interviewer, who asks a question
        await until(lambda: isinstance(app.focused, MessageArea))
        await pilot.press(*"interview me", "enter")
        await until(lambda: bool(app.screen.query("PromptPane Input")) and isinstance(app.focused, Input))
        pane = app.screen.query_one(PromptPane)
        assert "esc answers later from the message box" in str(pane.query_one(".prompt-hint").render())
        await until(lambda: "Answer later" in footer_text(app))
        await pilot.press("escape", *"Ada")
        box = app.screen.query_one(MessageArea)
        assert app.focused is box  # not the Send button beside the field, where the keys went nowhere
        assert box.text == "Ada"
        await until(lambda: "Answer later" not in footer_text(app) and "Send" in footer_text(app))
        assert pane.is_attached and not pane.has_focus_within  # the question waits, drawn as not having the keyboard
        await pilot.press("enter")  # answered from the message box: the same task goes on
        link = app.screen.query_one("ConversationView").link
        await until(lambda: len(link.sent) == 2)
        assert (link.sent[-1].text, link.sent[-1].task_id) == ("Ada", TASK)


def ask(step: str, text: str | None = None) -> AskRequest:
    # Without a text: the interviewer's question, with data under it.
    parts = interviewer_question().status.message.parts if text is None else [TextPart(text=text)]
    return AskRequest(step, TaskState.INPUT_REQUIRED, parts, TASK, CONTEXT, step, "interviewer")


async def a_run_view(pilot) -> RunView:
    """The scenes' briefing run, shown as the live run it was (the view's own state; no engine behind it)."""
    record = run_record()
    view = RunView("briefing", record=record)
    await pilot.app.screen._add_run(view)
    view.run = SimpleNamespace(run_id=record.run_id, status="running", steps=record.steps)  # type: ignore[assignment]
    await settle(pilot, 0.2)
    return view


def pane_of(view: RunView, step: str) -> PromptPane:
    return next(pane for pane in view.query(PromptPane) if pane.title == f"step {step}")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_answering_one_of_two_questions_puts_the_keyboard_in_the_other(app, size):
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        view = await a_run_view(pilot)
        answers: dict[str, str | None] = {}

        async def answer(request: AskRequest) -> None:
            answers[request.step] = await view.ask(request)

        pilot.app.run_worker(answer(ask("interview")))
        await until(lambda: isinstance(app.focused, Input) and app.focused in pane_of(view, "interview").query(Input))
        pilot.app.run_worker(answer(ask("combine", "Which title should the briefing have?")))
        await until(lambda: len(view.query(PromptPane)) == 2 and view.query(PromptPane).last().query(Input))
        await settle(pilot, 0.2)
        first, second = pane_of(view, "interview"), pane_of(view, "combine")
        assert first.query_one(Input).has_focus  # a question that comes later leaves the one being answered alone
        await pilot.press(*"Ad")

        await pilot.press("tab")  # from one question's field to the next one's, not through its button
        assert app.focused is second.query_one(Input)
        await pilot.press("shift+tab", "end", "a", "enter")  # (the field selects what it holds when it is entered)
        await until(lambda: "interview" in answers)
        assert answers["interview"] == "Ada"

        field = second.query_one(Input)
        # The answered pane goes, then the keyboard moves (the ask's worker resumes after the removal).
        await until(lambda: not first.is_attached and app.focused is field)
        await settle(pilot, 0.2)
        assert seen(app, field)
        assert seen(app, second.query_one(".prompt-title"))  # which step asks
        assert "step combine" in str(second.query_one(".prompt-title").render())
        await pilot.press(*"Tides", "enter")
        await until(lambda: "combine" in answers)
        assert answers["combine"] == "Tides"
        await until(lambda: not view.query(PromptPane))
        assert app.focused is view.query_one("#steps")  # none left: the list of steps


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_esc_in_a_run_question_puts_the_keyboard_in_the_list_of_steps(app, size):
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        view = await a_run_view(pilot)
        pilot.app.run_worker(view.ask(ask("interview")))
        await until(lambda: isinstance(app.focused, Input))
        await pilot.press("escape")
        assert app.focused is view.query_one("#steps")
        await until(lambda: "Answer later" not in footer_text(app) and "Cancel run" in footer_text(app))
        assert "enter on the step comes back to it" in str(view.query_one(".prompt-hint").render())
        await pilot.press("enter")  # on the highlighted step, the one that asks
        assert app.focused is view.query_one(PromptPane).query_one(Input)
