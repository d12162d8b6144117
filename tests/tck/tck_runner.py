"""Run the vendored official TCK (tests/tck/vendor, pinned in its README) against agents, each over one transport, in
a pytest of its own: its own rootdir and conftest, none of our plugins, only the tests the cross-check compares
(areas.py). Several agents go through one process one after another (tck_driver.py), so the interpreter and the
TCK's imports are paid once per process, not once per agent. The result: each kept TCK test's verdict, by node id."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from areas import TCK_FILES, tck_keys

HERE = Path(__file__).resolve().parent
VENDOR = HERE / "vendor"
TRANSPORTS = {"JSONRPC": "jsonrpc", "HTTP+JSON": "http_json"}  # our binding -> the TCK's --transport
RUN_TIMEOUT = 240.0  # a run of several agents takes seconds; the bound only matters on a loaded machine

Verdicts = dict[str, dict[str, str]]  # node id -> {outcome, level, reason}


class TckRunError(RuntimeError):
    """The TCK did not run to its end (not: it found failures)."""


@dataclass(frozen=True)
class Job:
    sut_host: str  # where its card is: SUT_HOST/.well-known/agent-card.json
    binding: str  # "JSONRPC", "HTTP+JSON": the TCK tests the card's first interface of it


def pytest_args(job: Job) -> list[str]:
    return [
        *TCK_FILES,
        f"--sut-host={job.sut_host.rstrip('/')}",
        f"--transport={TRANSPORTS[job.binding]}",
        "-p",
        "tck_plugin",
        "-p",
        "no:cacheprovider",
        "-p",
        "no:unraisableexception",  # it runs the garbage collector five times at each session's end
        "-q",
        "--tb=line",
        "-W",
        "ignore::pytest.PytestConfigWarning",  # the TCK's pyproject sets asyncio_mode for a plugin it does not use
    ]


async def run_tck(jobs: list[Job]) -> list[Verdicts]:
    """The TCK's verdicts on each job's agent, in order, from one process that runs them one after another."""
    with tempfile.TemporaryDirectory(prefix="tck-") as scratch:
        outs = [Path(scratch) / f"verdicts-{n}.json" for n in range(len(jobs))]
        plan = [{"args": pytest_args(job), "out": str(out)} for job, out in zip(jobs, outs, strict=True)]
        env = {
            **os.environ,
            "PYTHONPATH": str(HERE),  # tck_plugin; the TCK's own packages come from its folder (the cwd)
            "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",  # none of the plugins our venv holds (xdist, textual's, ...)
            "TCK_SELECT": json.dumps(tck_keys()),
        }
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            str(HERE / "tck_driver.py"),
            json.dumps(plan),
            cwd=VENDOR,
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        hosts = ", ".join(f"{job.sut_host} ({job.binding})" for job in jobs)
        try:
            said, _ = await asyncio.wait_for(process.communicate(), RUN_TIMEOUT)
        except TimeoutError:
            process.kill()
            await process.wait()
            raise TckRunError(f"the TCK on {hosts} did not end within {RUN_TIMEOUT:g} s") from None
        text = said.decode(errors="replace")
        codes = [line.split()[1] for line in text.splitlines() if line.startswith("EXIT ")]
        # pytest's exit codes: 0 all passed, 1 some failed; anything else is a run that went wrong
        if process.returncode != 0 or codes != [c for c in codes if c in ("0", "1")] or len(codes) != len(jobs):
            raise TckRunError(f"the TCK on {hosts} went wrong (exit codes {codes}):\n{text[-3000:]}")
        return [json.loads(out.read_text(encoding="utf-8")) for out in outs]
