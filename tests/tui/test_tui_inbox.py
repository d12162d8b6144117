"""The inbox tab on the demo fleet: a question left waiting comes back after a restart (re-read from its agent)
and is answered there; one its agent no longer knows says so and is dismissed; the nudge writes the terminal's
notification escapes and runs the notify command only while the app is not focused."""

from __future__ import annotations

import json
import sys

from textual import events
from textual.widgets import Button
from tui_support import app_on_fleet, launch_workflow, talk, until

from switchboard.a2a.model import TextPart
from switchboard.inbox.store import Remembered, load_remembered, remember
from switchboard.tui.widgets.a2ui.surface import A2uiSurface
from switchboard.tui.widgets.inbox_pane import InboxPane
from switchboard.tui.widgets.prompt_pane import PromptPane


def items(app):
    return app.screen.inbox.items


async def test_a_question_left_waiting_comes_back_after_a_restart_and_is_answered_in_the_inbox(
    fleet, tmp_path, monkeypatch
):
    app = app_on_fleet(fleet, tmp_path, monkeypatch)
    async with app.run_test(size=(120, 36)) as pilot:
        view = await talk(pilot, "interviewer", "interview me")
        await until(lambda: [i.first_line for i in items(app)] == ["What is your name?"])
        task_id = view.conversation.last.view.task_id
    # Written as the task began to wait, not at quitting (a crash loses nothing): ids and the question, no answer.
    [kept] = load_remembered()
    assert (kept.agent, kept.task_id, kept.question) == ("interviewer", task_id, "What is your name?")
    # A task the agent never had, as if the agent had been restarted since.
    gone = Remembered("interviewer", kept.agent_url, "no-such-task", "", "input-required", "Old question?", 1.0)
    remember(gone)

    app = app_on_fleet(fleet, tmp_path, monkeypatch)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("f5")
        await until(lambda: len(items(app)) == 2 and all("re-reading" not in i.note for i in items(app)))
        stale, back = items(app)  # oldest first: the made-up one is from 1970
        assert stale.stale and stale.note == "the agent no longer knows this task"
        assert not back.stale and back.task_id == task_id and back.where == "remembered"
        pane = app.screen.query_one(InboxPane)
        # Dismissed with ctrl+d from the list (only a task its agent no longer knows can be).
        assert pane.highlighted() is stale
        await pilot.press("ctrl+d")
        await until(lambda: [i.task_id for i in items(app)] == [task_id])
        assert [e.task_id for e in load_remembered()] == [task_id]
        # Answered in the inbox's prompt pane: the task goes on at the agent, and its next question is the item's.
        await pilot.press("enter")
        await until(lambda: pane.query("PromptPane Input") and pane.query_one("PromptPane Input").has_focus)
        await pilot.press(*"Ada", "enter")
        await until(lambda: "Nice to meet you, Ada" in "".join(i.question for i in items(app)))
        assert not pane.query(PromptPane)
        await until(lambda: "Nice to meet you, Ada" in load_remembered()[0].question)
        # The next question is an A2UI form: the same form as in a tab, its action the answer (the task completes).
        await pilot.press("enter")
        await until(lambda: bool(pane.query(A2uiSurface)) and bool(pane.query("A2uiSurface Button")))
        assert not pane.query("#prompt-input")  # the form, not the field for words
        press_form_button(pane, "Answer")
        await until(lambda: items(app) == [] and load_remembered() == [])
        assert not pane.query(PromptPane)


async def test_without_forms_the_inbox_asks_in_words_and_shows_no_form_messages(fleet, tmp_path, monkeypatch):
    """The interviewer's form question in a tab of a TUI that draws no A2UI: the inbox's pane shows the question
    and its choices (a data part), never the form's messages as raw JSON, and takes a typed answer."""
    app = app_on_fleet(fleet, tmp_path, monkeypatch)
    async with app.run_test(size=(120, 36)) as pilot:
        view = await talk(pilot, "interviewer", "interview me")
        await until(lambda: len(items(app)) == 1)
        view.send([TextPart(text="Ada")])
        await until(lambda: "Nice to meet you, Ada" in "".join(i.question for i in items(app)))
        app.settings = app.settings.model_copy(update={"a2ui": False})  # forms are not drawn now
        await pilot.press("f5")
        pane = app.screen.query_one(InboxPane)
        pane.focus_filter()
        await pilot.press("enter")
        await until(lambda: pane.query("PromptPane Input") and pane.query_one("PromptPane Input").has_focus)
        assert [type(part).__name__ for part in pane.query_one(PromptPane).question] == ["TextPart", "DataPart"]
        assert "choices" in pane.query_one(PromptPane).question[1].data
        await pilot.press("1", "enter")
        await until(lambda: items(app) == [])


