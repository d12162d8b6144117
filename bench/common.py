"""What every benchmark shares: one row shape, the speed-factor arithmetic, and the table.

Each bench module exposes `main(quick: bool = False) -> list[Row]` and runs alone as a script too.
A speed factor above 1 means ours is faster than what it is measured beside, whatever the unit.
"""

from __future__ import annotations

import json
import os
import resource
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parent
CACHE = BENCH_DIR / ".cache"  # recorded streams, the peer's venv: rebuilt when missing, never committed
# The switchboard measured: this checkout's, or another tree's (BENCH_SRC=DIR: the same bench over older code,
# for a before/after in one harness). bench/run.py puts it first on this process's path too.
SRC = Path(os.environ.get("BENCH_SRC") or ROOT / "src").resolve()
# Bytecode caches, as an installed package has them: without them every fresh process compiles every module it
# imports again (PYTHONDONTWRITEBYTECODE=1 in a developer's shell made `--help` 1.5x slower). Kept under .cache.
PYCACHE = CACHE / "pycache"


@dataclass
class Row:
    bench: str  # "ingest v1.0"
    measure: str  # "events/s", "seconds", "ms p95 lag", "MB peak"
    ours: float | None
    peer: float | None = None  # what a user would pick instead
    floor: float | None = None  # the physical limit
    peer_name: str = ""
    floor_name: str = ""
    higher_is_better: bool = True
    goal: str = ""
    met: bool | None = None  # None: this row has no goal of its own
    notes: list[str] = field(default_factory=list)

    def factor(self, other: float | None) -> float | None:
        """How many times faster (or better) ours is than `other`."""
        if other is None or self.ours is None or other == 0 or self.ours == 0:
            return None
        return self.ours / other if self.higher_is_better else other / self.ours


def fmt(value: float | None) -> str:
    if value is None:
        return "-"
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}"
    return f"{value:.3g}"


def fmt_factor(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}x"


def table(rows: list[Row]) -> str:
    head = ["benchmark", "measure", "ours", "peer", "floor", "vs peer", "vs floor", "goal", "met"]
    body = [
        [
            r.bench,
            r.measure,
            fmt(r.ours),
            f"{fmt(r.peer)} {r.peer_name}".strip() if r.peer is not None else "-",
            f"{fmt(r.floor)} {r.floor_name}".strip() if r.floor is not None else "-",
            fmt_factor(r.factor(r.peer)),
            fmt_factor(r.factor(r.floor)),
            r.goal or "-",
            {True: "yes", False: "NO", None: "-"}[r.met],
        ]
        for r in rows
    ]
    widths = [max(len(str(x)) for x in col) for col in zip(head, *body, strict=False)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True))]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) for row in body]
    notes = [f"  {r.bench}: {n}" for r in rows for n in r.notes]
    if notes:
        lines += ["", "notes:", *notes]
    return "\n".join(lines)


def peak_rss_mb() -> float:
    """This process's peak resident set size so far, in MB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def save(rows: list[Row], name: str) -> Path:
    """Keep the last result of each bench, so a change can be compared with the run before it."""
    CACHE.mkdir(exist_ok=True)
    path = CACHE / f"{name}.json"
    path.write_text(json.dumps([asdict(r) for r in rows], indent=2))
    return path


def venv_python() -> str:
    return sys.executable


def env_with_src() -> dict[str, str]:
    """Environment for child processes that must import this checkout's switchboard."""
    env = bytecode_env(dict(os.environ))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH")]))
    return env


def bytecode_env(env: dict[str, str]) -> dict[str, str]:
    """`env` with bytecode caches on (under bench/.cache/pycache), for every process a bench starts."""
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(PYCACHE)
    return env


def use_src() -> None:
    """Import the measured switchboard (SRC) in this process too, and give this process's children caches."""
    if str(SRC) not in sys.path:
        sys.path.insert(0, str(SRC))
    bytecode_env(os.environ)  # type: ignore[arg-type]


def run_standalone(main, name: str) -> None:
    """`python bench/<name>.py [--quick]`: run one bench and print its table."""
    rows = main(quick="--quick" in sys.argv)
    save(rows, name)
    print(table(rows))


use_src()
