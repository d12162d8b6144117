"""The workflow file declared once: what a person may write in it, with the names they write (camelCase).

`WorkflowFileSpec` (this tool's layout) and `RelayFileSpec` (the relay layout: relay_model.py) are the one
declaration of the format: the checks take every key list from them (a key the format lacks is refused with a
did-you-mean), and switchboard.schemas makes the file's JSON Schema of the two. What depends on more than one
value (the step graph, templates, agent names resolved against the agents file) is checked in checks.py,
check_steps.py and check_agents.py, each problem at its line.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..agents_model import TlsSpec

NAME = r"^[A-Za-z0-9_][A-Za-z0-9_-]*$"  # a step, input or agent name usable in templates
Name = Annotated[str, Field(pattern=NAME)]
Duration = Annotated[
    int | float | str,
    Field(description="seconds (30, 2.5), or a number with a unit: 500ms, 30s, 5m, 1h, 1m30s"),
]
OnError = Literal["fail", "continue"]


class _Spec(BaseModel):
    # strict: `true` is not a string, "yes" is not a bool; extra: a key the format lacks is a mistake.
    # defer_build: validators are built when a workflow file is first read, not by every import of this.
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True, defer_build=True)


class InputDecl(_Spec):
    """An input of the run (`-i name=value`); written as this mapping, or as its default value alone."""

    model_config = ConfigDict(title="Input")

    required: bool | None = Field(None, description="default: true unless there is a default")
    default: str | int | float | bool | None = Field(None, description="the value when the run is not given one")
    description: str | None = Field(None, description="shown when the input is missing, and in the run's form")


class InlineAuth(_Spec):
    """`auth:` of an agent defined in the workflow: the name of the variable, never the secret."""

    model_config = ConfigDict(title="Credentials")

    scheme: str = Field("bearer", description="bearer or apiKey")
    env: str = Field(description="the environment variable that holds the secret", examples=["WRITER_TOKEN"])


class AgentDecl(_Spec):
    """An agent under `agents:`: a name from the agents file with options, or an inline definition (url)."""

    model_config = ConfigDict(title="Agent")

    name: Name | None = Field(None, description="default: its key, when `agents:` is a mapping")
    url: str | None = Field(
        None,
        description="an inline agent's http(s) url; without it, the agents file's agent of this name",
        examples=["http://127.0.0.1:47107/"],
    )
    api_key_env: str | None = Field(
        None, alias="apiKeyEnv", description="the environment variable holding an API key (never the key)"
    )
    auth: InlineAuth | None = Field(None, description="credentials: a scheme and the variable that holds the secret")
    headers: dict[str, str] | None = Field(None, description="extra HTTP headers; ${VAR} comes from the environment")
    streaming: Literal["auto"] | bool = Field("auto", description="auto: stream when the card says it can")
    timeout: Duration | None = Field(None, description="the default timeout of this agent's steps")
    protocol: Literal["a2a", "tasks"] | None = Field(None, description="a2a, or tasks: the simple REST task API")
    runtime: Literal["a2a", "tasks"] | None = Field(None, description="the same as protocol")
    description: str | None = Field(None, description="a note for people")
    trust_interface_origin: bool = Field(
        False, alias="trustInterfaceOrigin", description="true: send credentials to the card's other origins too"
    )
    binding: Literal["jsonrpc", "rest", "grpc"] | None = Field(
        None, description="force a binding (default: the card's first one spoken)"
    )
    tls: TlsSpec | None = Field(None, description="mutual TLS: a client certificate, and the CA to trust")
    card_keys: list[str] | str | None = Field(
        None, alias="cardKeys", description="files of the public keys that sign this agent's card (only they count)"
    )


class RetriesSpec(_Spec):
    """`retries:` as a mapping: how many times a failed step runs again, and how long it waits."""

    model_config = ConfigDict(title="Retries")

    count: int = Field(1, ge=0, description="how many times the step is tried again after a failure")
    backoff: Duration | None = Field(None, description="before the first retry; doubled before each further one")


class ExpectSpec(_Spec):
    """`expect:`: what a step's result must show, else the step fails (and is retried, if it has retries)."""

    model_config = ConfigDict(title="Expect")

    output_contains: str | list[str] | None = Field(None, description="text (or every text of a list) in the output")
    regex: str | int | float | None = Field(None, description="a regular expression the output must match")
    exit_code: int | None = Field(None, description="shell steps only: the command's exit status")


