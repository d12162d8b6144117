"""`switchboard run FILE` (and `--resume RUN_ID`), `switchboard runs list|show RUN_ID`.

The tool did its job when the run ended, whatever the run's outcome: exit 0, the state in the output; with
--exit-status, a run that did not complete exits 1 (for CI; the A2A CLI spec leaves task outcomes out of the
exit code, so it is asked for, never the default). A step that waits for input takes `--answer STEP=TEXT`
(in order, per step), else a line typed at the terminal when stdin is one; with neither the run stops at
awaiting-input and prints the command that continues it. Ctrl+C stops watching: tasks keep running at their
agents and `--resume` picks them up.
"""

from __future__ import annotations

import asyncio
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..a2a.errors import UsageError
from ..a2a.tap import Tap, format_record
from ..a2a.user_input import check_message_text
from ..safe_text import strip_controls
from ..workflow.state import AskRequest, StepAwaitingInput
from .context import NamesAgentsFile, StderrInteraction, invocation, registry_of
from .output import Out, warn
from .run_render import (
    RunView,
    event_json,
    progress_line,
    render_live,
    render_run,
    resume_command,
    run_json,
)
from .run_terminal import RunTerminal

if TYPE_CHECKING:
    from .groups.run import RunOptions
    from .groups.runs import RunsShowOptions


def pairs(values: list[str], flag: str, what: str) -> list[tuple[str, str]]:
    out = []
    for value in values:
        name, sep, text = value.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"{flag} {value!r} is not {what}=VALUE", hint=f"For example {flag} {what.lower()}=hello")
        out.append((name.strip(), text))
    return out


def exit_status(args: RunOptions, run_id: str, status: str) -> int:
    """0, or 1 under --exit-status when the run ended other than completed (said on stderr: the why of the 1)."""
    if not args.exit_status or status == "completed":
        return 0
    warn(f"the run {run_id} ended {status.replace('_', '-')}, not completed: exit 1 (--exit-status)")
    return 1


def base_command(args: NamesAgentsFile) -> str:
    bits = [invocation()]
    if args.agents:
        bits += ["--agents", shlex.quote(args.agents)]
    return " ".join(bits)


def sign_in_hint(request: AskRequest) -> str | None:
    """Away from a terminal: how to give a waiting step the sign-in its question asks for."""
    if request.sign_in is None:
        return None
    return (
        f"{request.sign_in.offer.wanted_by(request.step)}: continue the run at a terminal and "
        f"switchboard offers it (or list the scopes in {request.agent or 'the agent'}'s oauth.scopes in the agents "
        "file, sign in with `auth login --remember`, and continue it)"
    )


async def run(options: RunOptions) -> int:
    from ..a2a.http import new_http_client
    from ..workflow.engine import resume_run, start_run
    from ..workflow.loader import load_workflow
    from ..workflow.runs import read_run

    inputs = dict(pairs(options.input, "-i", "NAME"))
    answers: dict[str, list[str]] = {}
    for step, text in pairs(options.answer, "--answer", "STEP"):
        answers.setdefault(step, []).append(check_message_text(text, f"--answer {step}="))
    registry = registry_of(options)
    out = Out()
    record = None
    if options.resume:
        if inputs:
            raise UsageError("a resumed run keeps its inputs", hint="Drop -i, or start a new run without --resume.")
        record = read_run(options.resume)
        if record.status == "completed":
            warn(f"the run {record.run_id} completed already; nothing to do")
            _print(out, options, RunView.of_record(record), base_command(options))
            return 0  # completed: --exit-status has nothing to say either
        path = Path(options.file) if options.file else Path(record.path)
        if not options.file and not path.exists():
            raise UsageError(
                f"the run {record.run_id} started from {path}, which is gone",
                hint=f"Pass the file where it is now: switchboard run FILE --resume {record.run_id}",
            )
        if options.file and path.resolve() != Path(record.path).resolve():
            warn(f"the run started from {record.path}; continuing it with {path}")
        workflow = load_workflow(path, registry, workflow=options.workflow or record.workflow_name)
    else:
        if not options.file:
            raise UsageError("no workflow file given", hint="switchboard run FILE, or switchboard run --resume RUN_ID")
        workflow = load_workflow(Path(options.file), registry, workflow=options.workflow)
    for text in workflow.warnings:
        warn(text)
    unknown = sorted(set(answers) - {s.name for s in workflow.steps})
    if unknown:
        raise UsageError(
            f"--answer names no step of the workflow: {', '.join(unknown)}",
            hint="Its steps: " + ", ".join(s.name for s in workflow.steps) + ".",
        )
    if options.validate:
        _print_plan(out, options, workflow)
        return 0
    terminal = RunTerminal() if sys.stdin.isatty() else None
    ask = terminal.ask if terminal is not None else None
    tap = Tap()
    if options.verbose:
        tap.listeners.append(lambda record: print(format_record(record), file=sys.stderr, flush=True))
    async with new_http_client() as http:
        # The steps' OAuth sign-ins show on stderr, as send's do.
        interaction = StderrInteraction(open_browser=sys.stdin.isatty())
        how: dict[str, Any] = dict(ask=ask, http=http, tap=tap, answers=answers, interaction=interaction)
        if record is not None:
            live = resume_run(record.run_id, workflow=workflow, max_concurrency=options.max_concurrency, **how)
        else:
            live = start_run(workflow, inputs, max_concurrency=options.max_concurrency, **how)
        try:
            await _follow(live, options, out, terminal)
        except asyncio.CancelledError:
            await live.interrupt()
            resume = resume_command(base_command(options), RunView.of_run(live))
            print(f"\nstopped watching; the tasks go on at their agents. Continue with:\n  {resume}", file=sys.stderr)
            raise
    _print(out, options, RunView.of_run(live), base_command(options))
    return exit_status(options, live.run_id, live.status)


