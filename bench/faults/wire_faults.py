"""Wire faults, many randomized trials each: a fault proxy between our client and the real demo writer.

    .venv/bin/python bench/faults/wire_faults.py [--quick] [--seed N] [--trials N]   (--trials 0: permanent faults only)

For each fault (cut, stall, 502/503, reset during the card fetch, truncated frame) and each flow (a
conversation turn, a one-step workflow), trials run until N of them had the fault really fire (a cut past
the end of a short stream does not). A trial is recovered when the turn ends at the agent's real final
state (read from the agent directly), the document is exactly what the writer composed, the message
reached the agent once, and the person was told. Lost: wrong final state or text. Leaked: a secret header
configured for the agent showed in a notice, note, error, wire-tap record or journal. Permanent faults
(503 forever, 404, nothing listening) must fail with a stable code and the URL within the retry bound.
The trials themselves live in tests/unit/fault_trials.py (the test suite runs a few fixed seeds).
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE.parents[1] / "tests" / "unit")]

from common import Row, run_standalone  # noqa: E402
from fault_trials import (  # noqa: E402
    TRANSIENT,
    Outcome,
    conversation_trial,
    permanent_faults,
    permanent_trial,
    refused_trial,
    workflow_permanent_trial,
    workflow_trial,
)

from switchboard.demo.base import DemoSettings  # noqa: E402
from switchboard.demo.fleet import start_in_background  # noqa: E402

TRIALS = 50
PERMANENT_TRIALS = 10
FLOWS = ("conversation", "workflow")


def _arg(name: str, default: int) -> int:
    if name in sys.argv:
        return int(sys.argv[sys.argv.index(name) + 1])
    return default


async def _series(url: str, fault: str, flow: str, wanted: int, first_seed: int, directory: Path) -> list[Outcome]:
    """Trials with consecutive seeds until `wanted` of them had the fault fire (at most 3x as many)."""
    outcomes: list[Outcome] = []
    seed = first_seed
    while sum(1 for o in outcomes if o.fired) < wanted and len(outcomes) < 3 * wanted:
        if flow == "conversation":
            outcome = await conversation_trial(url, fault, seed)
        else:
            outcome = await workflow_trial(url, fault, seed, directory / flow)
        outcomes.append(outcome)
        if not outcome.ok:
            print(f"  NOT RECOVERED {fault}/{flow} seed {seed}: {outcome.error} {outcome.plan}", file=sys.stderr)
        seed += 1
    return outcomes


def _tally(fault: str, flow: str, outcomes: list[Outcome]) -> dict[str, object]:
    fired = [o for o in outcomes if o.fired]
    return {
        "fault": fault,
        "flow": flow,
        "trials": len(fired),
        "recovered": sum(1 for o in fired if o.ok),
        "lost": sum(1 for o in fired if o.lost),
        "leaked": sum(1 for o in outcomes if o.leaked),
        "double": sum(1 for o in outcomes if o.invocations > 1),
        "unseen": sum(1 for o in fired if not o.seen),
        "faults fired": sum(o.fired for o in fired),
        "not fired": len(outcomes) - len(fired),
        "mean s": sum(o.seconds for o in outcomes) / max(1, len(outcomes)),
    }


def _print_tally(tallies: list[dict[str, object]]) -> None:
    head = list(tallies[0])
    cells = [[f"{t[h]:.2f}" if isinstance(t[h], float) else str(t[h]) for h in head] for t in tallies]
    widths = [max(len(h), *(len(c[i]) for c in cells)) for i, h in enumerate(head)]
    print("  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)))
    for row in cells:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)))


async def _run(url: str, trials: int, permanent_trials: int, base_seed: int) -> list[Row]:
    rows: list[Row] = []
    tallies: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory(prefix="wire-faults-") as tmp:
        for number, fault in enumerate(TRANSIENT if trials else ()):
            for flow in FLOWS:
                started = time.perf_counter()
                outcomes = await _series(url, fault, flow, trials, base_seed + 10_000 * number, Path(tmp))
                tally = _tally(fault, flow, outcomes)
                tallies.append(tally)
                print(
                    f"== {fault}/{flow}: {tally['recovered']}/{tally['trials']} recovered "
                    f"in {time.perf_counter() - started:.0f} s",
                    file=sys.stderr,
                    flush=True,
                )
                ok = tally["recovered"] == tally["trials"] and not tally["leaked"] and not tally["double"]
                rows.append(
                    Row(
                        f"wire fault {fault} ({flow})",
                        "% recovered",
                        100.0 * tally["recovered"] / max(1, tally["trials"]),
                        goal="100%, 0 lost/leaked/double",
                        met=bool(ok and tally["trials"] >= trials),
                        notes=[
                            ", ".join(f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}" for k, v in tally.items())
                        ],
                    )
                )
    results: Counter[str] = Counter()
    failures: dict[str, str] = {}
    for case in permanent_faults():
        for _ in range(permanent_trials):
            ok, what = await permanent_trial(url, case)
            results[case.name] += ok
            if not ok:
                failures[case.name] = what
    cases = [c.name for c in permanent_faults()] + ["nothing listening", "workflow step, send 503 forever"]
    with tempfile.TemporaryDirectory(prefix="wire-faults-") as tmp:
        for i in range(permanent_trials):
            for name, trial in (
                ("nothing listening", refused_trial()),
                ("workflow step, send 503 forever", workflow_permanent_trial(url, Path(tmp) / str(i))),
            ):
                ok, what = await trial
                results[name] += ok
                if not ok:
                    failures[name] = what
    for name in cases:
        rows.append(
            Row(
                f"permanent fault: {name}",
                "% stable code + URL",
                100.0 * results[name] / permanent_trials,
                goal="100%",
                met=results[name] == permanent_trials,
                notes=[f"trials {permanent_trials}, as expected {results[name]}"]
                + ([f"last miss: {failures[name]}"] if name in failures else []),
            )
        )
    if tallies:
        print(f"\nwire-fault tally (base seed {base_seed}; a trial counts when its fault fired):")
        _print_tally(tallies)
        print()
    return rows


def main(quick: bool = False) -> list[Row]:
    trials = _arg("--trials", 3 if quick else TRIALS)
    permanent_trials = 2 if quick else PERMANENT_TRIALS
    base_seed = _arg("--seed", int(time.time()) % 1_000_000)
    fleet = start_in_background(first_port=0, settings=DemoSettings(writer_pace_ms=4), write_file=False)
    try:
        return asyncio.run(_run(fleet.agent("writer").url, trials, permanent_trials, base_seed))
    finally:
        fleet.stop()


if __name__ == "__main__":
    run_standalone(main, "wire_faults")
