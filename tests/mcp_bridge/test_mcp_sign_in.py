"""An agent that asks for a sign-in mid-task (the interop "vault" stops at auth-required asking for a2a:admin): the
bridge puts the sign-in to the person as a URL to open, runs the flow itself (the token never reaches the host),
tells the task with the new token, and the call ends with the agent's answer. Declined, the task waits and
continue_task takes it up; a client that cannot open a URL is told how to sign in. The person at the real OpenID
Provider is played over HTTP (oidc_user)."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
import pytest_asyncio
from mcp import ClientSession
from mcp.shared.exceptions import MCPError
from mcp_support import HeldSession, get_task, server_env, stdio_session, task_call, task_result, texts
from oidc_user import enter_device_code

pytestmark = [pytest.mark.interop, pytest.mark.asyncio(loop_scope="module")]
DEVICE_LINE = re.compile(r"open (\S+) and enter the code (\S+) ")
NO_KEYRING = {"PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}


class SigningPerson:
    """Answers URL elicitations: declines those whose message names a scope in `decline` ("*": any; once each), else
    accepts and enters the device code at the provider (in a thread, while the bridge waits for the token)."""

    def __init__(self) -> None:
        self.asked: list[types.ElicitRequestURLParams] = []
        self.decline: set[str] = set()
        self.entered: list[str] = []
        self.errors: list[BaseException] = []

    async def __call__(self, context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        assert isinstance(params, types.ElicitRequestURLParams), params
        self.asked.append(params)
        for scope in list(self.decline):
            if scope in params.message or scope == "*":
                self.decline.discard(scope)
                return types.ElicitResult(action="decline")
        found = DEVICE_LINE.search(params.message)
        assert found is not None, params.message
        threading.Thread(target=self._enter, args=found.groups(), daemon=True).start()
        return types.ElicitResult(action="accept")

    def _enter(self, uri: str, code: str) -> None:
        try:
            self.entered.append(enter_device_code(uri, code))
        except BaseException as exc:
            self.errors.append(exc)


def vault_agents(folder: Path, url: str) -> Path:
    agents = folder / "agents.yaml"
    agents.write_text(
        f"agents:\n  - name: vault\n    url: {url}\n    oauth: {{clientId: switchboard-cli, flow: deviceCode}}\n"
    )
    return agents


@pytest.fixture
def signing_person() -> SigningPerson:
    return SigningPerson()


@pytest_asyncio.fixture(loop_scope="module")
async def signing(oauth_agent, tmp_path: Path, signing_person: SigningPerson) -> AsyncIterator[ClientSession]:
    """A bridge of its own serving the vault (no token held yet), reached by a host that opens URLs."""
    home = tmp_path
    agents = vault_agents(home, oauth_agent.url)
    held = HeldSession(lambda: stdio_session(agents, home, person=signing_person, env=NO_KEYRING))  # type: ignore[arg-type]
    yield await held.session()
    await held.close()


async def test_a_sign_in_asked_mid_task_goes_to_the_person_as_a_url_and_the_call_ends_with_the_answer(
    signing: ClientSession, signing_person: SigningPerson
):
    said: list[str] = []

    async def progress(value: float, total: float | None, message: str | None) -> None:
        said.append(message or "")

    result = await signing.call_tool("ask_vault", {"message": "open the vault"}, progress_callback=progress)
    assert texts(result)[0] == "The vault is open.", texts(result)
    assert result.structured_content["state"] == "completed"
    # the card's sign-in at the start, then the one the task asked for, naming its scope
    assert "a2a:admin" in signing_person.asked[-1].message
    assert "vault wants a sign-in with a2a:admin" in signing_person.asked[-1].message
    assert len(signing_person.entered) == len(signing_person.asked) and not signing_person.errors
    shown = repr(result.model_dump()) + " ".join(said) + repr([a.model_dump() for a in signing_person.asked])
    assert "eyJ" not in shown  # no token (a JWT) reaches the host

    # the next task that asks for a2a:admin is told with the token held here: nobody is asked again
    before = len(signing_person.asked)
    again = await signing.call_tool("ask_vault", {"message": "open the vault"})
    assert texts(again)[0] == "The vault is open." and len(signing_person.asked) == before


async def test_a_declined_sign_in_leaves_the_task_waiting_and_continue_task_signs_in_and_goes_on(
    signing: ClientSession, signing_person: SigningPerson
):
    signing_person.decline.add("a2a:admin")
    asked = await signing.call_tool("ask_vault", {"message": "open the vault"})
    assert asked.structured_content["state"] == "auth-required", texts(asked)
    task_id = asked.structured_content["taskId"]
    line = texts(asked)[-1]
    assert (
        "You declined the sign-in. It still waits for the sign-in: call continue_task with agent='vault' and "
        f"taskId='{task_id}' (no answer) to be asked again, or cancel it."
    ) in line
    assert asked.structured_content["answerWith"] == {
        "tool": "continue_task",
        "arguments": {"agent": "vault", "taskId": task_id},
    }

    done = await signing.call_tool("continue_task", {"agent": "vault", "taskId": task_id})
    assert texts(done)[0] == "The vault is open.", texts(done)
    assert done.structured_content["taskId"] == task_id and done.structured_content["state"] == "completed"
    assert not signing_person.errors


async def test_a_client_that_cannot_open_a_url_is_told_to_sign_in_at_a_terminal_and_continue_task_goes_on(
    oauth_agent, tmp_path
):
    agents = vault_agents(tmp_path, oauth_agent.url)
    entered: list[str] = []

    async def progress(value: float, total: float | None, message: str | None) -> None:
        # without URL elicitation the card's sign-in at the start is said in a progress message: the person reads
        # the code there
        found = DEVICE_LINE.search(message or "")
        if found is not None:
            threading.Thread(target=lambda: entered.append(enter_device_code(*found.groups())), daemon=True).start()

    async with stdio_session(agents, tmp_path, env=NO_KEYRING) as plain:
        asked = await plain.call_tool("ask_vault", {"message": "open the vault"}, progress_callback=progress)
        assert entered, "the card's sign-in never happened"
        assert asked.structured_content["state"] == "auth-required"
        line = texts(asked)[-1]
        task_id = asked.structured_content["taskId"]
        assert "vault wants a sign-in with a2a:admin (the agent's question)" in line
        assert "cannot open a sign-in link" in line
        command = re.search(r"`(switchboard [^`]+)`", line)
        assert command is not None and command.group(1).endswith(
            "auth login vault --scope a2a:send --scope a2a:admin --remember"
        )
        assert f"call continue_task with agent='vault' and taskId='{task_id}' (no answer)" in line

        # the person runs that command at a terminal (same switchboard home), then the host calls continue_task
        await anyio.to_thread.run_sync(sign_in_at_a_terminal, shlex.split(command.group(1))[1:], tmp_path)
        done = await plain.call_tool("continue_task", {"agent": "vault", "taskId": task_id})
    assert texts(done)[0] == "The vault is open.", texts(done)


def sign_in_at_a_terminal(argv: list[str], home: Path) -> None:
    """`switchboard auth login ...` as a person runs it: the code it prints is entered at the provider."""
    env = server_env(home, NO_KEYRING)
    with subprocess.Popen(
        [sys.executable, "-m", "switchboard", *argv],
        env=env,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    ) as login:
        assert login.stderr is not None
        for line in login.stderr:
            found = re.search(r"open (\S+) and enter the code (\S+) ", line)
            if found is not None:
                enter_device_code(*found.groups())
                break
        assert login.wait(timeout=60) == 0


async def test_the_cards_sign_in_holds_the_calls_bound_and_a_declined_one_ends_the_call_at_once(
    oauth_agent, tmp_path, signing_person: SigningPerson
):
    """A call bounded to 1 s: the person takes longer than that to enter the device code, and the call still ends
    with the agent's answer (the bound is the agent's to use, not the person's); declined, the call ends at once."""
    agents = vault_agents(tmp_path, oauth_agent.url)
    async with stdio_session(agents, tmp_path, "--wait", "1", person=signing_person, env=NO_KEYRING) as bridge:
        signing_person.decline.add("*")
        refused = await bridge.call_tool("ask_vault", {"message": "quick hi"})
        assert refused.is_error and refused.structured_content["taskId"] is None
        assert texts(refused) == [
            "vault asks for a sign-in (its card requires it), and you declined it: nothing was sent. Call the same "
            "tool again to be asked again."
        ]
        answered = await bridge.call_tool("ask_vault", {"message": "quick hi"})
    assert texts(answered)[0] == "quick reply to: quick hi", texts(answered)
    assert len(signing_person.asked) == 2 and len(signing_person.entered) == 1 and not signing_person.errors


