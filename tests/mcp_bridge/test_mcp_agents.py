"""The demo fleet's agents as tools, through the official MCP Python client over stdio: questions answered by
elicitation in the same call, progress with the agent's words, the artifact exactly as the agent has it, a call
the client cancels canceling the agent's task."""

from __future__ import annotations

import re
import threading

import anyio
import mcp_types as types
import pytest
from mcp.shared.exceptions import MCPError
from mcp_support import Person, every_task, issuer_ready, stdio_session, texts
from oidc_user import enter_device_code

from switchboard.a2ui.negotiation import CAPABILITIES_KEY
from switchboard.agents import AgentEntry
from switchboard.link import open_link

pytestmark = pytest.mark.asyncio(loop_scope="module")
DEVICE_LINE = re.compile(r"open (\S+) and enter the code (\S+) ")


async def agent_task(fleet, name: str, task_id: str):
    async with await open_link(AgentEntry(name=name, url=fleet.agent(name).url)) as link:
        return await link.get_task(task_id)


async def test_the_tools_are_the_agents_and_the_generic_ones(asking):
    tools = {tool.name: tool for tool in (await asking.list_tools()).tools}
    assert {"ask_interviewer", "ask_writer", "ask_researcher", "run_interview", "continue_task", "cancel_task"} <= set(
        tools
    )
    writer = tools["ask_writer"]
    assert "Write a document" in (writer.description or "") and "a short story about tides" in writer.description
    assert set(writer.input_schema["properties"]) == {"message", "data", "files", "taskId", "contextId"}
    assert tools["run_interview"].input_schema["type"] == "object"


async def test_the_interviewers_two_questions_are_answered_through_elicitation_in_one_call(
    asking, person: Person, fleet
):
    person.answers[:] = ["Ada", "test my own agent"]
    person.asked.clear()
    said: list[str] = []

    async def progress(value: float, total: float | None, message: str | None) -> None:
        said.append(message or "")

    result = await asking.call_tool("ask_interviewer", {"message": "interview me"}, progress_callback=progress)
    assert not result.is_error
    assert texts(result)[0] == "Interview summary: Ada came by to test my own agent."
    assert result.structured_content["state"] == "completed"
    assert result.structured_content["artifacts"][0]["data"] == [{"name": "Ada", "goal": "test my own agent"}]
    first, second = person.asked
    assert first.message == "interviewer asks: What is your name?"
    assert "enum" not in first.requested_schema["properties"]["answer"]
    assert second.requested_schema["properties"]["answer"]["enum"] == [
        "learn how A2A works",
        "test my own agent",
        "just looking around",
    ]
    assert "preparing two questions" in said and "writing up your answers" in said
    # The interviewer's card declares A2UI, but a host answers in words or from the choices: the bridge does not
    # announce A2UI, so the question came with its data part alone (no form for a host that cannot draw one).
    task = await agent_task(fleet, "interviewer", result.structured_content["taskId"])
    assert task.history
    assert not any(CAPABILITIES_KEY in (message.metadata or {}) for message in task.history)
    assert not any(
        getattr(part, "media_type", None) == "application/a2ui+json" for m in task.history for part in m.parts
    )


async def test_the_writers_story_comes_with_progress_and_exactly_the_agents_artifact(asking, fleet):
    said: list[str] = []

    async def progress(value: float, total: float | None, message: str | None) -> None:
        said.append(message or "")

    result = await asking.call_tool("ask_writer", {"message": "a story about owls"}, progress_callback=progress)
    task = await agent_task(fleet, "writer", result.structured_content["taskId"])
    document = "".join(part.text for part in task.artifacts[0].parts)
    assert texts(result)[0] == document and len(document) > 2000
    assert any("outlining" in s for s in said) and any("drafting" in s for s in said)


async def test_a_call_the_client_cancels_cancels_the_researchers_task(asking, fleet):
    started = anyio.Event()

    async def progress(value: float, total: float | None, message: str | None) -> None:
        started.set()

    async with anyio.create_task_group() as group:

        async def call() -> None:
            await asking.call_tool("ask_researcher", {"message": "deep: tides"}, progress_callback=progress)

        group.start_soon(call)
        await started.wait()
        group.cancel_scope.cancel()  # the client sends notifications/cancelled for the call
    entry = AgentEntry(name="researcher", url=fleet.agent("researcher").url)
    async with await open_link(entry) as link:
        page = await link.list_tasks()
        task = max(page.tasks, key=lambda t: t.status.timestamp or "")
        await link.wait(task.id)  # the bridge cancels it as the call goes
        assert (await link.get_task(task.id)).status.state.value == "canceled"


async def test_a_declined_question_cancels_the_task_and_a_dismissed_one_leaves_it_waiting(asking, person: Person):
    person.answers[:] = ["decline"]
    declined = await asking.call_tool("ask_interviewer", {"message": "interview me"})
    assert declined.structured_content["state"] == "canceled"
    assert "declined" in texts(declined)[-1]
    # an answer to the ended task is not sent: the result says how to go on in the same conversation instead
    task_id, context_id = declined.structured_content["taskId"], declined.structured_content["contextId"]
    late = await asking.call_tool("continue_task", {"agent": "interviewer", "taskId": task_id, "answer": "Ada"})
    assert late.is_error and late.structured_content["state"] == "canceled"
    assert f"Call ask_interviewer with contextId={context_id!r} to start a new task" in texts(late)[0]
    person.answers[:] = ["cancel"]
    dismissed = await asking.call_tool("ask_interviewer", {"message": "interview me"})
    assert dismissed.structured_content["state"] == "input-required"
    assert dismissed.structured_content["answerWith"]["tool"] == "continue_task"


