"""An empty or blank message is refused before anything is sent (the agent would answer it with an error)."""

from __future__ import annotations

import json

import pytest


@pytest.mark.parametrize("text", ["", "   ", "\n\t"])
def test_an_empty_message_is_refused_before_anything_is_sent(cli, text):
    for extra in ([text], ["--text", text]):
        run = cli("send", "echo", *extra, "--verbose", "-o", "json")
        assert run.returncode == 2, run.stderr
        error = json.loads(run.stdout)["error"]
        assert error["code"] == "A2ACLI_ERR_USAGE" and error["message"].startswith("the message is")
        assert "POST" not in run.stderr and "GET" not in run.stderr  # no request at all
