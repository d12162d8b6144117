"""Run the vendored TCK's pytest several times in one process, one agent after another: the interpreter, pytest,
grpc, protobuf and the TCK's modules are loaded once, not once per agent. Started by tck_runner.py in the TCK's
folder, with the jobs as JSON in argv[1]: [{"args": [pytest arguments], "out": where its verdicts go}]; prints
each run's pytest exit code, one line each, as `EXIT <code>`."""

from __future__ import annotations

import json
import os
import sys

import pytest

if __name__ == "__main__":
    sys.path.insert(0, os.getcwd())  # the TCK's packages (tck, specification, tests) live in its folder, the cwd
    for job in json.loads(sys.argv[1]):
        os.environ["TCK_OUT"] = job["out"]
        code = pytest.main(job["args"])
        print(f"EXIT {int(code)}", flush=True)
