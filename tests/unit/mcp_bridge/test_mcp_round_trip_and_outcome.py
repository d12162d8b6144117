"""The bridge's pure parts: a question's state signed for one tool and refused for another or when altered; a turn's
artifacts as a tool result (text exactly, data as structured content, files as resources); choices read from a
question's data part."""

from __future__ import annotations

import mcp_types as types
import pytest

from switchboard.a2a.errors import UsageError
from switchboard.a2a.model import (
    Artifact,
    ArtifactUpdate,
    DataPart,
    FilePart,
    Message,
    Role,
    StatusUpdate,
    TaskState,
    TaskStatus,
    TextPart,
)
from switchboard.a2a.turn import TaskView
from switchboard.mcp_bridge.outcome import turn_result
from switchboard.mcp_bridge.round_trip import AskByRoundTrip, input_required, read_state


def test_a_question_state_comes_back_only_for_its_tool_and_unaltered():
    result = input_required(AskByRoundTrip("asks", {"type": "object"}, "task", "interviewer", "T1"), "ask_interviewer")
    state = result.request_state
    assert state is not None and "T1" not in state  # opaque (base64), never read unsigned
    assert read_state(state, "ask_interviewer").task_id == "T1"
    with pytest.raises(UsageError):
        read_state(state, "continue_task")
    body, _, mac = state.partition(".")
    with pytest.raises(UsageError):
        read_state(body[:-2] + "AA." + mac, "ask_interviewer")
    with pytest.raises(UsageError):
        read_state("not a state at all", "ask_interviewer")


def _view(*events) -> TaskView:
    view = TaskView()
    for event in events:
        view.apply(event)
    return view


def test_artifacts_become_exact_text_structured_data_and_resources():
    parts = [
        TextPart(text="line one\n"),
        TextPart(text="  two"),
        DataPart(data={"k": 1}),
        FilePart(raw="aGk=", name="a.txt", media_type="text/plain"),
        FilePart(url="https://files.example/b.pdf", name="b.pdf"),
    ]
    done = TaskStatus(state=TaskState.COMPLETED)
    view = _view(
        ArtifactUpdate(task_id="T", context_id="C", artifact=Artifact(artifact_id="A", parts=parts)),
        StatusUpdate(task_id="T", context_id="C", status=done),
    )
    result = turn_result("agent", view)
    text, embedded, link, summary = result.content
    assert isinstance(text, types.TextContent) and text.text == "line one\n  two"
    assert isinstance(embedded, types.EmbeddedResource) and embedded.resource.blob == "aGk="
    assert isinstance(link, types.ResourceLink) and str(link.uri) == "https://files.example/b.pdf"
    assert "completed" in summary.text
    assert result.structured_content["artifacts"][0]["data"] == [{"k": 1}]


def test_a_question_with_choices_says_them_and_the_call_that_answers():
    question = Message(
        message_id="q", role=Role.AGENT, parts=[TextPart(text="Pick one"), DataPart(data={"choices": ["a", "b"]})]
    )
    view = _view(
        StatusUpdate(task_id="T", context_id="C", status=TaskStatus(state=TaskState.INPUT_REQUIRED, message=question))
    )
    result = turn_result("agent", view)
    assert result.structured_content["choices"] == ["a", "b"]
    assert result.structured_content["answerWith"]["arguments"] == {"agent": "agent", "taskId": "T"}
    assert not result.is_error


def test_every_generic_tool_has_a_title_and_an_agent_of_the_task_api_is_not_called_a2a():
    from switchboard.agents import AgentEntry
    from switchboard.mcp_bridge.catalog import agent_description, generic_tools

    assert all(tool.title for tool in generic_tools(with_runs=True))
    said = agent_description(AgentEntry("jobs", "http://127.0.0.1:9/", protocol="tasks"), None, None)
    assert said.startswith("Talk to the agent behind a REST task API 'jobs'")


def test_a_call_without_a_message_is_told_so_in_our_words_not_pydantics():
    from switchboard.mcp_bridge.arguments import AgentArguments, ArgumentsRefused, parse_arguments

    with pytest.raises(ArgumentsRefused) as refused:
        parse_arguments(AgentArguments, {})
    assert refused.value.problems == ["give a message (or data, or files)"]
    with pytest.raises(ArgumentsRefused) as refused:
        parse_arguments(AgentArguments, {"message": "hi", "color": "red"})
    assert refused.value.problems[0].startswith("color: ")


def test_a_call_whose_bound_ran_out_before_any_task_never_says_to_wait_for_task_none():
    from switchboard.mcp_bridge.outcome import running_result

    result = running_result("slow", TaskView(), 25)
    assert result.is_error and "waitWith" not in result.structured_content
    assert "None" not in result.content[0].text and "made no task for the message yet" in result.content[0].text


def test_a_running_tasks_last_word_ends_its_sentence():
    from switchboard.mcp_bridge.outcome import running_result

    view = TaskView().apply(
        StatusUpdate(
            task_id="T", context_id="C", status=TaskStatus(state=TaskState.WORKING, message=Message(
                role=Role.AGENT, parts=[TextPart(text="searching sources 3/10")], message_id="m"))
        )
    )  # fmt: skip
    assert (
        "Last word: searching sources 3/10. Call continue_task" in running_result("researcher", view, 3).content[0].text
    )
