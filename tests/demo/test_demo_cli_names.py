"""A word that names no agent of the agents file is not taken for a host: a typo is a usage error that lists
the names the file has, and says the closest."""

from __future__ import annotations

from demo_support import fields


def test_a_typo_in_an_agent_name_is_a_usage_error_not_a_host_lookup(cli, demo):
    run = cli("send", "ehco", "hi")
    assert run.returncode == 2
    said = fields(run.stderr)
    assert said["Error"] == f"no agent named 'ehco' in {demo.agents_file}"
    assert said["Hint"].startswith("Did you mean echo? The agents in ")
