"""One tool call on an agent: the message sent, the turn followed within the call's bound (its status words as
progress), a question put to the host's user and answered in the same task, and the result. Nothing waits past
the bound: a task still at work is handed back by id. A call the host cancels cancels the agent's task."""

from __future__ import annotations

import math
from contextlib import aclosing
from dataclasses import dataclass

import anyio
import mcp_types as types
from mcp.shared.exceptions import MCPError

from ..a2a.client import new_message
from ..a2a.follow import Notice
from ..a2a.model import Message, Task, TaskState
from ..a2a.turn import TaskView
from ..agents import AgentEntry
from ..link import AgentLink
from ..safe_text import strip_controls
from .agents_on_hand import AgentsOnHand
from .arguments import AgentArguments, ContinueArguments
from .call_sign_in import CallSignIn
from .catalog import tool_name
from .host_channel import Host
from .message_parts import answer_parts, answer_schema, message_parts
from .mid_task_sign_in import go_on_with_task, sign_in_asked, sign_in_for_task
from .outcome import choices_of, ended_already, not_signed_in, question_text, running_result, turn_result
from .round_trip import AskByRoundTrip
from .sign_in import SignInRelay

CANCEL_WITHIN = 10.0  # seconds a canceled call waits for the agent to take the cancel


@dataclass(frozen=True)
class CallBounds:
    """How long a call may hold the host while the agent works (a question put to the person is the host's to
    time: the person is answering it)."""

    work: float = 25.0


