"""`switchboard conformance` beside the official TCK on the same agents: the verdict of each on every area
(areas.py), and where the two disagree. Run as a script, it starts the agents (the a2a-sdk 1.3 and @a2a-js/sdk
reference servers of tests/interop, and the spec-breaking agent with each of its modes), runs both, and prints the
agreement table:

    .venv/bin/python tests/tck/agreement.py            # the table
    .venv/bin/python tests/tck/agreement.py --markdown # the same, for docs/conformance-vs-tck.md

test_tck_agreement.py runs the same and asserts that the two agree wherever both judge, but for the disagreements
listed in known_disagreements.py (and docs/conformance-vs-tck.md, with the reason for each)."""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

HERE = Path(__file__).resolve().parent
for folder in (HERE, HERE.parent / "interop", HERE.parent.parent / "src"):  # as a script, from any directory
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from areas import AREAS, Area  # noqa: E402
from broken_agent import MODES, broken_agent  # noqa: E402
from known_disagreements import KNOWN  # noqa: E402
from tck_runner import Job, run_tck  # noqa: E402

from switchboard.a2a.http import new_http_client  # noqa: E402
from switchboard.conformance.probe import probe  # noqa: E402
from switchboard.conformance.report import Check, Report  # noqa: E402

Verdict = Literal["pass", "warn", "fail"] | None
_RANK = {"pass": 0, "warn": 1, "fail": 2}
# tests/interop/servers.py kinds: v1.0 cards, merged with v0.3 (sdk13-rest: HTTP+JSON only, under /rest)
SDK_SERVERS = {"sdk13": "sdk13-v10", "sdk13-rest": "sdk13-rest", "js": "js-v10"}


@dataclass(frozen=True)
class Column:
    """One agent over one binding: the TCK tests the card's first interface of the binding (at 1.0 here), and so
    do we (our other interfaces, v0.3 ones, are not compared: the TCK does not speak v0.3)."""

    name: str  # "sdk13 JSON-RPC", "broken:pondering"
    agent: str  # what started it: "sdk13", "js", "broken"
    binding: str  # "JSONRPC", "HTTP+JSON"
    path: str = ""  # the agent's path under its server's base URL ("pondering/")


COLUMNS = (
    Column("sdk13 JSON-RPC", "sdk13", "JSONRPC"),
    Column("sdk13 HTTP+JSON", "sdk13-rest", "HTTP+JSON"),
    Column("js JSON-RPC", "js", "JSONRPC"),
    Column("js HTTP+JSON", "js", "HTTP+JSON"),
    Column("broken", "broken", "JSONRPC"),
    *(Column(f"broken:{mode}", "broken", "JSONRPC", f"{mode}/") for mode in MODES),
)


@dataclass
class Result:
    """Both sides' verdicts, by (area, column name), and how long each side took per column."""

    ours: dict[tuple[str, str], Verdict] = field(default_factory=dict)
    tck: dict[tuple[str, str], Verdict] = field(default_factory=dict)
    why: dict[tuple[str, str], str] = field(default_factory=dict)  # what each side said where it did not pass
    seconds: dict[str, tuple[float, float]] = field(default_factory=dict)  # column -> (ours, the TCK)

    def disagreements(self) -> set[tuple[str, str]]:
        """The (area, column) pairs both judge and judge differently."""
        return {
            key for key, ours in self.ours.items() if ours and (tck := self.tck.get(key)) and tck != ours
        }  # fmt: skip

    def both_judge(self) -> set[tuple[str, str]]:
        return {key for key, ours in self.ours.items() if ours and self.tck.get(key)}


def _worst(verdicts: Iterator[Verdict]) -> Verdict:
    found = [v for v in verdicts if v]
    return max(found, key=_RANK.__getitem__) if found else None


def _judges(area: Area, check: Check) -> bool:
    tck = check.requirement.tck if check.requirement else ""
    return (tck and tck in area.ours) or check.scenario in area.ours


def our_verdicts(report: Report, binding: str) -> dict[str, tuple[Verdict, str]]:
    """Each area's verdict from our findings on the card and on the binding's v1.0 interface."""
    mine = [c for c in report.checks if c.binding in ("", binding) and c.version in ("", "1.0")]
    out: dict[str, tuple[Verdict, str]] = {}
    for area in AREAS:
        judged = [c for c in mine if c.outcome != "skip" and _judges(area, c)]
        verdict = _worst(c.outcome for c in judged)  # type: ignore[misc]
        said = "; ".join(f"{c.scenario}: {c.detail}" for c in judged if c.outcome == verdict and verdict != "pass")
        out[area.name] = (verdict, said)
    return out


def _tck_verdict(verdict: dict[str, str]) -> Verdict:
    outcome = verdict["outcome"]
    if outcome == "passed":
        return "pass"
    if outcome in ("failed", "xfailed"):  # the TCK fails a SHOULD as an xfail, or as a failure at SHOULD level
        return "fail" if outcome == "failed" and verdict["level"] == "MUST" else "warn"
    return None  # skipped: not judged (another transport, a capability not declared, its own SUT's scripts)


def tck_verdicts(verdicts: dict[str, dict[str, str]]) -> dict[str, tuple[Verdict, str]]:
    out: dict[str, tuple[Verdict, str]] = {}
    for area in AREAS:
        tests = {node: v for node, v in verdicts.items() if any(key in node for key in area.tck)}
        verdict = _worst(_tck_verdict(v) for v in tests.values())
        said = "; ".join(
            f"{node.rsplit('::', 1)[-1]}: {v['reason']}" for node, v in tests.items() if _tck_verdict(v) == verdict
        )
        out[area.name] = (verdict, said if verdict != "pass" else "")
    return out


