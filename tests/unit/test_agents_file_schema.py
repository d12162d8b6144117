"""The agents file's one declaration (`AgentsFileSpec`) gives its JSON Schema: every file the project ships or
its tests read as right is valid by it, and the mistakes the reader refuses are invalid by it too."""

from __future__ import annotations

from pathlib import Path

import jsonschema
import pytest
import yaml

from switchboard.schemas import schema_for

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = schema_for("agents")

# Right files from the tests (tests/unit/test_agents_file*.py, test_oauth_pieces.py), beside the example.
RIGHT = [
    "agents:\n  - name: writer\n    url: http://127.0.0.1:9102/\n    apiKeyEnv: WRITER_KEY\n"
    "    headers: {X-Team: '${TEAM}', X-Plain: fixed}\n",
    "agents:\n  - {name: reviewer, url: 'http://127.0.0.1:9103/', auth: {scheme: bearer, env: REVIEWER_TOKEN}}\n"
    "  - {name: keyed, url: 'http://127.0.0.1:9104/', auth: {scheme: apiKey, env: KEYED_KEY}}\n"
    "  - {name: tasks-agent, url: 'http://127.0.0.1:9105', protocol: tasks}\n"
    "  - {name: rested, url: 'http://127.0.0.1:9106/', binding: rest}\n",
    "agents:\n  - name: a\n    url: https://a.example/\n    auth: {scheme: basic, user: ada, env: PW}\n"
    "    tls: {cert: c.pem, key: /abs/c.key, ca: ca.pem}\n    cardKeys: keys.json\n"
    "    extensions: [https://example.com/ext/trace/v1]\n    trustInterfaceOrigin: true\n",
    "agents:\n  - name: a\n    url: http://127.0.0.1:9/\n    oauth: {clientId: cli, clientSecretEnv: S, "
    "flow: deviceCode, scopes: a b, resource: false, scheme: x}\n",
    "- {name: bare, url: 'http://127.0.0.1:9/'}\n",  # a file that is only the list
    "agents:\n  - name: jobs\n    url: http://127.0.0.1:9/\n    protocol: tasks\n"
    "    skills:\n      - {id: book, name: Book a table, examples: [book a table for two]}\n",
]

WRONG = [
    "agent:\n  - name: a\n    url: http://127.0.0.1:9/\n",  # the top key misspelt
    "agents:\n  - name: a\n    ulr: http://127.0.0.1:9/\n",  # an entry's key misspelt
    "agents:\n  - name: a\n    url: https://a.example/\n    tsl: {cert: c.pem}\n",
    "agents:\n  - name: a\n    url: https://a.example/\n    tls: {certificate: c.pem}\n",
    "agents:\n  - name: a\n    url: https://a.example/\n    oauth: {clientId: c, clientSecret: s3cret}\n",
    "agents:\n  - name: a\n    url: https://a.example/\n    oauth: {clientId: c, flow: implicit}\n",
    "agents:\n  - name: a\n    url: https://a.example/\n    oauth: {clientSecretEnv: S}\n",
    "agents: {name: a}\n",
]


def test_the_schema_names_the_keys_people_write():
    entry = SCHEMA["definitions"]["AgentSpec"]
    assert {"apiKeyEnv", "trustInterfaceOrigin", "cardKeys", "oauth", "tls"} <= set(entry["properties"])
    assert entry["required"] == ["name", "url"] and entry["additionalProperties"] is False
    assert set(SCHEMA["definitions"]["OAuthSpec"]["properties"]) >= {"clientId", "clientSecretEnv", "flow"}


def test_the_example_agents_file_is_valid_by_the_schema():
    jsonschema.validate(yaml.safe_load((ROOT / "examples" / "agents.demo.yaml").read_text()), SCHEMA)


@pytest.mark.parametrize("text", RIGHT)
def test_the_files_the_tests_read_as_right_are_valid_by_the_schema(text):
    jsonschema.validate(yaml.safe_load(text), SCHEMA)


@pytest.mark.parametrize("text", WRONG)
def test_the_mistakes_the_reader_refuses_are_invalid_by_the_schema(text):
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(yaml.safe_load(text), SCHEMA)
