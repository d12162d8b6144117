"""Validation of a workflow's `steps:` section, one step at a time (the graph is checked afterwards)."""

from __future__ import annotations

import re

from ..agents import AgentEntry, AgentsFile
from .checker import NAME_PATTERN, Checker, duration, suggest
from .file_model import EXPECT_KEYS, RETRIES_KEYS, STEP_KEYS
from .source import LineDict, LineList
from .spec import Expect, Retries, Step


def steps_section(
    doc: LineDict,
    chk: Checker,
    agents: dict[str, AgentEntry],
    registry: AgentsFile,
    agent_timeouts: dict[str, float],
    default_on_error: str,
    env: dict[str, str] | None,
) -> list[Step]:
    raw = doc.get("steps")
    if raw is None:
        return []
    if not isinstance(raw, LineList):
        chk.add(doc.line_of("steps", value=True), "steps must be a list", "Write steps: followed by - name: ... items.")
        return []
    steps: list[Step] = []
    names: set[str] = set()
    for index, item in enumerate(raw):
        line = raw.line_of(index)
        if not isinstance(item, LineDict):
            chk.add(line, "a step is a mapping", "Write - name: NAME, then agent: and task: (or run:).")
            continue
        step = _step(item, chk, agents, registry, agent_timeouts, default_on_error)
        if step is None:
            continue
        if step.name in names:
            chk.add(
                item.line_of("name", value=True),
                f"two steps are named {step.name}",
                "Rename one: step names must be unique.",
            )
            continue
        names.add(step.name)
        steps.append(step)
    return steps


def _step(
    item: LineDict,
    chk: Checker,
    agents: dict[str, AgentEntry],
    registry: AgentsFile,
    agent_timeouts: dict[str, float],
    default_on_error: str,
) -> Step | None:
    chk.unknown_keys(item, STEP_KEYS, "a step")
    name = item.get("name")
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
        shown = "has no name" if name is None else f"name {name!r} is not usable in templates"
        chk.add(item.line_of("name", value=True), f"a step {shown}", "Give it name: with letters, digits, - and _.")
        return None
    what = f"step {name}"
    kind = item.get("type") or ("shell" if "run" in item else "a2a")
    if kind not in ("a2a", "shell"):
        chk.add(
            item.line_of("type", value=True),
            f"{what}: type {kind!r} is unknown",
            "Use type: a2a (an agent) or type: shell (a command).",
        )
        return None
    step = Step(name=name, type="shell" if kind == "shell" else "a2a", line=item.line)
    if kind == "a2a":
        agent = item.get("agent")
        if not isinstance(agent, str) or not agent:
            chk.add(item.line, f"{what} names no agent", "Add agent: NAME (from agents: or the agents file).")
        elif agent not in agents:
            found = registry.find(agent)
            if found is None:
                known = sorted({*agents, *(a.name for a in registry.agents)})
                chk.add(
                    item.line_of("agent", value=True),
                    f"{what}: the agent {agent} is unknown",
                    "List it under agents: with a url, or add it to the agents file." + suggest(agent, known),
                )
            else:
                agents[agent] = found
        step.agent = agent if isinstance(agent, str) else None
        step.task = _template_text(item, "task", what, chk, required=True)
        if "run" in item:
            chk.add(
                item.line_of("run"), f"{what}: an a2a step has a task, not run", "Drop run:, or make it type: shell."
            )
    else:
        step.run = _template_text(item, "run", what, chk, required=True)
        for key in ("agent", "task"):
            if key in item:
                chk.add(item.line_of(key), f"{what}: a shell step has no {key}", "Drop it, or make the step type: a2a.")
    step.depends_on = _depends_on(item, what, chk)
    step.timeout = duration(chk, item, "timeout", what)
    if step.timeout is None and step.agent in agent_timeouts:
        step.timeout = agent_timeouts[step.agent]
    step.retries = _retries(item, what, chk)
    step.expect = _expect(item, what, kind, chk)
    interactive = item.get("interactive", True)
    if not isinstance(interactive, bool):
        chk.add(
            item.line_of("interactive", value=True),
            f"{what}: interactive must be true or false",
            "Write interactive: false.",
        )
        interactive = True
    step.interactive = interactive
    context = item.get("context")
    if context is not None and (not isinstance(context, str | int) or isinstance(context, bool)):
        chk.add(item.line_of("context", value=True), f"{what}: context must be a key", "Write context: chat.")
        context = None
    if context is not None and kind == "shell":
        chk.add(item.line_of("context"), f"{what}: a shell step has no A2A context", "Drop context:.")
        context = None
    step.context = None if context is None else str(context)
    on_error = item.get("onError", default_on_error)
    if on_error not in ("fail", "continue"):
        chk.add(
            item.line_of("onError", value=True),
            f"{what}: onError {on_error!r} is unknown",
            "Use fail (the run fails) or continue (the run goes on; later steps see its state).",
        )
        on_error = "fail"
    step.on_error = on_error
    return step


