"""Workflows as tools: a call starts a run (in this process; its journal is the truth, as for `switchboard run`) and
watches it within the call's bound, its steps' progress as progress notifications. A step's question goes to the
host's user through the call watching the run, or back to the host at once with the run's id for continue_run.
A run outlives the call that started it; a call the host cancels cancels its run."""

from __future__ import annotations

import asyncio
import contextlib
import math
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp.shared.exceptions import MCPError

from ..a2a.errors import UsageError
from ..a2a.model import TaskState, TextPart
from ..safe_text import strip_controls
from ..workflow.engine import start_run
from ..workflow.loader import load_workflow
from ..workflow.run import WorkflowRun
from ..workflow.runs import list_runs, read_run
from ..workflow.spec import Workflow, WorkflowInvalid
from ..workflow.state import AskRequest, RunFinished, StepCompleted, StepEvent, StepFailed, StepStarted
from .agent_calls import CallBounds
from .agents_on_hand import AgentsOnHand
from .arguments import RunArguments, RunsArguments
from .catalog import tool_name, workflow_schema
from .host_channel import Host
from .message_parts import answer_schema
from .mid_task_sign_in import SignInAsked, sign_in_for_task
from .outcome import choices_in
from .round_trip import AskByRoundTrip
from .sign_in import SignInRelay, SignInStep

Handler = Callable[[Any, Host], Awaitable[types.CallToolResult]]
WORKFLOW_SUFFIXES = (".yaml", ".yml")
KEEP_FINISHED = 100


@dataclass
class LiveRun:
    """A run this server started, as its watchers see it: what it said so far and the question it waits on."""

    run: WorkflowRun
    said: list[str] = field(default_factory=list)
    question: AskRequest | None = None
    answer: asyncio.Future[str | None] | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    finished: bool = False
    pump: asyncio.Task[None] | None = None  # reads the run's events for its watchers
    sign_in: SignInStep | None = None  # a step's sign-in in progress (its card asks for OAuth): shown to watchers

    def touch(self) -> None:
        self.changed.set()


