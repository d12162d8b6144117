"""WorkflowRun: one run of a workflow, driven as a dependency graph; its steps' lifecycle and shell steps.

The A2A side of a step lives in delegate.py; starting and resuming runs in engine.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections import deque
from collections.abc import AsyncIterator
from typing import Any

import httpx

from ..a2a.auth.oauth.types import Interaction
from ..a2a.errors import SwitchboardError
from ..a2a.follow import FollowPolicy
from ..a2a.tap import Tap
from ..link import CardCache
from . import schedule, shell_script, template
from .delegate import Ask, Connect, DelegateSteps, Reattach, StepFailure, Waiting, code_of
from .expect import expect_problem
from .journal import Journal
from .shell import run_command
from .spec import Step, Workflow
from .state import (
    RunEvent,
    RunFinished,
    RunStarted,
    RunStatus,
    StepCanceled,
    StepCompleted,
    StepFailed,
    StepOutput,
    StepSkipped,
    StepStarted,
    StepState,
)

TIMED = frozenset(
    {"StepRequested", "AwaitingInput", "InputSubmitted", "StepCompleted", "StepFailed", "StepCanceled", "StepSkipped"}
)


class WorkflowRun(DelegateSteps):
    """One run of a workflow. Create it with `start_run` or `resume_run`, inside a running event loop."""

    def __init__(
        self,
        run_id: str,
        workflow: Workflow,
        inputs: dict[str, str],
        *,
        journal: Journal,
        ask: Ask | None,
        http: httpx.AsyncClient,
        tap: Tap,
        max_concurrency: int,
        answers: dict[str, list[str]] | None,
        connect: Connect | None,
        policy: FollowPolicy | None,
        correlation_id: str | None = None,
        cards: CardCache | None = None,
        interaction: Interaction | None = None,
        announces_a2ui: bool = True,
    ) -> None:
        self.run_id = run_id
        self.correlation_id = correlation_id  # the starter's trace id: every delegate's parent id
        self.workflow = workflow
        self.inputs = inputs
        self.steps: dict[str, StepState] = {
            s.name: StepState(s.name, type=s.type, agent=s.agent, depends_on=list(s.depends_on)) for s in workflow.steps
        }
        self.status: RunStatus = "running"
        self.outputs: dict[str, str] = {}
        self.started_at = time.time()
        self.ended_at: float | None = None
        self.journal = journal
        self.timed: list[dict[str, Any]] = []  # the records a timeline needs, as written
        self.tap = tap
        self._ask = ask
        self._interaction = interaction
        self.announces_a2ui = announces_a2ui
        self._http = http
        self._policy = policy or FollowPolicy()
        self._cards = cards or CardCache()  # one card fetch per agent per run (or per server), however many steps
        self._connect = connect or self._open_link
        self._answers = {k: deque(v) for k, v in (answers or {}).items()}
        self._limit = asyncio.Semaphore(max(1, workflow.max_concurrency or max_concurrency))
        self._context_ids: dict[str, str] = {}
        self._context_locks: dict[str, asyncio.Lock] = {}
        self._reattach: dict[str, Reattach] = {}
        self._stderr: dict[str, str] = {}
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._cancel_requested: set[str] = set()
        self._stopping: str | None = None  # why no further step starts
        self._canceled = False
        self._resumed = False
        self._queue: asyncio.Queue[RunEvent] = asyncio.Queue()
        self._driver: asyncio.Task[None] | None = None

    # --- the public surface ------------------------------------------------------------------------

    async def events(self) -> AsyncIterator[RunEvent]:
        """Every event of the run, from RunStarted to RunFinished (one consumer; nothing is missed)."""
        while True:
            event = await self._queue.get()
            yield event
            if isinstance(event, RunFinished):
                return

    async def wait(self) -> RunStatus:
        """Wait for the run to end; its status."""
        if self._driver is not None:
            await asyncio.shield(self._driver)
        return self.status

    async def cancel_step(self, name: str) -> None:
        """Cancel one step: its A2A task is canceled at the agent, a shell command is terminated."""
        task = self._tasks.get(name)
        if task is None or task.done():
            return
        self._cancel_requested.add(name)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.shield(task)

    async def cancel(self) -> None:
        """Cancel the whole run: every running step as `cancel_step` does; nothing new starts."""
        self._canceled = True
        self._stopping = "the run was canceled"
        await asyncio.gather(*(self.cancel_step(name) for name in list(self._tasks)))
        await self.wait()

    async def interrupt(self) -> None:
        """Stop watching (Ctrl+C): tasks keep running at their agents and `resume_run` picks them up."""
        if self._driver is not None and not self._driver.done():
            self._driver.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._driver
        self.journal.close()  # when the driver was canceled before it began, nobody else closes it

    # --- driving -------------------------------------------------------------------------------------

    def _start(self) -> None:
        self._driver = asyncio.get_running_loop().create_task(self._drive(), name=f"workflow-run-{self.run_id}")

    def _emit(self, event: RunEvent) -> None:
        self._queue.put_nowait(event)

    def _record(self, kind: str, **fields: Any) -> None:
        record = self.journal.write(kind, **fields)
        if kind in TIMED:  # what the run's timeline is drawn from (workflow.picture), kept small
            self.timed.append({key: record.get(key) for key in ("type", "at", "step", "attempt", "retrying")})

    async def _drive(self) -> None:
        self._emit(RunStarted(self.run_id, self.workflow.name, self._resumed))
        try:
            while True:
                self._launch_ready()
                if not self._tasks:
                    break
                done, _ = await asyncio.wait(self._tasks.values(), return_when=asyncio.FIRST_COMPLETED)
                for name, task in list(self._tasks.items()):
                    if task in done:
                        del self._tasks[name]
                        if task.cancelled():  # canceled before it could say so (queued, or between attempts)
                            if not self.steps[name].finished:
                                self._canceled_step(self.workflow.step(name), self.steps[name])
                        elif (error := task.exception()) is not None:
                            self._internal_failure(name, error)
            self._finish()
        except asyncio.CancelledError:
            await self._stop_all()
            self.status, self.ended_at = "interrupted", time.time()
            self._record("RunInterrupted", outputs={})
            self._emit(RunFinished("interrupted", {}))
        finally:
            # Off the event loop: closing waits for the last fsync, which waits its turn behind other journals'.
            await asyncio.to_thread(self.journal.close)

    async def _stop_all(self) -> None:
        for task in self._tasks.values():
            task.cancel()
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)
        self._tasks.clear()

    def _launch_ready(self) -> None:
        changed = True
        while changed:
            changed = False
            for step in self.workflow.steps:
                state = self.steps[step.name]
                if state.status != "pending" or step.name in self._tasks:
                    continue
                blocked = self._stopping or self._blocked_by(step)
                if blocked:
                    self._skip(state, blocked)
                    changed = True
                elif schedule.ready(self.workflow, self._statuses(), step):
                    self._tasks[step.name] = asyncio.get_running_loop().create_task(
                        self._run_step(step), name=f"workflow-step-{step.name}"
                    )

    def _statuses(self) -> dict[str, str]:
        return {name: state.status for name, state in self.steps.items()}

    def _satisfied(self, name: str) -> bool:
        return schedule.satisfied(self.workflow, self._statuses(), name)

    def _blocked_by(self, step: Step) -> str | None:
        return schedule.blocked_by(self.workflow, self._statuses(), step)

    def _skip(self, state: StepState, reason: str) -> None:
        state.status, state.skipped_reason, state.ended_at = "skipped", reason, time.time()
        self._record("StepSkipped", step=state.name, reason=reason)
        self._emit(StepSkipped(state.name, reason))

    def _internal_failure(self, name: str, error: BaseException) -> None:
        state = self.steps[name]
        message = f"unexpected {type(error).__name__}: {error}"
        state.status, state.error_code, state.error, state.ended_at = (
            "failed",
            "A2A_PROVIDER_ERROR",
            message,
            time.time(),
        )
        self._record(
            "StepFailed", step=name, code=state.error_code, error=message, taskId=state.task_id, retrying=False
        )
        self._emit(StepFailed(name, state.error_code, message, state.task_id))
        if self.workflow.step(name).on_error == "fail":
            self._stopping = self._stopping or f"{name} failed"

    def _finish(self) -> None:
        self.status = schedule.final_status(self.workflow, self._statuses(), self._canceled)
        # Outputs are the run's result: only a completed run has one.
        self.outputs = {
            name: template.render(text, self._value, bare_inputs=self.workflow.bare_inputs)
            for name, text in self.workflow.outputs.items()
            if self.status == "completed"
        }
        self.ended_at = time.time()
        kind = schedule.END_RECORDS[self.status]
        waiting = [s.name for s in self.steps.values() if s.status == "waiting"]
        self._record(kind, status=self.status, outputs=self.outputs, **({"waiting": waiting} if waiting else {}))
        self._emit(RunFinished(self.status, dict(self.outputs)))

    def _value(self, ref: template.Ref) -> str:
        if ref.root == "inputs":
            return self.inputs.get(ref.name, "")
        state = self.steps[ref.name]
        if ref.field == "output":
            return state.output
        if ref.field == "task_id":
            return state.task_id or ""
        if ref.field == "context_id":
            return state.context_id or ""
        return state.state

    # --- one step ----------------------------------------------------------------------------------

    async def _run_step(self, step: Step) -> None:
        state = self.steps[step.name]
        lock = self._context_locks.setdefault(step.context, asyncio.Lock()) if step.context else None
        async with self._limit, lock or contextlib.nullcontext():
            attempts = 0
            while True:
                attempts += 1
                reattach = self._reattach.pop(step.name, None)
                try:
                    if step.type == "shell":
                        await self._shell(step, state)
                    else:
                        await self._delegate(step, state, reattach)
                    unmet = expect_problem(step, state.output, state.exit_code)
                    if unmet:
                        stderr = self._stderr.pop(step.name, "")
                        detail = f"; stderr: {stderr[-500:]}" if stderr else ""
                        raise StepFailure(unmet[0], unmet[1] + detail, state.task_id)
                    self._complete(state)
                    return
                except Waiting:
                    return
                except asyncio.CancelledError:
                    if step.name not in self._cancel_requested:
                        raise  # interrupted: the journal keeps the step in flight for a resume
                    self._canceled_step(step, state)
                    return
                except StepFailure as failure:
                    problem = failure
                except SwitchboardError as exc:
                    text = exc.message + (f" ({exc.hint})" if exc.hint else "")
                    problem = StepFailure(code_of(exc), text, state.task_id)
                delay = schedule.retry_delay(step, attempts, problem.retryable, bool(self._stopping))
                self._fail(step, state, problem, delay is not None)
                if delay is None:
                    return
                await asyncio.sleep(delay)

    def _canceled_step(self, step: Step, state: StepState) -> None:
        state.status, state.ended_at, state.question = "canceled", time.time(), None
        self._record("StepCanceled", step=step.name, taskId=state.task_id)
        self._emit(StepCanceled(step.name))
        if step.on_error == "fail":
            self._stopping = self._stopping or f"{step.name} was canceled"

    def _complete(self, state: StepState) -> None:
        state.status, state.ended_at, state.question = "completed", time.time(), None
        self._record(
            "StepCompleted",
            step=state.name,
            taskId=state.task_id,
            contextId=state.context_id,
            state=state.state,
            output=state.output,
            **({"exitCode": state.exit_code} if state.exit_code is not None else {}),
        )
        self._emit(StepCompleted(state.name, state.output))

    def _fail(self, step: Step, state: StepState, failure: StepFailure, retrying: bool) -> None:
        task_id = failure.task_id or state.task_id
        state.error_code, state.error = failure.code, failure.message
        extra = {"exitCode": state.exit_code} if state.exit_code is not None else {}
        self._record(
            "StepFailed",
            step=step.name,
            code=failure.code,
            error=failure.message,
            taskId=task_id,
            retrying=retrying,
            **extra,
        )
        self._emit(StepFailed(step.name, failure.code, failure.message, task_id, retrying))
        if not retrying:
            state.status, state.ended_at, state.question = "failed", time.time(), None
            if step.on_error == "fail":
                self._stopping = self._stopping or f"{step.name} failed"

    def _started(self, step: Step, state: StepState, *, reattached: bool = False) -> None:
        state.status = "running"
        if not reattached or state.started_at is None:
            state.started_at = time.time()
        state.ended_at = None
        self._emit(StepStarted(step.name, step.agent, state.attempt, reattached))

    # --- shell steps -------------------------------------------------------------------------------

    async def _shell(self, step: Step, state: StepState) -> None:
        try:
            script = shell_script.render(step.run or "", self._value, bare_inputs=self.workflow.bare_inputs)
        except shell_script.ShellTemplateError as exc:
            raise StepFailure("SHELL_FAILED", f"the command cannot be run: {exc}", retryable=False) from None
        state.output, state.exit_code = "", None
        state.attempt += 1
        self._record("StepRequested", step=step.name, attempt=state.attempt, command=script.script, values=script.names)
        self._started(step, state)
        if script.not_numbers:
            raise StepFailure("SHELL_FAILED", shell_script.not_a_number(script), retryable=False)
        env = {**os.environ, "SWITCHBOARD_RUN_ID": self.run_id, "SWITCHBOARD_STEP": step.name}
        try:
            result = await run_command(
                script.script,
                values=script.values,
                cwd=self.workflow.path.parent,
                env=env,
                timeout=step.timeout,
                on_line=lambda stream, text: self._emit(StepOutput(step.name, text, stream)),  # type: ignore[arg-type]
            )
        except TimeoutError:
            raise StepFailure("TIMEOUT", f"the command ran longer than {step.timeout:g} s and was stopped") from None
        except OSError as exc:
            raise StepFailure("SHELL_FAILED", f"the command could not start: {exc}") from None
        state.exit_code = result.exit_code
        state.output = result.stdout.rstrip("\n")
        self._stderr[step.name] = result.stderr.strip()
