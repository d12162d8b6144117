"""The Temporal side of the command line: `worker`, `temporal dev|key`, and `run`, `runs list|show|cancel` with
--temporal HOST:PORT. The workflow file is read and checked here exactly as for a local run; the run itself
is kept by the Temporal server and done by workers. Output is the local runs' own (`Label: value` text or
one JSON document), from the same fold of the same records.
"""

from __future__ import annotations

import asyncio
import contextlib
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

from ..a2a.errors import SwitchboardError, UsageError
from .output import Out

if TYPE_CHECKING:
    from .groups.run import RunOptions
    from .groups.runs import RunsCancelOptions, RunsListOptions, RunsShowOptions

    # the options of every command that reaches a Temporal server
    OnTemporal: TypeAlias = RunOptions | RunsListOptions | RunsShowOptions | RunsCancelOptions
    from .groups.temporal import TemporalDevOptions
    from .groups.worker import WorkerOptions

FOLLOW_EVERY = 0.25  # seconds between looks at a followed run's records
ANSWER_WAIT = 60.0  # seconds a second --answer for a step waits for the step's next question
ALREADY_ANSWERED = "already answered"


def _where(args: OnTemporal) -> str:
    """The options that say which server keeps the run. They are the subcommand's: before it, `--temporal` is the
    TUI's (the parser hands it on, but a printed command shows the form the help documents)."""
    bits = ["--temporal", shlex.quote(args.temporal or "")]
    if args.namespace != "default":
        bits += ["--namespace", shlex.quote(args.namespace)]
    return " ".join(bits)


def _show_command(args: OnTemporal, run_id: str) -> str:
    """`switchboard [--agents F] runs show RUN_ID --temporal HOST:PORT`, ready to paste."""
    from .workflow import base_command

    return f"{base_command(args)} runs show {shlex.quote(run_id)} {_where(args)}"


def require_temporal() -> None:
    try:
        import temporalio  # noqa: F401
    except ImportError:
        raise UsageError(
            "the Temporal runner is not installed", hint='pip install "a2a-switchboard[temporal]"'
        ) from None


async def _client(args: OnTemporal) -> Any:
    require_temporal()
    from ..workflow.temporal.client import connect

    if args.temporal is None:  # each caller is on the Temporal path because --temporal was given
        raise UsageError("no Temporal server given", hint="Add --temporal HOST:PORT.")
    return await connect(args.temporal, args.namespace)


async def _print(out: Out, client: Any, args: RunOptions | RunsShowOptions | RunsCancelOptions, run_id: str) -> None:
    """The run as `run` and `runs show` print a local one; each question carries its id (--question-id)."""
    from ..workflow.temporal import client as runs
    from .run_render import RunView, render_run, resume_command, run_json
    from .workflow import base_command

    record = await runs.read(client, run_id)
    asked = await runs.asked(client, run_id) if record.waiting else {}
    view = RunView.of_record(record)
    view.journal = None
    resume = resume_command(base_command(args), view, _where(args))
    if args.output == "json":
        doc = run_json(view, resume)
        doc["runner"] = "temporal"
        for step in doc["steps"]:
            if "question" in step and step["name"] in asked:
                step["question"]["id"] = asked[step["name"]]["askId"]
        if getattr(args, "stream", False):
            out.json_line({"event": "RunSummary", "run": doc})  # the last line of a stream, as locally
        else:
            out.json_doc({"run": doc})
    else:
        render_run(out, view, resume)
        for name, question in asked.items():
            out.field("Question ID", f"{name}: {question['askId']}")


