"""A conversation whose agent dies mid-task says so in its header (issue 26, item 6): it stayed `working` for good.
The real reference agent (a2a-sdk 1.x, its own process) is killed with SIGKILL while its task works; the stream
breaks, every read of the task is refused, and the header and the turn say the state is unknown, and why."""

from __future__ import annotations

from servers import start_server
from textual.widgets import Static
from tui_support import open_agent, until

from switchboard.a2a.model import TaskState
from switchboard.agents import AgentEntry
from switchboard.tui.app import SwitchboardApp

SIZE = (120, 40)


async def test_the_header_says_the_task_is_lost_when_its_agent_is_killed(tmp_path, monkeypatch):
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    server = start_server("sdk13-v10")
    try:
        entry = AgentEntry(name="reference", url=server.url)
        app = SwitchboardApp(tmp_path / "agents.yaml", extra_agents=[entry], steady=True)
        async with app.run_test(size=SIZE) as pilot:
            view = await open_agent(pilot, "reference")
            view.query_one("#message").focus()
            await pilot.press(*"slow job", "enter")
            await until(lambda: view.conversation.last is not None and len(view.conversation.last.view.timeline) >= 3)
            head = view.query_one(".conversation-head", Static)
            await until(lambda: " working " in str(head.render()))
            server.process.kill()  # no goodbye: the connection drops, the port refuses
            server.process.wait()
            await until(lambda: not view.conversation.last.running and view.conversation.last.error is not None, 60)
            await until(lambda: " unknown " in str(head.render()))
            shown = str(head.render())
            assert " working " not in shown
            assert "lost (last seen working): cannot connect to" in shown, shown
            turn_head = view.query_one(".turn-head", Static)
            assert " unknown " in str(turn_head.render())
            assert view.conversation.last.view.state is TaskState.WORKING  # the agent's last word, kept as it was
            assert view.open_work().state == "unknown: lost, last seen working"  # what quitting or closing says
    finally:
        server.stop()
