"""The hostile agent (markup, escape sequences, control characters, a 100k line in everything it sends) through the
headless command line: text output carries none of its controls, JSON output carries them only as escapes."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from demo_support import demo_env

from switchboard.demo import hostile
from switchboard.demo.fleet import start_in_background

# Anything a terminal acts on: C0 controls but \t and \n, ESC, DEL, C1, bidi overrides and isolates.
ACTIVE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


@pytest.fixture(scope="module")
def url():
    handle = start_in_background(first_port=0, agents=(hostile.AGENT,), write_file=False)
    yield handle.agents[0].url
    handle.stop()


@pytest.fixture
def run(tmp_path):
    def switchboard(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "switchboard", *args],
            capture_output=True,
            text=True,
            encoding="utf-8",
            env=demo_env(tmp_path),
            timeout=90,
        )

    return switchboard


def test_card_get_text_shows_markup_literally_and_no_controls(url, run):
    result = run("card", "get", url, "--validate")
    assert result.returncode == 0, result.stderr
    assert not ACTIVE.search(result.stdout) and not ACTIVE.search(result.stderr)
    assert "Name: Hostile [bold red]x[/]" in result.stdout
    assert "Skill Example: say [bold red]x[/]" in result.stdout
    assert hostile.LONG_LINE in result.stdout  # long lines are shown whole, not cut


@pytest.mark.parametrize("streaming", [False, True], ids=["send", "send-stream"])
def test_send_text_output_has_no_controls(url, run, streaming):
    result = run("send", url, "hello", *(["--stream"] if streaming else []))
    assert result.returncode == 0, result.stderr
    assert not ACTIVE.search(result.stdout) and not ACTIVE.search(result.stderr)
    assert "[link=http://evil.example]click[/link]" in result.stdout
    assert "State: completed" in result.stdout


@pytest.mark.parametrize("args", [["card", "get"], ["send"]], ids=["card", "send"])
def test_json_output_keeps_the_junk_as_escapes_only(url, run, args):
    result = run(*args, url, *(["hello"] if args == ["send"] else []), "-o", "json")
    assert result.returncode == 0, result.stderr
    assert not ACTIVE.search(result.stdout)
    document = json.loads(result.stdout)
    assert any(hostile.JUNK in text for text in strings(document))  # nothing lost: the escapes decode back
