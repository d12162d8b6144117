"""A sign-in an agent asks for mid-task (its task at auth-required naming OAuth scopes, or a card whose requirement is
an OAuth scheme), done the way the TUI's "Sign in" does it: the flow runs here with those scopes besides the ones
held (the token never leaves this process), the person is asked to open the sign-in link through a URL-mode
elicitation, and once signed in the task is told with the new token. A person who declines or dismisses the link
leaves the task waiting; a client that cannot open a link is told how to sign in at a terminal, after which
continue_task tells the task (a token remembered there is found here)."""

from __future__ import annotations

import asyncio
import contextlib
import shlex
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcp.shared.exceptions import MCPError

from ..a2a.auth.sign_in_offer import SignInOffer, oauth_source, sign_in_offer
from ..a2a.errors import SwitchboardError
from ..a2a.model import TaskState
from ..a2a.turn import TaskView
from ..link import AgentLink
from ..safe_text import strip_controls
from .host_channel import Host
from .outcome import CONTINUE_TOOL
from .sign_in import SignInRelay, SignInStep


@dataclass(frozen=True)
class SignInAsked:
    """What the task at auth-required asks for, and the token source that can get it."""

    offer: SignInOffer
    source: Any  # the link's OAuth TokenSource

    @property
    def answer(self) -> str:
        """What the task is told once signed in (our own sentence, sent with the new token)."""
        return self.offer.answer


def sign_in_asked(link: AgentLink, view: TaskView) -> SignInAsked | None:
    """The OAuth sign-in a task at auth-required asks for, when this link signs in with OAuth (else None: the
    question is the person's to answer with continue_task, as before)."""
    if view.state is not TaskState.AUTH_REQUIRED:
        return None
    source = oauth_source(link)
    offer = sign_in_offer(link.card, view.question) if source is not None else None
    return SignInAsked(offer, source) if offer is not None else None


def go_on_with_task(agent: str, task_id: str | None) -> str:
    """How the host takes up a task waiting for a sign-in: the words after "then" in a note."""
    return f"call {CONTINUE_TOOL} with agent={agent!r} and taskId={task_id!r} (no answer)"


async def sign_in_for_task(asked: SignInAsked, host: Host, agent: str, agents_file: Path, then: str) -> str | None:
    """Get the token the task asks for. None: signed in (tell the task); else the note for the result, saying why
    not (declined, dismissed, failed, no way to open a link) and how to go on (`then`: what to call, with what);
    the task waits either way."""
    source = asked.source
    before = source.scope
    if await _held_already(asked):  # signed in at a terminal since (auth login --remember): no person needed
        return None
    wanted = asked.offer.wanted_by(agent)
    if not host.can_open_url:
        scopes = dict.fromkeys([*(before or "").split(), *asked.offer.scopes])
        flags = " ".join(f"--scope {shlex.quote(s)}" for s in scopes)
        login = (
            f"switchboard --agents {shlex.quote(str(agents_file))} auth login {shlex.quote(agent)} {flags} --remember"
        )
        return (
            f"{wanted}. This MCP client cannot open a sign-in link (it takes no URL elicitation): sign in at a "
            f"terminal with `{login}`, then {then}, and it goes on with the new token."
        )
    refused = await _run_flow(asked, host, agent, wanted)
    if refused is None:
        return None
    source.scope = before  # not signed in: later calls keep asking for what they had
    return f"{refused} It still waits for the sign-in: {then} to be asked again, or cancel it."


async def _held_already(asked: SignInAsked) -> bool:
    """True when a token with the scopes asked for besides those held is already here (memory or the token store);
    the source then asks for them. Nothing new to ask for: only a fresh sign-in can help."""
    source = asked.source
    before = source.scope
    if not source.widen(asked.offer.scopes):
        return False
    try:
        found = await source.cached()
    except SwitchboardError:
        found = None
    if found is None:
        source.scope = before
    return found is not None


async def _run_flow(asked: SignInAsked, host: Host, agent: str, wanted: str) -> str | None:
    """The OAuth flow with the scopes asked for, its link put to the person; None once signed in, else why not."""
    loop = asyncio.get_running_loop()
    refused: asyncio.Future[str] = loop.create_future()
    elicitation_id = str(uuid.uuid4())
    telling: set[asyncio.Task[None]] = set()

    async def tell(step: SignInStep) -> None:
        message = f"{wanted}. {step.message}"
        try:
            await host.progress(f"{agent}: {message}")
            said = await host.open_url(f"{agent}: {message}", step.url, elicitation_id)
        except MCPError:
            said = None
        except Exception:  # the host went away: the flow times out on its own
            return
        if refused.done():
            return
        if said is None:
            refused.set_result("The MCP client could not show the sign-in link.")
        elif said.action == "decline":
            refused.set_result("You declined the sign-in.")
        elif said.action == "cancel":
            refused.set_result("The sign-in was dismissed.")

    def handle(step: SignInStep | None) -> None:
        if step is None:  # the flow ended: its outcome is the flow task's
            return
        task = loop.create_task(tell(step))
        telling.add(task)
        task.add_done_callback(telling.discard)

    token = SignInRelay.handling(handle)
    try:
        flow = loop.create_task(asked.offer.sign_in(asked.source))  # runs with this handler (its context's copy)
    finally:
        SignInRelay.release(token)
    try:
        waits: set[asyncio.Future[Any]] = {flow, refused}
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (flow, *telling):
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await flow
    problem = flow.exception() if flow.done() and not flow.cancelled() else None
    if flow.done() and not flow.cancelled() and problem is None:
        with contextlib.suppress(Exception):
            await host.url_done(elicitation_id)  # the client may stop showing the link
        return None
    if refused.done():
        return refused.result()
    if isinstance(problem, SwitchboardError):
        return f"The sign-in did not complete: {strip_controls(problem.message)}."
    return "The sign-in did not complete."