async def test_as_an_mcp_task_the_sign_in_asked_mid_task_goes_through_tasks_result(
    signing: ClientSession, signing_person: SigningPerson
):
    """The same vault as a task the host polls: each sign-in puts the task at input_required, the host's tasks/result
    carries the link to the person, and the result is the agent's answer."""
    created = await task_call(signing, "ask_vault", {"message": "open the vault"}, ttl=60_000)
    outcome = await task_result(signing, created.task_id)
    assert texts(outcome)[0] == "The vault is open.", texts(outcome)
    assert "vault wants a sign-in with a2a:admin" in signing_person.asked[-1].message
    related = {"io.modelcontextprotocol/related-task": {"taskId": created.task_id}}
    assert all(asked.meta == related for asked in signing_person.asked)  # each names the task it is for
    assert (await get_task(signing, created.task_id)).status == "completed"
    assert not signing_person.errors


VAULT_RUN = """\
version: 1
name: vault
steps:
  - name: open
    agent: vault
    task: open the vault
outputs:
  said: "{{steps.open.output}}"
"""


async def test_a_workflow_step_signs_in_through_the_host_and_the_run_goes_on(oauth_agent, tmp_path):
    """The vault as a workflow's step: its link's sign-in (the card's a2a:send) and the one its task asks for
    (a2a:admin) both go to the person as links; the run completes with the agent's answer."""
    agents = vault_agents(tmp_path, oauth_agent.url)
    (tmp_path / "flows").mkdir()
    (tmp_path / "flows" / "vault.yaml").write_text(VAULT_RUN)
    person = SigningPerson()
    async with stdio_session(
        agents, tmp_path, "--workflows", str(tmp_path / "flows"), person=person, env=NO_KEYRING
    ) as host:  # type: ignore[arg-type]
        result = await host.call_tool("run_vault", {})
    assert result.structured_content["status"] == "completed", texts(result)
    assert result.structured_content["outputs"] == {"said": "The vault is open."}
    assert len(person.asked) == 2 and "vault wants a sign-in with a2a:admin" in person.asked[1].message
    assert not person.errors


