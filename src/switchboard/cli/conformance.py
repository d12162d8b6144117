"""`switchboard conformance AGENT [--against CANDIDATE]`: the conformance report as text (one line per check) or
one JSON document; exit 1 when a check fails (the tool did its job, and the job was to judge)."""

from __future__ import annotations

import sys
from dataclasses import replace
from typing import TYPE_CHECKING

from ..a2a.conformance import Report, probe
from ..a2a.errors import UsageError
from ..safe_text import strip_controls
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
    if args.output == "json":
        doc = reports[0].as_json()
        if len(reports) == 2:
            doc = {"baseline": doc, "candidate": reports[1].as_json(), "changes": compare(*reports)}
        out.json_doc(doc)
    else:
        _text(reports[0])
        if len(reports) == 2:
            print(file=sys.stdout)
            _text(reports[1])
            _changes(compare(*reports))
    return 1 if any(r.failed for r in reports) else 0


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
    report.name = strip_controls(report.name)
    return report


def _text(report: Report) -> None:
    print(f"Agent: {report.name}", file=sys.stdout)
    print(f"Card: {report.card_url}", file=sys.stdout)
    scenario_width = max(len(c.scenario) for c in report.checks)
    interface_width = max((len(c.interface) for c in report.checks), default=0)
    for check in report.checks:
        line = f"{check.outcome:<4}  {check.scenario:<{scenario_width}}  {check.interface or '-':<{interface_width}}"
        line += f"  {check.detail}"
        if check.outcome in ("fail", "warn") and check.section:
            line += f"  [{check.section}]"
        print(line, file=sys.stdout)
    counts = report.counts()
    summary = ", ".join(f"{n} {outcome}" for outcome, n in counts.items())
    print(f"Result: {'fail' if report.failed else 'pass'} ({summary})", file=sys.stdout)


def compare(baseline: Report, candidate: Report) -> list[dict[str, str]]:
    """Scenario by scenario (and interface), where the candidate's result differs from the baseline's."""
    before = {(c.scenario, c.interface): c for c in baseline.checks if c.scenario != "card lint"}
    after = {(c.scenario, c.interface): c for c in candidate.checks if c.scenario != "card lint"}
    changes = []
    for key in [*before, *(k for k in after if k not in before)]:
        old, new = before.get(key), after.get(key)
        was, now = (old.outcome if old else "absent"), (new.outcome if new else "absent")
        if was != now:
            detail = new.detail if new else old.detail if old else ""
            changes.append(
                {"scenario": key[0], "interface": key[1], "baseline": was, "candidate": now, "detail": detail}
            )
    return changes


def _changes(changes: list[dict[str, str]]) -> None:
    print(file=sys.stdout)
    if not changes:
        print("Changes: none (every scenario has the same result)", file=sys.stdout)
        return
    print(f"Changes: {len(changes)}", file=sys.stdout)
    for change in changes:
        where = f" over {change['interface']}" if change["interface"] else ""
        print(
            f"  {change['scenario']}{where}: {change['baseline']} -> {change['candidate']}  {change['detail']}",
            file=sys.stdout,
        )
