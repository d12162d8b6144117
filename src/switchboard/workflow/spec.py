"""The workflow file: what it may say, and every problem in it at once, each with its line and a fix.

```yaml
version: 1
name: briefing
description: Research and convert in parallel, then combine.
inputs:
  topic: {required: true, description: What to research}
  distance: {default: 10 km}
agents:
  - researcher                       # a name from the agents file
  - name: converter                  # or inline, in the agents-file format
    url: http://127.0.0.1:47107/
    apiKeyEnv: CONVERTER_KEY         # secrets only through the names of environment variables
    streaming: auto                  # auto | true | false
    binding: rest                    # jsonrpc | rest | grpc: force a binding (default: the card's first one spoken)
    timeout: 2m                      # the default timeout of this agent's steps
steps:
  - name: research
    agent: researcher
    task: "quick: {{inputs.topic}}"
    timeout: 90s
    retries: {count: 2, backoff: 5s}
    expect: {output_contains: sources}
  - name: check
    run: test -n {{steps.research.output}}   # a shell step; values are shell-quoted
    dependsOn: [research]
    expect: {exit_code: 0}
outputs:
  report: "{{steps.research.output}}"
```

Step keys: `name`, `type` (a2a | shell), `agent` + `task` (a2a) or `run` (shell), `dependsOn`, `timeout`,
`retries` (a count, or {count, backoff}), `expect` (output_contains, regex, exit_code), `interactive`
(default true: input-required waits for an answer; false: the step fails with A2A_INPUT_REQUIRED),
`context` (steps sharing a key continue one A2A context, one at a time), `onError` (fail | continue).
Durations are seconds, or strings such as 500ms, 30s, 5m, 1h, 1m30s. The relay layout (top-level
`workflows:` list) is read too: see relay.py.
"""

from __future__ import annotations

import difflib
import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ..a2a.errors import SwitchboardError
from ..agents import AgentEntry, AgentsFile, load_agents
from .source import LineDict, YamlProblem, load_yaml

StepType = Literal["a2a", "shell"]
OnError = Literal["fail", "continue"]
NAME_PATTERN = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]*")


@dataclass(frozen=True)
class Issue:
    """One problem in a workflow file: where, what, and what to do about it."""

    file: str
    line: int | None
    message: str
    fix: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.message}\n    Fix: {self.fix}"

    def as_dict(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "message": self.message, "fix": self.fix}


class WorkflowInvalid(SwitchboardError):
    """The workflow file (or the inputs given to it) cannot run. `issues` holds every problem found."""

    code = "A2A_CONFIG_INVALID"
    workflow_code = "A2A_CONFIG_INVALID"
    exit_code = 2

    def __init__(self, issues: list[Issue], *, what: str = "the workflow") -> None:
        self.issues = sorted(issues, key=lambda issue: issue.line or 0)
        issues = self.issues
        count = f"{len(issues)} problem{'s' if len(issues) != 1 else ''}"
        message = f"{what} cannot run ({count}):\n" + "\n".join(f"  {issue}" for issue in issues)
        super().__init__(message, hint="Fix each line named above; `switchboard run FILE --validate` checks again.")

    def envelope(self) -> dict[str, Any]:
        out = super().envelope()
        out["error"]["issues"] = [issue.as_dict() for issue in self.issues]
        return out


@dataclass
class InputSpec:
    required: bool = False
    default: str | None = None
    description: str = ""
    line: int = 0


@dataclass
class Retries:
    count: int = 0
    backoff: float = 1.0  # seconds before the first retry; doubled before each further one


@dataclass
class Expect:
    output_contains: list[str] = field(default_factory=list)
    regex: str | None = None
    exit_code: int | None = None  # shell steps; unset means 0


