"""What one tools/call can do with its host: report progress against the call's token, and ask the host's user
(a form, or a URL to open) where the client declared it can and this connection can carry a request back."""

from __future__ import annotations

from typing import Any, Protocol, cast

import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.shared.message import ServerMessageMetadata
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from ..safe_text import strip_controls

MAX_PROGRESS_TEXT = 2_000
RELATED_TASK = "io.modelcontextprotocol/related-task"


class Host(Protocol):
    """Whom a tool's work talks to: a call in progress (HostChannel), or an MCP task the host polls (task_board)."""

    @property
    def holds_call(self) -> bool:
        """True while a tools/call waits for the work (so the call's bound applies); False for an MCP task."""
        ...

    @property
    def cancels_remote(self) -> bool:
        """True when the work's cancellation is the host's (cancel the agent's task or the run too); False when this
        process is only going away (an MCP task goes on at the agent, and is read again after the restart)."""
        ...

    @property
    def run_id(self) -> str | None:
        """The id a workflow run started for this host takes (an MCP task's own, so its journal answers for it)."""
        ...

    @property
    def can_ask(self) -> bool: ...

    @property
    def can_open_url(self) -> bool: ...

    @property
    def asks_by_round_trip(self) -> bool:
        """The client takes a question as the call's result and calls again with the answer (2026-07-28)."""
        ...

    async def progress(self, words: str) -> None: ...

    async def ask(self, message: str, schema: dict[str, Any]) -> types.ElicitResult: ...

    async def open_url(self, message: str, url: str, elicitation_id: str) -> types.ElicitResult: ...

    async def url_done(self, elicitation_id: str) -> None:
        """What a URL elicitation asked for is done (the client may stop showing it)."""
        ...

    def task_known(self, agent: str, task_id: str, context_id: str | None) -> None:
        """The A2A task the work follows, once its id is known (an MCP task keeps it, to answer after a restart)."""
        ...


class HostChannel:
    """A tools/call in progress: progress against its token, elicitations related to its request."""

    holds_call = True
    cancels_remote = True
    run_id = None

    def __init__(self, ctx: ServerRequestContext[Any, Any], related_task: str | None = None) -> None:
        self._ctx = ctx
        self._related_task = related_task  # an MCP task the elicitations are for (asked through tasks/result)
        self._progress = 0
        self._said = ""

    @property
    def _elicitation(self) -> types.ElicitationCapability | None:
        caps = self._ctx.session.client_capabilities
        return caps.elicitation if caps is not None else None

    @property
    def can_ask(self) -> bool:
        """The client takes form elicitations (an empty `elicitation: {}` means form, per the spec)."""
        found = self._elicitation
        return (
            found is not None and (found.form is not None or found.url is None) and self._ctx.session.can_send_request
        )

    @property
    def asks_by_round_trip(self) -> bool:
        found = self._elicitation
        modern = self._ctx.protocol_version in MODERN_PROTOCOL_VERSIONS
        return modern and found is not None and (found.form is not None or found.url is None)

    @property
    def can_open_url(self) -> bool:
        found = self._elicitation
        return found is not None and found.url is not None and self._ctx.session.can_send_request

    async def progress(self, words: str) -> None:
        """The agent's words as a progress notification (each new one once; none when the host asked for none)."""
        words = strip_controls(words).strip()[:MAX_PROGRESS_TEXT]
        if not words or words == self._said:
            return
        self._said = words
        self._progress += 1
        await self._ctx.session.report_progress(self._progress, None, words)

    async def ask(self, message: str, schema: dict[str, Any]) -> types.ElicitResult:
        if self._related_task is None:
            return await self._ctx.session.elicit_form(message, schema, related_request_id=self._ctx.request_id)
        params = types.ElicitRequestFormParams(message=message, requested_schema=schema, _meta=self._meta())
        return await self._elicit(params)

    async def open_url(self, message: str, url: str, elicitation_id: str) -> types.ElicitResult:
        if self._related_task is None:
            return await self._ctx.session.elicit_url(
                message, url, elicitation_id, related_request_id=self._ctx.request_id
            )
        params = types.ElicitRequestURLParams(
            message=message, url=url, elicitation_id=elicitation_id, _meta=self._meta()
        )
        return await self._elicit(params)

    def _meta(self) -> types.RequestParamsMeta:
        # the spec: an elicitation a task depends on names that task (io.modelcontextprotocol/related-task)
        return cast(types.RequestParamsMeta, {RELATED_TASK: {"taskId": self._related_task}})

    async def _elicit(self, params: types.ElicitRequestParams) -> types.ElicitResult:
        metadata = ServerMessageMetadata(related_request_id=self._ctx.request_id)
        request = types.ElicitRequest(params=params)
        return await self._ctx.session.send_request(request, types.ElicitResult, metadata=metadata)

    def task_known(self, agent: str, task_id: str, context_id: str | None) -> None:
        pass  # the call's result says it

    async def url_done(self, elicitation_id: str) -> None:
        await self._ctx.session.send_elicit_complete(elicitation_id, related_request_id=self._ctx.request_id)
