"""Output into a pipe whose reader went away (`switchboard ... | head -1`) ends quietly, as Unix tools do."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from transcripts import ROOT

REPO = Path(__file__).resolve().parents[3]


def test_a_reader_that_closes_the_pipe_early_gets_no_error_and_exit_141(tmp_path):
    card = json.loads((ROOT / "v10-jsonrpc/v10-01-agent-card.json").read_text())
    card["description"] = "x" * 3_000_000  # far more than a pipe's buffer
    path = tmp_path / "card.json"
    path.write_text(json.dumps(card))
    env = {**os.environ, "SWITCHBOARD_HOME": str(tmp_path), "PYTHONPATH": str(REPO / "src")}
    process = subprocess.Popen(
        [sys.executable, "-m", "switchboard", "card", "get", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert process.stdout.read(5) == b"Name:"
    process.stdout.close()
    stderr = process.stderr.read().decode()
    process.stderr.close()
    assert process.wait(timeout=60) == 141
    assert stderr == ""  # not "unexpected BrokenPipeError ... A2ACLI_ERR_INTERNAL"


@pytest.mark.parametrize(
    "argv", [["runs", "list"], ["runs", "list", "-o", "json"], ["--help"], ["send", "--help"], ["--version"]]
)
def test_every_command_into_a_pipe_whose_reader_is_gone_ends_quietly(tmp_path, argv):
    read_end, write_end = os.pipe()
    os.close(read_end)  # `| head -1` that has read its line and left before anything came
    env = {**os.environ, "SWITCHBOARD_HOME": str(tmp_path)}
    try:
        done = subprocess.run(
            [sys.executable, "-m", "switchboard", *argv], stdout=write_end, stderr=subprocess.PIPE, env=env, timeout=60
        )
    finally:
        os.close(write_end)
    assert done.stderr.decode() == ""
    assert done.returncode in (0, 141)