async def run(options: RunOptions) -> int:
    """`switchboard run FILE --temporal ...` (start), or `--resume RUN_ID --answer STEP=TEXT` (answer)."""
    from ..a2a.user_input import check_message_text
    from ..workflow.loader import load_workflow
    from ..workflow.temporal import client as runs
    from .context import registry_of
    from .output import warn
    from .workflow import pairs

    if options.exit_status and not options.follow:  # without it the command ends as the run starts: no outcome yet
        raise UsageError("--exit-status on Temporal goes with --follow", hint="Add --follow to wait for the run's end.")
    client = await _client(options)
    out = Out()
    given = [
        (step, check_message_text(text, f"--answer {step}="))
        for step, text in pairs(options.answer, "--answer", "STEP")
    ]
    if options.question_id and (len(given) != 1 or not options.resume):
        raise UsageError("--question-id goes with --resume and one --answer", hint="Answer one question with it.")
    if options.resume:
        if options.input:
            raise UsageError("a resumed run keeps its inputs", hint="Drop -i.")
        run_id = options.resume
    else:
        if not options.file:
            raise UsageError("no workflow file given", hint="switchboard run FILE --temporal HOST:PORT")
        workflow = load_workflow(Path(options.file), registry_of(options), workflow=options.workflow)
        for text in workflow.warnings:
            warn(text)
        if options.validate:
            raise UsageError("--validate checks a file without running it", hint="Drop --temporal to validate.")
        unknown = sorted({step for step, _ in given} - {s.name for s in workflow.steps})
        if unknown:
            raise UsageError(f"--answer names no step of the workflow: {', '.join(unknown)}")
        inputs = dict(pairs(options.input, "-i", "NAME"))
        run_id = await runs.start(
            client, workflow, inputs, task_queue=options.task_queue, max_concurrency=options.max_concurrency
        )
        print(f"run {run_id} ({workflow.name}) started on {options.temporal}", file=sys.stderr, flush=True)
    answered: dict[str, str] = {}
    for step, text in given:
        # Each answer goes to the question asked after the one before it (the same step may ask again).
        asked: dict[str, Any] | None
        if options.question_id:  # this question and no other: answered meanwhile, it is not answered twice
            asked = {"askId": options.question_id}
        else:
            asked = await runs.question(client, run_id, step, after=answered.get(step), wait=ANSWER_WAIT)
        if asked is None:
            raise runs.AlreadyAnswered(
                f"step {step} is not waiting for input: {ALREADY_ANSWERED}, or no further question came",
                hint=_show_command(options, run_id),
            )
        try:
            await runs.answer(client, run_id, step, text, asked["askId"])
        except SwitchboardError as exc:  # its hint names the run and the server, as a command that runs
            exc.hint = _show_command(options, run_id)
            raise
        answered[step] = asked["askId"]
        if not options.follow:  # following shows it with the rest
            print(f"{step}: answered", file=sys.stderr, flush=True)
    if options.follow:
        await follow(client, run_id, options, out)
    await _print(out, client, options, run_id)
    if options.exit_status:
        from .workflow import exit_status

        return exit_status(options, run_id, (await runs.read(client, run_id)).status)
    return 0


async def follow(client: Any, run_id: str, args: RunOptions, out: Out) -> None:
    """Show the run's progress until it ends or waits for input nobody here gives."""
    from ..workflow.temporal import client as runs
    from .run_render import event_json, progress_line

    seen = 0
    agents: dict[str, str | None] = {}
    while True:
        found = await runs.records(client, run_id, seen)
        for event in runs.events_of(found, run_id, agents):
            if args.stream and args.output == "json":
                out.json_line(event_json(event))
            elif line := progress_line(event):
                print(line, file=sys.stderr, flush=True)
        seen += len(found)
        if any(r.get("type", "").startswith("Run") and r["type"] not in ("RunStarted", "RunResumed") for r in found):
            return
        if await runs.asked(client, run_id):
            return  # answered with `run --resume RUN_ID --answer STEP=TEXT --temporal ...`, from anywhere
        await asyncio.sleep(FOLLOW_EVERY)


