"""Tool arguments an MCP host sends (an LLM writes them): whatever JSON arrives, each tool's arguments are either
its model or a refusal naming fields, never another exception and never the values echoed back; accepted ones
become message parts or an error with a sentence. An elicitation's answer, whatever the client put in it, too."""

from __future__ import annotations

from typing import Any

from fuzz_support import fuzz
from hypothesis import given
from hypothesis import strategies as st

from switchboard.a2a.errors import SwitchboardError
from switchboard.mcp_bridge.arguments import (
    AgentArguments,
    ArgumentsRefused,
    ContinueArguments,
    RunArguments,
    RunsArguments,
    TaskArguments,
    parse_arguments,
)
from switchboard.mcp_bridge.message_parts import answer_parts, message_parts

MARK = "SECRET-LOOKING-VALUE-0451"
scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=40) | st.just(MARK)
json_values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=20,
)  # fmt: skip
keys = st.sampled_from(["message", "data", "files", "taskId", "contextId", "agent", "answer", "runId", "limit", "x"])
files = st.lists(
    st.fixed_dictionaries(
        {}, optional={"name": scalars, "mediaType": scalars, "bytes": st.sampled_from(["aGk=", "%%", MARK]),
                      "uri": st.sampled_from(["https://a.example/x", "file:///etc/passwd", "/etc/passwd", MARK])},
    ),
    max_size=3,
)  # fmt: skip
arguments = st.one_of(
    json_values,
    st.dictionaries(keys, json_values, max_size=6),
    st.fixed_dictionaries({"message": scalars}, optional={"files": files, "data": json_values, "taskId": scalars}),
)
MODELS = [AgentArguments, ContinueArguments, TaskArguments, RunArguments, RunsArguments]


@fuzz(examples=150)
@given(raw=arguments, model=st.sampled_from(MODELS))
def test_tool_arguments_are_the_model_or_a_refusal_that_echoes_nothing(raw: Any, model: type) -> None:
    try:
        parsed = parse_arguments(model, raw)
    except ArgumentsRefused as refused:
        assert refused.problems and MARK not in str(refused) and "/etc/passwd" not in str(refused)
        return
    assert isinstance(parsed, model)
    if isinstance(parsed, AgentArguments):
        assert all(f.uri is None or f.uri.startswith(("http://", "https://")) for f in parsed.files or [])
        try:
            parts = message_parts(parsed.message, parsed.data, parsed.files)
        except SwitchboardError as exc:
            assert exc.message
        else:
            assert parts


@fuzz(examples=100)
@given(content=st.none() | st.dictionaries(st.text(max_size=12), json_values, max_size=5))
def test_an_elicitation_answer_becomes_a_message_or_a_sentence(content: dict[str, Any] | None) -> None:
    try:
        parts = answer_parts(content)
    except SwitchboardError as exc:
        assert exc.message
    else:
        assert parts