class WorkflowCalls:
    def __init__(
        self,
        folders: list[Path],
        agents: AgentsOnHand,
        bounds: CallBounds,
        journal_dir: Path | None,
        *,
        allow_shell: bool = False,
    ) -> None:
        self.folders = folders
        self.allow_shell = allow_shell
        self.agents = agents
        self.bounds = bounds
        self.journal_dir = journal_dir
        self.workflows: dict[str, Workflow] = {}
        self.problems: list[str] = []
        self.live: dict[str, LiveRun] = {}
        self._stamp = self._folder_stamp()
        self._load()

    # --- the workflows on disk -------------------------------------------------------------------------------

    def _files(self) -> list[Path]:
        found: list[Path] = []
        for folder in self.folders:
            if folder.is_file():
                found.append(folder)
            elif folder.is_dir():
                found += sorted(p for p in folder.iterdir() if p.suffix in WORKFLOW_SUFFIXES and p.is_file())
        return found

    def _folder_stamp(self) -> tuple[tuple[str, int, int], ...]:
        stamp = []
        for path in self._files():
            with contextlib.suppress(OSError):
                stat = path.stat()
                stamp.append((str(path), stat.st_mtime_ns, stat.st_size))
        return tuple(stamp)

    def _load(self) -> None:
        self.workflows, self.problems = {}, []
        for path in self._files():
            try:
                workflow = load_workflow(path, self.agents.registry)
            except WorkflowInvalid as exc:
                self.problems.append(f"{path}: {exc.issues[0] if exc.issues else exc}")
                continue
            if not self.allow_shell and any(step.type == "shell" for step in workflow.steps):
                # a host's inputs would reach a shell (as environment values, never as code; still, asked for)
                self.problems.append(f"{path}: it has shell steps (serve them with --allow-shell)")
                continue
            self.workflows[tool_name("run_", workflow.name)] = workflow

    def reload_if_changed(self) -> bool:
        stamp = self._folder_stamp()
        if stamp == self._stamp:
            return False
        self._stamp = stamp
        self._load()
        return True

    def tools(self) -> list[types.Tool]:
        return [
            types.Tool(
                name=name,
                title=workflow.name,
                description=(
                    f"Run the workflow {workflow.name!r} ({len(workflow.steps)} steps: "
                    f"{', '.join(s.name for s in workflow.steps[:12])}). {strip_controls(workflow.description)[:800]} "
                    "The result is the run's outputs; a run that waits or is still going is continued with "
                    "continue_run by its runId."
                ).strip(),
                input_schema=workflow_schema(workflow.inputs),
                annotations=types.ToolAnnotations(open_world_hint=True, destructive_hint=False),
                execution=types.ToolExecution(task_support="optional"),
            )
            for name, workflow in self.workflows.items()
        ]

    def handler(self, name: str) -> Handler | None:
        workflow = self.workflows.get(name)
        if workflow is None:
            return None

        async def call(raw: Any, host: Host) -> types.CallToolResult:
            return await self.start(workflow, raw, host)

        return call

    # --- runs ------------------------------------------------------------------------------------------------

    async def start(self, workflow: Workflow, raw: Any, host: Host) -> types.CallToolResult:
        inputs = _inputs(workflow, raw)
        live: LiveRun | None = None

        async def ask(request: AskRequest) -> str | None:
            assert live is not None
            live.answer = asyncio.get_running_loop().create_future()
            live.question = request
            live.touch()
            try:
                return await live.answer
            finally:
                live.question, live.answer = None, None
                live.touch()

        def signing_in(step: SignInStep | None) -> None:  # a step's sign-in, from the run's own tasks
            if live is not None:
                live.sign_in = step
                live.touch()

        token = SignInRelay.handling(signing_in)  # the run's tasks copy this context as they start
        try:
            run = start_run(
                workflow, inputs, ask=ask, http=self.agents.http, journal_dir=self.journal_dir,
                interaction=self.agents.sign_in, run_id=host.run_id,
            )  # fmt: skip
        finally:
            SignInRelay.release(token)
        self._forget_finished()
        live = self.live[run.run_id] = LiveRun(run)
        live.pump = asyncio.get_running_loop().create_task(_pump(live))
        return await self._watch(live, host)

    def _forget_finished(self) -> None:
        """Finished runs past the newest KEEP_FINISHED leave memory (their journals keep them: continue_run reads
        those)."""
        finished = [run_id for run_id, live in self.live.items() if live.finished]
        for run_id in finished[: max(0, len(finished) - KEEP_FINISHED)]:
            del self.live[run_id]

    async def go_on(self, args: RunArguments, host: Host) -> types.CallToolResult:
        live = self.live.get(args.run_id)
        if live is None:
            return self._journaled(args.run_id)
        if args.answer is not None:
            if live.answer is None or live.answer.done():
                raise UsageError(f"run {args.run_id} asks nothing now", hint="Leave out answer to wait for the run.")
            live.answer.set_result(args.answer)
        return await self._watch(live, host)

    async def list_runs(self, args: RunsArguments) -> types.CallToolResult:
        runs = list_runs(self.journal_dir, limit=args.limit)
        rows = [{"runId": r.run_id, "workflow": r.workflow, "status": r.status, "waiting": r.waiting} for r in runs]
        text = "\n".join(f"{r['runId']}  {r['workflow']}  {r['status']}" for r in rows) or "No runs yet."
        return types.CallToolResult(content=[types.TextContent(text=text)], structured_content={"runs": rows})

    async def _watch(self, live: LiveRun, host: Host) -> types.CallToolResult:
        """Follow the run within the bound: progress said, questions put to the person where the host can ask."""
        told = len(live.said)
        signed_in = False  # one sign-in per call: a step asking again after it is its agent's answer
        shown: SignInStep | None = None
        try:
            with anyio.move_on_after(self.bounds.work if host.holds_call else math.inf) as bound:
                while True:
                    live.changed.clear()
                    for words in live.said[told:]:
                        await host.progress(words)
                    told = len(live.said)
                    if live.finished:
                        return _run_result(live)
                    step = live.sign_in
                    if step is not None and step is not shown:  # a step's link signs in: the person's to time
                        shown, bound.deadline = step, math.inf
                        refused = await _show_sign_in(live, step, host)
                        if refused is not None:
                            return refused
                        continue
                    if step is None and shown is not None and host.holds_call:  # signed in: the bound counts again
                        shown, bound.deadline = None, anyio.current_time() + self.bounds.work
                    question, answer = live.question, live.answer
                    pending = question is not None and answer is not None and not answer.done()
                    if pending and question is not None and question.sign_in is not None and not signed_in:
                        # the step's agent asks for an OAuth sign-in: done here, the person opening its link
                        # (the bound is the agents' to use, not the person's)
                        bound.deadline, signed_in = math.inf, True
                        note = await self._sign_in(live, question, host)
                        if note is not None:
                            return _run_result(live, note, sign_in=True)
                        if answer is not None and not answer.done():
                            answer.set_result(question.sign_in.answer)  # the task told, with the new token
                        if host.holds_call:
                            bound.deadline = anyio.current_time() + self.bounds.work
                        continue
                    if question is not None and answer is not None and not answer.done():
                        asking = host.can_ask or host.asks_by_round_trip
                        if question.state is not TaskState.INPUT_REQUIRED or not asking:
                            return _run_result(live)
                        form = (
                            f"{question.agent or question.step} asks: {_text(question)}",
                            answer_schema(_text(question), choices_in(question.question)),
                        )
                        if not host.can_ask:
                            raise AskByRoundTrip(*form, "run", question.agent, live.run.run_id)
                        try:
                            said = await host.ask(*form)
                        except MCPError:  # the client refused the elicitation: the question goes back
                            return _run_result(live, "The host could not ask you the question.")
                        if said.action != "accept":
                            return await _not_answered(live, said)
                        answer.set_result(str((said.content or {}).get("answer", "")))
                        continue
                    await live.changed.wait()
            return _run_result(live, f"Still running after {self.bounds.work:g} s; it goes on here.")
        except anyio.get_cancelled_exc_class():
            with anyio.CancelScope(shield=True), anyio.move_on_after(15):
                await live.run.cancel()
            raise

    async def _sign_in(self, live: LiveRun, question: AskRequest, host: Host) -> str | None:
        """The sign-in a step's task asks for (None: signed in); else the note saying why not and how to go on."""
        assert question.sign_in is not None
        asked = SignInAsked(question.sign_in.offer, question.sign_in.source)
        then = f"call continue_run with runId={live.run.run_id!r} (no answer)"
        return await sign_in_for_task(asked, host, question.agent or question.step, self.agents.path, then)

    async def answered(self, run_id: str, said: types.ElicitResult, host: Host) -> types.CallToolResult:
        """The person's response to a step's question handed back by round trip."""
        if said.action == "accept":
            answer = str((said.content or {}).get("answer", ""))
            return await self.go_on(RunArguments(run_id=run_id, answer=answer), host)
        live = self.live.get(run_id)
        if live is None:
            return self._journaled(run_id)
        return await _not_answered(live, said)

    def _journaled(self, run_id: str) -> types.CallToolResult:
        record = read_run(run_id, self.journal_dir)  # a run of another process, or from before a restart
        text = f"run {record.run_id} of {record.workflow}: {record.status} (from its journal; not running here)."
        return types.CallToolResult(
            content=[types.TextContent(text=text)],
            structured_content={"runId": record.run_id, "workflow": record.workflow, "status": record.status},
        )


