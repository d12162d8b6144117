"""The files' JSON Schemas (switchboard.schemas): made from the models that read the files, kept in the repository
as schemas/*.schema.json (equal to what the models make), named by every example and fixture file's
`# yaml-language-server: $schema=` line, valid draft-07 for the YAML language server, and every shipped or
fixture file is valid by its schema while known-bad files are not."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from switchboard.config import Settings, load_settings, save_settings
from switchboard.demo.agents_file import render_agents_file
from switchboard.demo.fleet import AGENTS, RunningAgent
from switchboard.schemas import SCHEMA_NAMES, _draft_07, schema_for, schema_text, shipped_schema_file

ROOT = Path(__file__).resolve().parents[2]
MODELINE = "# yaml-language-server: $schema="

# Every YAML file of the project a person might copy, by the schema it follows.
FILES = {
    "agents": sorted((ROOT / "examples").glob("agents*.yaml")),
    "workflow": sorted((ROOT / "examples" / "workflows").glob("*.yaml"))
    + sorted((ROOT / "tests" / "serve" / "workflows").glob("*.yaml")),
}
ALL_FILES = [(kind, path) for kind, paths in FILES.items() for path in paths]

# settings.yaml as the tests write it (tests/tui), and as the app saves it.
SETTINGS = [
    "theme: switchboard\nkeymap:\n  toggle_wire: f9\n",
    "theme: daylight\ncard_refresh_minutes: 0.5\ntemporal: 127.0.0.1:7233\ncard_keys: [keys.jwks.json]\n",
]

BAD = [
    ("agents", "agents:\n  - name: writer\n    ulr: http://127.0.0.1:9/\n"),
    ("agents", "agents:\n  - name: writer\n    url: http://127.0.0.1:9/\n    protocol: soap\n"),
    ("workflow", "steps:\n  - name: a\n    agent: echo\n    task: hi\n    dependOn: [b]\n"),
    ("workflow", "name: x\nsteps:\n  - name: a\n    retries: -1\n"),
    ("workflow", "version: 2\nsteps: []\n"),
    ("workflow", "inputs:\n  bad name: {default: x}\nsteps: []\n"),  # not a name a template can use
    ("workflow", "workflows: []\n"),  # the relay layout needs one workflow at least
    ("workflow", "workflows:\n  - name: w\n    steps:\n      - {name: s, timeoutMs: -5}\n"),
    ("settings", "thme: daylight\n"),
    ("settings", "wire_records: 5\n"),
]


def validate(kind: str, data: object) -> None:
    jsonschema.Draft7Validator(schema_for(kind)).validate(data)


def test_the_committed_schema_files_are_what_the_models_make():
    for name in SCHEMA_NAMES:
        committed = (ROOT / "schemas" / f"{name}.schema.json").read_text(encoding="utf-8")
        assert committed == schema_text(name), f"run: switchboard schema {name} > schemas/{name}.schema.json"
        assert shipped_schema_file(name) == ROOT / "schemas" / f"{name}.schema.json"


@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_each_schema_is_draft_07_with_an_id_a_title_and_a_description_on_every_key(name):
    schema = schema_for(name)
    jsonschema.Draft7Validator.check_schema(schema)
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    assert schema["$id"].endswith(f"/{name}.schema.json") and schema["title"] and schema["description"]
    assert "$defs" not in json.dumps(schema)  # draft-07 editors look under definitions
    for owner, sub in {"(root)": schema, **schema.get("definitions", {})}.items():
        for key, about in sub.get("properties", {}).items():
            assert about.get("description"), f"{name}: {owner}.{key} has no description for the editor to show"


def test_a_ref_with_siblings_is_wrapped_for_draft_07_and_key_named_titles_go():
    wrapped = _draft_07({"properties": {"tls": {"$ref": "#/definitions/T", "description": "d", "title": "Tls"}}})
    assert wrapped == {"properties": {"tls": {"description": "d", "allOf": [{"$ref": "#/definitions/T"}]}}}
    keyed = _draft_07({"type": "object", "patternProperties": {"^a$": {}}})
    assert keyed["additionalProperties"] is False


def test_schema_for_refuses_another_name():
    with pytest.raises(ValueError, match="agents, workflow, settings"):
        schema_for("agent")


@pytest.mark.parametrize(("kind", "path"), ALL_FILES, ids=lambda v: v if isinstance(v, str) else v.name)
def test_every_example_and_fixture_file_names_its_schema_and_is_valid_by_it(kind, path):
    text = path.read_text(encoding="utf-8")
    first = text.splitlines()[0]
    assert first.startswith(MODELINE), f"{path} should start with {MODELINE}<relative path to its schema>"
    target = (path.parent / first.removeprefix(MODELINE)).resolve()
    assert target == ROOT / "schemas" / f"{kind}.schema.json"
    validate(kind, yaml.safe_load(text))


def test_the_file_lists_are_not_empty():
    assert len(FILES["agents"]) >= 1 and len(FILES["workflow"]) >= 10


def test_the_demo_writes_an_agents_file_valid_by_the_schema_it_names(tmp_path):
    agents = [
        RunningAgent(
            a.name, f"http://127.0.0.1:{47101 + i}/", a.protocol, a.description, a.api_key_env, a.bearer_env, a.skills
        )
        for i, a in enumerate(AGENTS)
    ]
    text = render_agents_file(agents)
    line = next(line for line in text.splitlines() if line.startswith(MODELINE))
    assert line.removeprefix(MODELINE) == (ROOT / "schemas" / "agents.schema.json").as_uri()
    validate("agents", yaml.safe_load(text))


@pytest.mark.parametrize("text", SETTINGS)
def test_settings_files_the_tests_write_are_valid(text):
    validate("settings", yaml.safe_load(text))


def test_the_settings_the_app_saves_are_valid(tmp_path):
    path = tmp_path / "settings.yaml"
    save_settings(Settings(theme="daylight", keymap={"send": "ctrl+s"}), path)
    validate("settings", yaml.safe_load(path.read_text()))


@pytest.mark.parametrize(("kind", "text"), BAD, ids=[f"{k}-{i}" for i, (k, _) in enumerate(BAD)])
def test_known_bad_files_are_invalid(kind, text):
    with pytest.raises(jsonschema.ValidationError):
        validate(kind, yaml.safe_load(text))


def test_the_relay_layout_is_chosen_by_its_workflows_key_and_keeps_other_tools_keys():
    relay = {"workflows": [{"name": "w", "steps": [{"name": "s", "command": "true"}]}], "coordination": {"x": 1}}
    validate("workflow", relay)
    validate("workflow", {**relay, "swarmish": True})  # a relay file's unknown key: the reader warns, never refuses
    with pytest.raises(jsonschema.ValidationError):
        validate("workflow", {"steps": [], "swarmish": True})  # in this tool's layout it is a mistake


def test_a_file_that_is_only_the_list_of_agents_is_valid_too():
    validate("agents", [{"name": "writer", "url": "http://127.0.0.1:9/"}])
    with pytest.raises(jsonschema.ValidationError):
        validate("agents", [{"name": "writer"}])


def test_a_misspelt_settings_key_is_warned_about_and_the_rest_is_used(tmp_path):
    path = tmp_path / "settings.yaml"
    path.write_text("thme: contrast\ntheme: daylight\nwire_records: 5\n")
    settings, warnings = load_settings(path)
    assert settings.theme == "daylight" and settings.wire_records == Settings().wire_records
    assert warnings == [
        f"{path}: unknown key 'thme'; ignored (`switchboard schema settings` lists the keys)",
        f"{path}: invalid wire_records; defaults used for those",
    ]
