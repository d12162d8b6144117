"""The TUI and served workflows: a conversation with a served workflow (its run streamed, its question answered
in the prompt pane), and the Workflows tab listing runs that callers start, as they happen."""

from __future__ import annotations

from serve_support import EXAMPLES
from textual.widgets import DataTable, Input
from tui_support import open_highlighted, until

from switchboard.a2a.client import connect, new_message
from switchboard.a2a.model import TaskState, text_of
from switchboard.agents import AgentEntry
from switchboard.tui.app import SwitchboardApp
from switchboard.tui.widgets.conversation_view import ConversationView
from switchboard.tui.widgets.prompt_pane import PromptPane
from switchboard.tui.widgets.workflows_pane import WorkflowsPane

SIZE = (130, 40)


async def open_conversation(pilot, name: str) -> ConversationView:
    table = pilot.app.screen.query_one("#agents-table", DataTable)
    await until(lambda: name in [row.value for row in table.rows])
    table.move_cursor(row=[row.value for row in table.rows].index(name))
    view = await open_highlighted(pilot)
    await until(lambda: view.conversation is not None)
    view.query_one("#message").focus()
    return view


async def test_a_conversation_with_served_workflows_streams_the_run_and_answers_in_the_prompt_pane(serve, home):
    served = serve(str(EXAMPLES / "briefing.yaml"), str(EXAMPLES / "interview.yaml"))
    agents = [AgentEntry("briefing", served.url("briefing")), AgentEntry("interview", served.url("interview"))]
    app = SwitchboardApp(home / "agents.yaml", extra_agents=agents, steady=True)
    async with app.run_test(size=SIZE) as pilot:
        view = await open_conversation(pilot, "briefing")
        await pilot.press(*"tides", "enter")
        await until(lambda: view.conversation.turns and not view.running, timeout=60)
        turn = view.conversation.last
        assert turn.view.state is TaskState.COMPLETED
        assert turn.view.artifacts["draft/draft"].text.startswith("# Tides")
        assert turn.view.artifacts["outputs"].text.startswith("echo: Briefing on tides.")

        await pilot.press("f1")  # back to the agents tab
        view = await open_conversation(pilot, "interview")
        await pilot.press(*"hi", "enter")
        for turns, answer in enumerate(("Ada", "1"), start=1):
            await until(lambda: len(view.conversation.turns) == turns and not view.running)  # noqa: B023
            await until(lambda: bool(pilot.app.screen.query("PromptPane Input")))
            field = pilot.app.screen.query_one(PromptPane).query_one(Input)
            await until(lambda: pilot.app.focused is field)  # noqa: B023
            asked = text_of(pilot.app.screen.query_one(PromptPane).question)
            assert asked.startswith("step interview (interviewer) asks:\n")  # which step asks, then its question
            assert "What is your name?" in asked or turns == 2
            await pilot.press(*answer, "enter")
        await until(lambda: len(view.conversation.turns) == 3 and not view.running, timeout=60)
        last = view.conversation.last.view
        assert last.state is TaskState.COMPLETED
        assert last.artifacts["outputs"].text == "Interview summary: Ada came by to learn how A2A works."


async def test_the_workflows_tab_lists_runs_callers_start_as_they_happen(serve, home):
    served = serve(str(EXAMPLES / "interview.yaml"))
    app = SwitchboardApp(home / "agents.yaml", steady=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f3")
        pane = app.screen.query_one(WorkflowsPane)
        runs = pane.query_one("#runs-table", DataTable)
        await until(lambda: hasattr(pane, "files"))
        assert runs.row_count == 0
        async with await connect(served.url("interview")) as client:
            task = await client.send(new_message("hi"))  # a caller starts a run; it waits for an answer
            assert task.status.state is TaskState.INPUT_REQUIRED

            def row() -> list[str]:
                if task.id not in [r.value for r in runs.rows]:
                    return []
                return [str(c) for c in runs.get_row(task.id)]

            await until(lambda: row() and row()[2] == "running", timeout=30)  # no reload pressed
            assert row()[1] == "interview" and row()[3] == "0/2"
            for answer in ("Ada", "2"):
                await client.send(new_message(answer, task_id=task.id, context_id=task.context_id))
        await until(lambda: row()[2] == "completed" and row()[3] == "2/2", timeout=30)