async def _pump(live: LiveRun) -> None:
    """Read the run's events for its watchers: each step's words and ends as lines; the end of the run."""
    async for event in live.run.events():
        line = None
        if isinstance(event, StepStarted):
            line = f"{event.step}: started" + (f" ({event.agent})" if event.agent else "")
        elif isinstance(event, StepEvent):
            status = getattr(event.event, "status", None)
            # a question is asked as itself (or handed back), not said twice as progress
            if (
                status is not None
                and status.message is not None
                and status.message.text
                and not status.state.is_interrupted
            ):
                line = f"{event.step}: {status.message.text}"
        elif isinstance(event, StepCompleted):
            line = f"{event.step}: completed"
        elif isinstance(event, StepFailed):
            line = f"{event.step}: failed ({event.code})"
        elif isinstance(event, RunFinished):
            live.finished = True
        if line is not None:
            live.said.append(strip_controls(line)[:2000])
        live.touch()


async def _show_sign_in(live: LiveRun, step: SignInStep, host: Host) -> types.CallToolResult | None:
    """A step's sign-in put to the person (a link to open, and a progress message); None once they took it.
    Declined, the run cannot go on and is canceled; dismissed, it waits (continue_run shows the link again)."""
    message = f"{live.run.workflow.name}: {step.message}"
    await host.progress(message)
    if not host.can_open_url:
        return None  # the progress message says it; the flow waits for the person within the code's expiry
    try:
        said = await host.open_url(message, step.url, str(uuid.uuid4()))
    except MCPError:
        return None
    if said.action == "decline":
        await live.run.cancel()
        return _run_result(live, "You declined the sign-in a step needs, so the run was canceled.")
    if said.action == "cancel":
        return _run_result(
            live, "The sign-in was dismissed; the step still waits for it (continue_run shows it again)."
        )
    return None


