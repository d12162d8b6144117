"""Property: nothing a person types on the command line or writes in an agents file reaches an internal error.

The command runs in-process (`switchboard.cli.main`). No request leaves the machine: httpx's transport is
replaced by one that answers 404 to everything (an address that passes the checks then fails as "no agent
card", exit 3), since hypothesis's hosts are made up. What is proven is the input handling in front of it.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
from pathlib import Path
from unittest import mock

import httpx
import pytest
import yaml
from hypothesis import example, given, settings
from hypothesis import strategies as st

from switchboard.agents import ENTRY_KEYS
from switchboard.cli import main

INTERNAL = "A2ACLI_ERR_INTERNAL"


async def _not_found(self, request: httpx.Request) -> httpx.Response:
    return httpx.Response(404, request=request)


@contextlib.contextmanager
def offline():
    """Every request answered 404 by the transport, and a home of its own."""
    with (
        tempfile.TemporaryDirectory() as home,
        mock.patch.object(httpx.AsyncHTTPTransport, "handle_async_request", _not_found),
        mock.patch.dict(os.environ, {"SWITCHBOARD_HOME": home}),
    ):
        yield Path(home)


def run(*argv: str) -> tuple[int, dict | None]:
    """Exit code and the JSON error envelope (None on success)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    text = out.getvalue().strip()
    envelope = json.loads(text.splitlines()[-1]) if code and text else None
    assert code == 0 or envelope is not None, err.getvalue()
    return code, envelope


def assert_not_internal(code: int, envelope: dict | None) -> None:
    if envelope is not None:
        error = envelope["error"]
        assert error["code"] != INTERNAL, error
        assert error["message"] and error["hint"], error


ISSUE_URLS = ["127.0.0.1:47341ghost", "http://127.0.0.1:99999/", "http://[::1/", "http://127.0.0.1:47341x/", "htp://x"]

addresses = (
    st.text(max_size=30)
    | st.from_regex(r"\A(https?|htp|HTTP|file)?:?/{0,3}[\w.\[\]:%@-]{0,20}(:[\w-]{0,7})?(/[\w.?#=-]{0,10})?\Z")
    | st.sampled_from(["localhost", "[::1]:1", "127.0.0.1:65536", "x.json", "./nope.json", "~nobody/x"])
)


@pytest.mark.parametrize("ref", ISSUE_URLS)
def test_the_reported_addresses_are_usage_errors_on_the_command_line(ref):
    with offline():
        for argv in (["card", "get", ref], ["send", ref, "hi"]):
            code, envelope = run(*argv, "-o", "json")
            assert code == 2 and envelope["error"]["code"] == "A2ACLI_ERR_USAGE", envelope


@settings(max_examples=300)
@given(ref=addresses)
@example(ref="sdk31")
@example(ref="-")
def test_any_agent_argument_is_handled_never_an_internal_error(ref):
    with offline() as home:
        agents = home / "agents.yaml"
        agents.write_text("agents:\n  - name: sdk3\n    url: http://127.0.0.1:9/\n")
        for argv in (["card", "get", ref], ["send", ref, "hi"], ["card", "get", "--agent-card", ref]):
            code, envelope = run(*argv, "-o", "json", "--agents", str(agents), "--timeout", "5")
            assert_not_internal(code, envelope)


keys = st.sampled_from([*ENTRY_KEYS, "ulr", "nmae", "agent", "apikey"]) | st.text(min_size=1, max_size=8)
values = st.none() | st.integers() | st.booleans() | addresses | st.lists(st.text(max_size=5), max_size=2)
entries = st.dictionaries(keys, values, max_size=5) | st.fixed_dictionaries(
    {"name": st.sampled_from(["a", "b"]), "url": addresses},
    optional={"protocol": st.sampled_from(["a2a", "tasks", "grpc"]), "headers": st.dictionaries(keys, values)},
)
documents = st.fixed_dictionaries({"agents": st.lists(entries, max_size=3)}) | st.dictionaries(
    keys, st.lists(entries, max_size=2) | values, max_size=2
)


@settings(max_examples=300)
@given(document=documents | st.lists(entries, max_size=3), name=st.sampled_from(["a", "b", "sdk31", "a.example"]))
@example(document={"agent": [{"name": "a", "url": "http://127.0.0.1:9/"}]}, name="a")
@example(document={"agents": [{"name": "a", "ulr": "http://127.0.0.1:9/"}]}, name="a")
@example(document={"agents": [{"name": "a", "url": "http://127.0.0.1:47341x/"}]}, name="a")
@example(document={"agents": [{"name": "a", "url": "htp://127.0.0.1:9/"}]}, name="a")
@example(document={"agents": [{"name": "a", "url": "http://h/", "headers": {"X": "é"}}]}, name="a")
def test_any_agents_file_is_read_or_refused_never_an_internal_error(document, name):
    with offline() as home:
        agents = home / "agents.yaml"
        agents.write_text(yaml.safe_dump(document, allow_unicode=True))
        code, envelope = run("send", name, "hi", "-o", "json", "--agents", str(agents), "--timeout", "5")
        assert_not_internal(code, envelope)


