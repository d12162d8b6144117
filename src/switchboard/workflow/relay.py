"""The relay-style layout that agent workflow tools write, read into this tool's own layout.

```yaml
version: "1.0"
name: reviews
swarm: {maxConcurrency: 3}
agents:
  - {name: researcher, runtime: a2a, url: http://127.0.0.1:47104/}
  - {name: writer, runtime: a2a}            # no url: the agents file's writer
workflows:
  - name: review
    onError: fail                           # fail | fail-fast | skip | continue
    steps:
      - {name: research, type: a2a, agent: researcher, task: "quick: {{topic}}", timeoutMs: 60000}
      - name: count
        type: deterministic
        command: echo {{steps.research.output}} | wc -w
        dependsOn: [research]
        verification: {type: exit_code, value: "0"}
```

`{{topic}}` (a bare name) is an input of the run (`-i topic=...`). What this tool does not run (swarm
patterns, channels, coordination, CLI agents' roles) is reported as a warning; a step on an agent that is a
local CLI rather than an A2A agent is an error.
"""

from __future__ import annotations

from typing import Any

from .checker import Checker
from .relay_model import RELAY_AGENT_KEYS, RELAY_STEP_KEYS, RELAY_SWARM_KEYS, RELAY_TOP_KEYS, RELAY_WORKFLOW_KEYS
from .source import LineDict, LineList

# What each key of the layout becomes is said here; which keys there are, in relay_model.py (a key not declared
# there is warned about as not used). An agent's keys read by their own rule below, not copied:
_AGENT_READ = ("runtime", "timeoutMs", "constraints", "cli", "role")
_RELAY_ON_ERROR = {"fail": "fail", "fail-fast": "fail", "retry": "fail", "skip": "continue", "continue": "continue"}


def _put(dst: LineDict, key: str, value: Any, src: LineDict, src_key: str) -> None:
    dst[key] = value
    dst.key_lines[key] = src.line_of(src_key)
    dst.value_lines[key] = src.line_of(src_key, value=True)


def _new(line: int) -> LineDict:
    out = LineDict()
    out.line = line
    return out


def _millis(src: LineDict, key: str, what: str, chk: Checker) -> float | None:
    value = src.get(key)
    if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
        return value / 1000
    chk.add(
        src.line_of(key, value=True), f"{what}: {key} {value!r} is not a number of milliseconds", f"Write {key}: 60000."
    )
    return None