async def _ours(column: Column, url: str, result: Result) -> None:
    started = time.monotonic()
    async with new_http_client() as http:
        report = await probe(url, http=http)
    result.seconds[column.name] = (time.monotonic() - started, 0.0)
    for name, (verdict, said) in our_verdicts(report, column.binding).items():
        result.ours[(name, column.name)] = verdict
        result.why[(name, column.name)] = f"ours: {said}" if said else ""


async def _theirs(columns: list[Column], urls: dict[str, str], result: Result) -> None:
    started = time.monotonic()
    runs = await run_tck([Job(urls[c.agent] + c.path, c.binding) for c in columns])
    took = (time.monotonic() - started) / len(columns)  # one process ran them in turn: each its share
    for column, verdicts in zip(columns, runs, strict=True):
        result.seconds[column.name] = (result.seconds[column.name][0], took)
        for name, (verdict, said) in tck_verdicts(verdicts).items():
            result.tck[(name, column.name)] = verdict
            if said:
                result.why[(name, column.name)] += ("\n" if result.why[(name, column.name)] else "") + f"TCK: {said}"


def tck_groups(columns: tuple[Column, ...], broken_processes: int = 2) -> list[list[Column]]:
    """The TCK's runs, one process per group: each SDK agent's column alone (their tasks take a while), the broken
    agent's modes (quick) shared among `broken_processes`."""
    groups = [[c] for c in columns if c.agent != "broken"]
    broken = [c for c in columns if c.agent == "broken"]
    return groups + [broken[n::broken_processes] for n in range(broken_processes) if broken[n::broken_processes]]


async def compare(urls: dict[str, str], columns: tuple[Column, ...] = COLUMNS) -> Result:
    """Both sides on every column; `urls` gives each agent's base URL (with a trailing slash). Ours first, on every
    column at once, then the TCK's processes side by side: the spec-breaking agent keeps a little state per mode
    (whether its task was canceled), which the two must not share."""
    result = Result()
    await asyncio.gather(*(_ours(c, urls[c.agent] + c.path, result) for c in columns))
    await asyncio.gather(*(_theirs(group, urls, result) for group in tck_groups(columns)))
    return result


@contextmanager
def agents() -> Iterator[dict[str, str]]:
    """The agents the columns name, started on free ports: {agent: base URL}."""
    from servers import start_server

    with ExitStack() as stack:
        urls = {"broken": stack.enter_context(broken_agent())}
        for agent, kind in SDK_SERVERS.items():
            server = start_server(kind)
            stack.callback(server.stop)
            urls[agent] = server.url
        yield urls


_CELL = {"pass": "P", "warn": "W", "fail": "F", None: "-"}


def table(result: Result, columns: tuple[Column, ...] = COLUMNS, markdown: bool = False) -> str:
    """Areas down, columns across; each cell `ours/TCK` (P pass, W warn: a SHOULD broken, F fail: a MUST broken,
    - not judged), marked `!` where both judge and disagree."""
    heads = [c.name.removeprefix("broken:") for c in columns]
    rows = []
    for area in AREAS:
        cells = []
        for column in columns:
            key = (area.name, column.name)
            ours, tck = result.ours.get(key), result.tck.get(key)
            cells.append(f"{_CELL[ours]}/{_CELL[tck]}" + ("!" if key in result.disagreements() else ""))
        rows.append([area.name, *cells])
    if markdown:
        lines = ["| area | " + " | ".join(heads) + " |", "|---" * (len(heads) + 1) + "|"]
        return "\n".join([*lines, *("| " + " | ".join(row) + " |" for row in rows)])
    width = max(len(a.name) for a in AREAS)
    head = " " * width + "  " + " ".join(f"{i:>4}" for i in range(1, len(heads) + 1))
    legend = "\n".join(f"  {i:>2} {name}" for i, name in enumerate(heads, 1))
    body = "\n".join(f"{row[0]:<{width}}  " + " ".join(f"{cell:>4}" for cell in row[1:]) for row in rows)
    return f"columns:\n{legend}\n\n{head}\n{body}"


def summary(result: Result) -> str:
    both = result.both_judge()
    differ = result.disagreements()
    agree = len(both) - len(differ)
    return f"both judge {len(both)} (area, agent) pairs; they agree on {agree}, differ on {len(differ)}"


def main(argv: list[str]) -> int:
    markdown = "--markdown" in argv
    with agents() as urls:
        started = time.monotonic()
        result = asyncio.run(compare(urls))
        took = time.monotonic() - started
    print(table(result, markdown=markdown))
    print()
    print(summary(result))
    for key in sorted(result.disagreements()):
        if markdown:  # the form docs/conformance-vs-tck.md lists them in, with the reason known_disagreements.py has
            print(f"- **{key[0]}** on `{key[1]}`: {KNOWN.get(key, 'NOT DOCUMENTED')}")
        else:
            print(f"\n! {key[0]} on {key[1]}:\n  " + result.why[key].replace("\n", "\n  "))
    print("\nseconds per column (conformance, the TCK's share of its process):")
    for name, (ours, tck) in result.seconds.items():
        print(f"  {name:<28} {ours:5.1f} {tck:5.1f}")
    print(f"everything, side by side: {took:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