@dataclass
class Step:
    name: str
    type: StepType
    agent: str | None = None
    run: str | None = None
    task: str | None = None
    depends_on: list[str] = field(default_factory=list)
    timeout: float | None = None  # seconds an agent may work on one turn (or a command may run)
    retries: Retries = field(default_factory=Retries)
    expect: Expect = field(default_factory=Expect)
    interactive: bool = True
    context: str | None = None
    on_error: OnError = "fail"
    line: int = 0


@dataclass
class Workflow:
    """A validated workflow: everything resolved, steps in file order."""

    name: str
    description: str
    inputs: dict[str, InputSpec]
    agents: dict[str, AgentEntry]
    steps: list[Step]
    outputs: dict[str, str]
    path: Path
    layout: Literal["switchboard", "relay"] = "switchboard"
    max_concurrency: int | None = None
    streaming: dict[str, bool | None] = field(default_factory=dict)  # per agent; None: as the card says
    warnings: list[str] = field(default_factory=list)
    digest: str = ""  # sha256 of the file, so a resumed run can tell the file changed

    def step(self, name: str) -> Step:
        for step in self.steps:
            if step.name == name:
                return step
        raise KeyError(name)

    @property
    def bare_inputs(self) -> bool:
        return self.layout == "relay"

    def upstream(self, name: str) -> set[str]:
        """Every step `name` depends on, directly or not."""
        deps = {s.name: s.depends_on for s in self.steps}
        seen: set[str] = set()
        todo = list(deps.get(name, []))
        while todo:
            current = todo.pop()
            if current not in seen:
                seen.add(current)
                todo.extend(deps.get(current, []))
        return seen


class Checker:
    """Collects issues for one file."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.issues: list[Issue] = []
        self.warnings: list[str] = []

    def add(self, line: int | None, message: str, fix: str) -> None:
        self.issues.append(Issue(self.file, line, message, fix))

    def warn(self, line: int | None, message: str) -> None:
        self.warnings.append(f"{self.file}:{line}: {message}" if line else f"{self.file}: {message}")

    def unknown_keys(self, mapping: LineDict, known: tuple[str, ...], what: str) -> None:
        for key in mapping:
            if key not in known:
                close = difflib.get_close_matches(str(key), known, n=1, cutoff=0.6)
                fix = f"Did you mean {close[0]}?" if close else f"{what} takes: {', '.join(known)}."
                self.add(mapping.line_of(key), f"{what} has an unknown key {key!r}", fix)
        for key, line in mapping.duplicates:
            self.add(line, f"{key!r} appears twice in {what}", "Keep one of them: YAML keeps only the last.")


def suggest(name: str, known: list[str]) -> str:
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    return f" Did you mean {close[0]}?" if close else ""


_DURATION_PART = re.compile(r"(\d+(?:\.\d+)?)(ms|s|m|h)")


def parse_duration(value: Any) -> float | None:
    """Seconds from 30, 2.5, "30", "500ms", "30s", "5m", "1h" or "1m30s"; None when it is none of those."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value) if value >= 0 else None
    if not isinstance(value, str):
        return None
    text = value.strip().replace(" ", "")
    if re.fullmatch(r"\d+(?:\.\d+)?", text):
        return float(text)
    if not text or not re.fullmatch(rf"(?:{_DURATION_PART.pattern})+", text):
        return None
    units = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}
    return sum(float(n) * units[u] for n, u in _DURATION_PART.findall(text))


def duration(chk: Checker, mapping: LineDict, key: str, what: str) -> float | None:
    """A positive duration under `key`, or None (with an issue when it is there but wrong)."""
    if key not in mapping or mapping[key] is None:
        return None
    seconds = parse_duration(mapping[key])
    if seconds is None or seconds <= 0:
        chk.add(
            mapping.line_of(key, value=True),
            f"{what}: {key} {mapping[key]!r} is not a duration",
            "Give seconds (30) or a number with a unit: 500ms, 30s, 5m, 1h, 1m30s.",
        )
        return None
    return seconds


