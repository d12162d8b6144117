"""The workflow engine: runs a workflow's steps as a dependency graph, each A2A step streamed and journaled.

    run = start_run(workflow, {"topic": "tides"}, ask=ask, http=http, tap=tap)
    async for event in run.events():     # RunStarted, StepStarted, StepEvent, ..., RunFinished
        ...
    run.status                            # completed | failed | canceled | awaiting_input | interrupted

Ready steps run concurrently (up to `max_concurrency`), in file order. Each delegate gets the correlation id
`{runId}:delegate:{stepName}` (X-Correlation-Id and message metadata), and the run's own correlation id, when
whoever started it gave one, as its parent id (X-Parent-Id and metadata.parentId). A step whose task stops at
input-required or auth-required takes its answer from `answers` (in order), else from `ask`; when neither
has one the step waits, the rest of the run goes on, and the run ends `awaiting_input`, to be continued
with `resume_run`. Every event is in the journal before it is shown, so a crash loses nothing recorded;
`resume_run` never invokes a completed step again and re-attaches to a task in flight by its id.

Step failures carry stable codes: A2A_TASK_FAILED, A2A_TASK_REJECTED, A2A_TASK_CANCELED, A2A_INPUT_REQUIRED
and A2A_AUTH_REQUIRED (a non-interactive step was asked), TIMEOUT, EXPECT_FAILED, SHELL_FAILED,
A2A_CREDENTIALS_MISSING, A2A_PROVIDER_ERROR, DELEGATE_PROTOCOL_UNSUPPORTED, or the A2A error's own name
(TaskNotFoundError, ...).
"""

from __future__ import annotations

import os
import secrets
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

from ..a2a.auth.oauth.types import Interaction
from ..a2a.follow import FollowPolicy
from ..a2a.tap import Tap
from ..agent_http import known_secrets
from ..agents import AgentsFile
from ..link import CardCache, entry_credentials
from .delegate import Ask, Connect, Reattach
from .index import default_dir
from .journal import Journal
from .loader import resolve_inputs
from .run import WorkflowRun
from .runs import list_runs, read_run
from .spec import Workflow
from .state import AskRequest, StepState

__all__ = ["Ask", "AskRequest", "StepState", "WorkflowRun", "list_runs", "read_run", "resume_run", "start_run"]


def new_run_id() -> str:
    """Sortable by start time, unique by its random tail: 20260315T101500-3f9c2a."""
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%S") + "-" + secrets.token_hex(3)


def check_credentials(workflow: Workflow) -> list[str]:
    """The secrets the workflow's agents use (for the redactor); raises when a named variable is unset."""
    found: list[str] = []
    for name in {s.agent for s in workflow.steps if s.agent}:
        entry = workflow.agents[name]
        found += entry_credentials(entry).secrets + known_secrets(entry)
    return found


def _tap_for(workflow: Workflow, tap: Tap | None) -> Tap:
    tap = tap or Tap()
    tap.redactor.add(*check_credentials(workflow))
    return tap


def start_run(
    workflow: Workflow,
    inputs: dict[str, str],
    *,
    ask: Ask | None = None,
    http: httpx.AsyncClient,
    tap: Tap | None = None,
    journal_dir: Path | None = None,
    max_concurrency: int = 8,
    answers: dict[str, list[str]] | None = None,
    connect: Connect | None = None,
    policy: FollowPolicy | None = None,
    run_id: str | None = None,
    correlation_id: str | None = None,
    origin: dict[str, Any] | None = None,
    cards: CardCache | None = None,
    interaction: Interaction | None = None,
    announces_a2ui: bool = True,
) -> WorkflowRun:
    """Start a run in the running event loop; it goes on as a task, followed through `events()`.

    Args:
        workflow: The loaded workflow (`load_workflow`, or the builder's).
        inputs: The run's inputs by name; defaults fill the rest.
        ask: Answers a step at input-required or auth-required; None: nobody can, and the step waits (the run
            ends awaiting input, to be resumed).
        http: The client the steps' links share.
        tap: Where requests and responses are recorded and redacted; a new one when None.
        journal_dir: Where the journal goes; the data dir's `runs/` when None.
        max_concurrency: Steps running at once, unless the workflow says.
        answers: Answers given up front, used first, in order, per step.
        connect: Replaces opening a link per step (tests).
        policy: How turns are followed (stall timeouts, polling).
        run_id: The run's id when the caller must know it first (a served run's task id).
        correlation_id: The starter's trace id, sent to every delegate as its parent id.
        origin: Who started the run, journaled as is (the A2A caller of a served workflow).
        cards: Agent cards shared between runs (a server running many); each run reads each card once when None.
        interaction: Shows an OAuth sign-in a step's agent needs to the person (a device code, an address); None:
            nobody is there, and a sign-in is said, not run.
        announces_a2ui: Announce A2UI to the steps' agents whose cards declare it (False for a served run: its
            caller never said it renders forms, so the agents ask in words).

    Returns:
        The run, already going.

    Raises:
        WorkflowInvalid: An input is missing or unknown.
        CredentialsMissingError: A variable an agent's credentials name is unset.
    """
    values = resolve_inputs(workflow, inputs)
    tap = _tap_for(workflow, tap)
    run_id = run_id or new_run_id()
    journal = Journal.create(journal_dir or default_dir(), run_id, tap.redactor)
    run = WorkflowRun(
        run_id,
        workflow,
        values,
        journal=journal,
        ask=ask,
        http=http,
        tap=tap,
        max_concurrency=max_concurrency,
        answers=answers,
        connect=connect,
        policy=policy,
        correlation_id=correlation_id,
        cards=cards,
        interaction=interaction,
        announces_a2ui=announces_a2ui,
    )
    journal.write(
        "RunStarted",
        runId=run_id,
        workflow=workflow.name,
        file=str(workflow.path.resolve()),
        digest=workflow.digest,
        inputs=values,
        pid=os.getpid(),
        steps=[{"name": s.name, "type": s.type, "agent": s.agent, "dependsOn": s.depends_on} for s in workflow.steps],
        **({"workflowName": workflow.name} if workflow.layout == "relay" else {}),
        **({"correlationId": correlation_id} if correlation_id else {}),
        **({"origin": origin} if origin else {}),
    )
    run._start()
    return run


