"""A served workflow whose step's agent is reached over gRPC, served by `switchboard serve` in its own process, so
on uvloop (the `fast` extra, which make test installs): grpc.aio's calls run on that loop. The served task asks the
delegate's question, and the caller's answer completes it."""

from __future__ import annotations

import pytest
from serve_support import cli, fields, start_serve

pytestmark = pytest.mark.interop

GREET = """\
version: 1
name: greet
agents:
  - name: ref
    url: {url}
steps:
  - name: greet
    agent: ref
    task: hi
outputs:
  greeting: "{{{{steps.greet.output}}}}"
"""


@pytest.mark.parametrize("kind", ["sdk13-grpc", "js-grpc"])
def test_a_served_workflows_grpc_delegate_asks_and_the_callers_answer_completes_it(kind, server_pool, tmp_path):
    server = server_pool.get(kind)
    flow = tmp_path / "greet.yaml"
    flow.write_text(GREET.format(url=server.url))
    served = start_serve(tmp_path / "serve-home", None, str(flow), "--port", "0")
    try:
        url = served.url("greet")
        asked = cli(tmp_path, "send", url, "hi")
        assert asked.returncode == 0, asked.stderr
        task = fields(asked.stdout)
        assert task["State"] == "input-required", asked.stdout + "".join(served.stderr)
        done = cli(tmp_path, "send", url, "--task-id", task["Task ID"], "--context-id", task["Context ID"], "Grace")
        assert done.returncode == 0, done.stderr
        assert fields(done.stdout)["State"] == "completed", done.stdout
        assert "Hello, Grace! Nice to meet you." in done.stdout
    finally:
        served.interrupt()
