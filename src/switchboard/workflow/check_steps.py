"""Validation of a workflow's `steps:` section, one step at a time (the graph is checked afterwards)."""

from __future__ import annotations

import re

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from ..agents import AgentEntry, AgentsFile
from .checker import Checker, duration, suggest
from .file_model import EXPECT_KEYS, RETRIES_KEYS, STEP_KEYS, ExpectSpec, RetriesSpec, StepSpec
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


DURATION_FIX = "Give seconds (30) or a number with a unit: 500ms, 30s, 5m, 1h, 1m30s."
FORMAT_FIX = "See the workflow file format in docs/workflows.md."
# What a step says when a key's value is not what StepSpec declares: (message after "step NAME: ", fix).
_WRONG = {
    "task": ("task must be text", "Quote it, or use a | block."),
    "run": ("run must be text", "Quote it, or use a | block."),
    "dependsOn": ("dependsOn must be a list of step names", "Write dependsOn: [a, b]."),
    "retries": (
        "retries must be a count or {{count, backoff}}",
        "Write retries: 2, or retries: {count: 2, backoff: 5s}.",
    ),
    "expect": ("expect must be a mapping", "Write expect: {output_contains: done}."),
    "interactive": ("interactive must be true or false", "Write interactive: false."),
    "context": ("context must be a key", "Write context: chat."),
    "onError": (
        "onError {value!r} is unknown",
        "Use fail (the run fails) or continue (the run goes on; later steps see its state).",
    ),
    "timeout": ("timeout {value!r} is not a duration", DURATION_FIX),
}
_INSIDE = {  # a key inside retries: or expect: whose value is not what is declared
    "count": ("retries count must be a whole number", "Write count: 2."),
    "backoff": ("retries: backoff {value!r} is not a duration", DURATION_FIX),
    "output_contains": ("output_contains must be text or a list of texts", "Quote it."),
    "exit_code": ("exit_code must be a whole number", "Write exit_code: 0."),
    "regex": ("the regex must be text", "Quote it."),
}


def _validated(item: LineDict, kind: str, chk: Checker) -> tuple[StepSpec | None, set[str]]:
    """The step as StepSpec declares it, and the keys whose values were wrong: each reported at its line, then
    left out so that the rest is still checked. None when the step has no usable name or type."""
    known = {k: v for k, v in item.items() if k in STEP_KEYS and not (k == "type" and not v)}
    try:
        return StepSpec.model_validate(known), set()
    except ValidationError as exc:
        wrong: dict[str, list[ErrorDetails]] = {}
        for error in exc.errors():
            if error["type"] != "extra_forbidden":  # an unknown key inside: unknown_keys said so
                wrong.setdefault(str(error["loc"][0]), []).append(error)
    if "name" in wrong:
        name = item.get("name")
        shown = "has no name" if name is None else f"name {name!r} is not usable in templates"
        chk.add(item.line_of("name", value=True), f"a step {shown}", "Give it name: with letters, digits, - and _.")
        return None, set(wrong)
    what = f"step {item['name']}"
    if "type" in wrong:
        chk.add(
            item.line_of("type", value=True),
            f"{what}: type {item['type']!r} is unknown",
            "Use type: a2a (an agent) or type: shell (a command).",
        )
        return None, set(wrong)
    for key, found in wrong.items():
        value = item[key]
        if key == "agent":
            chk.add(item.line, f"{what} names no agent", "Add agent: NAME (from agents: or the agents file).")
        elif key == "description":
            pass  # read by no one: whatever it holds was always let pass
        elif isinstance(value, LineDict):  # retries: or expect: as a mapping: say which of its values is wrong
            for sub in dict.fromkeys(str(p) for e in found for p in e["loc"][1:] if str(p) in value):
                if key == "expect" and sub == "exit_code" and kind != "shell":
                    continue  # it applies to shell steps only: _expect says so
                text, fix = _INSIDE.get(sub, (f"{key}: {sub} is not what it should be", FORMAT_FIX))
                chk.add(value.line_of(sub, value=True), f"{what}: {text.format(value=value[sub])}", fix)
        else:
            text, fix = _WRONG.get(key, (f"{key} is not what it should be", FORMAT_FIX))
            chk.add(item.line_of(key, value=True), f"{what}: {text.format(value=value)}", fix)
    return StepSpec.model_validate({k: v for k, v in known.items() if k not in wrong}), set(wrong)