def _template_text(item: LineDict, key: str, what: str, chk: Checker, *, required: bool) -> str | None:
    value = item.get(key)
    if value is None:
        if required:
            example = 'task: "..."' if key == "task" else "run: echo hello"
            chk.add(item.line, f"{what} has no {key}", f"Add {example}.")
        return None
    if isinstance(value, LineDict | LineList | bool):
        chk.add(item.line_of(key, value=True), f"{what}: {key} must be text", "Quote it, or use a | block.")
        return None
    if not str(value).strip():
        fix = "Write what the agent should do." if key == "task" else "Write the command to run."
        chk.add(item.line_of(key, value=True), f"{what}: {key} is empty", fix)
        return None
    return str(value)


def _depends_on(item: LineDict, what: str, chk: Checker) -> list[str]:
    raw = item.get("dependsOn")
    if raw is None:
        return []
    if isinstance(raw, str):
        return [raw]
    if not isinstance(raw, LineList) or not all(isinstance(d, str) for d in raw):
        chk.add(
            item.line_of("dependsOn", value=True),
            f"{what}: dependsOn must be a list of step names",
            "Write dependsOn: [a, b].",
        )
        return []
    return list(dict.fromkeys(raw))


def _retries(item: LineDict, what: str, chk: Checker) -> Retries:
    raw = item.get("retries")
    if raw is None:
        return Retries()
    line = item.line_of("retries", value=True)
    if isinstance(raw, int) and not isinstance(raw, bool) and raw >= 0:
        return Retries(count=raw)
    if isinstance(raw, LineDict):
        chk.unknown_keys(raw, RETRIES_KEYS, f"{what}: retries")
        count = raw.get("count", 1)
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            chk.add(
                raw.line_of("count", value=True), f"{what}: retries count must be a whole number", "Write count: 2."
            )
            count = 0
        backoff = duration(chk, raw, "backoff", f"{what}: retries")
        return Retries(count=count, backoff=1.0 if backoff is None else backoff)
    chk.add(
        line,
        f"{what}: retries must be a count or {{count, backoff}}",
        "Write retries: 2, or retries: {count: 2, backoff: 5s}.",
    )
    return Retries()


def _expect(item: LineDict, what: str, kind: str, chk: Checker) -> Expect:
    raw = item.get("expect")
    if raw is None:
        return Expect()
    if not isinstance(raw, LineDict):
        chk.add(
            item.line_of("expect", value=True),
            f"{what}: expect must be a mapping",
            "Write expect: {output_contains: done}.",
        )
        return Expect()
    chk.unknown_keys(raw, EXPECT_KEYS, f"{what}: expect")
    expect = Expect()
    contains = raw.get("output_contains")
    if isinstance(contains, str):
        expect.output_contains = [contains]
    elif isinstance(contains, LineList) and all(isinstance(c, str) for c in contains):
        expect.output_contains = list(contains)
    elif contains is not None:
        chk.add(
            raw.line_of("output_contains", value=True),
            f"{what}: output_contains must be text or a list of texts",
            "Quote it.",
        )
    regex = raw.get("regex")
    if regex is not None:
        try:
            re.compile(str(regex))
            expect.regex = str(regex)
        except (re.error, RecursionError, OverflowError) as exc:  # a pattern nested or repeated past re's limits
            chk.add(
                raw.line_of("regex", value=True),
                f"{what}: the regex does not compile ({getattr(exc, 'msg', None) or 'nested or repeated too far'})",
                "Fix the pattern (Python re syntax).",
            )
    code = raw.get("exit_code")
    if code is not None:
        if kind != "shell":
            chk.add(
                raw.line_of("exit_code"),
                f"{what}: exit_code applies to shell steps only",
                "Use output_contains or regex for an agent's output.",
            )
        elif not isinstance(code, int) or isinstance(code, bool):
            chk.add(
                raw.line_of("exit_code", value=True), f"{what}: exit_code must be a whole number", "Write exit_code: 0."
            )
        else:
            expect.exit_code = code
    return expect