@settings(max_examples=100)
@given(text=st.text(max_size=200))
def test_any_text_as_an_agents_file_is_read_or_refused(text):
    with offline() as home:
        agents = home / "agents.yaml"
        agents.write_text(text, encoding="utf-8")
        assert_not_internal(*run("card", "get", "a", "-o", "json", "--agents", str(agents)))


def test_the_reported_agents_file_mistakes_are_usage_errors_naming_the_line():
    cases = {
        "agent:\n  - name: a\n    url: http://127.0.0.1:9/\n": "line 1: unknown key 'agent' at the top of the file. "
        "Did you mean agents?",
        "agents:\n  - name: a\n    ulr: http://127.0.0.1:9/\n": "line 3: agents[0] (a) has an unknown key 'ulr'. "
        "Did you mean url?",
        "agents:\n  - name: a\n    url: htp://127.0.0.1:9/\n": 'line 3: agents[0] (a): the url "htp://127.0.0.1:9/" '
        "starts with htp://, which is not a scheme agents speak",
        "agents:\n  - name: a\n    url: http://127.0.0.1:47341x/\n": 'the port "47341x"',
    }
    with offline() as home:
        agents = home / "agents.yaml"
        for text, said in cases.items():
            agents.write_text(text)
            code, envelope = run("send", "a", "hi", "-o", "json", "--agents", str(agents))
            assert code == 2 and said in envelope["error"]["message"], envelope
            assert envelope["error"]["hint"]


def test_a_name_that_is_not_in_the_file_is_a_usage_error_with_the_names_it_has():
    with offline() as home:
        agents = home / "agents.yaml"
        agents.write_text(
            "agents:\n  - {name: sdk3, url: 'http://127.0.0.1:9/'}\n  - {name: writer, url: 'x.example'}\n"
        )
        code, envelope = run("send", "sdk31", "hi", "-o", "json", "--agents", str(agents))
    assert code == 2
    assert envelope["error"]["message"] == f"no agent named 'sdk31' in {agents}"
    assert envelope["error"]["hint"].startswith(f"Did you mean sdk3? The agents in {agents}: sdk3, writer.")
    assert "https://sdk31/" in envelope["error"]["hint"]  # how to mean a host instead


# --- the other values a person types on the command line ----------------------------------------------------


@pytest.mark.parametrize("value", ["nan", "-1", "0", "inf", "soon"])
@pytest.mark.parametrize("flag", ["--timeout", "--poll-interval"])
def test_a_duration_that_is_not_a_positive_number_of_seconds_is_a_usage_error(flag, value):
    with offline():
        code, envelope = run("send", "http://127.0.0.1:9/", "hi", flag, value, "-o", "json")
    assert code == 2 and f"{value!r} is not a number of seconds above 0" in envelope["error"]["message"]


def test_a_svc_param_that_cannot_go_on_the_wire_is_a_usage_error_before_any_request():
    with offline():
        code, envelope = run("send", "http://127.0.0.1:9/", "hi", "--svc-param", "X-Team:équipe", "-o", "json")
    assert code == 2 and "--svc-param X-Team has a character HTTP headers cannot carry" in envelope["error"]["message"]


@pytest.mark.parametrize("value", ["s3cr3t\n", "s3cr3t\r\nX-Evil: 1", "s3cr3t-ö"])
def test_a_credential_with_a_line_break_is_a_usage_error_that_never_shows_it(value):
    with offline(), mock.patch.dict(os.environ, {"MY_TOKEN": value}):
        code, envelope = run("send", "http://127.0.0.1:9/", "hi", "--bearer-env", "MY_TOKEN", "-o", "json")
        assert code == 2
        assert envelope["error"]["message"].startswith("the environment variable MY_TOKEN (bearer token) has a")
        assert value.strip() not in json.dumps(envelope)
        code, envelope = run("send", "http://127.0.0.1:9/", "hi", "--bearer", value, "-o", "json")
        assert code == 2 and envelope["error"]["message"].startswith("--bearer has a character")


def test_a_demo_that_cannot_start_where_it_was_told_is_a_usage_error(tmp_path):
    import subprocess
    import sys

    blocked = tmp_path / "a-file"
    blocked.write_text("")
    env = {**os.environ, "SWITCHBOARD_HOME": str(tmp_path)}
    argv = [sys.executable, "-m", "switchboard", "demo", "--port", "0", "--agents-out", str(blocked / "agents.yaml")]
    done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 2, done.stderr
    assert "cannot start the demo" in done.stderr and "A2ACLI_ERR_USAGE" in done.stderr
