"""The agents file's trust keys: `auth` with scheme basic, `tls:` and `cardKeys:`, paths read beside the file."""

from __future__ import annotations

import pytest

from switchboard.a2a.errors import UsageError
from switchboard.agents import load_agents


def load(tmp_path, entry: str):
    path = tmp_path / "agents.yaml"
    path.write_text(f"agents:\n  - name: a\n    url: https://a.example/\n{entry}")
    return load_agents(path, env={})


def test_basic_tls_and_card_keys_are_read_and_paths_resolved_beside_the_file(tmp_path):
    registry = load(
        tmp_path,
        "    auth: {scheme: basic, user: ada, env: PW}\n"
        "    tls: {cert: c.pem, key: /abs/c.key, ca: ca.pem}\n"
        "    cardKeys: keys.json\n",
    )
    entry = registry.agents[0]
    assert (entry.basic_user, entry.basic_env) == ("ada", "PW")
    assert entry.tls.cert == str(tmp_path / "c.pem") and entry.tls.key == "/abs/c.key"
    assert entry.tls.ca == str(tmp_path / "ca.pem")
    assert entry.card_keys == [str(tmp_path / "keys.json")]


def test_basic_without_a_user_is_a_warning(tmp_path):
    registry = load(tmp_path, "    auth: {scheme: basic, env: PW}\n")
    assert registry.agents[0].basic_user is None
    assert any("needs a user" in w for w in registry.warnings)


@pytest.mark.parametrize(
    ("entry", "says"),
    [
        ("    tls: {certificate: c.pem}\n", "tls takes cert and key"),
        ("    tls: c.pem\n", "tls takes cert and key"),
        ("    cardKeys: {file: k.json}\n", "cardKeys is a file or a list"),
        ("    tsl: {cert: c.pem}\n", "Did you mean tls?"),
    ],
)
def test_mistakes_are_usage_errors_naming_the_line(tmp_path, entry, says):
    with pytest.raises(UsageError, match=says) as caught:
        load(tmp_path, entry)
    assert "line" in caught.value.message