async def test_after_a_restart_an_oauth_agents_task_asks_for_the_sign_in_through_tasks_result(oauth_agent, tmp_path):
    """A new server holds no token: tasks/get, which a host polls, says a sign-in comes first (never waits for a
    person); tasks/result puts the sign-in to the person and returns the outcome."""
    agents = vault_agents(tmp_path, oauth_agent.url)
    person = SigningPerson()
    async with stdio_session(agents, tmp_path, person=person, env=NO_KEYRING) as first:  # type: ignore[arg-type]
        created = await task_call(first, "ask_vault", {"message": "open the vault"}, ttl=600_000)
        assert texts(await task_result(first, created.task_id))[0] == "The vault is open."
    asked_before = len(person.asked)
    async with stdio_session(agents, tmp_path, person=person, env=NO_KEYRING) as second:  # type: ignore[arg-type]
        with anyio.fail_after(60):
            with pytest.raises(MCPError) as first_sign_in:
                await get_task(second, created.task_id)
            outcome = await task_result(second, created.task_id)
    assert "vault asks for a sign-in first: tasks/result asks you for it" in first_sign_in.value.error.message
    assert texts(outcome)[0] == "The vault is open." and outcome.structured_content["state"] == "completed"
    assert len(person.asked) == asked_before + 1 and not person.errors
