"""The TUI against every stack in the matrix: a question answered in the prompt pane, the answer streamed to the end.

A stack may open the answer's stream with the task still asking (the JavaScript SDK does): the prompt pane must
close after the answer, and the transcript show the completed greeting, whatever the order of events on the way.
"""

from __future__ import annotations

from textual.widgets import DataTable, Input
from tui_support import open_highlighted, until

from switchboard.a2a.model import TaskState
from switchboard.agents import AgentEntry
from switchboard.tui.app import SwitchboardApp
from switchboard.tui.widgets.prompt_pane import PromptPane
from switchboard.tui.widgets.transcript import ArtifactBox

SIZE = (120, 40)


async def test_a_question_answered_in_the_prompt_pane_streams_to_completed(reference_server, tmp_path, monkeypatch):
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    app = SwitchboardApp(tmp_path / "agents.yaml", extra_agents=[AgentEntry("ref", reference_server.url)], steady=True)
    async with app.run_test(size=SIZE) as pilot:
        table = pilot.app.screen.query_one(DataTable)
        await until(lambda: "ref" in [row.value for row in table.rows])
        table.move_cursor(row=[row.value for row in table.rows].index("ref"))
        view = await open_highlighted(pilot)
        await until(lambda: view.conversation is not None)
        view.query_one("#message").focus()
        await pilot.press(*"hi", "enter")

        await until(lambda: bool(pilot.app.screen.query("PromptPane Input")))
        pane = pilot.app.screen.query_one(PromptPane)
        assert "name" in pane.question[0].text.lower()
        await until(lambda: pilot.app.focused is pane.query_one(Input))
        await pilot.press(*"Grace", "enter")
        await until(lambda: len(view.conversation.turns) == 2 and not view.running)

        turn = view.conversation.last
        assert turn.view.state is TaskState.COMPLETED, [s.state for s in turn.view.timeline]
        assert view.waiting is None and not pilot.app.screen.query(PromptPane)
        assert turn.view.output_text == "Hello, Grace! Nice to meet you."
        # The question a stack reports again as the answer's stream opens is not shown as asked again.
        assert TaskState.INPUT_REQUIRED not in [s.state for s in turn.view.timeline]
        # Drawn at the next frame the view's throttle allows.
        await until(lambda: view.query(ArtifactBox) and view.query(ArtifactBox).last().source == turn.view.output_text)