def from_relay(doc: LineDict, chosen: str | None, chk: Checker) -> LineDict | None:
    """The chosen (default: first) workflow of a relay-layout file, in this tool's layout; None when unusable."""
    workflows = doc.get("workflows")
    if not isinstance(workflows, LineList) or not workflows:
        chk.add(
            doc.line_of("workflows", value=True),
            "workflows must be a non-empty list",
            "Write workflows: [{name, steps}].",
        )
        return None
    names = [w.get("name") for w in workflows if isinstance(w, LineDict)]
    index = 0
    if chosen is not None:
        if chosen not in names:
            chk.add(
                workflows.line,
                f"this file has no workflow named {chosen!r}",
                f"Pick one of: {', '.join(map(str, names))}.",
            )
            return None
        index = names.index(chosen)
    elif len(workflows) > 1:
        chk.warn(
            workflows.line,
            f"the file holds {len(workflows)} workflows; running the first ({names[0]}); "
            "pick another with --workflow NAME",
        )
    picked = workflows[index]
    if not isinstance(picked, LineDict):
        chk.add(workflows.line_of(index), "a workflow is a mapping", "Write - name: NAME, then steps:.")
        return None
    out = _new(doc.line)
    for key in doc:
        if key in ("version", "description"):
            _put(out, key, doc[key], doc, key)
        elif key in ("name", "workflows", "agents", "inputs", "outputs"):
            pass
        elif key not in RELAY_TOP_KEYS:
            chk.warn(doc.line_of(key), f"{key} is not used by switchboard; ignored")
    if "version" in out and str(out["version"]) not in ("1", "1.0"):
        out["version"] = "1"  # relay files carry their own versions; the layout is what is read
    _put(out, "name", picked.get("name") or doc.get("name"), picked if "name" in picked else doc, "name")
    if "description" in picked:
        _put(out, "description", picked["description"], picked, "description")
    for key in ("inputs", "outputs"):
        if key in doc:
            _put(out, key, doc[key], doc, key)
    swarm = doc.get("swarm")
    if isinstance(swarm, LineDict):
        if "maxConcurrency" in swarm:
            _put(out, "maxConcurrency", swarm["maxConcurrency"], swarm, "maxConcurrency")
        for key in swarm:
            if key not in RELAY_SWARM_KEYS:
                chk.warn(swarm.line_of(key), f"swarm.{key} is not used by switchboard; ignored")
    defaults = _error_handling(doc.get("errorHandling"), chk)
    if "agents" in doc:
        _put(out, "agents", _agents(doc["agents"], chk), doc, "agents")
    on_error = picked.get("onError")
    if on_error is not None:
        if not isinstance(on_error, str) or on_error not in _RELAY_ON_ERROR:
            chk.add(
                picked.line_of("onError", value=True),
                f"onError {on_error!r} is unknown",
                "Use fail, fail-fast, skip or continue.",
            )
        else:
            _put(out, "onError", _RELAY_ON_ERROR[on_error], picked, "onError")
    for key in picked:
        if key not in RELAY_WORKFLOW_KEYS:
            chk.warn(picked.line_of(key), f"workflows[].{key} is not used by switchboard; ignored")
    steps = picked.get("steps")
    if isinstance(steps, LineList):
        converted = LineList()
        converted.line = steps.line
        for i, step in enumerate(steps):
            converted.append(_step(step, chk, defaults) if isinstance(step, LineDict) else step)
            converted.item_lines.append(steps.line_of(i))
        _put(out, "steps", converted, picked, "steps")
    elif "steps" in picked:
        _put(out, "steps", steps, picked, "steps")
    return out


def _error_handling(raw: Any, chk: Checker) -> dict[str, Any]:
    if not isinstance(raw, LineDict):
        return {}
    defaults: dict[str, Any] = {}
    if raw.get("strategy") == "retry" or "maxRetries" in raw:
        count = raw.get("maxRetries", 1)
        if isinstance(count, int) and not isinstance(count, bool) and count >= 0:
            defaults["count"] = count
        else:
            chk.add(
                raw.line_of("maxRetries", value=True),
                "errorHandling.maxRetries must be a whole number",
                "Write maxRetries: 2.",
            )
    if "retryDelayMs" in raw:
        delay = _millis(raw, "retryDelayMs", "errorHandling", chk)
        if delay is not None:
            defaults["backoff"] = delay
    return defaults


def _agents(raw: Any, chk: Checker) -> Any:
    if not isinstance(raw, LineList):
        return raw
    out = LineList()
    out.line = raw.line
    for i, agent in enumerate(raw):
        out.item_lines.append(raw.line_of(i))
        if not isinstance(agent, LineDict):
            out.append(agent)
            continue
        converted = _new(agent.line)
        runtime = agent.get("runtime")
        if ("cli" in agent or runtime not in (None, "a2a", "tasks")) and "url" not in agent:
            what = f"cli: {agent['cli']}" if "cli" in agent else f"runtime: {runtime}"
            chk.add(
                agent.line_of("cli" if "cli" in agent else "runtime"),
                f"the agent {agent.get('name')} is a local process ({what}); switchboard delegates to A2A agents",
                "Give it runtime: a2a and the url of an A2A agent, or name an agent of the agents file.",
            )
        for key in agent:
            if key in RELAY_AGENT_KEYS and key not in _AGENT_READ:
                _put(converted, key, agent[key], agent, key)
            elif key == "runtime" and runtime in ("a2a", "tasks"):
                _put(converted, "protocol", runtime, agent, key)
            elif key == "timeoutMs":
                if (seconds := _millis(agent, key, f"agent {agent.get('name')}", chk)) is not None:
                    _put(converted, "timeout", seconds, agent, key)
            elif key == "constraints" and isinstance(agent[key], LineDict):
                constraints = agent[key]
                if "timeoutMs" in constraints:
                    seconds = _millis(constraints, "timeoutMs", f"agent {agent.get('name')}", chk)
                    if seconds is not None:
                        _put(converted, "timeout", seconds, constraints, "timeoutMs")
            elif key not in RELAY_AGENT_KEYS:
                chk.warn(agent.line_of(key), f"agents[].{key} is not used by switchboard; ignored")
        out.append(converted)
    return out


