"""`make bench`: every benchmark in one run, one table.

python bench/run.py [--quick] [--only NAME ...]
    (NAME: ingest, ingest_grpc, flood, fanout, serve, startup, runs_index, temporal_scale, mcp_call)
"""

from __future__ import annotations

import importlib
import sys
import time

from common import Row, save, table

BENCHES = ["ingest", "ingest_grpc", "flood", "fanout", "serve", "startup", "runs_index", "temporal_scale", "mcp_call"]


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    only = [a for a in argv if not a.startswith("-")] if "--only" in argv else []
    rows: list[Row] = []
    for name in BENCHES:
        if only and name not in only:
            continue
        started = time.perf_counter()
        print(f"== {name} ...", file=sys.stderr, flush=True)
        module = importlib.import_module(name)
        these = module.main(quick=quick)
        save(these, name)
        rows += these
        print(f"== {name} done in {time.perf_counter() - started:.1f} s", file=sys.stderr, flush=True)
    print(table(rows))
    missed = [r for r in rows if r.met is False]
    if missed:
        print(f"\n{len(missed)} goal(s) not met.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