class StepSpec(_Spec):
    """One step: an agent's task (a2a) or a command (shell)."""

    model_config = ConfigDict(
        title="Step",
        json_schema_extra={
            "defaultSnippets": [
                {"label": "a2a step", "body": {"name": "$1", "agent": "$2", "task": "$3"}},
                {"label": "shell step", "body": {"name": "$1", "run": "$2"}},
            ]
        },
    )

    name: Name = Field(description="the step's name: {{steps.NAME.output}} refers to its result", examples=["draft"])
    type: Literal["a2a", "shell"] | None = Field(None, description="default: shell when it has run:, else a2a")
    agent: str | None = Field(None, description="a2a steps: the agent (a name from agents:, or the agents file)")
    task: str | int | float | None = Field(
        None, description="a2a steps: the message, a template: {{inputs.X}}, {{steps.NAME.output}}"
    )
    run: str | int | float | None = Field(
        None, description="a shell command; template values reach it as its environment, never as shell source"
    )
    depends_on: str | list[str] | None = Field(
        None, alias="dependsOn", description="the steps that finish first (a template's step references count too)"
    )
    timeout: Duration | None = Field(None, description="how long the step may take (default: its agent's timeout)")
    retries: Annotated[int, Field(ge=0)] | RetriesSpec | None = Field(None, description="a count, or {count, backoff}")
    expect: ExpectSpec | None = Field(None, description="what the result must show, else the step fails")
    interactive: bool = Field(True, description="false: input-required fails the step (A2A_INPUT_REQUIRED)")
    context: str | int | None = Field(None, description="steps sharing a key continue one A2A context")
    on_error: OnError | None = Field(
        None, alias="onError", description="fail: the run fails; continue: the steps after it still run"
    )
    description: str | None = Field(None, description="a note for people")


class WorkflowFileSpec(_Spec):
    """A workflow file in this tool's layout (workflow/spec.py shows one)."""

    model_config = ConfigDict(title="Workflow")

    version: Literal[1, "1", "1.0"] | Annotated[float, Field(ge=1, le=1)] = Field(
        1, description="the layout's version: 1"
    )
    name: str | None = Field(None, description="default: the file's name")
    description: str | None = Field(None, description="what the workflow does; served as its skill's description")
    inputs: dict[Name, InputDecl | str | int | float | bool | None] | None = Field(
        None,
        description="the run's inputs (-i NAME=VALUE), each a mapping or its default value alone",
        examples=[{"topic": {"required": True, "description": "What to research"}}],
    )
    agents: list[Name | AgentDecl] | dict[Name, AgentDecl | None] | None = Field(
        None, description="the agents the steps use: names from the agents file, or inline definitions"
    )
    steps: list[StepSpec] = Field(description="the steps; they run as soon as the steps they depend on finish")
    outputs: dict[str, str | int | float] | None = Field(
        None,
        description="the run's results: templates over the steps' outputs",
        examples=[{"report": "{{steps.draft.output}}"}],
    )
    max_concurrency: int | None = Field(
        None, ge=1, alias="maxConcurrency", description="at most this many steps at once (default: no limit)"
    )
    on_error: OnError = Field("fail", alias="onError", description="what a failed step does to the run")

    @field_validator("version", mode="before")
    @classmethod
    def _not_a_bool(cls, value: Any) -> Any:
        if isinstance(value, bool):  # `true` equals 1 to Python, not to a person reading the file
            raise ValueError("version is a number")
        return value


def keys(model: type[BaseModel]) -> tuple[str, ...]:
    """The keys a person writes in a mapping of this model, in the order they are declared."""
    return tuple(field.alias or name for name, field in model.model_fields.items())


TOP_KEYS = keys(WorkflowFileSpec)
STEP_KEYS = keys(StepSpec)
AGENT_KEYS = keys(AgentDecl)
AGENT_OPTION_KEYS = ("name", "streaming", "timeout", "description", "runtime", "protocol")  # beside a name
INPUT_KEYS = keys(InputDecl)
RETRIES_KEYS = keys(RetriesSpec)
EXPECT_KEYS = keys(ExpectSpec)
