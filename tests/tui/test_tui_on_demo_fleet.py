"""The TUI driven by Pilot against the real demo fleet (official a2a-sdk servers on 127.0.0.1)."""

from __future__ import annotations

import os

import pytest
from textual.widgets import Input, RadioSet, Static
from tui_support import app_on_fleet, demo_fleet, open_agent, until

from switchboard.a2a.model import DataPart, TaskState
from switchboard.demo import writer
from switchboard.demo.base import DemoSettings
from switchboard.tui.downloads import downloads_dir
from switchboard.tui.widgets.conversation_view import ConversationView
from switchboard.tui.widgets.prompt_pane import PromptPane
from switchboard.tui.widgets.transcript import ArtifactBox

SIZE = (120, 40)


@pytest.fixture(scope="module")
def fleet():
    with demo_fleet(DemoSettings(writer_pace_ms=1, quick_research_seconds=20)) as handle:
        yield handle


@pytest.fixture
def app(fleet, tmp_path, monkeypatch):
    return app_on_fleet(fleet, tmp_path, monkeypatch)


async def say(pilot, view: ConversationView, text: str) -> None:
    view.query_one("#message").focus()
    await pilot.press(*text, "enter")
    await until(lambda: view.conversation.last is not None)


async def test_writer_streams_a_document_that_arrives_exactly(app):
    async with app.run_test(size=SIZE) as pilot:
        view = await open_agent(pilot, "writer")
        await say(pilot, view, "tides")
        await until(lambda: view.conversation.last.view.state is TaskState.COMPLETED)
        await pilot.pause(0.2)
        expected = writer.compose("tides")
        artifact = view.conversation.last.view.artifacts[writer.ARTIFACT_ID]
        assert artifact.text == expected and artifact.chunks > 20
        # the frozen pages and the live one, in order
        assert view.query(ArtifactBox).last().source == expected


async def test_interviewer_asks_a_name_in_words_then_its_goal_as_a_form_picked_from_the_keyboard(app):
    async with app.run_test(size=SIZE) as pilot:
        view = await open_agent(pilot, "interviewer")
        await say(pilot, view, "interview me")
        await answer(pilot, "Ada")  # the first question, a name, is a text field
        await until(lambda: len(view.conversation.turns) == 2 and not view.running)
        # The second is the interviewer's A2UI form (its card declares A2UI): the keyboard is on the choices.
        await until(lambda: bool(pilot.app.screen.query("PromptPane A2uiSurface RadioSet")))
        pane = pilot.app.screen.query_one(PromptPane)
        await until(lambda: pilot.app.focused is pane.query_one(RadioSet))
        assert not pane.query("#prompt-input")  # no text field of the pane's own: the form is the answer
        assert not pane.query(".json-block")  # its `{"choices": [...]}` data part is the form's choices: not repeated
        question = str(pane.query_one(".question", Static).render())
        assert "Pick one below or say it in your own words." in question  # the form's choices carry no numbers
        # down: the second choice, space: pick it, tab: the own-words field, enter: send the form
        await pilot.press("down", "space", "tab", "enter")
        await until(lambda: len(view.conversation.turns) == 3 and not view.running)
        turn = view.conversation.last
        assert turn.view.state is TaskState.COMPLETED
        assert len({t.view.task_id for t in view.conversation.turns}) == 1  # one task, answered twice
        sent = turn.message.parts[0]
        assert isinstance(sent, DataPart) and sent.data[0]["action"]["name"] == "answer"
        data = [p.data for a in turn.view.artifacts.values() for p in a.parts if isinstance(p, DataPart)]
        assert {"name": "Ada", "goal": "test my own agent"} in data


