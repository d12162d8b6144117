"""The workflow model: what a workflow file may say, as the loader (loader.py) hands it to the runners.

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
    run: test -n {{steps.research.output}}   # a shell step; values reach it as environment variables
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
`workflows:` list) is read too: see relay.py. An `Issue` is one problem found in a file, with its line and a fix.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ..a2a.errors import SwitchboardError
from ..agents import AgentEntry

StepType = Literal["a2a", "shell"]
OnError = Literal["fail", "continue"]


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
