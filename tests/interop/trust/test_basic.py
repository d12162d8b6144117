"""HTTP Basic against a real a2a-sdk agent whose card declares it and whose server checks it: the user from the
agents file or --basic-user, the password from an environment variable, redacted everywhere, kept to the card's
origin."""

from __future__ import annotations

import base64
import json

PASSWORD = "basic-secret-1234"
ENV = {"AGENT_PW": PASSWORD}


def test_send_with_the_flags(cli, cards_server):
    done = cli(
        "send",
        cards_server.url + "basic/",
        "quick hello",
        "--basic-user",
        "ada",
        "--basic-password-env",
        "AGENT_PW",
        "-o",
        "json",
        "--verbose",
        env=ENV,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)
    pair = base64.b64encode(f"ada:{PASSWORD}".encode()).decode()
    assert "Authorization: Basic [redacted]" in done.stderr  # the wire trace shows that it went, never what
    assert PASSWORD not in done.stderr + done.stdout and pair not in done.stderr + done.stdout


def test_send_with_the_agents_file(cli, cards_server, tmp_path):
    agents = tmp_path / "agents.yaml"
    auth = "{scheme: basic, user: ada, env: AGENT_PW}"
    agents.write_text(f"agents:\n  - name: gate\n    url: {cards_server.url}basic/\n    auth: {auth}\n")
    done = cli("--agents", str(agents), "send", "gate", "quick hello", env=ENV)
    assert done.returncode == 0, done.stderr


def test_a_card_that_wants_basic_explains_what_is_missing(cli, cards_server):
    done = cli("send", cards_server.url + "basic/", "quick hello")
    assert done.returncode == 4
    assert "HTTP Basic" in done.stderr and "--basic-user" in done.stderr


def test_a_user_without_the_password_variable_names_it(cli, cards_server):
    done = cli(
        "send", cards_server.url + "basic/", "quick hello", "--basic-user", "ada", "--basic-password-env", "NOPE"
    )
    assert done.returncode == 4
    assert "NOPE" in done.stderr


def test_a_wrong_password_is_refused_with_exit_4_and_not_echoed(cli, cards_server):
    wrong = "not-the-password-9876"
    done = cli(
        "send",
        cards_server.url + "basic/",
        "quick hello",
        "--basic-user",
        "ada",
        "--basic-password-env",
        "AGENT_PW",
        env={"AGENT_PW": wrong},
    )
    assert done.returncode == 4, done.stderr
    assert wrong not in done.stderr + done.stdout
    _hint_names_the_basic_flags(done.stderr)


def _hint_names_the_basic_flags(stderr: str) -> None:
    """A refused Basic password's hint says how to give a Basic user and password, not an API key or a token."""
    (hint,) = [line for line in stderr.splitlines() if line.startswith("Hint:")]
    assert "--basic-password-env" in hint and "--basic-user" in hint, hint
    assert "--api-key-env" not in hint and "--bearer-env" not in hint, hint


def test_a_wrong_password_from_the_agents_file_gets_the_basic_hint(cli, cards_server, tmp_path):
    agents = tmp_path / "agents.yaml"
    agents.write_text(
        f"agents:\n  - name: gate\n    url: {cards_server.url}basic/\n    auth: {{scheme: basic, user: ada, env: PW}}\n"
    )
    done = cli("--agents", str(agents), "send", "gate", "quick hello", env={"PW": "not-the-password-9876"})
    assert done.returncode == 4, done.stderr
    _hint_names_the_basic_flags(done.stderr)


def test_basic_is_kept_from_an_interface_on_another_origin(cli, cards_server):
    done = cli(
        "send",
        cards_server.url + "basic-elsewhere/",
        "quick hello",
        "--basic-user",
        "ada",
        "--basic-password-env",
        "AGENT_PW",
        "--verbose",
        env=ENV,
    )
    assert done.returncode == 4
    assert "another origin" in done.stderr
    assert "Authorization" not in done.stderr  # nothing went to localhost