async def test_on_an_80x24_terminal_the_goal_form_shows_with_its_question(app):
    async with app.run_test(size=(80, 24)) as pilot:
        view = await open_agent(pilot, "interviewer")
        await say(pilot, view, "interview me")
        await answer(pilot, "Ada")
        await until(lambda: bool(pilot.app.screen.query("PromptPane A2uiSurface RadioSet")))
        pane = pilot.app.screen.query_one(PromptPane)
        await until(lambda: pilot.app.focused is pane.query_one(RadioSet))
        await pilot.pause()
        transcript = pane.parent
        # The pane is taller than the view, which it covered whole: Textual scrolled nothing to show it, and the
        # transcript stayed at its end with the question above the view. The question shows, and the choices.
        assert pane.outer_size.height > transcript.scrollable_content_region.height
        assert transcript.region.contains_region(pane.query_one(".question").region)
        assert transcript.region.contains_region(pilot.app.focused.region)


async def test_researcher_task_is_canceled_from_the_keyboard(app):
    async with app.run_test(size=SIZE) as pilot:
        view = await open_agent(pilot, "researcher")
        await say(pilot, view, "quick: solar sails")
        await until(lambda: len(view.conversation.last.view.timeline) >= 3)
        await pilot.press("ctrl+g")
        await until(lambda: view.conversation.last.view.state is TaskState.CANCELED)
        await until(lambda: not view.running)


def offers_cancel(app, view: ConversationView) -> bool:
    """ctrl+g in the footer, and in the message box's hint."""
    active = app.screen.active_bindings.get("ctrl+g")
    footer = active is not None and active.enabled and active.binding.description == "Cancel task"
    hint = "ctrl+g cancel task" in str(view.query_one(".composer-hint", Static).render())
    assert footer == hint, (footer, hint)
    return footer


async def test_ctrl_g_is_offered_only_while_the_task_can_be_canceled(app):
    async with app.run_test(size=SIZE) as pilot:
        view = await open_agent(pilot, "writer")
        await until(lambda: view.conversation is not None and view.query_one("#message").has_focus)
        assert not offers_cancel(app, view)  # no task yet
        await say(pilot, view, "tides pace 300")
        await until(lambda: view.conversation.last.view.task_id is not None and view.running)
        await until(lambda: offers_cancel(app, view))
        await pilot.press("ctrl+g")
        await until(lambda: view.conversation.last.view.state is TaskState.CANCELED and not view.canceling)
        await pilot.pause()
        assert not offers_cancel(app, view)  # the key would do nothing: not offered
        await say(pilot, view, "tides pace 1")
        await until(lambda: view.conversation.last.view.state is TaskState.COMPLETED and not view.running)
        await pilot.pause()
        assert not offers_cancel(app, view)


async def test_gatekeeper_auth_required_round_trip(app):
    async with app.run_test(size=SIZE) as pilot:
        view = await open_agent(pilot, "gatekeeper")
        await say(pilot, view, "open the vault")
        await until(lambda: bool(pilot.app.screen.query("PromptPane Input")))
        assert view.waiting is TaskState.AUTH_REQUIRED
        field = pilot.app.screen.query_one(PromptPane).query_one(Input)
        await until(lambda: pilot.app.focused is field)
        assert field.password
        await pilot.press(*"sesame", "enter")
        await until(lambda: view.conversation.last.view.state is TaskState.COMPLETED)
        assert view.conversation.last.secret
        records = list(pilot.app.tap.records)
        sent = [r.body for r in records if r.kind == "request"]
        assert any("[redacted]" in body for body in sent)  # the passcode went out, and shows masked
        assert not any("sesame" in body for body in sent)
        key = os.environ["SWITCHBOARD_DEMO_KEY"]
        assert not any(key in r.body + str(r.headers) + r.url for r in records)


async def answer(pilot, text: str) -> None:
    """Answer the question the prompt pane shows, once the pane has the keyboard."""
    await until(lambda: bool(pilot.app.screen.query("PromptPane Input")))
    field = pilot.app.screen.query_one(PromptPane).query_one(Input)
    await until(lambda: pilot.app.focused is field)
    await pilot.press(*text, "enter")


