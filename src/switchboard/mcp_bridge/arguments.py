"""What a host may pass to a tool, declared once: the input schemas the tools advertise are built from these models,
and every call's arguments are validated against them before anything is sent. The host is an LLM-driven
program: its arguments are checked like any caller's (bounded sizes, no unknown fields, no local paths)."""

from __future__ import annotations

import base64
import binascii
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

MAX_TEXT = 100_000  # characters of message text a host may send in one call
MAX_FILE_BYTES = 8 * 1024 * 1024  # base64 text of one inline file
MAX_FILES = 8
MAX_ID = 256


class _Arguments(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True, str_strip_whitespace=False)


class FileArgument(_Arguments):
    """A file for the agent: inline (base64 bytes) or at an http(s) URL the agent fetches. Never a local path:
    the host must not be able to send the person's files anywhere by naming them."""

    name: str | None = Field(None, max_length=255, description="The file's name.")
    media_type: str | None = Field(None, alias="mediaType", max_length=255, description="Its media type.")
    bytes: str | None = Field(None, max_length=MAX_FILE_BYTES, description="The content, base64.")
    uri: str | None = Field(None, max_length=4096, description="An http(s) URL the agent reads it from.")

    @field_validator("bytes")
    @classmethod
    def _base64(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                base64.b64decode(value, validate=True)
            except (binascii.Error, ValueError):
                raise ValueError("is not base64") from None
        return value

    @field_validator("uri")
    @classmethod
    def _web_uri(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("http://", "https://")):
            raise ValueError("must be an http(s) URL")
        return value

    @model_validator(mode="after")
    def _one_source(self) -> FileArgument:
        if (self.bytes is None) == (self.uri is None):
            raise ValueError("give exactly one of bytes and uri")
        return self


class AgentArguments(_Arguments):
    """A message to an agent: a new task, or (with taskId) the next message of a task that waits for one."""

    message: str | None = Field(None, max_length=MAX_TEXT, description="What to say to the agent.")
    data: dict[str, Any] | None = Field(None, description="Structured data to send with the message (a data part).")
    files: list[FileArgument] | None = Field(None, max_length=MAX_FILES, description="Files to send with it.")
    task_id: str | None = Field(
        None,
        alias="taskId",
        max_length=MAX_ID,
        description="Continue this task (one that asked a question, from an earlier result).",
    )
    context_id: str | None = Field(
        None, alias="contextId", max_length=MAX_ID, description="Start the task in this conversation (context)."
    )

    @model_validator(mode="after")
    def _something(self) -> AgentArguments:
        if not self.message and self.data is None and not self.files:
            raise ValueError("give a message (or data, or files)")
        return self


class ContinueArguments(_Arguments):
    """The next step of a task an earlier call returned: answer its question, or wait for it again."""

    agent: str = Field(max_length=MAX_ID, description="The agent's name (as list_agents gives it).")
    task_id: str = Field(alias="taskId", min_length=1, max_length=MAX_ID, description="The task's id.")
    answer: str | None = Field(
        None, max_length=MAX_TEXT, description="The answer to the task's question. Leave out to wait for the task."
    )
    data: dict[str, Any] | None = Field(None, description="Structured data to answer with.")


class TaskArguments(_Arguments):
    agent: str = Field(max_length=MAX_ID, description="The agent's name (as list_agents gives it).")
    task_id: str = Field(alias="taskId", min_length=1, max_length=MAX_ID, description="The task's id.")


class AgentNameArguments(_Arguments):
    agent: str = Field(max_length=MAX_ID, description="The agent's name (as list_agents gives it).")


class NoArguments(_Arguments):
    pass


class RunsArguments(_Arguments):
    limit: int = Field(20, ge=1, le=200, description="How many runs, newest first.")


class RunArguments(_Arguments):
    run_id: str = Field(alias="runId", min_length=1, max_length=MAX_ID, description="The run's id.")
    answer: str | None = Field(
        None, max_length=MAX_TEXT, description="The answer to the run's question. Leave out to wait for the run."
    )


def input_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The JSON Schema a tool advertises for `model` (by the names hosts write: camelCase)."""
    schema = model.model_json_schema(by_alias=True)
    schema.pop("title", None)
    schema.pop("description", None)
    return schema


M = TypeVar("M", bound=BaseModel)


class ArgumentsRefused(Exception):
    """The host's arguments do not fit the tool's schema: a sentence per problem, never the values themselves."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def parse_arguments(model: type[M], raw: object) -> M:
    """`raw` validated as `model`, or ArgumentsRefused naming each field that is wrong (without echoing it)."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise ArgumentsRefused(["the arguments must be an object"])
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        problems = []
        for error in exc.errors(include_input=False, include_url=False, include_context=False):
            where = ".".join(str(p) for p in error["loc"]) or "arguments"
            said = error["msg"].removeprefix("Value error, ")  # pydantic's wrapping of our own sentence
            problems.append(said if where == "arguments" and said != error["msg"] else f"{where}: {said}")
        raise ArgumentsRefused(problems[:10]) from None