NOTIFY = (
    "import json, os, sys; "
    "json.dump({k: v for k, v in os.environ.items() if k.startswith('SWITCHBOARD_ITEM_')}, open(sys.argv[1], 'w'))"
)


async def test_the_nudge_goes_to_the_terminal_only_while_the_app_is_not_focused(fleet, tmp_path, monkeypatch):
    told = tmp_path / "told.json"
    settings = tmp_path / "config" / "settings.yaml"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"notify_command": [sys.executable, "-c", NOTIFY, str(told)]}))
    app = app_on_fleet(fleet, tmp_path, monkeypatch)
    async with app.run_test(size=(120, 36)) as pilot:
        written: list[str] = []
        app._driver.write = written.append  # what reaches the terminal, raw
        # Focused: a new question is shown in the app only.
        first = await talk(pilot, "interviewer", "interview me")
        await until(lambda: len(items(app)) == 1)
        await pilot.pause(0.3)
        assert not [w for w in written if "\x1b]9;" in w or "\a" in w]
        # The terminal window loses the focus; then a second agent asks.
        app.post_message(events.AppBlur())
        await until(lambda: not app.app_focus)
        second = await talk_without_keys(pilot, app, "interviewer")
        await until(lambda: len(items(app)) == 2)
        await until(lambda: told.exists() and told.stat().st_size > 0)
        escapes = "".join(written)
        assert "\a\x1b]9;switchboard: interviewer asks: What is your name?\x07" in escapes
        assert "\x1b]777;notify;switchboard: interviewer asks;What is your name?\x07" in escapes
        env = json.loads(told.read_text())
        assert env["SWITCHBOARD_ITEM_QUESTION"] == "What is your name?"
        assert env["SWITCHBOARD_ITEM_WHO"] == "interviewer" and env["SWITCHBOARD_ITEM_KIND"] == "task"
        assert env["SWITCHBOARD_ITEM_ID"] == items(app)[1].id
        assert first is not second


async def talk_without_keys(pilot, app, name: str):
    """A conversation opened and its message sent without a key press (a key would give the app the focus back)."""
    from switchboard.tui.widgets.conversation_view import ConversationView

    status = app.screen.query_one("AgentsPane").statuses[name]
    view = await app.screen.open_conversation(status)
    await until(lambda: view.conversation is not None)
    assert isinstance(view, ConversationView)
    view.send([TextPart(text="interview me")])
    return view


async def test_a_run_started_here_is_answered_in_the_inbox_and_goes_on(fleet, tmp_path, monkeypatch):
    """The run's step asks through its run view; the inbox's pane carries the same ask, so the answer continues the
    run here (the run index, which lists the run as waiting a moment longer, never has it resumed a second time)."""
    app = app_on_fleet(fleet, tmp_path, monkeypatch)
    async with app.run_test(size=(120, 36)) as pilot:
        view = await launch_workflow(pilot, "interview.yaml")
        await until(lambda: [i.kind for i in items(app)] == ["run"])
        await pilot.press("f5")
        pane = app.screen.query_one(InboxPane)
        await pilot.press("enter")
        await until(lambda: pane.query("PromptPane Input") and pane.query_one("PromptPane Input").has_focus)
        await pilot.press(*"Ada", "enter")
        try:
            await until(lambda: "Nice to meet you, Ada" in "".join(i.question for i in items(app)))
        except TimeoutError:  # seen once in a loaded run: say what the step did
            steps = {n: (s.status, s.error_code, s.error) for n, s in view.steps.items()}
            raise AssertionError(f"the second question never came: {view.status}, {steps}") from None
        await pilot.press("enter")  # the step's second question is a form, as in its run view: its action answers
        await until(lambda: bool(pane.query("A2uiSurface Button")))
        press_form_button(pane, "Answer")
        await until(lambda: view.status == "completed")
        assert items(app) == [] and len(app.screen.query("RunView")) == 1


def press_form_button(pane, label: str) -> None:
    next(b for b in pane.query("A2uiSurface Button").results(Button) if label in str(b.label)).press()
