"""The agents file: entries, ${VAR} interpolation, tolerated mistakes as warnings, broken YAML as a usage error."""

from __future__ import annotations

from pathlib import Path

import pytest

from switchboard.a2a.errors import UsageError
from switchboard.agents import load_agents


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "agents.yaml"
    path.write_text(text, encoding="utf-8")
    return path


FULL = """\
agents:
  - name: writer
    url: http://127.0.0.1:9102/
    apiKeyEnv: WRITER_KEY
    headers:
      X-Team: "${TEAM}"
      X-Trace: "run-${RUN_ID}-x"
      X-Plain: fixed
  - name: reviewer
    url: http://127.0.0.1:9103/
    auth: {scheme: bearer, env: REVIEWER_TOKEN}
  - name: keyed
    url: http://127.0.0.1:9104/
    auth: {scheme: apiKey, env: KEYED_KEY}
  - name: tasks-agent
    url: http://127.0.0.1:9105
    protocol: tasks
  - name: rested
    url: http://127.0.0.1:9106/
    binding: REST
"""


def test_a_full_file_reads_every_field(tmp_path):
    registry = load_agents(write(tmp_path, FULL), env={"TEAM": "blue-team", "RUN_ID": "42"})
    assert registry.warnings == []
    assert [a.name for a in registry.agents] == ["writer", "reviewer", "keyed", "tasks-agent", "rested"]

    writer = registry.find("writer")
    assert writer is not None
    assert writer.url == "http://127.0.0.1:9102/" and writer.protocol == "a2a"
    assert writer.api_key_env == "WRITER_KEY" and writer.bearer_env is None
    assert writer.headers == {"X-Team": "blue-team", "X-Trace": "run-42-x", "X-Plain": "fixed"}

    reviewer = registry.find("reviewer")
    assert reviewer is not None and reviewer.bearer_env == "REVIEWER_TOKEN" and reviewer.api_key_env is None

    keyed = registry.find("keyed")
    assert keyed is not None and keyed.api_key_env == "KEYED_KEY" and keyed.bearer_env is None

    tasks = registry.find("tasks-agent")
    assert tasks is not None and tasks.protocol == "tasks"
    assert writer.binding is None and registry.find("rested").binding == "rest"  # the card chooses, unless forced


def test_an_unknown_binding_warns_and_leaves_the_choice_to_the_card(tmp_path):
    registry = load_agents(write(tmp_path, "agents:\n  - {name: g, url: http://h/, binding: soap}\n"))
    assert registry.find("g").binding is None
    assert registry.warnings == [
        f"{tmp_path / 'agents.yaml'} line 2: agents[0] (g): "
        "binding 'soap' is unknown (jsonrpc, rest or grpc); the card chooses"
    ]


def test_the_file_holds_variable_names_never_their_values(tmp_path):
    registry = load_agents(write(tmp_path, FULL), env={"WRITER_KEY": "wk-secret", "REVIEWER_TOKEN": "rt-secret"})
    entry_text = repr(registry.agents)
    assert "wk-secret" not in entry_text and "rt-secret" not in entry_text


def test_interpolated_values_are_listed_for_redaction(tmp_path):
    registry = load_agents(write(tmp_path, FULL), env={"TEAM": "blue-team", "RUN_ID": "42"})
    writer = registry.find("writer")
    assert writer is not None
    assert sorted(writer.interpolated) == ["42", "blue-team"]
    assert "interpolated" not in repr(writer)  # kept out of reprs: they may be secrets


def test_an_unset_variable_warns_and_becomes_empty(tmp_path):
    path = write(tmp_path, "agents:\n  - name: a\n    url: http://h/\n    headers: {X-Team: 'team=${TEAM}'}\n")
    registry = load_agents(path, env={})
    agent = registry.find("a")
    assert agent is not None and agent.headers == {"X-Team": "team="}
    assert agent.interpolated == []
    assert len(registry.warnings) == 1
    assert "${TEAM}" in registry.warnings[0] and "not set" in registry.warnings[0]


def test_a_variable_set_to_empty_is_empty_without_a_warning_and_not_listed(tmp_path):
    path = write(tmp_path, "agents:\n  - name: a\n    url: http://h/\n    headers: {X-Team: '${TEAM}'}\n")
    registry = load_agents(path, env={"TEAM": ""})
    agent = registry.find("a")
    assert agent is not None and agent.headers == {"X-Team": ""}
    assert registry.warnings == [] and agent.interpolated == []