def resume_run(
    run_id: str,
    *,
    ask: Ask | None = None,
    http: httpx.AsyncClient,
    tap: Tap | None = None,
    journal_dir: Path | None = None,
    answers: dict[str, list[str]] | None = None,
    workflow: Workflow | None = None,
    agents: AgentsFile | None = None,
    max_concurrency: int = 8,
    connect: Connect | None = None,
    policy: FollowPolicy | None = None,
    cards: CardCache | None = None,
    interaction: Interaction | None = None,
    announces_a2ui: bool = True,
) -> WorkflowRun:
    """Continue a run that stopped, crashed or was killed, from its journal.

    Completed steps keep their results and are never invoked again. A step whose task was in flight is
    re-attached by task id (get, then subscribe or poll), or found by its message id on a v1.0 agent when
    the crash came before its id was journaled; a step waiting for input asks again. Failed, canceled and
    skipped steps run again.

    Args:
        run_id: The run to continue (its journal's name).
        workflow: The workflow to continue it with; the file the run started from, read again with `agents`,
            when None.
        agents: The agents file the workflow's names resolve in, when the workflow is read again.
        ask, http, tap, journal_dir, answers, max_concurrency, connect, policy, cards, interaction, announces_a2ui:
            As for `start_run`.

    Returns:
        The run, going on from where its journal left it.

    Raises:
        UsageError: No run has that id (or it matches several).
        WorkflowInvalid: The run's workflow, read again, no longer loads.
    """
    from .loader import load_workflow

    record = read_run(run_id, journal_dir)
    if workflow is None:
        workflow = load_workflow(Path(record.path), agents, workflow=record.workflow_name)
    tap = _tap_for(workflow, tap)
    directory = record.journal.parent if record.journal else (journal_dir or default_dir())
    journal = Journal.reopen(directory, record.run_id, tap.redactor)
    run = WorkflowRun(
        record.run_id,
        workflow,
        dict(record.inputs),
        journal=journal,
        ask=ask,
        http=http,
        tap=tap,
        max_concurrency=max_concurrency,
        answers=answers,
        connect=connect,
        policy=policy,
        correlation_id=record.correlation_id,
        cards=cards,
        interaction=interaction,
        announces_a2ui=announces_a2ui,
    )
    run._resumed = True
    run.started_at = record.started_at or run.started_at
    for name, state in run.steps.items():
        old = record.steps.get(name)
        if old is None:
            continue
        step = workflow.step(name)
        state.attempt, state.correlation_id = old.attempt, old.correlation_id
        if old.status == "completed":
            state.status, state.output, state.view = "completed", old.output, old.view
            state.task_id, state.context_id, state.exit_code = old.task_id, old.context_id, old.exit_code
            state.started_at, state.ended_at = old.started_at, old.ended_at
            if step.context and old.context_id:
                run._context_ids.setdefault(step.context, old.context_id)
        elif old.status in ("running", "waiting") and step.type == "a2a":
            state.view, state.task_id, state.context_id = old.view, old.task_id, old.context_id
            state.message_id, state.started_at = old.message_id, old.started_at
            run._reattach[name] = Reattach(task_id=old.task_id, message_id=old.message_id)
    changed = record.digest and workflow.digest and record.digest != workflow.digest
    journal.write("RunResumed", pid=os.getpid(), **({"fileChanged": True} if changed else {}))
    if changed:
        workflow.warnings.append(f"{workflow.path} changed since the run started; completed steps keep their results")
    run._start()
    return run
