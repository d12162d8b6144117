"""The workflow file declared once: what a person may write in it, with the names they write (camelCase).

`WorkflowFileSpec` (this tool's layout) and `RelayFileSpec` (the relay layout, relay.py) are the one declaration
of the format: the checks take every key list from them (a key the format lacks is refused with a did-you-mean),
and `workflow_file_schema()` is the file's JSON Schema. What depends on more than one value (the step graph,
templates, agent names resolved against the agents file) is checked in checks.py, check_steps.py and
check_agents.py, each problem at its line.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator

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

    required: bool | None = Field(None, description="default: true unless there is a default")
    default: str | int | float | bool | None = None
    description: str | None = None


class InlineAuth(_Spec):
    """`auth:` of an agent defined in the workflow: the name of the variable, never the secret."""

    scheme: str = "bearer"
    env: str


class AgentDecl(_Spec):
    """An agent under `agents:`: a name from the agents file with options, or an inline definition (url)."""

    name: Name | None = Field(None, description="default: its key, when `agents:` is a mapping")
    url: str | None = Field(None, description="an inline agent's http(s) url; without it, the agents file's")
    api_key_env: str | None = Field(None, alias="apiKeyEnv")
    auth: InlineAuth | None = None
    headers: dict[str, str] | None = None
    streaming: Literal["auto"] | bool = "auto"
    timeout: Duration | None = Field(None, description="the default timeout of this agent's steps")
    protocol: Literal["a2a", "tasks"] | None = None
    runtime: Literal["a2a", "tasks"] | None = None
    description: str | None = None
    trust_interface_origin: bool = Field(False, alias="trustInterfaceOrigin")
    binding: Literal["jsonrpc", "rest", "grpc"] | None = None
    tls: TlsSpec | None = None
    card_keys: list[str] | str | None = Field(None, alias="cardKeys")


class RetriesSpec(_Spec):
    count: int = Field(1, ge=0)
    backoff: Duration | None = Field(None, description="before the first retry; doubled before each further one")


class ExpectSpec(_Spec):
    output_contains: str | list[str] | None = None
    regex: str | int | float | None = None
    exit_code: int | None = Field(None, description="shell steps only")


class StepSpec(_Spec):
    """One step: an agent's task (a2a) or a command (shell)."""

    name: Name
    type: Literal["a2a", "shell"] | None = Field(None, description="default: shell when it has run:, else a2a")
    agent: str | None = None
    task: str | int | float | None = Field(None, description="a template: {{inputs.X}}, {{steps.NAME.output}}")
    run: str | int | float | None = Field(None, description="a shell command; values reach it as its environment")
    depends_on: str | list[str] | None = Field(None, alias="dependsOn")
    timeout: Duration | None = None
    retries: Annotated[int, Field(ge=0)] | RetriesSpec | None = None
    expect: ExpectSpec | None = None
    interactive: bool = Field(True, description="false: input-required fails the step (A2A_INPUT_REQUIRED)")
    context: str | int | None = Field(None, description="steps sharing a key continue one A2A context")
    on_error: OnError | None = Field(None, alias="onError")
    description: str | None = None


class WorkflowFileSpec(_Spec):
    """A workflow file in this tool's layout (workflow/spec.py shows one)."""

    version: Literal[1, "1", "1.0"] | Annotated[float, Field(ge=1, le=1)] = 1
    name: str | None = Field(None, description="default: the file's name")
    description: str | None = None
    inputs: dict[Name, InputDecl | str | int | float | bool | None] | None = None
    agents: list[Name | AgentDecl] | dict[Name, AgentDecl | None] | None = None
    steps: list[StepSpec]
    outputs: dict[str, str | int | float] | None = None
    max_concurrency: int | None = Field(None, ge=1, alias="maxConcurrency")
    on_error: OnError = Field("fail", alias="onError")

    @field_validator("version", mode="before")
    @classmethod
    def _not_a_bool(cls, value: Any) -> Any:
        if isinstance(value, bool):  # `true` equals 1 to Python, not to a person reading the file
            raise ValueError("version is a number")
        return value


class _Relay(BaseModel):
    # the relay layout's other keys are reported as warnings (not used by switchboard), never refused
    model_config = ConfigDict(strict=True, extra="allow", frozen=True, defer_build=True)


class RelayWorkflowSpec(_Relay):
    name: str
    description: str | None = None
    on_error: Literal["fail", "fail-fast", "retry", "skip", "continue"] | None = Field(None, alias="onError")
    steps: list[dict[str, Any]]


class RelayFileSpec(_Relay):
    """A workflow file in the relay layout (relay.py shows one): a list of workflows, one of them run."""

    version: str | int | float | None = None
    name: str | None = None
    description: str | None = None
    agents: list[dict[str, Any]] | None = None
    workflows: list[RelayWorkflowSpec] = Field(min_length=1)


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


def workflow_file_schema() -> dict[str, Any]:
    """The JSON Schema of a workflow file, in either layout."""
    either: Any = WorkflowFileSpec | RelayFileSpec  # a union is a type form mypy will not pass as a type
    return TypeAdapter(either).json_schema()
