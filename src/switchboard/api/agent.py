"""Agent: one A2A agent, from Python, with the events the CLI prints.

A thin handle over the same link and conversation the CLI and the TUI use: whatever the agent speaks (JSON-RPC,
HTTP+JSON, gRPC, at 1.0 or 0.3), its card is read and the transport chosen once, on `async with`.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import aclosing
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    import httpx

    from ..a2a.cancel import CancelOutcome
    from ..a2a.follow import Notice, TurnEvent
    from ..a2a.model import AgentCard, Message, Part, Task, TaskState
    from ..agents import AgentEntry
    from ..conversation import Conversation
    from ..link import AgentLink


@dataclass(frozen=True)
class Reply:
    """Where a turn ended: the task's state and output, or the agent's direct answer.

    Attributes:
        state: The task's state at the end of the turn (None for a direct reply: the agent made no task).
        text: The task's text output (its artifacts' text, else its status message), or the direct reply's text.
        question: What the task asks when it waits (`input-required`, `auth-required`), else "".
        task_id: The task's id (None for a direct reply).
        context_id: The conversation's context id.
        task: The task as the turn left it (None for a direct reply).
        message: The direct reply (None when the agent made a task).
        notices: What the link itself noted on the way (a re-attached stream, a retry).
    """

    state: TaskState | None
    text: str
    question: str
    task_id: str | None
    context_id: str | None
    task: Task | None = None
    message: Message | None = None
    notices: list[Notice] = field(default_factory=list)

    @property
    def waiting(self) -> bool:
        """True when the task stopped to ask something: `send` again to answer it."""
        return self.state is not None and self.state.is_interrupted


class Agent:
    """An A2A agent, by URL (or card file) or by its name in the agents file.

    Use it as an async context manager; a conversation with it goes on across `send` calls: a message after a
    turn that ended waiting for input answers that task, any other one starts a new task in the same context.

    Example:
        ```python
        async with Agent("http://127.0.0.1:9001/") as echo:
            reply = await echo.send("hello")
            print(reply.state, reply.text)
        ```

    Args:
        agent: A URL, HOST:PORT, a card file, or the name of an agent in the agents file.
        agents_file: The agents file to look names up in (default: the one in switchboard's config folder).
        binding: Force a binding: "jsonrpc", "rest" or "grpc" (default: the card's first one switchboard speaks).
        headers: Extra HTTP headers for every request (replacing the agents file's for this agent).
        streaming: False polls even when the agent streams (default: stream when the agent does).
        http: An httpx client to share (default: one of the handle's own, closed with it).

    Raises:
        UsageError: The name is not in the agents file, or the address is not a valid URL.
    """

    def __init__(
        self,
        agent: str,
        *,
        agents_file: str | Path | None = None,
        binding: str | None = None,
        headers: dict[str, str] | None = None,
        streaming: bool | None = None,
        http: httpx.AsyncClient | None = None,
    ) -> None:
        self._entry = _entry_for(agent, agents_file)
        if binding is not None and binding not in ("jsonrpc", "rest", "grpc"):
            from ..a2a.errors import UsageError

            raise UsageError(f"binding {binding!r} is not one of jsonrpc, rest, grpc", hint="Leave it out to choose.")
        self._binding = binding
        self._headers = headers
        self._streaming = streaming
        self._http = http
        self._link: AgentLink | None = None
        self._conversation: Conversation | None = None

    @property
    def name(self) -> str:
        """The agent's name in the agents file, or its address as given."""
        return self._entry.name

    @property
    def card(self) -> AgentCard | None:
        """The agent's card, read on `async with` (None for a REST task API, which has none)."""
        return self._connected.card

    @property
    def binding(self) -> str:
        """What is spoken, as the agents table says it: `1.0`, `0.3 legacy`, `HTTP+JSON 1.0`, `gRPC 1.0`..."""
        return self._connected.protocol_label

    async def __aenter__(self) -> Agent:
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def connect(self) -> None:
        """Read the card and choose the transport (done by `async with`).

        Raises:
            SwitchboardError: The agent cannot be reached, its card is not valid, or it speaks nothing we do.
        """
        if self._link is not None:
            return
        from ..conversation import Conversation
        from ..link import open_link

        self._link = await open_link(
            self._entry, http=self._http, binding=self._binding, headers=self._headers, streaming=self._streaming
        )
        self._conversation = Conversation(self._link)

    async def aclose(self) -> None:
        """Let go of the connection (the agent's tasks go on)."""
        link, self._link, self._conversation = self._link, None, None
        if link is not None:
            await link.aclose()

    async def stream(self, message: str | list[Part]) -> AsyncIterator[TurnEvent]:
        """Send a message and yield every event of the turn as it arrives, as `send --stream -o jsonl` prints them.

        Args:
            message: The text to send, or a list of parts (TextPart, FilePart, DataPart).

        Yields:
            Tasks, status updates, artifact chunks and direct messages (the model's types), and Notices.

        Raises:
            SwitchboardError: The send failed (with a code and a hint, as the CLI prints it).
        """
        conversation = self._talking
        async with aclosing(_generator(conversation.send(message))) as events:
            async for event in events:
                yield event

    async def send(self, message: str | list[Part]) -> Reply:
        """Send a message and follow the turn to its end: completed, failed, waiting for input, or a direct reply.

        Args:
            message: The text to send, or a list of parts. After a reply that is `waiting`, this answers it.

        Returns:
            The Reply: the task's state, output and question.

        Raises:
            SwitchboardError: The send failed (with a code and a hint, as the CLI prints it).
        """
        async for _ in self.stream(message):
            pass
        return self._reply()

    async def follow(self, task_id: str) -> AsyncIterator[TurnEvent]:
        """Re-attach to a task that is still running and yield its events until its turn is over.

        Args:
            task_id: The task's id, as a Reply or `switchboard send --async` gave it.
        """
        async with aclosing(_generator(self._connected.resume(task_id))) as events:
            async for event in events:
                yield event

    async def get_task(self, task_id: str) -> Task:
        """The task as the agent has it now.

        Raises:
            SwitchboardError: The agent does not know the task (TaskNotFound), or cannot be reached.
        """
        return await self._connected.get_task(task_id)

    async def cancel(self, task_id: str) -> CancelOutcome:
        """Cancel a task; the outcome says whether the agent confirmed it ended."""
        return await self._connected.cancel(task_id)

    # --- internals -------------------------------------------------------------------------------------

    @property
    def _connected(self) -> AgentLink:
        if self._link is None:
            from ..a2a.errors import UsageError

            raise UsageError("the agent is not connected", hint="Use `async with Agent(...) as agent:`.")
        return self._link

    @property
    def _talking(self) -> Conversation:
        self._connected  # noqa: B018 - raises the same clear error when not connected
        assert self._conversation is not None
        return self._conversation

    def _reply(self) -> Reply:
        turn = self._talking.last
        assert turn is not None
        view = turn.view
        question = " ".join(text for part in view.question if (text := getattr(part, "text", None)))
        return Reply(
            state=view.state,
            text=view.output_text,
            question=question if view.state is not None and view.state.is_interrupted else "",
            task_id=view.task_id,
            context_id=view.context_id,
            task=view.to_task(),
            message=view.reply,
            notices=list(turn.notices),
        )


def _generator(events: AsyncIterator[TurnEvent]) -> AsyncGenerator[TurnEvent]:
    """The core's event sources are async generators typed as iterators: closable, so a reader that stops early
    lets go of the connection at once."""
    return cast("AsyncGenerator[TurnEvent]", events)


def _entry_for(agent: str, agents_file: str | Path | None) -> AgentEntry:
    """The agents file's entry for a name, else an entry for the address (checked here, before any request)."""
    from ..a2a.errors import UsageError
    from ..a2a.user_input import check_agent_ref, looks_like_address
    from ..agents import AgentEntry, load_agents
    from ..paths import agents_file as default_agents_file

    if not isinstance(agent, str) or not agent.strip():
        raise UsageError("no agent given", hint="Pass a URL, HOST:PORT, a card file, or an agents-file name.")
    path = Path(agents_file).expanduser() if agents_file is not None else default_agents_file()
    if agents_file is not None and not path.exists():
        raise UsageError(f"the agents file {path} does not exist", hint="Check the path given as agents_file.")
    registry = load_agents(path)
    entry = registry.find(agent)
    if entry is not None:
        return entry
    if not looks_like_address(agent):
        known = ", ".join(a.name for a in registry.agents) or "none"
        raise UsageError(f"no agent named {agent!r} in {path}", hint=f"Its agents: {known}. Or pass the agent's URL.")
    return AgentEntry(name=agent, url=check_agent_ref(agent))