async def test_after_a_cancel_the_transcript_follows_the_next_turn_to_its_end(app):
    # A2UI switched off (the setting): the interviewer asks its goal in words too, answered by a choice's number.
    app.settings = app.settings.model_copy(update={"a2ui": False})
    async with app.run_test(size=SIZE) as pilot:
        view = await open_agent(pilot, "interviewer")
        transcript = view.query_one(".transcript")
        # History taller than the screen: a whole interview.
        await say(pilot, view, "interview me")
        await answer(pilot, "Ada")
        await until(lambda: "Pick a choice (1-3)" in str(view.conversation.last.view.question))  # numbered, no form
        await answer(pilot, "1")
        await until(lambda: view.conversation.last.view.state is TaskState.COMPLETED and not view.running)
        # A question, canceled while its prompt pane shows: the pane goes, the transcript gets shorter.
        await say(pilot, view, "slow 20")
        await until(lambda: bool(pilot.app.screen.query("PromptPane Input")))
        await pilot.press("ctrl+g")
        await until(lambda: view.conversation.last.view.state is TaskState.CANCELED and not view.canceling)
        # The prompt pane had the keyboard; it is back in the message box, where "hi" goes.
        assert pilot.app.focused is view.query_one("#message")
        await pilot.press(*"hi", "enter")
        await until(lambda: view.conversation.last.message.parts[0].text == "hi")
        await answer(pilot, "Grace")
        await answer(pilot, "2")
        await until(lambda: view.conversation.last.view.state is TaskState.COMPLETED and not view.running)
        await until(lambda: transcript.max_scroll_y > 0 and transcript.scroll_y == transcript.max_scroll_y)


async def a_transcript_taller_than_its_view(pilot):
    """Twelve exchanges with echo: the conversation and its transcript, scrolled to its end."""
    view = await open_agent(pilot, "echo")
    transcript = view.query_one(".transcript")
    for n in range(12):
        await say(pilot, view, f"message {n}")
        await until(lambda: not view.running)
    await until(lambda: transcript.max_scroll_y > 0 and transcript.scroll_y == transcript.max_scroll_y)
    return view, transcript


async def test_a_transcript_scrolled_up_by_the_person_stays_where_they_put_it(app):
    async with app.run_test(size=SIZE) as pilot:
        view, transcript = await a_transcript_taller_than_its_view(pilot)
        transcript.scroll_to(y=2, animate=False, immediate=True)
        await say(pilot, view, "one more")
        await until(lambda: not view.running and transcript.max_scroll_y > 2)
        await pilot.pause(0.3)
        assert transcript.scroll_y == 2


async def test_a_scroll_up_just_before_a_frame_is_laid_out_is_not_undone(app):
    """A frame's render began with the transcript at its end; the person scrolled up before the render was laid
    out: the frame's follow to the end came after and took them back down (a loaded run saw it)."""
    async with app.run_test(size=SIZE) as pilot:
        view, transcript = await a_transcript_taller_than_its_view(pilot)
        await view._sync()  # a frame: its follow to the end waits for the next refresh
        transcript.scroll_to(y=2, animate=False, immediate=True)  # the person, before that refresh
        await pilot.pause(0.3)
        assert transcript.scroll_y == 2


async def test_ctrl_s_saves_an_artifact_under_the_name_a_person_expects(app):
    """Issue 26, item 6: the writer's `draft.md` was saved as `draft.md.md`, the gatekeeper's `vault contents` as
    `vault contents.md`; a second save replaced the first."""
    async with app.run_test(size=SIZE) as pilot:
        view = await open_agent(pilot, "writer")
        await say(pilot, view, "tides")
        await until(lambda: view.conversation.last.view.state is TaskState.COMPLETED and not view.running)
        await pilot.press("ctrl+s", "ctrl+s")
        await until(lambda: (downloads_dir() / "draft-2.md").exists())
        assert (downloads_dir() / "draft.md").read_text() == writer.compose("tides")
        await pilot.press("f1")
        gate = await open_agent(pilot, "gatekeeper")
        await say(pilot, gate, "open the vault")
        await answer(pilot, "sesame")
        await until(lambda: gate.conversation.last.view.state is TaskState.COMPLETED and not gate.running)
        await pilot.press("ctrl+s")
        await until(lambda: (downloads_dir() / "vault-contents.md").exists())
        assert sorted(p.name for p in downloads_dir().iterdir()) == ["draft-2.md", "draft.md", "vault-contents.md"]
