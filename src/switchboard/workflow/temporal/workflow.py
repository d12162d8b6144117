"""One run on Temporal: the Temporal workflow `SwitchboardRun`, scheduling a workflow file by schedule.py.

Deterministic code only (it runs in Temporal's sandbox and is replayed): the steps are activities
(activities.py), the clock is the workflow's. It keeps the run's records in the journal's own shapes
(RunStarted, StepRequested, ..., RunCompleted), so `runs show --temporal` folds them with the journal's fold
and prints what a local run prints. A turn's StepRequested comes as a signal, sent by the turn before its
message goes: in the run's history, it outlives the worker. A step waiting for input is workflow state,
answered by the `answer` update: its validator admits one answer to the question being asked, so of two
people answering at once one wins and the other is told it was already answered. Canceling the workflow
cancels every step's activity, which cancels its task at the agent, and the run ends canceled.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any, NotRequired, TypedDict

from temporalio import workflow
from temporalio.common import RetryPolicy
from temporalio.exceptions import ActivityError, ApplicationError, CancelledError

with workflow.unsafe.imports_passed_through():
    from .. import schedule, shell_script, template
    from ..expect import expect_problem
    from .names import ALREADY_ANSWERED, STATE, STEP_REQUESTED, WAITING, WORKFLOW_TYPE
    from .plan import from_plan

HEARTBEAT_TIMEOUT = timedelta(seconds=5)  # how long a dead worker keeps a turn before another takes it over
TURN_RETRIES = RetryPolicy(
    initial_interval=timedelta(seconds=1), maximum_interval=timedelta(seconds=10), maximum_attempts=20
)


class _nothing:
    async def __aenter__(self) -> None:
        return None

    async def __aexit__(self, *exc: object) -> None:
        return None


class StepSlot(TypedDict):
    """What the workflow keeps of one step between its activities (plain data, rebuilt on every replay)."""

    status: str  # pending, running, waiting, completed, failed, canceled, skipped
    output: str
    taskId: str | None
    contextId: str | None
    attempt: int
    taskState: NotRequired[str | None]  # the A2A task's state, once a turn reported one


def _stamp() -> str:
    return workflow.now().isoformat(timespec="milliseconds").replace("+00:00", "Z")


@workflow.defn(name=WORKFLOW_TYPE)
class SwitchboardRun:
    @workflow.init
    def __init__(self, args: dict[str, Any]) -> None:
        self.run_id: str = args["runId"]
        self.plan: dict[str, Any] = args["plan"]
        self.task_queue: str = args["taskQueue"]
        self.shell_queue: str = args["shellQueue"]
        self.flow = from_plan(self.plan)
        self.inputs: dict[str, str] = dict(self.plan["inputs"])
        self.steps: dict[str, StepSlot] = {
            s.name: {"status": "pending", "output": "", "taskId": None, "contextId": None, "attempt": 0}
            for s in self.flow.steps
        }
        self.records: list[dict[str, Any]] = []
        self.requested: set[str] = set()  # the message ids of the turns' StepRequested records, each kept once
        self.questions: dict[str, dict[str, Any]] = {}  # step -> the question it waits on (with its id)
        self.answers: dict[str, str] = {}  # step -> the answer not yet sent
        self.answered: set[str] = set()  # the ids of every question answered: each is answered once
        self.context_ids: dict[str, str] = {}
        self.context_locks: dict[str, asyncio.Lock] = {}  # steps sharing a context take turns, as locally
        self.stopping: str | None = None
        self.canceled = False
        self.status = "running"
        self.outputs: dict[str, str] = {}

    # --- what clients see -------------------------------------------------------------------------------

    @workflow.query
    def journal(self, since: int = 0) -> list[dict[str, Any]]:
        """The run's records from `since` on, in the journal's shapes."""
        return self.records[since:]

    @workflow.query
    def waiting(self) -> dict[str, dict[str, Any]]:
        """The questions being asked now, by step."""
        return dict(self.questions)

    @workflow.update
    async def answer(self, request: dict[str, Any]) -> str:
        """Answer the question a step waits on: {"step", "text", "askId" (optional: this question and no other)}."""
        asked = self._check_answer(request)  # again: two updates may both pass their validators before either runs
        step = request["step"]
        self.answered.add(asked["askId"])
        self.answers[step] = request["text"]
        self.questions.pop(step, None)
        self.steps[step]["status"] = "running"
        return "accepted"

    @workflow.signal(name=STEP_REQUESTED)
    def step_requested(self, record: dict[str, Any]) -> None:
        """A turn's StepRequested, from its activity before the message is sent (sent again by a retried call:
        kept once). Only for a step whose turn is going: a late one changes nothing of a step that ended."""
        step, message_id, attempt = record.get("step"), record.get("messageId"), record.get("attempt")
        if not isinstance(message_id, str) or not isinstance(attempt, int) or message_id in self.requested:
            return  # a handler that raised would hold the whole run back: what is not a turn's record is dropped
        if step not in self.steps or self.steps[step]["status"] != "running":
            return
        self.requested.add(message_id)
        self.records.append({**record, "type": "StepRequested"})
        self.steps[step]["attempt"] = max(self.steps[step]["attempt"], attempt)

    @answer.validator
    def _validate_answer(self, request: dict[str, Any]) -> None:
        self._check_answer(request)

    def _check_answer(self, request: dict[str, Any]) -> dict[str, Any]:
        step = request.get("step")
        if step not in self.steps:
            names = ", ".join(self.steps)
            raise ApplicationError(f"the run has no step {step!r} (its steps: {names})", type="UNKNOWN_STEP")
        if request.get("askId") in self.answered:
            raise ApplicationError(f"that question of step {step} was {ALREADY_ANSWERED}", type="ALREADY_ANSWERED")
        question = self.questions.get(step)
        if question is None or question["askId"] in self.answered:
            raise ApplicationError(f"step {step} is not waiting for input: {ALREADY_ANSWERED}", type="ALREADY_ANSWERED")
        if request.get("askId") and request["askId"] != question["askId"]:
            raise ApplicationError(f"that question of step {step} was {ALREADY_ANSWERED}", type="ALREADY_ANSWERED")
        if not str(request.get("text") or "").strip():
            raise ApplicationError("an empty answer is not sent", type="EMPTY_ANSWER")
        return question

    # --- the run -----------------------------------------------------------------------------------------

    def _record(self, kind: str, **fields: Any) -> None:
        self.records.append({"type": kind, "at": _stamp(), **fields})

    def _attributes(self) -> None:
        waiting = [name for name, s in self.steps.items() if s["status"] == "waiting"]
        state = "awaiting_input" if waiting and self.status == "running" else self.status
        workflow.upsert_search_attributes([STATE.value_set(state), WAITING.value_set(waiting)])
        # What a list shows beside the attributes (a memo is a payload: encrypted like the rest).
        statuses = self._statuses().values()
        failed = [name for name, s in self.steps.items() if s["status"] == "failed"]
        memo = {"file": self.plan["file"], "steps": len(self.steps), "failed": failed}
        workflow.upsert_memo({**memo, "completed": sum(1 for s in statuses if s == "completed")})

    def _statuses(self) -> dict[str, str]:
        return {name: s["status"] for name, s in self.steps.items()}

    @workflow.run
    async def run(self, args: dict[str, Any]) -> dict[str, Any]:
        self._record(
            "RunStarted",
            runId=self.run_id,
            workflow=self.flow.name,
            file=self.plan["file"],
            digest=self.plan.get("digest", ""),
            inputs=self.inputs,
            runner="temporal",
            steps=[
                {"name": s.name, "type": s.type, "agent": s.agent, "dependsOn": s.depends_on} for s in self.flow.steps
            ],
        )
        self._attributes()
        limit = asyncio.Semaphore(max(1, self.flow.max_concurrency or args.get("maxConcurrency") or 8))
        tasks: dict[str, asyncio.Task[None]] = {}
        try:
            while True:
                self._launch_ready(tasks, limit)
                if not tasks:
                    break
                await workflow.wait(list(tasks.values()), return_when=asyncio.FIRST_COMPLETED)
                for name, task in list(tasks.items()):
                    if task.done():
                        del tasks[name]
                        if task.exception() is not None and not self._finished(name):
                            self._fail(name, "A2A_PROVIDER_ERROR", f"unexpected {task.exception()}", None, False)
        except asyncio.CancelledError:
            self.canceled, self.stopping = True, "the run was canceled"
            for task in tasks.values():
                task.cancel()
            await asyncio.gather(*tasks.values(), return_exceptions=True)
            for name in tasks:
                if not self._finished(name):
                    self._canceled(name)
            self._launch_ready({}, limit)  # skips whatever had not started
        return self._finish()

    def _finished(self, name: str) -> bool:
        return self.steps[name]["status"] in ("completed", "failed", "canceled", "skipped")

    def _launch_ready(self, tasks: dict[str, asyncio.Task[None]], limit: asyncio.Semaphore) -> None:
        changed = True
        while changed:
            changed = False
            for step in self.flow.steps:
                if self.steps[step.name]["status"] != "pending" or step.name in tasks:
                    continue
                statuses = self._statuses()
                blocked = self.stopping or schedule.blocked_by(self.flow, statuses, step)
                if blocked:
                    self.steps[step.name]["status"] = "skipped"
                    self._record("StepSkipped", step=step.name, reason=blocked)
                    changed = True
                elif schedule.ready(self.flow, statuses, step):
                    tasks[step.name] = asyncio.create_task(self._run_step(step, limit))

    def _finish(self) -> dict[str, Any]:
        self.status = schedule.final_status(self.flow, self._statuses(), self.canceled)
        if self.status == "completed":
            self.outputs = {
                name: template.render(text, self._value, bare_inputs=self.flow.bare_inputs)
                for name, text in self.flow.outputs.items()
            }
        waiting = [name for name, s in self.steps.items() if s["status"] == "waiting"]
        extra = {"waiting": waiting} if waiting else {}
        self._record(schedule.END_RECORDS[self.status], status=self.status, outputs=self.outputs, **extra)
        self._attributes()
        return {"runId": self.run_id, "status": self.status, "outputs": self.outputs}

    def _value(self, ref: template.Ref) -> str:
        if ref.root == "inputs":
            return self.inputs.get(ref.name, "")
        step = self.steps[ref.name]
        if ref.field == "output":
            return step["output"]
        if ref.field == "task_id":
            return step["taskId"] or ""
        if ref.field == "context_id":
            return step["contextId"] or ""
        return step.get("taskState") or step["status"]

    # --- one step ----------------------------------------------------------------------------------------

    async def _run_step(self, step: Any, limit: asyncio.Semaphore) -> None:
        state = self.steps[step.name]
        lock = self.context_locks.setdefault(step.context, asyncio.Lock()) if step.context else None
        async with limit, lock or _nothing():
            attempts = 0
            while True:
                attempts += 1
                try:
                    outcome = await (self._shell(step) if step.type == "shell" else self._delegate(step))
                except (asyncio.CancelledError, CancelledError):
                    self._canceled(step.name)
                    return
                except ActivityError as exc:
                    cause = exc.cause
                    if isinstance(cause, CancelledError):
                        self._canceled(step.name)
                        return
                    outcome = {"status": "failed", "code": "A2A_PROVIDER_ERROR", "error": str(cause or exc)}
                if outcome["status"] == "waiting":
                    return  # the run ended awaiting input: cannot happen while answers are awaited here
                if outcome["status"] == "completed":
                    problem = expect_problem(step, outcome.get("output", ""), outcome.get("exitCode"))
                    if problem is None:
                        self._complete(step.name, outcome)
                        return
                    stderr = outcome.get("stderr") or ""
                    detail = f"; stderr: {stderr[-500:]}" if stderr else ""
                    given = {"output": outcome.get("output", ""), "exitCode": outcome.get("exitCode")}
                    outcome = {"status": "failed", "code": problem[0], "error": problem[1] + detail, "retryable": True}
                    outcome.update(given)
                retryable = outcome.get("retryable", True)
                delay = schedule.retry_delay(step, attempts, retryable, bool(self.stopping))
                self._fail(
                    step.name,
                    outcome["code"],
                    outcome["error"],
                    outcome.get("taskId") or state["taskId"],
                    delay is not None,
                    outcome,
                )
                if delay is None:
                    return
                await workflow.sleep(delay)

    async def _delegate(self, step: Any) -> dict[str, Any]:
        state = self.steps[step.name]
        request: dict[str, Any] = {
            "runId": self.run_id,
            "plan": self.plan,
            "step": step.name,
            "attempt": state["attempt"],
            "values": self._values(),
            "contextIds": dict(self.context_ids),
        }
        asks = 0
        while True:
            state["status"] = "running"
            outcome: dict[str, Any] = await workflow.execute_activity(
                "switchboard.delegate_turn",
                request,
                task_queue=self.task_queue,
                start_to_close_timeout=timedelta(seconds=(step.timeout or 86400) + 60),
                heartbeat_timeout=HEARTBEAT_TIMEOUT,
                retry_policy=TURN_RETRIES,
                cancellation_type=workflow.ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
            )
            self.records.extend(outcome.get("records") or [])
            # A turn that re-attached (its worker died) knows its attempt only from the request: the signal told it.
            state["attempt"] = max(state["attempt"], int(outcome.get("attempt") or 0))
            state["taskId"] = outcome.get("taskId") or state["taskId"]
            state["contextId"] = outcome.get("contextId") or state["contextId"]
            state["taskState"] = outcome.get("taskState")
            if step.context and state["contextId"]:
                self.context_ids.setdefault(step.context, state["contextId"])
            if outcome["status"] != "waiting":
                return outcome
            asks += 1
            question = {
                "step": step.name,
                "askId": f"{step.name}:{state['attempt']}:{asks}",
                "state": outcome["state"],
                "question": outcome["question"],
                "taskId": state["taskId"],
                "contextId": state["contextId"],
                "correlationId": f"{self.run_id}:delegate:{step.name}",
                "agent": step.agent,
            }
            state["status"] = "waiting"
            self.questions[step.name] = question
            self._record(
                "AwaitingInput",
                step=step.name,
                state=outcome["state"],
                question=outcome["question"],
                taskId=state["taskId"],
                contextId=state["contextId"],
                correlationId=question["correlationId"],
            )
            self._attributes()
            try:
                await workflow.wait_condition(lambda: step.name in self.answers)
            except asyncio.CancelledError:
                await self._cancel_task(step)  # nobody will answer now: free the agent
                raise
            answer = self.answers.pop(step.name)
            secret = outcome["state"] == "auth-required"
            self._record(
                "InputSubmitted",
                step=step.name,
                taskId=state["taskId"],
                **({"secret": True} if secret else {"answer": answer}),
            )
            self._attributes()
            request = {**request, "answer": answer, "taskId": state["taskId"], "contextId": state["contextId"]}
            request["attempt"] = state["attempt"]

    async def _cancel_task(self, step: Any) -> None:
        state = self.steps[step.name]
        if not state["taskId"]:
            return
        done = await workflow.execute_activity(
            "switchboard.cancel_task",
            {"runId": self.run_id, "plan": self.plan, "step": step.name, "taskId": state["taskId"]},
            task_queue=self.task_queue,
            start_to_close_timeout=timedelta(seconds=60),
            retry_policy=RetryPolicy(maximum_attempts=3),
        )
        self.records.extend(done.get("records") or [])

    async def _shell(self, step: Any) -> dict[str, Any]:
        state = self.steps[step.name]
        try:
            script = shell_script.render(step.run or "", self._value, bare_inputs=self.flow.bare_inputs)
        except shell_script.ShellTemplateError as exc:
            error = f"the command cannot be run: {exc}"
            return {"status": "failed", "code": "SHELL_FAILED", "error": error, "retryable": False}
        state["attempt"] += 1
        state["status"] = "running"
        self._record(
            "StepRequested", step=step.name, attempt=state["attempt"], command=script.script, values=script.names
        )
        if script.not_numbers:
            error = shell_script.not_a_number(script)
            return {"status": "failed", "code": "SHELL_FAILED", "error": error, "retryable": False}
        outcome: dict[str, Any] = await workflow.execute_activity(
            "switchboard.run_shell",
            {
                "runId": self.run_id,
                "step": step.name,
                "command": script.script,
                "values": script.values,  # beside the script, never in it: the activity puts them in the environment
                "cwd": str(self.flow.path.parent),
                "timeout": step.timeout,
            },
            task_queue=self.shell_queue,
            start_to_close_timeout=timedelta(seconds=(step.timeout or 86400) + 60),
            heartbeat_timeout=HEARTBEAT_TIMEOUT,
            retry_policy=RetryPolicy(maximum_attempts=1),  # a command is not run twice behind the file's back
            cancellation_type=workflow.ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
        )
        return outcome

    def _values(self) -> dict[str, dict[str, Any]]:
        return {
            name: {
                "output": s["output"],
                "taskId": s["taskId"],
                "contextId": s["contextId"],
                "state": s.get("taskState") or s["status"],
            }
            for name, s in self.steps.items()
        }

    def _complete(self, name: str, outcome: dict[str, Any]) -> None:
        state = self.steps[name]
        state["status"], state["output"] = "completed", outcome.get("output", "")
        extra = {"exitCode": outcome["exitCode"]} if outcome.get("exitCode") is not None else {}
        self._record(
            "StepCompleted",
            step=name,
            taskId=state["taskId"],
            contextId=state["contextId"],
            state=state.get("taskState") or "completed",
            output=state["output"],
            **extra,
        )

    def _fail(
        self,
        name: str,
        code: str,
        error: str,
        task_id: str | None,
        retrying: bool,
        outcome: dict[str, Any] | None = None,
    ) -> None:
        extra: dict[str, Any] = {}
        if outcome and "output" in outcome:
            self.steps[name]["output"] = extra["output"] = outcome["output"]
            if outcome.get("exitCode") is not None:
                extra["exitCode"] = outcome["exitCode"]
        self._record("StepFailed", step=name, code=code, error=error, taskId=task_id, retrying=retrying, **extra)
        if not retrying:
            self.steps[name]["status"] = "failed"
            if self.flow.step(name).on_error == "fail":
                self.stopping = self.stopping or f"{name} failed"

    def _canceled(self, name: str) -> None:
        self.steps[name]["status"] = "canceled"
        self.questions.pop(name, None)
        self._record("StepCanceled", step=name, taskId=self.steps[name]["taskId"])
        if self.flow.step(name).on_error == "fail":
            self.stopping = self.stopping or f"{name} was canceled"