def _step(
    item: LineDict,
    chk: Checker,
    agents: dict[str, AgentEntry],
    registry: AgentsFile,
    agent_timeouts: dict[str, float],
    default_on_error: str,
) -> Step | None:
    chk.unknown_keys(item, STEP_KEYS, "a step")
    kind = item.get("type") or ("shell" if "run" in item else "a2a")
    spec, wrong = _validated(item, kind, chk)
    if spec is None:
        return None
    what = f"step {spec.name}"
    step = Step(name=spec.name, type="shell" if kind == "shell" else "a2a", line=item.line)
    if kind == "a2a":
        agent = spec.agent
        if "agent" in wrong:
            pass
        elif not agent:
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
        step.agent = agent
        step.task = _template_text(item, "task", spec.task, what, chk, wrong)
        if "run" in item:
            chk.add(
                item.line_of("run"), f"{what}: an a2a step has a task, not run", "Drop run:, or make it type: shell."
            )
    else:
        step.run = _template_text(item, "run", spec.run, what, chk, wrong)
        for key in ("agent", "task"):
            if key in item:
                chk.add(item.line_of(key), f"{what}: a shell step has no {key}", "Drop it, or make the step type: a2a.")
    depends_on = [spec.depends_on] if isinstance(spec.depends_on, str) else spec.depends_on or []
    step.depends_on = list(dict.fromkeys(depends_on))
    step.timeout = None if "timeout" in wrong else duration(chk, item, "timeout", what)
    if step.timeout is None and step.agent in agent_timeouts:
        step.timeout = agent_timeouts[step.agent]
    step.retries = _retries(item, spec.retries, what, chk)
    step.expect = _expect(item, spec.expect, what, kind, chk)
    step.interactive = spec.interactive
    context = spec.context
    if context is not None and kind == "shell":
        chk.add(item.line_of("context"), f"{what}: a shell step has no A2A context", "Drop context:.")
        context = None
    step.context = None if context is None else str(context)
    step.on_error = spec.on_error or ("continue" if default_on_error == "continue" else "fail")
    return step


def _template_text(
    item: LineDict, key: str, value: str | int | float | None, what: str, chk: Checker, wrong: set[str]
) -> str | None:
    if key in wrong:
        return None
    if value is None:
        example = 'task: "..."' if key == "task" else "run: echo hello"
        chk.add(item.line, f"{what} has no {key}", f"Add {example}.")
        return None
    if not str(value).strip():
        fix = "Write what the agent should do." if key == "task" else "Write the command to run."
        chk.add(item.line_of(key, value=True), f"{what}: {key} is empty", fix)
        return None
    return str(value)


def _retries(item: LineDict, spec: int | RetriesSpec | None, what: str, chk: Checker) -> Retries:
    raw = item.get("retries")
    if isinstance(raw, LineDict):
        chk.unknown_keys(raw, RETRIES_KEYS, f"{what}: retries")
    if isinstance(spec, int):
        return Retries(count=spec)
    if spec is None:
        return Retries()
    backoff = duration(chk, raw, "backoff", f"{what}: retries") if isinstance(raw, LineDict) else None
    return Retries(count=spec.count, backoff=1.0 if backoff is None else backoff)


def _expect(item: LineDict, spec: ExpectSpec | None, what: str, kind: str, chk: Checker) -> Expect:
    raw = item.get("expect")
    if isinstance(raw, LineDict):
        chk.unknown_keys(raw, EXPECT_KEYS, f"{what}: expect")
    expect = Expect()
    if spec is None or not isinstance(raw, LineDict):
        return expect
    contains = spec.output_contains
    expect.output_contains = [contains] if isinstance(contains, str) else list(contains or [])
    if spec.regex is not None:
        try:
            re.compile(str(spec.regex))
            expect.regex = str(spec.regex)
        except (re.error, RecursionError, OverflowError) as exc:  # a pattern nested or repeated past re's limits
            chk.add(
                raw.line_of("regex", value=True),
                f"{what}: the regex does not compile ({getattr(exc, 'msg', None) or 'nested or repeated too far'})",
                "Fix the pattern (Python re syntax).",
            )
    if "exit_code" in raw and kind != "shell":
        chk.add(
            raw.line_of("exit_code"),
            f"{what}: exit_code applies to shell steps only",
            "Use output_contains or regex for an agent's output.",
        )
    elif kind == "shell":
        expect.exit_code = spec.exit_code
    return expect