def _step(step: LineDict, chk: Checker, defaults: dict[str, Any]) -> LineDict:
    out = _new(step.line)
    what = f"step {step.get('name')}"
    kind = step.get("type")
    for key in step:
        value = step[key]
        if key == "type":
            kinds = {"deterministic": "shell", "shell": "shell", "a2a": "a2a", "agent": "a2a"}
            mapped = kinds.get(value) if isinstance(value, str) else None
            if mapped is None:
                chk.add(
                    step.line_of(key, value=True),
                    f"{what}: type {value!r} is unknown",
                    "Use type: a2a or type: deterministic.",
                )
                mapped = "a2a"
            _put(out, "type", mapped, step, key)
        elif key == "command":
            _put(out, "run", value, step, key)
        elif key == "timeoutMs":
            if (seconds := _millis(step, key, what, chk)) is not None:
                _put(out, "timeout", seconds, step, key)
        elif key == "verification":
            expect = _verification(value, what, chk)
            if expect is not None:
                _put(out, "expect", expect, step, key)
        elif key == "onError":
            if not isinstance(value, str) or value not in _RELAY_ON_ERROR:
                chk.add(step.line_of(key, value=True), f"{what}: onError {value!r} is unknown", "Use fail or continue.")
            else:
                _put(out, key, _RELAY_ON_ERROR[value], step, key)
        elif key in RELAY_STEP_KEYS:  # the keys this tool's layout has too: copied as they are
            _put(out, key, value, step, key)
        else:
            chk.warn(step.line_of(key), f"steps[].{key} is not used by switchboard; ignored")
    if kind is None and "command" in step and "agent" not in step:
        out["type"] = "shell"
    expect = out.get("expect")
    if (
        isinstance(expect, LineDict)
        and "exit_code" in expect
        and out.get("type", "a2a") != "shell"
        and "run" not in out
    ):
        chk.warn(expect.line, f"{what}: an exit_code verification applies to deterministic steps; ignored")
        del expect["exit_code"]
    if "retries" not in out and defaults:
        retries = _new(step.line)
        retries.update(defaults)
        out["retries"] = retries
    return out


def _verification(raw: Any, what: str, chk: Checker) -> LineDict | None:
    if not isinstance(raw, LineDict):
        return None
    kind, value = raw.get("type"), raw.get("value")
    expect = _new(raw.line)
    if kind == "output_contains":
        _put(expect, "output_contains", str(value), raw, "value")
    elif kind == "exit_code":
        try:
            _put(expect, "exit_code", int(value), raw, "value")  # type: ignore[arg-type]  # None: TypeError below
        except (TypeError, ValueError):
            chk.add(
                raw.line_of("value", value=True), f"{what}: exit_code verification needs a number", 'Write value: "0".'
            )
    elif kind == "regex":
        _put(expect, "regex", str(value), raw, "value")
    else:
        chk.warn(raw.line_of("type", value=True), f"{what}: verification type {kind!r} is not checked by switchboard")
        return None
    return expect
