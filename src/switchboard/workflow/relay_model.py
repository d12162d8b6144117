"""The relay layout of a workflow file (relay.py reads it) declared once: its keys, their types and what each
does, for the file's JSON Schema and for the reader, which takes every key list from here.

The layout is other tools' (agent workflow tools write it), so a key it has that switchboard does not use is
accepted with a warning, never refused: every model here allows extra keys. What the reader turns a key into
(timeoutMs into a timeout, command into run, a verification into expect) is relay.py's job.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from .file_model import Duration, ExpectSpec, InputDecl, Name, RetriesSpec, keys

RelayOnError = Literal["fail", "fail-fast", "retry", "skip", "continue"]
Millis = Annotated[float, Field(gt=0, description="milliseconds", examples=[60000])]
NOT_USED = "accepted, not used by switchboard"


class _Relay(BaseModel):
    # the relay layout's other keys are reported as warnings (not used by switchboard), never refused
    model_config = ConfigDict(strict=True, extra="allow", frozen=True, defer_build=True)


class RelayVerification(_Relay):
    """`verification:`: how a step's result is checked (the relay layout's `expect`)."""

    model_config = ConfigDict(title="Verification")

    type: Literal["output_contains", "exit_code", "regex"] | str = Field(
        description="output_contains, exit_code (deterministic steps) or regex; another type is not checked"
    )
    value: str | int | float | None = Field(None, description="the text, exit status or regular expression")


class RelayStepSpec(_Relay):
    """One step of a relay workflow: an agent's task (a2a) or a command (deterministic)."""

    model_config = ConfigDict(title="Relay step")

    name: Name = Field(description="the step's name: {{steps.NAME.output}} refers to its result")
    type: Literal["a2a", "agent", "deterministic", "shell"] | None = Field(
        None, description="a2a or agent: an agent's task; deterministic or shell: a command"
    )
    agent: str | None = Field(None, description="the agent (a name from agents:, or the agents file)")
    task: str | int | float | None = Field(None, description="the message, a template: {{NAME}} is an input")
    command: str | int | float | None = Field(None, description="a shell command; values reach it as its environment")
    run: str | int | float | None = Field(None, description="the same as command")
    depends_on: str | list[str] | None = Field(None, alias="dependsOn", description="the steps that finish first")
    timeout: Duration | None = Field(None, description="how long the step may take")
    timeout_ms: Millis | None = Field(None, alias="timeoutMs", description="the step's timeout in milliseconds")
    retries: Annotated[int, Field(ge=0)] | RetriesSpec | None = Field(None, description="a count, or {count, backoff}")
    expect: ExpectSpec | None = Field(None, description="what the result must show (this tool's layout's words)")
    verification: RelayVerification | None = Field(None, description="how the result is checked")
    interactive: bool | None = Field(None, description="false: input-required fails the step")
    context: str | int | None = Field(None, description="steps sharing a key continue one A2A context")
    on_error: RelayOnError | None = Field(
        None, alias="onError", description="fail, fail-fast and retry fail the run; skip and continue go on"
    )


class RelayWorkflowSpec(_Relay):
    """One workflow of the file's `workflows:` list."""

    model_config = ConfigDict(title="Relay workflow")

    name: str = Field(description="the workflow's name (--workflow NAME picks it)")
    description: str | None = Field(None, description="what the workflow does")
    on_error: RelayOnError | None = Field(None, alias="onError", description="what a failed step does to the run")
    steps: list[RelayStepSpec] = Field(description="the steps; they run as soon as the steps they depend on finish")


class RelayConstraints(_Relay):
    model_config = ConfigDict(title="Constraints")

    timeout_ms: Millis | None = Field(None, alias="timeoutMs", description="the agent's steps' timeout")


class RelayAgentSpec(_Relay):
    """An agent of the relay layout: an A2A agent (runtime: a2a); without a url, the agents file's of its name."""

    model_config = ConfigDict(title="Relay agent")

    name: Name = Field(description="the name steps give as agent:")
    url: str | None = Field(None, description="an A2A agent's http(s) url; without it, the agents file's")
    runtime: str | None = Field(None, description="a2a or tasks; another runtime (a local CLI) is refused")
    cli: Any = Field(None, description="a local CLI agent: refused unless the agent has a url")
    role: Any = Field(None, description=NOT_USED)
    api_key_env: str | None = Field(None, alias="apiKeyEnv", description="the variable holding an API key")
    auth: dict[str, Any] | None = Field(None, description="{scheme, env}: the variable holding the secret")
    headers: dict[str, str] | None = Field(None, description="extra HTTP headers; ${VAR} comes from the environment")
    streaming: Literal["auto"] | bool | None = Field(None, description="auto: stream when the card says it can")
    timeout: Duration | None = Field(None, description="the default timeout of this agent's steps")
    timeout_ms: Millis | None = Field(None, alias="timeoutMs", description="the agent's steps' timeout")
    constraints: RelayConstraints | None = Field(None, description="of which timeoutMs is read")
    description: str | None = Field(None, description="a note for people")


class RelaySwarm(_Relay):
    model_config = ConfigDict(title="Swarm")

    pattern: Any = Field(None, description=f"{NOT_USED}: steps run as their dependencies allow")
    max_concurrency: int | None = Field(None, ge=1, alias="maxConcurrency", description="at most this many at once")


class RelayErrorHandling(_Relay):
    model_config = ConfigDict(title="Error handling")

    strategy: str | None = Field(None, description="retry: failed steps are retried (maxRetries times)")
    max_retries: int | None = Field(None, ge=0, alias="maxRetries", description="retries of each failed step")
    retry_delay_ms: Millis | None = Field(None, alias="retryDelayMs", description="the wait before the first retry")


class RelayFileSpec(_Relay):
    """A workflow file in the relay layout (relay.py shows one): a list of workflows, one of them run."""

    model_config = ConfigDict(title="Relay workflow file")

    version: str | int | float | None = Field(None, description="the relay file's own version")
    name: str | None = Field(None, description="the file's name (a workflow's own name comes first)")
    description: str | None = Field(None, description="what the file's workflows do")
    agents: list[RelayAgentSpec] | None = Field(None, description="the agents the steps use")
    inputs: dict[Name, InputDecl | str | int | float | bool | None] | None = Field(
        None, description="the run's inputs (-i NAME=VALUE); a bare {{NAME}} in a task is one too"
    )
    outputs: dict[str, str | int | float] | None = Field(None, description="the run's results: templates")
    swarm: RelaySwarm | None = Field(None, description="of which maxConcurrency is read")
    error_handling: RelayErrorHandling | None = Field(
        None, alias="errorHandling", description="retries for every step that has none of its own"
    )
    workflows: list[RelayWorkflowSpec] = Field(
        min_length=1, description="the workflows; the first runs unless --workflow NAME picks another"
    )
    coordination: Any = Field(None, description=NOT_USED)
    state: Any = Field(None, description=NOT_USED)
    trajectories: Any = Field(None, description=NOT_USED)
    channel: Any = Field(None, description=NOT_USED)
    metadata: Any = Field(None, description=NOT_USED)


RELAY_TOP_KEYS = keys(RelayFileSpec)
RELAY_WORKFLOW_KEYS = keys(RelayWorkflowSpec)
RELAY_STEP_KEYS = keys(RelayStepSpec)
RELAY_AGENT_KEYS = keys(RelayAgentSpec)
RELAY_SWARM_KEYS = keys(RelaySwarm)
