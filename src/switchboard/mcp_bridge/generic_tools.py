"""The tools that work across agents: list them, read a card, read or cancel a task, continue one; and the tool of
each agent. Each validates its arguments first (arguments.py) and answers in the shapes of outcome.py."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import mcp_types as types

from ..a2a.model import TaskState
from ..a2a.turn import TaskView
from .agent_calls import AgentCalls
from .agents_on_hand import AgentsOnHand
from .arguments import (
    AgentArguments,
    AgentNameArguments,
    ContinueArguments,
    NoArguments,
    RunArguments,
    RunsArguments,
    TaskArguments,
    parse_arguments,
)
from .catalog import tool_name
from .host_channel import Host
from .outcome import turn_result
from .workflow_calls import WorkflowCalls

Handler = Callable[[Any, Host], Awaitable[types.CallToolResult]]


class GenericTools:
    def __init__(self, agents: AgentsOnHand, calls: AgentCalls, workflows: WorkflowCalls) -> None:
        self.agents = agents
        self.calls = calls
        self.workflows = workflows
        self._handlers: dict[str, Handler] = {
            "list_agents": self.list_agents,
            "read_card": self.read_card,
            "get_task": self.get_task,
            "cancel_task": self.cancel_task,
            "continue_task": self.continue_task,
            "list_runs": self.list_runs,
            "continue_run": self.continue_run,
        }

    def handler(self, name: str) -> Handler | None:
        return self._handlers.get(name)

    def agent_handler(self, agent: str) -> Handler:
        async def call(raw: Any, host: Host) -> types.CallToolResult:
            return await self.calls.send(agent, parse_arguments(AgentArguments, raw), host)

        return call

    async def list_agents(self, raw: Any, host: Host) -> types.CallToolResult:
        parse_arguments(NoArguments, raw)
        agents = [
            {"name": e.name, "url": e.url, "protocol": e.protocol, "tool": tool_name("ask_", e.name)}
            for e in self.agents.agents
        ]
        lines = [f"{a['name']}: {a['url']} (tool {a['tool']})" for a in agents] or [
            f"No agents in the agents file ({self.agents.path}). Add each agent there (its name and url), or start "
            "switchboard mcp with --agents FILE; this server sees a change to the file while it runs."
        ]
        return _result("\n".join(lines), {"agents": agents})

    async def read_card(self, raw: Any, host: Host) -> types.CallToolResult:
        args = parse_arguments(AgentNameArguments, raw)
        entry = self.agents.entry(args.agent)
        if entry.protocol == "tasks":  # no card by design: say so rather than a card that was not found
            text = f"{entry.name} speaks the REST task API, which has no agent card; talk to it with its tool."
            return _result(text, {"card": None, "protocol": "tasks", "tool": tool_name("ask_", entry.name)})
        card = await self.agents.card(entry)
        return _result(f"The card of {args.agent}, as the agent serves it (its own words).", {"card": card.raw})

    async def get_task(self, raw: Any, host: Host) -> types.CallToolResult:
        args = parse_arguments(TaskArguments, raw)
        entry = self.agents.entry(args.agent)
        async with self.agents.link(entry) as link:
            task = await link.get_task(args.task_id)
        return turn_result(entry.name, TaskView().apply(task))

    async def cancel_task(self, raw: Any, host: Host) -> types.CallToolResult:
        args = parse_arguments(TaskArguments, raw)
        entry = self.agents.entry(args.agent)
        async with self.agents.link(entry) as link:
            outcome = await link.cancel(args.task_id)
        view = TaskView().apply(outcome.task)
        note = "" if outcome.confirmed else f"The cancel was sent; {outcome.pending}."
        if view.state is TaskState.CANCELED:
            note = "Canceled."
        return turn_result(entry.name, view, note)

    async def continue_task(self, raw: Any, host: Host) -> types.CallToolResult:
        return await self.calls.go_on(parse_arguments(ContinueArguments, raw), host)

    async def list_runs(self, raw: Any, host: Host) -> types.CallToolResult:
        return await self.workflows.list_runs(parse_arguments(RunsArguments, raw))

    async def continue_run(self, raw: Any, host: Host) -> types.CallToolResult:
        return await self.workflows.go_on(parse_arguments(RunArguments, raw), host)


def _result(text: str, structured: dict[str, Any]) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(text=text)], structured_content=structured)