async def _not_answered(live: LiveRun, said: types.ElicitResult) -> types.CallToolResult:
    if said.action == "decline":
        await live.run.cancel()
        return _run_result(live, "You declined the step's question, so the run was canceled.")
    return _run_result(live, "The question was dismissed; the run still waits for it.")


def _inputs(workflow: Workflow, raw: Any) -> dict[str, str]:
    """The run's inputs: strings, each one the workflow declares (the rest is refused by name, not echoed)."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise UsageError("the arguments must be an object", hint="Pass the workflow's inputs by name.")
    unknown = [name for name in raw if name not in workflow.inputs]
    wrong = [name for name, value in raw.items() if not isinstance(value, str) or len(value) > 100_000]
    if unknown or wrong:
        problems = [f"{n[:64]!r} is not an input" for n in unknown[:5]]
        problems += [f"{n[:64]!r} must be a string (up to 100000 characters)" for n in wrong[:5] if n not in unknown]
        raise UsageError("; ".join(problems), hint=f"Its inputs: {', '.join(workflow.inputs) or 'none'}.")
    return dict(raw)


def _text(question: AskRequest) -> str:
    return strip_controls("\n".join(p.text for p in question.question if isinstance(p, TextPart))).strip()


def _run_result(live: LiveRun, note: str = "", *, sign_in: bool = False) -> types.CallToolResult:
    run = live.run
    structured: dict[str, Any] = {
        "runId": run.run_id,
        "workflow": run.workflow.name,
        "status": "awaiting_input" if live.question is not None and not live.finished else run.status,
        "steps": {name: state.status for name, state in run.steps.items()},
    }
    blocks: list[types.ContentBlock] = []
    if live.finished:
        structured["outputs"] = dict(run.outputs)
        blocks += [types.TextContent(text=value) for value in run.outputs.values()]
        line = f"run {run.run_id} of {run.workflow.name}: {run.status}."
    elif live.question is not None:
        question = live.question
        structured["question"] = {"step": question.step, "text": _text(question), "state": question.state.value}
        structured["answerWith"] = {"tool": "continue_run", "arguments": {"runId": run.run_id}}
        what = "an answer" if question.state is TaskState.INPUT_REQUIRED else "a credential (auth-required)"
        line = (
            f"run {run.run_id}: step {question.step} waits for {what}. It asks: {_text(question)} To answer, call "
            f"continue_run with runId={run.run_id!r} and answer=..."
        )
        if sign_in:  # the note says how to go on: a sign-in, not an answer
            line, note = f"run {run.run_id}: step {question.step} waits for a sign-in. {note}", ""
    else:
        structured["waitWith"] = {"tool": "continue_run", "arguments": {"runId": run.run_id}}
        line = f"run {run.run_id} of {run.workflow.name}: {run.status}. Call continue_run with runId to wait again."
    blocks.append(types.TextContent(text=f"{note} {line}".strip()))
    failed = live.finished and run.status == "failed"
    return types.CallToolResult(content=blocks, structured_content=structured, is_error=failed)
