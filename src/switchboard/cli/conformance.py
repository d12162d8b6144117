"""`switchboard conformance AGENT [--against CANDIDATE]`: the conformance report as text (one line per check) or
one JSON document; exit 1 when a check fails, or when the two agents behave differently (the tool did its job, and
the job was to judge). conformance_diff.py compares the two."""

from __future__ import annotations

import sys
from dataclasses import replace
from typing import TYPE_CHECKING

from ..a2a.errors import UsageError
from ..conformance.probe import Report, probe
from ..safe_text import strip_controls
from .conformance_diff import as_json, compare, print_changes
from .context import credentials_for, extra_headers, make_tap, split_target
from .output import Out

if TYPE_CHECKING:
    from .groups.conformance import ConformanceOptions

DEFAULT_OP_TIMEOUT = 20.0


async def conformance(args: ConformanceOptions) -> int:
    reports = [await _report(args, args.agent)]
    if args.against:
        reports.append(await _report(args, args.against))
    out = Out()
    changes = compare(*reports) if len(reports) == 2 else []
    if args.output == "json":
        out.json_doc(as_json(reports[0], reports[1], changes) if len(reports) == 2 else reports[0].as_json())
    else:
        _text(reports[0])
        if len(reports) == 2:
            print(file=sys.stdout)
            _text(reports[1])
            print_changes(changes, _one_line)
    # Exit 1 when a check fails, or when the two agents behave differently (--against's job is to say so).
    return 1 if changes or any(r.failed for r in reports) else 0


async def _report(args: ConformanceOptions, ref: str) -> Report:
    from ..a2a.http import new_http_client

    args = replace(args, agent_card=None)  # the agent is `ref`, whatever -a said
    target = split_target(args, [ref], 0)
    if target.entry is not None and target.entry.protocol == "tasks":
        raise UsageError(
            f"{target.entry.name} speaks the REST task API, not A2A: there is no A2A conformance to check",
            hint="Name an A2A agent (one with an agent card).",
        )
    credentials = credentials_for(args, target.entry)
    tap = make_tap(args, target.entry)
    tap.redactor.add(*credentials.secrets)
    async with new_http_client() as http:
        report = await probe(
            target.ref,
            http=http,
            credentials=credentials,
            headers=extra_headers(args, target.entry),
            tap=tap,
            op_timeout=args.timeout or DEFAULT_OP_TIMEOUT,
        )
    report.agent = ref
    # Whatever the agent said goes through the redactor: an error message may echo a credential.
    for check in report.checks:
        check.detail = tap.redactor.text(strip_controls(check.detail))
        check.answered = tap.redactor.text(strip_controls(check.answered))
    report.name = strip_controls(report.name)
    return report


def _text(report: Report) -> None:
    print(f"Agent: {report.name}", file=sys.stdout)
    print(f"Card: {report.card_url}", file=sys.stdout)
    scenario_width = max(len(c.scenario) for c in report.checks)
    interface_width = max((len(c.interface) for c in report.checks), default=0)
    for check in report.checks:
        line = f"{check.outcome:<4}  {check.scenario:<{scenario_width}}  {check.interface or '-':<{interface_width}}"
        line += f"  {_one_line(check.detail)}"
        if check.outcome in ("fail", "warn") and check.section:
            line += f"  [{check.cited}]"
        print(line, file=sys.stdout)
        if check.outcome in ("fail", "warn") and check.sent:
            said = (
                f"      sent {check.sent}"
                + (f" over {check.interface}" if check.interface else "")
                + (f"; answered {_one_line(check.answered)}" if check.answered else "")
            )
            print(said, file=sys.stdout)
    counts = report.counts()
    summary = ", ".join(f"{n} {outcome}" for outcome, n in counts.items())
    print(f"Result: {'fail' if report.failed else 'pass'} ({summary})", file=sys.stdout)


def _one_line(text: str) -> str:
    """What an agent said, kept on its line: a newline in it cannot start a line of the report."""
    return " ".join(text.split("\n"))
