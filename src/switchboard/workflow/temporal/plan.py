"""A validated workflow as plain data (a "plan"), the input of a run on Temporal, and back.

The client reads and checks the file as `switchboard run` does; the plan carries what the run needs and
nothing secret: the agents as written in the agents file (`${VAR}` uninterpolated, credentials only as the
names of variables), read again on the worker with the worker's environment. No temporalio here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...agents import AgentEntry, entry_from_mapping
from ..spec import Expect, Retries, Step, Workflow


def agent_raw(entry: AgentEntry) -> dict[str, Any]:
    """The entry as written (its ${VAR} not filled in), so no secret goes into the run's history."""
    if entry.raw:
        return dict(entry.raw)
    raw: dict[str, Any] = {"name": entry.name, "url": entry.url, "protocol": entry.protocol}
    if entry.api_key_env:
        raw["apiKeyEnv"] = entry.api_key_env
    if entry.bearer_env:
        raw["bearerEnv"] = entry.bearer_env
    if entry.headers and not entry.interpolated:
        raw["headers"] = dict(entry.headers)
    return raw


def to_plan(workflow: Workflow, inputs: dict[str, str]) -> dict[str, Any]:
    steps = [
        {
            "name": s.name,
            "type": s.type,
            "agent": s.agent,
            "run": s.run,
            "task": s.task,
            "dependsOn": list(s.depends_on),
            "timeout": s.timeout,
            "retries": {"count": s.retries.count, "backoff": s.retries.backoff},
            "expect": {
                "outputContains": list(s.expect.output_contains),
                "regex": s.expect.regex,
                "exitCode": s.expect.exit_code,
            },
            "interactive": s.interactive,
            "context": s.context,
            "onError": s.on_error,
        }
        for s in workflow.steps
    ]
    return {
        "name": workflow.name,
        "description": workflow.description,
        "file": str(workflow.path.resolve()),
        "digest": workflow.digest,
        "layout": workflow.layout,
        "maxConcurrency": workflow.max_concurrency,
        "streaming": dict(workflow.streaming),
        "agents": {name: agent_raw(entry) for name, entry in workflow.agents.items()},
        "steps": steps,
        "outputs": dict(workflow.outputs),
        "inputs": dict(inputs),
    }


def from_plan(plan: dict[str, Any], *, with_agents: bool = False) -> Workflow:
    """The Workflow again; its agents are read from their raw entries only with `with_agents` (on a worker,
    where the environment holds the credentials); otherwise they stay name-only placeholders."""
    steps = [
        Step(
            name=raw["name"],
            type=raw["type"],
            agent=raw.get("agent"),
            run=raw.get("run"),
            task=raw.get("task"),
            depends_on=list(raw.get("dependsOn") or []),
            timeout=raw.get("timeout"),
            retries=Retries(**{"count": raw["retries"]["count"], "backoff": raw["retries"]["backoff"]}),
            expect=Expect(
                output_contains=list(raw["expect"]["outputContains"]),
                regex=raw["expect"]["regex"],
                exit_code=raw["expect"]["exitCode"],
            ),
            interactive=raw.get("interactive", True),
            context=raw.get("context"),
            on_error=raw.get("onError", "fail"),
        )
        for raw in plan["steps"]
    ]
    agents: dict[str, AgentEntry] = {}
    for index, (name, raw) in enumerate(plan["agents"].items()):
        if with_agents:
            entry, _ = entry_from_mapping(raw, index, f"the agents of run plan {plan['name']}")
            if entry is not None:
                agents[name] = entry
                continue
        agents[name] = AgentEntry(name=name, url=str(raw.get("url", "")), protocol=raw.get("protocol", "a2a"))
    return Workflow(
        name=plan["name"],
        description=plan.get("description", ""),
        inputs={},
        agents=agents,
        steps=steps,
        outputs=dict(plan.get("outputs") or {}),
        path=Path(plan["file"]),
        layout=plan.get("layout", "switchboard"),
        max_concurrency=plan.get("maxConcurrency"),
        streaming=dict(plan.get("streaming") or {}),
        digest=plan.get("digest", ""),
    )
