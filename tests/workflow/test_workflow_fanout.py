"""A fan-out on the real demo echo agent: every step answered, the agent's card read once for the whole run."""

from __future__ import annotations

from pathlib import Path

from switchboard.a2a.http import new_http_client
from switchboard.a2a.tap import Tap
from switchboard.agents import AgentsFile, load_agents
from switchboard.workflow.engine import start_run
from switchboard.workflow.loader import load_workflow
from switchboard.workflow.runs import read_run

STEPS = 12


async def test_parallel_steps_on_one_agent_read_its_card_once(tmp_path: Path, agents_file: Path):
    echo = load_agents(agents_file).find("echo")
    assert echo is not None
    lines = ["name: fan", f"maxConcurrency: {STEPS}", "agents: [echo]", "steps:"]
    for i in range(STEPS):
        lines += [f"  - name: s{i}", "    agent: echo", f'    task: "hello {i}"']
    (tmp_path / "fan.yaml").write_text("\n".join(lines) + "\n")
    workflow = load_workflow(tmp_path / "fan.yaml", AgentsFile(None, [echo], []), env={})
    tap = Tap()
    async with new_http_client() as http:
        run = start_run(workflow, {}, http=http, tap=tap, journal_dir=tmp_path / "runs", max_concurrency=STEPS)
        assert await run.wait() == "completed"
    assert {name: state.output for name, state in run.steps.items()} == {
        f"s{i}": f"echo: hello {i}" for i in range(STEPS)
    }
    requests = [r for r in tap.records if r.kind == "request"]
    card_reads = [r for r in requests if r.method == "GET" and r.url.endswith("/.well-known/agent-card.json")]
    assert len(card_reads) == 1
    assert len([r for r in requests if r.method == "POST"]) == STEPS
    record = read_run(run.run_id, tmp_path / "runs")
    assert record.status == "completed" and record.steps_completed == STEPS