class AgentCalls:
    def __init__(self, agents: AgentsOnHand, bounds: CallBounds) -> None:
        self.agents = agents
        self.bounds = bounds

    async def send(self, name: str, args: AgentArguments, host: Host) -> types.CallToolResult:
        """A message to the agent (a new task, or the next message of `taskId`), followed within the bound."""
        entry = self.agents.entry(name)
        parts = message_parts(args.message, args.data, args.files)
        message = new_message(parts, task_id=args.task_id, context_id=args.context_id)
        return await self._converse(entry, host, message=message)

    async def go_on(self, args: ContinueArguments, host: Host) -> types.CallToolResult:
        """The next step of a task an earlier call returned: its answer sent, or the task waited for again."""
        entry = self.agents.entry(args.agent)
        if args.answer is None and args.data is None:
            return await self._converse(entry, host, task_id=args.task_id)
        async with self.agents.link(entry) as link:
            task = await link.get_task(args.task_id, history_length=0)
        if task.status.state.is_terminal:
            return ended_already(entry.name, TaskView().apply(task), tool_name("ask_", entry.name))
        if task.status.state is TaskState.AUTH_REQUIRED and args.answer:
            self.agents.redactor.add(args.answer)  # a credential: never shown again in a result or an error
        message = new_message(answer_parts({"answer": args.answer, **(args.data or {})}), task_id=task.id,
                              context_id=task.context_id)  # fmt: skip
        return await self._converse(entry, host, message=message, answered=task)

    async def _converse(
        self,
        entry: AgentEntry,
        host: Host,
        *,
        message: Message | None = None,
        task_id: str | None = None,
        answered: Task | None = None,
    ) -> types.CallToolResult:
        view = TaskView(answered=answered.status if answered is not None else None)
        sign_in = CallSignIn(host, entry.name, self.bounds.work if host.holds_call else math.inf)
        token = SignInRelay.handling(sign_in.handler())
        try:
            async with self.agents.link(entry) as link:
                try:
                    return await self._turns(entry, link, host, view, message, task_id, sign_in)
                except anyio.get_cancelled_exc_class():
                    if not view.turn_over and host.cancels_remote:
                        await _cancel_quietly(link, view.task_id, message)
                    raise
        finally:
            SignInRelay.release(token)

    async def _turns(
        self,
        entry: AgentEntry,
        link: AgentLink,
        host: Host,
        view: TaskView,
        message: Message | None,
        task_id: str | None,
        sign_in: CallSignIn,
    ) -> types.CallToolResult:
        signed_in = False  # one sign-in per call: the agent asking again after it is its answer
        met: list[str] = []  # what went wrong on the way (an error the agent reported), said with a failed end
        while True:
            if not await self._follow(entry.name, link, host, view, message, task_id, met, sign_in):
                if sign_in.refused is not None:
                    return not_signed_in(entry.name, view, sign_in.refused)
                return running_result(entry.name, view, self.bounds.work)  # only a held call has a bound
            asked = sign_in_asked(link, view) if not signed_in else None
            if asked is not None:
                then = go_on_with_task(entry.name, view.task_id)
                note = await sign_in_for_task(asked, host, entry.name, self.agents.path, then)
                if note is not None:
                    return turn_result(entry.name, view, note, sign_in=True)
                signed_in = True  # the task is told, with the new token (our sentence, not a credential)
                message = new_message(asked.answer, task_id=view.task_id, context_id=view.context_id)
                view, task_id = TaskView(answered=view.status), None
                continue
            if view.state is not TaskState.INPUT_REQUIRED or not (host.can_ask or host.asks_by_round_trip):
                return turn_result(entry.name, view, self._trouble(view, met))
            question = question_text(view) or f"{entry.name} asks for input."
            form = (f"{entry.name} asks: {question}", answer_schema(question, choices_of(view)))
            if not host.can_ask:
                raise AskByRoundTrip(*form, "task", entry.name, view.task_id or "")
            try:
                said = await host.ask(*form)
            except MCPError:  # the client refused the elicitation: the question goes back as the result
                return turn_result(entry.name, view, "The host could not ask you the question.")
            if said.action != "accept":
                return await _not_answered(entry.name, link, view, said)
            parts = answer_parts(said.content)
            message = new_message(parts, task_id=view.task_id, context_id=view.context_id)
            view = TaskView(answered=view.status)
            task_id = None

    async def read_task(self, agent: str, task_id: str) -> Task:
        """The task as its agent has it now."""
        async with self.agents.link(self.agents.entry(agent)) as link:
            return await link.get_task(task_id, history_length=0)

    async def cancel_task(self, agent: str, task_id: str) -> Task:
        """Cancel the task at its agent: the task as it then stands."""
        async with self.agents.link(self.agents.entry(agent)) as link:
            return (await link.cancel(task_id, timeout=CANCEL_WITHIN)).task

    async def answered(self, agent: str, task_id: str, said: types.ElicitResult, host: Host) -> types.CallToolResult:
        """The person's response to a question handed back by round trip: the task continued, canceled or left."""
        if said.action == "accept":
            answer = str((said.content or {}).get("answer", ""))
            return await self.go_on(ContinueArguments(agent=agent, task_id=task_id, answer=answer), host)
        entry = self.agents.entry(agent)
        async with self.agents.link(entry) as link:
            view = TaskView().apply(await link.get_task(task_id, history_length=0))
            return await _not_answered(agent, link, view, said)

    def _trouble(self, view: TaskView, met: list[str]) -> str:
        """For a turn that ended badly, what switchboard met on the way (the agent's reported error, a stream that
        broke): often the only reason given. Redacted, bounded."""
        if not met or view.state not in (TaskState.FAILED, TaskState.REJECTED, TaskState.UNKNOWN, None):
            return ""
        said = "; ".join(dict.fromkeys(strip_controls(text).strip() for text in met[-3:]))
        return self.agents.redactor.text(f"On the way: {said}.")[:2000]

    async def _follow(
        self,
        agent: str,
        link: AgentLink,
        host: Host,
        view: TaskView,
        message: Message | None,
        task_id: str | None,
        met: list[str] | None = None,
        sign_in: CallSignIn | None = None,
    ) -> bool:
        """Follow one turn into `view` within the bound; False when the bound ran out first (the task goes on)."""
        events = (
            link.follow(message, view=view, blocking=False)
            if message is not None
            else link.resume(task_id or "", view=view)
        )
        known = task_id
        with anyio.move_on_after(self.bounds.work if host.holds_call else math.inf) as scope:
            if sign_in is not None:
                sign_in.scope = scope  # a sign-in on the way holds the bound, or ends the turn when refused
            async with aclosing(events) as turn:
                async for event in turn:
                    if isinstance(event, Notice):
                        if event.level == "warning" and met is not None:
                            met.append(event.text)
                        continue
                    if view.task_id is not None and view.task_id != known:
                        known = view.task_id
                        host.task_known(agent, known, view.context_id)
                    status = getattr(event, "status", None)
                    words = status.message.text if status is not None and status.message is not None else ""
                    if words and not view.turn_over:
                        await host.progress(words)
        return not scope.cancelled_caught


async def _not_answered(agent: str, link: AgentLink, view: TaskView, said: types.ElicitResult) -> types.CallToolResult:
    if said.action == "decline":
        # The person refused to answer: the agent cannot go on, and a task left waiting would hold its
        # resources for nothing.
        outcome = await link.cancel(view.task_id or "")
        view.apply(outcome.task)
        return turn_result(agent, view, "You declined the agent's question, so its task was canceled.")
    # Dismissed without a choice: the person may answer later, so the task is left waiting.
    return turn_result(agent, view, "The question was dismissed; the task still waits.")


async def _cancel_quietly(link: AgentLink, task_id: str | None, message: Message | None) -> None:
    """Cancel the agent's task for a call that is itself being canceled (shielded: the call's cancellation must
    not cancel the cancel). A call canceled before the task's id arrived finds the task its message made."""
    with anyio.CancelScope(shield=True), anyio.move_on_after(CANCEL_WITHIN):
        try:
            if task_id is None and message is not None:
                task_id = await link.find_task(message.message_id)
            if task_id is not None:
                await link.cancel(task_id, timeout=CANCEL_WITHIN)
        except Exception:
            return
