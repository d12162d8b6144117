"""`r` reads every agent's card again, a bounded number at once, and each row shows its own result (issue 26,
item 6: it re-read the highlighted agent only, so an agent that had stopped stayed green until chosen)."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from textual.content import Content
from textual.widgets import DataTable
from tui_support import until

from switchboard.agent_status import check_agent
from switchboard.agents import AgentEntry
from switchboard.demo import echo, interviewer, writer
from switchboard.demo.fleet import start_in_background
from switchboard.tui.app import SwitchboardApp
from switchboard.tui.widgets.agents_pane import CHECKS_AT_ONCE, AgentsPane

SIZE = (120, 40)


async def test_r_rereads_every_agent_and_a_stopped_one_turns_red(tmp_path, monkeypatch):
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    fleet = start_in_background(first_port=0, agents=(echo.AGENT, writer.AGENT, interviewer.AGENT), write_file=False)
    try:
        app = SwitchboardApp(tmp_path / "agents.yaml", extra_agents=[a.as_entry() for a in fleet.agents], steady=True)
        async with app.run_test(size=SIZE) as pilot:
            pane = app.screen.query_one(AgentsPane)
            await until(lambda: len(pane.statuses) == 3 and all(s.reachable for s in pane.statuses.values()))
            table = app.screen.query_one(DataTable)
            table.move_cursor(row=0)
            table.focus()
            first = {name: status.checked_at for name, status in pane.statuses.items()}
            fleet.stop()  # every agent stops; the highlighted row is the first one only
            await pilot.press("r")
            await until(lambda: all(s.checked_at != first[n] for n, s in pane.statuses.items()))
            await pilot.pause(0.1)
            assert {name: status.reachable for name, status in pane.statuses.items()} == dict.fromkeys(first, False)
            red = Content.styled("●", "$error")
            assert [table.get_row_at(i)[0].content for i in range(table.row_count)] == [red, red, red]
    finally:
        fleet.stop()


async def test_r_reads_a_long_agents_file_a_few_at_a_time(tmp_path, monkeypatch):
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    fleet = start_in_background(first_port=0, agents=(echo.AGENT,), write_file=False)
    in_flight = peak = 0

    async def counted(entry: AgentEntry):
        nonlocal in_flight, peak
        in_flight += 1
        peak = max(peak, in_flight)
        try:
            await asyncio.sleep(0)  # let the others start, if nothing holds them back
            return await check_agent(entry, app.http, app.tap)
        finally:
            in_flight -= 1

    try:
        entry = fleet.agents[0].as_entry()
        many = [replace(entry, name=f"echo-{n}") for n in range(3 * CHECKS_AT_ONCE)]
        app = SwitchboardApp(tmp_path / "agents.yaml", extra_agents=many, checker=counted, steady=True)
        async with app.run_test(size=SIZE) as pilot:
            pane = app.screen.query_one(AgentsPane)
            await until(lambda: all(s.reachable for s in pane.statuses.values()))
            first = {name: status.checked_at for name, status in pane.statuses.items()}
            peak = 0
            await pilot.press("r")
            await until(lambda: all(s.checked_at != first[n] for n, s in pane.statuses.items()))
            assert 1 < peak <= CHECKS_AT_ONCE
            assert all(s.reachable for s in pane.statuses.values())
    finally:
        fleet.stop()