def load_workflow(
    path: Path, agents: AgentsFile | None = None, *, workflow: str | None = None, env: dict[str, str] | None = None
) -> Workflow:
    """Read and validate a workflow file; raise WorkflowInvalid listing every problem, each with line and fix.

    `agents` resolves agent names (default: the agents file in the config dir). `workflow` picks one
    workflow of a relay-layout file (default: its first). Nothing runs and nothing is contacted here.
    """
    from .checks import check_workflow

    path = Path(path)
    shown = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        issue = Issue(shown, None, f"cannot read the workflow file: {exc.strerror or exc}", "Check the path.")
        raise WorkflowInvalid([issue]) from None
    try:
        doc = load_yaml(text)
    except YamlProblem as exc:
        issue = Issue(shown, exc.line, f"not valid YAML: {exc.problem}", "Fix the YAML syntax.")
        raise WorkflowInvalid([issue]) from None
    chk = Checker(shown)
    if not isinstance(doc, LineDict):
        chk.add(getattr(doc, "line", 1) or 1, "a workflow file is a mapping", "Start with `name:` and `steps:`.")
        raise WorkflowInvalid(chk.issues)
    if agents is None:
        from ..paths import agents_file

        agents = load_agents(agents_file())
    layout: Literal["switchboard", "relay"] = "switchboard"
    if "workflows" in doc:
        from .relay import from_relay

        doc = from_relay(doc, workflow, chk)
        layout = "relay"
        if doc is None:
            raise WorkflowInvalid(chk.issues)
    elif workflow is not None and workflow != doc.get("name"):
        chk.add(
            doc.line_of("name"),
            f"this file holds one workflow ({doc.get('name')!r}), not {workflow!r}",
            "Drop --workflow, or pass the file that holds it.",
        )
    result = check_workflow(doc, chk, agents, path, layout, env)
    if chk.issues or result is None:
        raise WorkflowInvalid(chk.issues)
    result.warnings = chk.warnings + list(agents.warnings)
    result.digest = hashlib.sha256(text.encode()).hexdigest()
    return result


def resolve_inputs(workflow: Workflow, given: dict[str, str]) -> dict[str, str]:
    """The value of every input: given, else its default. Missing or unknown ones raise WorkflowInvalid."""
    issues: list[Issue] = []
    shown = str(workflow.path)
    for name in given:
        if name not in workflow.inputs:
            known = ", ".join(workflow.inputs) or "none"
            issues.append(
                Issue(
                    shown,
                    None,
                    f"the workflow has no input {name!r}",
                    f"Its inputs: {known}.{suggest(name, list(workflow.inputs))}",
                )
            )
    values: dict[str, str] = {}
    for name, spec in workflow.inputs.items():
        if name in given:
            values[name] = given[name]
        elif spec.default is not None:
            values[name] = spec.default
        elif spec.required:
            about = f" ({spec.description})" if spec.description else ""
            issues.append(
                Issue(shown, spec.line or None, f"the input {name!r} is required{about}", f"Pass -i {name}=VALUE.")
            )
        else:
            values[name] = ""
    if issues:
        raise WorkflowInvalid(issues, what="the inputs")
    return values


def expect_problem(step: Step, output: str, exit_code: int | None = None) -> tuple[str, str] | None:
    """(code, why) when `output` (and a shell step's `exit_code`) fail the step's `expect`; None when they pass.

    A shell step must exit 0 unless `expect.exit_code` says otherwise (SHELL_FAILED); output checks give
    EXPECT_FAILED.
    """
    if step.type == "shell":
        wanted = step.expect.exit_code if step.expect.exit_code is not None else 0
        if exit_code != wanted:
            return "SHELL_FAILED", f"the command exited with {exit_code}, expected {wanted}"
    for needle in step.expect.output_contains:
        if needle not in output:
            return "EXPECT_FAILED", f"the output does not contain {needle!r}"
    if step.expect.regex is not None and not re.search(step.expect.regex, output):
        return "EXPECT_FAILED", f"the output does not match /{step.expect.regex}/"
    return None
