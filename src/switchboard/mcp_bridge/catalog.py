"""The tools a host sees: one per agent (described from its card), one per workflow (its inputs as the schema), and
the few that work across them. A card is the agent's own words, so what it says reaches the host's model bounded,
stripped of control characters and framed as the agent's description, never as an instruction of this server."""

from __future__ import annotations

import re
from typing import Any

import mcp_types as types

from ..a2a.model import AgentCard
from ..agents import AgentEntry
from ..safe_text import strip_controls
from .arguments import (
    AgentArguments,
    AgentNameArguments,
    ContinueArguments,
    NoArguments,
    RunArguments,
    RunsArguments,
    TaskArguments,
    input_schema,
)

MAX_DESCRIPTION = 2_000
_NOT_NAME = re.compile(r"[^A-Za-z0-9_-]+")

GENERIC: dict[str, tuple[str, type[Any]]] = {
    "list_agents": ("The A2A agents this server reaches (from the agents file): name, address, tool.", NoArguments),
    "read_card": ("An agent's card: what it says it does, its skills, how it is reached.", AgentNameArguments),
    "get_task": ("A task of an agent as the agent has it now: its state, question and output.", TaskArguments),
    "cancel_task": ("Cancel a task of an agent; says whether the agent confirmed it ended.", TaskArguments),
    "continue_task": (
        "Go on with a task an earlier call returned: give `answer` to answer the question it waits on (input-"
        "required), or leave it out to wait for a task that is still working (or, for a task waiting for a "
        "sign-in switchboard can do, to sign in and go on).",
        ContinueArguments,
    ),
    "list_runs": ("Workflow runs from the journal, newest first: id, workflow, status.", RunsArguments),
    "continue_run": (
        "Go on with a workflow run an earlier call returned: give `answer` to answer the question a step waits "
        "on, or leave it out to wait for the run.",
        RunArguments,
    ),
}
READ_ONLY = {"list_agents", "read_card", "get_task", "list_runs"}
TITLES = {
    "list_agents": "List the agents",
    "read_card": "Read an agent's card",
    "get_task": "Get a task",
    "cancel_task": "Cancel a task",
    "continue_task": "Continue a task",
    "list_runs": "List workflow runs",
    "continue_run": "Continue a workflow run",
}


def tool_name(prefix: str, name: str) -> str:
    """`ask_writer`, `run_briefing`: the prefix and the name with anything a tool name may not hold replaced."""
    return (prefix + _NOT_NAME.sub("_", name).strip("_"))[:64]


def _bounded(text: str, limit: int) -> str:
    text = strip_controls(text).strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


def agent_description(entry: AgentEntry, card: AgentCard | None, problem: str | None) -> str:
    """What the agent does (its card's words), its skills with their examples, and how the tool continues a task."""
    kind = "agent behind a REST task API" if entry.protocol == "tasks" else "A2A agent"
    lines = [f"Talk to the {kind} {entry.name!r} ({entry.url})."]
    if card is not None:
        said = [f"The agent describes itself: {_bounded(card.description, 500)}"] if card.description else []
        for skill in card.skills[:12]:
            examples = "; ".join(_bounded(e, 120) for e in skill.examples[:4])
            said.append(
                f"- skill {_bounded(skill.name, 80)}: {_bounded(skill.description, 300)}"
                + (f" (e.g. {examples})" if examples else "")
            )
        lines += said
    elif problem:
        lines.append(f"(Its card could not be read: {problem})")
    lines.append(
        "Send `message`; the result is the agent's output. If the agent asks a question you are given it with the "
        "task's id: answer with continue_task. Pass taskId to send the next message of a task."
    )
    return _bounded("\n".join(lines), MAX_DESCRIPTION)


def agent_tool(entry: AgentEntry, card: AgentCard | None, problem: str | None) -> types.Tool:
    title = card.name if card is not None and card.name else entry.name
    return types.Tool(
        name=tool_name("ask_", entry.name),
        title=_bounded(title, 80),
        description=agent_description(entry, card, problem),
        input_schema=input_schema(AgentArguments),
        annotations=types.ToolAnnotations(open_world_hint=True, read_only_hint=False, destructive_hint=False),
        execution=types.ToolExecution(task_support="optional"),
    )


def generic_tools(with_runs: bool) -> list[types.Tool]:
    tools = []
    for name, (description, model) in GENERIC.items():
        if name in ("list_runs", "continue_run") and not with_runs:
            continue
        tools.append(
            types.Tool(
                name=name,
                title=TITLES[name],
                description=description,
                input_schema=input_schema(model),
                annotations=types.ToolAnnotations(read_only_hint=name in READ_ONLY),
                execution=types.ToolExecution(task_support="optional") if name.startswith("continue_") else None,
            )
        )
    return tools


def workflow_schema(inputs: dict[str, Any]) -> dict[str, Any]:
    """A workflow's `inputs:` as a tool's input schema: every input a string, the required ones required."""
    properties = {
        name: {"type": "string", **({"description": spec.description} if spec.description else {}),
               **({"default": spec.default} if spec.default is not None else {})}
        for name, spec in inputs.items()
    }  # fmt: skip
    required = [name for name, spec in inputs.items() if spec.required and spec.default is None]
    schema: dict[str, Any] = {"type": "object", "properties": properties, "additionalProperties": False}
    if required:
        schema["required"] = required
    return schema