def test_the_url_is_interpolated_too(tmp_path):
    path = write(tmp_path, "agents:\n  - name: a\n    url: 'http://${HOST}:9101/'\n")
    agent = load_agents(path, env={"HOST": "agent-host"}).find("a")
    assert agent is not None and agent.url == "http://agent-host:9101/"


def test_a_top_level_list_is_read_as_the_agents(tmp_path):
    path = write(tmp_path, "- name: a\n  url: http://h1/\n- name: b\n  url: http://h2/\n")
    registry = load_agents(path, env={})
    assert [(a.name, a.url) for a in registry.agents] == [("a", "http://h1/"), ("b", "http://h2/")]
    assert registry.warnings == []


def test_entries_missing_a_name_or_url_are_skipped_with_a_warning(tmp_path):
    text = """\
agents:
  - url: http://no-name/
  - name: no-url
  - name: good
    url: http://good/
  - just a string
"""
    registry = load_agents(write(tmp_path, text), env={})
    assert [a.name for a in registry.agents] == ["good"]
    assert len(registry.warnings) == 3
    assert "agents[0] needs a name and a url" in registry.warnings[0]
    assert "agents[1] needs a name and a url" in registry.warnings[1]
    assert "agents[3] is not a mapping" in registry.warnings[2]


def test_a_duplicate_name_is_warned_and_the_first_wins(tmp_path):
    text = "agents:\n  - {name: a, url: 'http://first/'}\n  - {name: a, url: 'http://second/'}\n"
    registry = load_agents(write(tmp_path, text), env={})
    assert registry.find("a").url == "http://first/"
    assert len(registry.warnings) == 1
    assert "the name a is used more than once" in registry.warnings[0]


def test_an_unknown_protocol_warns_and_falls_back_to_a2a(tmp_path):
    registry = load_agents(write(tmp_path, "agents:\n  - {name: a, url: 'http://h/', protocol: grpc}\n"), env={})
    assert registry.find("a").protocol == "a2a"
    assert "protocol 'grpc' is unknown" in registry.warnings[0]


def test_auth_without_env_is_ignored_with_a_warning(tmp_path):
    registry = load_agents(
        write(tmp_path, "agents:\n  - {name: a, url: 'http://h/', auth: {scheme: bearer}}\n"), env={}
    )
    agent = registry.find("a")
    assert agent is not None and agent.bearer_env is None and agent.api_key_env is None
    assert "auth needs {scheme, env}" in registry.warnings[0]


def test_broken_yaml_is_a_usage_error_with_the_line_and_a_hint(tmp_path):
    # Line 5 is indented one space short of its mapping.
    path = write(tmp_path, "agents:\n  - name: a\n    url: http://h/\n  - name: b\n   url: http://h2/\n")
    with pytest.raises(UsageError) as caught:
        load_agents(path, env={})
    error = caught.value
    assert error.exit_code == 2
    assert str(path) in error.message
    assert "at line 5" in error.message
    assert error.hint and "--agents" in error.hint


def test_agents_that_is_not_a_list_is_a_usage_error(tmp_path):
    with pytest.raises(UsageError, match="must be a list"):
        load_agents(write(tmp_path, "agents: {name: a}\n"), env={})


def test_an_empty_file_has_no_agents(tmp_path):
    registry = load_agents(write(tmp_path, ""), env={})
    assert registry.agents == [] and registry.warnings == []


def test_a_missing_default_file_is_an_empty_list(tmp_path):
    registry = load_agents(tmp_path / "config" / "agents.yaml", env={})
    assert registry.agents == [] and registry.warnings == []
    assert registry.find("anything") is None


def test_no_path_at_all_is_an_empty_list():
    assert load_agents(None, env={}).agents == []


def test_skills_in_the_agents_file_override_the_cards(tmp_path):
    from switchboard.agent_status import AgentStatus
    from switchboard.agents import load_agents

    path = tmp_path / "agents.yaml"
    path.write_text(
        "agents:\n  - name: jobs\n    url: http://127.0.0.1:9/\n    protocol: tasks\n"
        "    skills:\n      - {id: book, name: Book a table, examples: [book a table for two]}\n"
    )
    status = AgentStatus(load_agents(path, env={}).agents[0])
    assert [s.name for s in status.skills] == ["Book a table"]
    assert status.skills[0].examples == ["book a table for two"] and status.skill_count == 1
