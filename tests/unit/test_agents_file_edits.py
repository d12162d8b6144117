"""Adding or removing an agent edits the agents file in place: every comment, the order and the formatting of
the other entries stay as the person wrote them; entries this version cannot read are kept; the write is
atomic, so a failed one leaves the file as it was."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from switchboard.a2a.errors import UsageError
from switchboard.agents import add_agent, load_agents, new_entry_raw, remove_agent
from switchboard.agents_yaml import appended, removed

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = (REPO / "examples" / "agents.demo.yaml").read_text()
NEW = new_entry_raw("weather", "http://127.0.0.1:9/", api_key_env="WEATHER_KEY")


def comments(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip().startswith("#")]


@pytest.fixture
def example(tmp_path: Path) -> Path:
    path = tmp_path / "agents.yaml"
    path.write_text(EXAMPLE)
    return path


def test_adding_appends_the_entry_and_changes_nothing_else(example):
    registry = add_agent(load_agents(example, env={}), NEW)
    text = example.read_text()
    assert text == EXAMPLE + "  - name: weather\n    url: http://127.0.0.1:9/\n    apiKeyEnv: WEATHER_KEY\n"
    before = [a.name for a in load_agents(REPO / "examples" / "agents.demo.yaml", env={}).agents]
    assert [a.name for a in registry.agents] == [*before, "weather"]


def test_removing_takes_out_the_entry_and_its_comment_and_nothing_else(example):
    registry = remove_agent(load_agents(example, env={}), "writer")
    writer = (
        '  # Streams progress updates and a long markdown document in many small chunks ("... pace 10").\n'
        "  - name: writer\n    url: http://127.0.0.1:47102/\n    protocol: a2a\n"
    )
    assert writer in EXAMPLE
    assert example.read_text() == EXAMPLE.replace(writer, "")
    before = [a.name for a in load_agents(REPO / "examples" / "agents.demo.yaml", env={}).agents]
    assert [a.name for a in registry.agents] == [name for name in before if name != "writer"]


def test_adding_then_removing_gives_back_the_file_byte_for_byte(example):
    add_agent(load_agents(example, env={}), NEW)
    remove_agent(load_agents(example, env={}), "weather")
    assert example.read_text() == EXAMPLE


def test_entries_this_version_skips_and_variables_are_kept(tmp_path):
    path = tmp_path / "agents.yaml"
    text = (
        "agents:\n"
        "  - name: half-written   # no url yet\n"
        "  - name: team\n"
        "    url: http://127.0.0.1:9/\n"
        '    headers: {X-Team: "${TEAM}"}\n'
    )
    path.write_text(text)
    registry = load_agents(path, env={"TEAM": "blue"})
    assert [a.name for a in registry.agents] == ["team"] and registry.warnings
    add_agent(registry, NEW)
    assert path.read_text().startswith(text)  # the skipped entry and ${TEAM} are still there, as written
    remove_agent(load_agents(path, env={}), "team")
    assert path.read_text() == "agents:\n  - name: half-written   # no url yet\n" + (
        "  - name: weather\n    url: http://127.0.0.1:9/\n    apiKeyEnv: WEATHER_KEY\n"
    )


def test_an_edit_made_by_hand_since_the_app_read_the_file_is_kept(example):
    registry = load_agents(example, env={})  # the app reads the file at start
    example.write_text(EXAMPLE + "  - name: by-hand\n    url: http://127.0.0.1:8/\n")
    add_agent(registry, NEW)
    assert "name: by-hand" in example.read_text() and "name: weather" in example.read_text()


def test_a_new_entry_with_a_bad_url_is_refused_before_the_file_is_touched(example):
    with pytest.raises(UsageError, match="port"):
        add_agent(load_agents(example, env={}), new_entry_raw("bad", "http://127.0.0.1:47341x/"))
    with pytest.raises(UsageError, match="exists already"):
        add_agent(load_agents(example, env={}), new_entry_raw("writer", "http://127.0.0.1:9/"))
    assert example.read_text() == EXAMPLE


@pytest.mark.parametrize("edit", ["add", "remove"])
def test_a_failed_write_leaves_the_file_whole(example, monkeypatch, edit):
    def crash(*args, **kwargs):
        raise OSError("No space left on device")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError, match="No space"):
        if edit == "add":
            add_agent(load_agents(example, env={}), NEW)
        else:
            remove_agent(load_agents(example, env={}), "writer")
    assert example.read_text() == EXAMPLE
    assert [p.name for p in example.parent.iterdir()] == ["agents.yaml"]


@pytest.mark.parametrize(
    ("text", "after"),
    [
        ("", "# Agents for a2a-switchboard."),
        ("# mine\n", "# mine\nagents:\n  - name: weather"),
        ("agents:\n", "agents:\n  - name: weather"),
        ("agents:  # none yet\n# end\n", "agents:  # none yet\n  - name: weather"),
        (
            "agents: []  # flow\n",
            "agents: [{name: weather, url: 'http://127.0.0.1:9/', apiKeyEnv: WEATHER_KEY}]  # flow",
        ),
        ("- name: a\n  url: http://h/\n", "- name: a\n  url: http://h/\n- name: weather\n"),
    ],
)
def test_every_shape_of_file_takes_an_entry_in_its_own_style(text, after):
    edited = appended(text, NEW)
    assert after in edited
    assert yaml.safe_load(edited) in ({"agents": [*_entries(text), NEW]}, [*_entries(text), NEW])


def _entries(text: str) -> list:
    data = yaml.safe_load(text)
    value = data.get("agents") if isinstance(data, dict) else data
    return value or []


# --- property: any list, written in block or flow style with comments around its entries -------------------

names = st.from_regex(r"\A[a-z][a-z0-9-]{0,8}\Z")
entries = st.lists(
    st.fixed_dictionaries(
        {"name": names, "url": st.sampled_from(["http://127.0.0.1:9/", "https://agents.example/a2a", "h:1"])},
        optional={
            "protocol": st.sampled_from(["a2a", "tasks"]),
            "headers": st.dictionaries(st.sampled_from(["X-Team", "X-Trace"]), st.text("abc ${}", max_size=6)),
            "description": st.text(max_size=20),
        },
    ),
    max_size=5,
    unique_by=lambda entry: entry["name"],
)


def render(items: list[dict], style: str, notes: list[str]) -> str:
    """A file as a person might write it: a comment above each entry, one after the list."""
    lines = ["# my agents", "agents:"]
    for i, item in enumerate(items):
        lines.append(f"  # {notes[i % len(notes)]} {i}")
        if style == "flow":
            lines.append("  - " + yaml.safe_dump(item, default_flow_style=True, width=10_000).strip())
        else:
            block = yaml.safe_dump([item], sort_keys=False, default_flow_style=False, width=10_000)
            lines += ["  " + line for line in block.splitlines()]
    lines.append("# the end")
    return "\n".join(lines) + "\n"


@settings(max_examples=150)
@given(
    items=entries, style=st.sampled_from(["block", "flow"]), notes=st.lists(st.text("abc xyz", min_size=1), min_size=1)
)
def test_any_file_keeps_its_comments_and_other_entries_through_an_add_and_a_remove(items, style, notes):
    text = render(items, style, notes)
    added = appended(text, NEW)
    assert yaml.safe_load(added)["agents"] == [*items, NEW]
    assert comments(added) == comments(text)
    assert added.startswith(text.removesuffix("# the end\n"))
    for index in range(len(items)):
        left = removed(text, index)
        assert (yaml.safe_load(left)["agents"] or []) == items[:index] + items[index + 1 :]
        gone = f"{notes[index % len(notes)]} {index}".strip()
        assert comments(left) == [c for c in comments(text) if not re.fullmatch(rf"#\s*{re.escape(gone)}", c)]
    assert removed(added, len(items)) == text
