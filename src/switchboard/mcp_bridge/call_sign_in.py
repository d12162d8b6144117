"""The sign-in a call meets on its way to the agent (the card asks for OAuth and no token is held): its link is put
to the host's user (a URL-mode elicitation where the client takes one, and always a progress message) while the
OAuth flow waits for the provider here. The person signing in is the host's to time, so the call's bound is held
while they do; a person who declines or dismisses the link ends the call at once, with nothing sent."""

from __future__ import annotations

import asyncio
import math
import uuid

import anyio
import mcp_types as types
from mcp.shared.exceptions import MCPError

from .host_channel import Host
from .sign_in import SignInHandler, SignInStep


class CallSignIn:
    """One call's sign-in steps: told to the host, the call's bound held meanwhile, a refusal remembered."""

    def __init__(self, host: Host, agent: str, bound: float) -> None:
        self.host, self.agent, self.bound = host, agent, bound
        self.refused: str | None = None  # why the person did not sign in, when they declined or dismissed it
        self.scope: anyio.CancelScope | None = None  # the follow's scope in progress (its deadline is the bound)
        self._telling: set[asyncio.Task[None]] = set()  # held until done (the loop keeps only weak references)

    def handler(self) -> SignInHandler:
        loop = asyncio.get_running_loop()

        def handle(step: SignInStep | None) -> None:
            if step is None:  # the flow ended (signed in, or failed): the bound counts again from now
                if self.scope is not None and self.refused is None and self.bound != math.inf:
                    self.scope.deadline = anyio.current_time() + self.bound
                return
            if self.scope is not None:
                self.scope.deadline = math.inf
            task = loop.create_task(self._tell(step))
            self._telling.add(task)
            task.add_done_callback(self._telling.discard)

        return handle

    async def _tell(self, step: SignInStep) -> None:
        said: types.ElicitResult | None
        try:
            await self.host.progress(f"{self.agent}: {step.message}")
            if not self.host.can_open_url:
                return  # the progress message says it: the flow waits for the person, within its own expiry
            said = await self.host.open_url(f"{self.agent}: {step.message}", step.url, str(uuid.uuid4()))
        except MCPError:
            said = None
        except Exception:  # the host went away: the flow times out on its own
            return
        if said is not None and said.action == "accept":
            return
        self.refused = (
            "the MCP client could not show its link"
            if said is None
            else "you declined it"
            if said.action == "decline"
            else "it was dismissed"
        )
        if self.scope is not None:
            self.scope.cancel()  # the flow stops waiting for the provider, and the call ends