async def _follow(live: Any, args: RunOptions, out: Out, terminal: RunTerminal | None) -> None:
    async for event in live.events():
        if terminal is None and isinstance(event, StepAwaitingInput) and (hint := sign_in_hint(event.request)):
            warn(hint)
        write = _writer(args, out, event)
        if terminal is None:
            write()
        else:  # at a terminal, around the questions: see run_terminal
            terminal.show(write)
            if isinstance(event, StepAwaitingInput):
                terminal.reached(event.request)


def _writer(args: RunOptions, out: Out, event: Any) -> Callable[[], None]:
    """What the event shows: under --stream the event itself on stdout, else a progress line on stderr (text)."""

    def write() -> None:
        if args.stream:
            if args.output == "json":
                out.json_line(event_json(event))
            else:
                render_live(out, event)
        elif args.output == "text" and (line := progress_line(event)):
            print(strip_controls(line), file=sys.stderr, flush=True)

    return write


def _print(out: Out, args: RunOptions | RunsShowOptions, view: RunView, base: str) -> None:
    resume = resume_command(base, view)
    if args.output == "json":
        if getattr(args, "stream", False):
            out.json_line({"event": "RunSummary", "run": run_json(view, resume)})
        else:
            out.json_doc({"run": run_json(view, resume)})
        return
    render_run(out, view, resume)


def _print_plan(out: Out, args: RunOptions, workflow: Any) -> None:
    steps = [
        {
            "name": s.name,
            "type": s.type,
            "agent": s.agent,
            "dependsOn": s.depends_on,
            "timeout": s.timeout,
            "retries": s.retries.count,
            "interactive": s.interactive,
            "context": s.context,
            "onError": s.on_error,
        }
        for s in workflow.steps
    ]
    inputs = {
        name: {"required": spec.required, "default": spec.default, "description": spec.description}
        for name, spec in workflow.inputs.items()
    }
    agents = {name: {"url": entry.url, "protocol": entry.protocol} for name, entry in workflow.agents.items()}
    if args.output == "json":
        doc = {"name": workflow.name, "description": workflow.description, "file": str(workflow.path)}
        doc.update(layout=workflow.layout, inputs=inputs, agents=agents, steps=steps, outputs=workflow.outputs)
        out.json_doc({"workflow": doc, "valid": True})
        return
    out.field("Workflow", workflow.name)
    out.field("File", str(workflow.path))
    out.field("Layout", "relay" if workflow.layout == "relay" else None)
    out.field("Description", workflow.description)
    for name, spec in inputs.items():
        how = "required" if spec["required"] else f"default {spec['default']!r}"
        about = f": {spec['description']}" if spec["description"] else ""
        out.field("Input", f"{name} ({how}){about}")
    for name, agent in agents.items():
        out.field("Agent", f"{name} {agent['url']} ({agent['protocol']})")
    out.separate()
    for step in steps:
        what = f"on {step['agent']}" if step["type"] == "a2a" else "shell"
        after = f" after {', '.join(step['dependsOn'])}" if step["dependsOn"] else ""
        out.field("Step", f"{step['name']} ({what}){after}")
    for name in workflow.outputs:
        out.field("Output", name)
    out.field("Valid", "yes")


async def runs_show(options: RunsShowOptions) -> int:
    from ..workflow.runs import read_run

    record = read_run(options.run_id)
    out = Out()
    if options.records:
        for item in record.records:
            out.json_line(item)
        return 0
    if record.skipped_lines:
        warn(f"{record.skipped_lines} unreadable line(s) in {record.journal} skipped (a torn last line after a crash)")
    _print(out, options, RunView.of_record(record), base_command(options))
    return 0
