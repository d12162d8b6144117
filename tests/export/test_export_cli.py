"""`switchboard export RUN_ID` and `send --record FILE` as a person runs them, against the demo fleet; each file
read back: the run's JSON replays into the views its journal folds to, the HAR passes the schema."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from cli_runner import run_cli_in_process
from export_support import har_errors, shown

from switchboard.a2a.model import TaskState
from switchboard.demo import writer
from switchboard.export.json_doc import load
from switchboard.export.transcript import replay
from switchboard.workflow.runs import read_run

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def cli(fleet, tmp_path):
    env = {**os.environ, **fleet.credential_env, "SWITCHBOARD_HOME": str(tmp_path / "home")}
    env["PYTHONPATH"] = str(REPO / "src")

    def run(*args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
        argv = ["--agents", str(fleet.agents_file), *args]
        done = run_cli_in_process(argv, env, cwd=tmp_path)
        assert done.returncode == code, f"{args}: {done.stdout}\n{done.stderr}"
        return done

    return run


def test_a_run_exports_as_json_that_replays_into_its_journal_views_and_as_markdown_and_html(cli, tmp_path, monkeypatch):
    flow = str(REPO / "examples" / "workflows" / "interview.yaml")
    done = cli("run", flow, "--answer", "interview=Ada", "--answer", "interview=1", "-o", "json")
    run_id = json.loads(done.stdout)["run"]["runId"]
    doc = json.loads(cli("export", run_id, "--format", "json").stdout)
    assert doc["kind"] == "run" and doc["run"]["status"] == "completed" and doc["run"]["runId"] == run_id
    steps = [e["step"] for e in doc["exchanges"]]
    assert steps == ["interview", "interview", "interview", "welcome"]  # the task, then each answer
    answers = [e["message"]["parts"][0]["text"] for e in doc["exchanges"][1:3]]
    assert answers == ["Ada", "1"]
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path / "home"))
    record = read_run(run_id)
    views = replay(load(doc))
    by_step = {e["step"]: e["view"] for e in doc["exchanges"]}
    for name, step in record.steps.items():
        assert shown(views[by_step[name]]) == shown(step.view), name
    assert views[by_step["interview"]].state is TaskState.COMPLETED

    cli("export", run_id, "--out", "run.md")
    markdown = (tmp_path / "run.md").read_text()
    assert f"Run `{run_id}` of **interview**: completed" in markdown
    assert "## 1. interviewer · step interview (attempt 1)" in markdown and "**You answered**" in markdown
    assert "| welcome | echo | completed |" in markdown
    cli("export", run_id, "--out", "run.html")
    page = (tmp_path / "run.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and "Content-Security-Policy" in page and "interview" in page


def test_the_html_of_a_run_draws_its_graph_and_timeline_as_svg(cli, tmp_path):
    import xml.etree.ElementTree as ET

    flow = str(REPO / "examples" / "workflows" / "briefing.yaml")
    done = cli("run", flow, "-i", "topic=tides", "-o", "json")
    run_id = json.loads(done.stdout)["run"]["runId"]
    cli("export", run_id, "--out", "run.html")
    page = (tmp_path / "run.html").read_text()
    svg = "{http://www.w3.org/2000/svg}"
    graph = ET.fromstring(page[page.index('<svg class="run-graph"') : page.index("</svg>") + len("</svg>")])
    boxes = {g.get("data-step"): g for g in graph.iter(f"{svg}g")}
    assert set(boxes) == {"research", "convert", "draft", "combine"}
    assert {g.get("data-status") for g in boxes.values()} == {"completed"}
    edges = {(p.get("data-from"), p.get("data-to")) for p in graph.iter(f"{svg}path") if p.get("class") == "edge"}
    assert edges == {("research", "combine"), ("convert", "combine"), ("draft", "combine")}

    def x_of(name: str) -> float:
        return float(boxes[name].find(f"{svg}rect").get("x"))

    assert x_of("research") == x_of("convert") == x_of("draft") < x_of("combine")
    start = page.index('<svg class="run-timeline"')
    line = ET.fromstring(page[start : page.index("</svg>", start) + len("</svg>")])
    spans = [r for r in line.iter(f"{svg}rect") if "span" in (r.get("class") or "")]
    assert {r.get("data-step") for r in spans} == set(boxes)
    # combine starts after the three it depends on have ended
    by_step = {r.get("data-step"): r for r in spans}
    ends = [float(by_step[n].get("x")) + float(by_step[n].get("width")) for n in ("research", "convert", "draft")]
    assert float(by_step["combine"].get("x")) >= max(ends) - 0.2
    doc = json.loads(cli("export", run_id, "--format", "json").stdout)
    assert set(doc["run"]["timeline"]) == set(boxes)
    assert all(s["end"] for spans in doc["run"]["timeline"].values() for s in spans)


def test_the_timeline_of_an_interview_marks_the_waits_for_a_person(cli, tmp_path):
    flow = str(REPO / "examples" / "workflows" / "interview.yaml")
    done = cli("run", flow, "--answer", "interview=Ada", "--answer", "interview=1", "-o", "json")
    run_id = json.loads(done.stdout)["run"]["runId"]
    doc = json.loads(cli("export", run_id, "--format", "json").stdout)
    kinds = [s["kind"] for s in doc["run"]["timeline"]["interview"]]
    assert kinds == ["attempt", "waiting", "waiting"]
    cli("export", run_id, "--out", "run.html")
    page = (tmp_path / "run.html").read_text()
    assert page.count('class="span waiting"') == 2 and "waiting for a person" in page


def test_send_records_the_exchange_in_the_format_its_file_names(cli, tmp_path):
    for name in ("tides.json", "tides.har", "tides.md", "tides.html"):
        done = cli("send", "writer", "tides", "--stream", "--record", name)
        assert f"recorded the exchange in {name}" in done.stderr
    doc = json.loads((tmp_path / "tides.json").read_text())
    assert doc["kind"] == "send" and doc["exchanges"][0]["message"]["parts"][0]["text"] == "tides"
    view = replay(load(doc))[1]
    assert view.state is TaskState.COMPLETED and view.artifacts[writer.ARTIFACT_ID].text == writer.compose("tides")
    har = json.loads((tmp_path / "tides.har").read_text())
    assert har_errors(har) == []
    assert any("_sseMessages" in e for e in har["log"]["entries"])
    assert writer.compose("tides").strip() in (tmp_path / "tides.md").read_text()
    assert "draft.md" in (tmp_path / "tides.html").read_text()


def test_send_records_a_file_sent_inline_as_an_attachment_beside_the_markdown(cli, tmp_path):
    (tmp_path / "note.txt").write_text("hello from a file\n")
    cli("send", "echo", "see the file", "--file", "note.txt", "--record", "echo.md")
    markdown = (tmp_path / "echo.md").read_text()
    assert "[note.txt](<echo.files/01-note.txt>)" in markdown
    assert (tmp_path / "echo.files" / "01-note.txt").read_text() == "hello from a file\n"


def test_a_record_file_no_format_writes_is_refused_before_anything_is_sent(cli, tmp_path):
    done = cli("send", "writer", "tides", "--record", "tides.txt", code=2)
    assert "no export format is written as .txt" in done.stderr
    assert not (tmp_path / "tides.txt").exists()
