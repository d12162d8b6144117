"""`run --temporal --follow --exit-status`: the run's end on the Temporal server gives the exit code, as a local
run's does (a dev server, real workers, the demo fleet)."""

from __future__ import annotations

import json

from workflow_support import run_cli


def test_a_followed_run_that_failed_exits_1_with_exit_status_and_0_without(home, agents_file, workers):
    path = home / "fails.yaml"
    path.write_text("name: fails\nagents: [flaky]\nsteps:\n  - {name: f, agent: flaky, task: fail}\n")
    argv = ["run", str(path), "--temporal", workers.address, "--task-queue", workers.queue, "--follow", "-o", "json"]
    default = run_cli(home, agents_file, *argv)
    assert default.returncode == 0 and json.loads(default.stdout)["run"]["status"] == "failed", default.stderr
    strict = run_cli(home, agents_file, *argv, "--exit-status")
    run = json.loads(strict.stdout)["run"]
    assert strict.returncode == 1 and run["status"] == "failed", strict.stderr
    assert f"the run {run['runId']} ended failed, not completed: exit 1 (--exit-status)" in strict.stderr
