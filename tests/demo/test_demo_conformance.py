"""`switchboard conformance` on every A2A agent of the demo fleet (official a2a-sdk servers): each passes, over both
wire versions its card offers; the REST task API agent is refused with what to do instead."""

from __future__ import annotations

import json

import pytest
from demo_support import API_KEY

A2A_AGENTS = ["echo", "writer", "interviewer", "researcher", "gatekeeper", "flaky", "legacy"]


@pytest.mark.parametrize("name", A2A_AGENTS)
def test_every_demo_agent_passes(cli, name):
    done = cli("conformance", name, "-o", "json", env={"SWITCHBOARD_DEMO_KEY": API_KEY}, timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr
    doc = json.loads(done.stdout)
    assert doc["result"] == "pass" and doc["summary"]["fail"] == 0
    interfaces = {c["interface"] for c in doc["checks"] if c["interface"]}
    assert interfaces == ({"JSON-RPC 0.3"} if name == "legacy" else {"JSON-RPC 1.0", "JSON-RPC 0.3"})
    assert API_KEY not in done.stdout


def test_the_rest_task_api_agent_is_not_probed(cli):
    done = cli("conformance", "tasks")
    assert done.returncode == 2 and "REST task API, not A2A" in done.stderr
