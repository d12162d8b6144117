"""Run the vendored TCK's pytest several times in one process, one agent after another: the interpreter, pytest,
grpc, protobuf and the TCK's modules are loaded once, not once per agent. Started by tck_runner.py in the TCK's
folder, with the jobs as JSON in argv[1]: [{"args": [pytest arguments], "out": where its verdicts go}]; prints
each run's pytest exit code, one line each, as `EXIT <code>`."""

from __future__ import annotations

import json
import os
import sys

import pytest


def share_one_tls_context() -> None:
    """The TCK opens an httpx client per call, and httpx loads the CA bundle for each (45 ms of CPU apiece) though
    every agent here is plain HTTP on 127.0.0.1: one context, loaded once, serves them all."""
    import httpx._transports.default as transports  # httpx's own, private: without it, each loads its own

    made = getattr(transports, "create_ssl_context", None)
    if made is not None:
        shared = made()
        transports.create_ssl_context = lambda *args, **kwargs: shared  # type: ignore[attr-defined]


if __name__ == "__main__":
    sys.path.insert(0, os.getcwd())  # the TCK's packages (tck, specification, tests) live in its folder, the cwd
    share_one_tls_context()
    for job in json.loads(sys.argv[1]):
        os.environ["TCK_OUT"] = job["out"]
        code = pytest.main(job["args"])
        print(f"EXIT {int(code)}", flush=True)