async def test_a_client_that_refuses_the_form_gets_the_question_back(asking, person: Person):
    person.answers[:] = ["error"]
    refused = await asking.call_tool("ask_interviewer", {"message": "interview me"})
    assert not refused.is_error and refused.structured_content["state"] == "input-required"
    assert texts(refused)[-1].startswith("The host could not ask you the question.")


async def test_arguments_that_do_not_fit_the_schema_are_refused_by_name_and_an_unknown_tool_is_an_error(asking):
    refused = await asking.call_tool("ask_echo", {"message": "hi", "path": "/etc/passwd"})
    assert refused.is_error and "path" in texts(refused)[0] and "/etc/passwd" not in texts(refused)[0]
    local = await asking.call_tool("ask_echo", {"message": "hi", "files": [{"uri": "file:///etc/passwd"}]})
    assert local.is_error and "http(s)" in texts(local)[0]
    with pytest.raises(MCPError):
        await asking.call_tool("ask_nobody", {"message": "hi"})


async def test_a_workflow_runs_from_its_tool_and_its_steps_question_is_elicited(asking, person: Person):
    person.answers[:] = ["Grace", "learn how A2A works"]
    person.asked.clear()
    result = await asking.call_tool("run_interview", {})
    assert result.structured_content["status"] == "completed", texts(result)
    assert "Grace came by to learn how A2A works" in result.structured_content["outputs"]["summary"]
    assert person.asked[0].message.endswith("What is your name?")
    runs = await asking.call_tool("list_runs", {})
    assert runs.structured_content["runs"][0]["runId"] == result.structured_content["runId"]


async def test_the_generic_tools_read_a_card_and_list_the_agents(asking):
    card = await asking.call_tool("read_card", {"agent": "writer"})
    assert card.structured_content["card"]["name"]
    none = await asking.call_tool("read_card", {"agent": "tasks"})  # the REST task API has no card, by design
    assert not none.is_error and none.structured_content == {"card": None, "protocol": "tasks", "tool": "ask_tasks"}
    agents = await asking.call_tool("list_agents", {})
    assert {"name": "writer"}.items() <= next(
        a for a in agents.structured_content["agents"] if a["name"] == "writer"
    ).items()
    assert isinstance(agents.content[0], types.TextContent)


async def test_the_sso_agents_sign_in_goes_to_the_person_as_a_url_and_the_token_stays_here(asking, person, fleet):
    await issuer_ready(fleet)
    entered: list[str] = []

    async def sign_in(params: types.ElicitRequestURLParams) -> None:
        found = DEVICE_LINE.search(params.message)
        assert found is not None and params.url.startswith("http")
        uri, code = found.groups()
        # the person enters the code at the provider while the call waits for the token
        threading.Thread(target=lambda: entered.append(enter_device_code(uri, code)), daemon=True).start()

    person.on_url = sign_in
    said: list[str] = []

    async def progress(value: float, total: float | None, message: str | None) -> None:
        said.append(message or "")

    result = await asking.call_tool("ask_sso", {"message": "hello"}, progress_callback=progress)
    assert texts(result)[0] == "signed in and heard: hello", texts(result)
    assert entered, "the person never signed in"
    assert any("enter the code" in s for s in said)
    assert "eyJ" not in repr(result.model_dump()) and "eyJ" not in " ".join(said)  # no JWT reaches the host


async def test_a_new_server_answers_tasks_get_for_a_run_from_its_journal(asking, person: Person, fleet, mcp_home):
    person.answers[:] = ["Lin", "3"]
    run = await asking.call_tool("run_interview", {})
    run_id = run.structured_content["runId"]
    # another server process (as after a restart) knows the run only from its journal
    async with stdio_session(fleet.agents_file, mcp_home) as later:
        found = await later.send_request(
            types.GetTaskRequest(params=types.GetTaskRequestParams(task_id=run_id)), types.GetTaskResult
        )
        listed_later = {task.task_id: task for task in await every_task(later)}
    assert found.task_id == run_id and found.status == "completed"
    assert "from its journal" in (found.status_message or "")
    # tasks/list has what tasks/get answers for: the run, in this server (a plain call: no MCP task) and the next
    listed = {task.task_id: task for task in await every_task(asking)}
    assert listed[run_id].status == "completed" and listed_later[run_id].status == "completed"
    assert "of interview" in (listed_later[run_id].status_message or "")


async def test_a_credential_asked_mid_task_is_never_put_in_a_form_and_is_redacted_once_given(asking, person: Person):
    person.asked.clear()
    asked = await asking.call_tool("ask_gatekeeper", {"message": "open the vault"})
    assert asked.structured_content["state"] == "auth-required" and person.asked == []  # no form for a secret
    assert "a credential or a sign-in" in texts(asked)[-1]
    task_id = asked.structured_content["taskId"]
    done = await asking.call_tool("continue_task", {"agent": "gatekeeper", "taskId": task_id, "answer": "sesame"})
    assert done.structured_content["state"] == "completed"
    assert "sesame" not in repr(done.model_dump())


async def test_an_agent_that_crashes_mid_turn_says_why_in_the_result(asking):
    """The flaky agent's crash comes as an error on the stream, then the task reads failed with no words: the error
    it reported is the only reason, and the result gives it."""
    result = await asking.call_tool("ask_flaky", {"message": "crash"})
    assert result.is_error and result.structured_content["state"] == "failed"
    assert "the agent reported InternalError: the flaky agent crashed on purpose" in texts(result)[-1]