async def runs_list(options: RunsListOptions) -> int:
    from ..workflow.temporal.client import list_page
    from .runs import render_summaries, status_filter, summary_json

    client = await _client(options)
    page = await list_page(
        client,
        status=status_filter(options.status),
        workflow=options.workflow,
        waiting=options.waiting,
        limit=options.limit,
        offset=options.offset,
    )
    out = Out()
    if options.output == "json":
        docs = [summary_json(r) for r in page.runs]
        out.json_doc({"runs": docs, "total": page.total, "offset": page.offset, "nextOffset": page.next_offset})
    else:
        render_summaries(out, page.runs, page.total, page.next_offset)
    return 0


async def runs_show(options: RunsShowOptions) -> int:
    from ..workflow.temporal import client as runs

    client = await _client(options)
    out = Out()
    if options.records:
        for item in await runs.records(client, options.run_id):
            out.json_line(item)
        return 0
    await _print(out, client, options, options.run_id)
    return 0


async def runs_cancel(options: RunsCancelOptions) -> int:
    from ..workflow.temporal import client as runs

    if not options.temporal:
        raise UsageError(
            "a local run is canceled where it runs (Ctrl+C stops watching; the TUI cancels)",
            hint="runs cancel is for runs on Temporal: add --temporal HOST:PORT",
        )
    client = await _client(options)
    await runs.cancel(client, options.run_id)
    await _print(Out(), client, options, options.run_id)
    return 0


async def worker(options: WorkerOptions) -> int:
    if not options.temporal:
        raise UsageError("a worker serves a Temporal server", hint="switchboard worker --temporal HOST:PORT")
    require_temporal()
    from ..workflow.temporal.worker import run_worker

    where = f"{options.temporal} (namespace {options.namespace}, task queue {options.task_queue})"
    shell = "; shell steps allowed" if options.allow_shell else ""
    ready = asyncio.Event()
    serving = asyncio.create_task(
        run_worker(
            options.temporal,
            namespace=options.namespace,
            task_queue=options.task_queue,
            allow_shell=options.allow_shell,
            max_concurrent=options.max_concurrent,
            ready=ready,
        )
    )
    waiting = asyncio.create_task(ready.wait())
    await asyncio.wait([serving, waiting], return_when=asyncio.FIRST_COMPLETED)
    if serving.done():
        waiting.cancel()
        await serving  # it ended before it was ready: its error is raised here
        return 0
    print(f"worker serving {where}{shell}; Ctrl+C stops it", file=sys.stderr, flush=True)
    await serving
    return 0


def temporal_key() -> int:
    """`temporal key`: a new payload encryption key, for SWITCHBOARD_TEMPORAL_KEY."""
    from cryptography.fernet import Fernet

    print(Fernet.generate_key().decode())
    return 0


async def temporal_dev(options: TemporalDevOptions) -> int:
    from ..workflow.temporal.dev import start_dev_server
    from .context import invocation
    from .stop_signals import stop_on_signals

    db = Path(options.db_filename) if options.db_filename else None
    stop = asyncio.Event()
    with stop_on_signals(stop):  # whatever stops this process stops the server first (it has a session of its own)
        server = start_dev_server(host=options.ip, port=options.port, db_filename=db, quiet=False, die_with_parent=True)
        try:
            me = invocation()
            print(
                f"Temporal dev server on {server.address} (up in {server.started_in:.2f} s); Ctrl+C stops it.\n"
                f"  {me} worker --temporal {server.address} --allow-shell\n"
                f"  {me} run FILE --temporal {server.address} --follow",
                file=sys.stderr,
                flush=True,
            )
            while server.process.poll() is None and not stop.is_set():
                with contextlib.suppress(TimeoutError):  # polled too: the server may end on its own
                    await asyncio.wait_for(stop.wait(), 0.2)
        finally:
            server.stop()
    if not stop.is_set():
        raise SwitchboardError(f"the Temporal dev server exited on its own (code {server.process.returncode})")
    return 0
