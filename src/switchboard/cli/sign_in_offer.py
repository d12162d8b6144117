"""An agent that wants a sign-in the card lets switchboard do itself: a task at `auth-required` whose question
names OAuth scopes (or a card whose requirement is an OAuth scheme), and a 403 `insufficient_scope`. At a
terminal, `send` offers to run the flow with those scopes and goes on with the new token (once: a second refusal
is the agent's answer); elsewhere it prints the `auth login` command that would, and the task waits as before."""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from ..a2a.auth.sign_in_offer import SignInOffer, oauth_source, sign_in_offer
from ..a2a.model import TaskState
from ..a2a.turn import TaskView
from .context import Target, login_command
from .output import warn

if TYPE_CHECKING:
    from ..a2a.model import Message
    from .arguments import Connection


def _accepts(question: str) -> bool:
    """Ask on stderr when a person is at the terminal (stdin is one); anything else is no."""
    if not sys.stdin.isatty():
        return False
    print(f"{question} [Y/n] ", end="", file=sys.stderr, flush=True)
    answer = sys.stdin.readline()
    return answer.strip().lower() in ("", "y", "yes")


async def sign_in_for(link: Any, offer: SignInOffer, args: Connection, target: Target, why: str) -> bool:
    """Run the sign-in `offer` names if the person agrees; else say how to. Whether a new token is held."""
    source = oauth_source(link)
    # --scope replaces the scopes asked for: name those held too, or the new token would lack them
    held = tuple((source.scope or "").split()) if source is not None else ()
    wider = SignInOffer(tuple(dict.fromkeys([*held, *offer.scopes])), offer.scheme, offer.source)
    login = login_command(args, target, wider.scope_flags())
    if source is None or not _accepts(f"{offer.wanted_by(why)}. Sign in now?"):
        warn(f"{offer.wanted_by(why)}: `{login}` signs in, then answer with the same --scope flags")
        return False
    await offer.sign_in(source)
    return True


async def continue_after_sign_in(
    link: Any, view: TaskView, args: Connection, target: Target, follow: Callable[[Message], Awaitable[TaskView]]
) -> TaskView | None:
    """For a task that stopped at auth-required: offer the sign-in its question asks for; when done, tell the
    task (a follow-up message sent with the new token) and follow it again. None: nothing was done."""
    task = view.to_task()
    if task is None or view.state is not TaskState.AUTH_REQUIRED:
        return None
    offer = sign_in_offer(link.card, task.status.message)
    if offer is None or not await sign_in_for(link, offer, args, target, "the task"):
        return None
    from ..a2a.client import new_message

    return await follow(new_message(offer.answer, task_id=task.id, context_id=task.context_id))
