"""Text is drawn as its media type says (issue 26, item 6): text/plain as plain text, each line break kept and
nothing in it read as Markdown or markup; text/markdown, and text with no type, as Markdown. Against a real
a2a-sdk agent (served as the demo fleet's are) whose artifacts and replies say their type."""

from __future__ import annotations

import pytest
from textual.widgets import Markdown, Static
from tui_support import open_agent, until

from switchboard.a2a.model import TaskState
from switchboard.demo.base import DemoAgent, DemoSettings, ServedApp
from switchboard.demo.fleet import start_in_background
from switchboard.demo.sdk import DemoExecutor, Turn, a2a_app, agent_card, skill, text
from switchboard.tui.app import SwitchboardApp
from switchboard.tui.widgets.markdown_pages import LivePage
from switchboard.tui.widgets.transcript import ArtifactBox

SIZE = (120, 40)
PLAIN = "first line\nsecond line\n# not a heading\n**not bold** [bold red]not markup[/] - not a list"
MARKDOWN = "# A title\n\nSome **bold** words."
LONG_PLAIN = "".join(f"line {n}\n" for n in range(600))  # several pages: frozen ones and the live one


class TypedTextExecutor(DemoExecutor):
    async def run(self, turn: Turn) -> None:
        if turn.text == "reply":
            await turn.reply(text(PLAIN, "text/plain"))
            return
        await turn.artifact([text(PLAIN, "text/plain")], artifact_id="plain", name="plain")
        await turn.artifact([text(MARKDOWN, "text/markdown")], artifact_id="markdown", name="markdown")
        await turn.artifact([text(MARKDOWN)], artifact_id="untyped", name="untyped")
        await turn.artifact([text(LONG_PLAIN[:3000], "text/plain")], artifact_id="long", name="long", last_chunk=False)
        await turn.artifact([text(LONG_PLAIN[3000:], "text/plain")], artifact_id="long", name="long", append=True)
        await turn.complete("done")


def build(url: str, settings: DemoSettings) -> ServedApp:
    card = agent_card(
        name="Typed text",
        description="Sends text that says its media type.",
        url=url,
        output_modes=("text/plain", "text/markdown"),
        skills=[skill("typed", "Typed", "Artifacts of each text type.", ["hi"], ["test"])],
    )
    return a2a_app(card, TypedTextExecutor())


@pytest.fixture(scope="module")
def agent():
    handle = start_in_background(
        first_port=0, agents=(DemoAgent("typed", "typed text", build),), write_file=False
    )  # fmt: skip
    yield handle.agents[0]
    handle.stop()


@pytest.fixture
def app(agent, tmp_path, monkeypatch):
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    return SwitchboardApp(tmp_path / "agents.yaml", extra_agents=[agent.as_entry()], steady=True)


def drawn(widget) -> list[str]:
    """The lines `widget` shows, as text, trailing blanks cut."""
    return [strip.text.rstrip() for strip in widget.render_lines(widget.size.region)]


async def test_plain_text_keeps_its_lines_and_markdown_is_drawn_as_markdown(app):
    async with app.run_test(size=SIZE) as pilot:
        view = await open_agent(pilot, "typed")
        view.query_one("#message").focus()
        await pilot.press(*"hi", "enter")
        await until(lambda: view.conversation.last is not None and not view.running)
        assert view.conversation.last.view.state is TaskState.COMPLETED
        await pilot.pause(0.2)
        boxes = {box.artifact_id: box for box in view.query(ArtifactBox)}
        plain = [line for line in drawn(boxes["plain"].query_one(LivePage)) if line]
        assert plain == PLAIN.split("\n")  # two lines stay two, no heading, no bold, no markup read
        for name in ("markdown", "untyped"):
            shown = [line.strip() for line in drawn(boxes[name].query_one(LivePage)) if line.strip()]
            assert shown == ["A title", "Some bold words."], (name, shown)
        long = boxes["long"]
        assert long.source == LONG_PLAIN
        transcript = view.query_one(".transcript")
        lines = []
        for widget in (long.query_one(".artifact-pages"), long.query_one(LivePage)):
            transcript.scroll_to_widget(widget, animate=False)
            await pilot.pause(0.1)
            lines += drawn(widget)
        assert [line for line in lines if line] == LONG_PLAIN.split("\n")[:-1]  # every page's lines, none lost


async def test_a_plain_text_reply_keeps_its_lines(app):
    async with app.run_test(size=SIZE) as pilot:
        view = await open_agent(pilot, "typed")
        view.query_one("#message").focus()
        await pilot.press(*"reply", "enter")
        await until(lambda: view.conversation.last is not None and view.conversation.last.view.reply is not None)
        await until(lambda: bool(view.query(".reply")))
        reply = view.query_one(".reply")
        assert not isinstance(reply, Markdown) and isinstance(reply, Static)
        assert str(reply.render()).split("\n") == PLAIN.split("\n")
