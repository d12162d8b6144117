"""The demo as a person meets it: `switchboard demo` itself, and every agent through the headless CLI."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from demo_support import API_KEY, READY_LINE, TOKEN, demo_env, fields, start_demo

from switchboard.agents import load_agents
from switchboard.demo import gatekeeper, interviewer, researcher, writer
from switchboard.demo.agents_file import render_agents_file
from switchboard.demo.fleet import AGENTS, RunningAgent

REPO = Path(__file__).resolve().parents[2]
VERSION_FLAGS = pytest.mark.parametrize("flags", [[], ["--a2a-version", "0.3"]], ids=["v1.0", "v0.3"])
KEY = {"SWITCHBOARD_DEMO_KEY": API_KEY}


def jsonl(stdout: str) -> list[dict]:
    return [json.loads(line) for line in stdout.splitlines() if line.strip()]


# --- the demo command itself ------------------------------------------------------------------------------


def test_start_up_text_names_every_agent_its_url_the_agents_file_and_commands(demo):
    text = demo.startup_text
    registry = load_agents(demo.agents_file, env={})
    assert [a.name for a in registry.agents] == [a.name for a in AGENTS]
    for agent in registry.agents:
        line = next(line for line in text.splitlines() if line.strip().startswith(agent.name + " "))
        assert agent.url in line
    assert f"Agents file: {demo.agents_file}" in text
    assert 'send writer "a short story about tides" --stream' in text
    assert "SWITCHBOARD_DEMO_KEY=demo-key " in text and 'send gatekeeper "open the vault"' in text
    assert text.rstrip().endswith(READY_LINE)
    assert registry.find("gatekeeper").api_key_env == "SWITCHBOARD_DEMO_KEY"
    assert registry.find("tasks").protocol == "tasks"
    assert registry.find("tasks").bearer_env == "SWITCHBOARD_DEMO_TOKEN"
    entries = [line for line in demo.agents_file.read_text().splitlines() if not line.lstrip().startswith("#")]
    assert not [line for line in entries if API_KEY in line or TOKEN in line]  # variable names, never values


def _printed_commands(demo) -> list[list[str]]:
    """The `send` commands under "Try", as (environment, argv) pairs."""
    import shlex

    commands = []
    for line in demo.startup_text.splitlines():
        if " send " in line and not line.lstrip().startswith("#"):
            words = shlex.split(line)
            env = dict(w.split("=", 1) for w in words if "=" in w and not w.startswith("-") and "/" not in w)
            argv = words[words.index("--agents") :]
            commands.append((env, argv))
    return commands


def test_every_printed_command_works(demo, cli):
    commands = _printed_commands(demo)
    assert len(commands) >= 4
    for env, argv in commands:
        run = cli(*argv[2:], env=env)  # cli() adds --agents FILE itself
        assert run.returncode == 0, (argv, run.stderr)
        assert fields(run.stdout)["State"] in ("completed", "input-required", "auth-required"), argv


def test_ctrl_c_stops_the_fleet_cleanly_even_with_a_stream_open(tmp_path):
    running = start_demo(tmp_path)
    port = running.agent("researcher").url.rsplit(":", 1)[1].strip("/")
    argv = ["--agents", str(running.agents_file), "send", "researcher", "the history of radio", "--stream"]
    follower = subprocess.Popen(
        [sys.executable, "-m", "switchboard", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=demo_env(tmp_path),
    )
    try:
        for line in follower.stdout:
            if "searching sources" in line:
                break  # the stream is open and the task is working
        code, stderr = running.interrupt()
    finally:
        follower.kill()
        follower.wait()
    assert code == 0, stderr
    assert "Traceback" not in stderr
    assert stderr.rstrip().endswith("Demo stopped.")
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", int(port)), timeout=2):
        pass  # nothing listens there any more


def test_sigterm_stops_it_too(tmp_path):
    running = start_demo(tmp_path)
    running.process.terminate()
    assert running.process.wait(15) == 0
    assert "Traceback" not in running.process.stderr.read()


def test_bare_switchboard_with_demo_serves_the_fleet_on_the_default_ports(tmp_path):
    process = subprocess.Popen(
        [sys.executable, "-m", "switchboard", "--demo"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=demo_env(tmp_path),
    )
    try:
        lines = []
        for line in process.stdout:
            lines.append(line)
            if line.strip() == READY_LINE:
                break
        agents_file = tmp_path / "data" / "demo" / "agents.yaml"  # the data dir under SWITCHBOARD_HOME
        assert f"Agents file: {agents_file}" in "".join(lines)
        ports = [int(a.url.rstrip("/").rsplit(":", 1)[1]) for a in load_agents(agents_file, env={}).agents]
        # 47101.. in order, except where something else holds a port (the start-up text says so)
        moved = sum("was taken" in line for line in lines)
        assert len(set(ports)) == len(AGENTS)
        assert sum(p != 47101 + i for i, p in enumerate(ports)) == moved
    finally:
        process.send_signal(signal.SIGINT)
        code = process.wait(15)
    assert code == 0
    assert "Traceback" not in process.stderr.read()


def test_help_stays_free_of_the_server_stack(tmp_path):
    code = (
        "import sys\n"
        "from switchboard.cli import main\n"
        "for argv in (['--help'], ['demo', '--help']):\n"
        "    try:\n"
        "        main(argv)\n"
        "    except SystemExit:\n"
        "        pass\n"
        "heavy = sorted({m.split('.')[0] for m in sys.modules} & {'a2a', 'uvicorn', 'starlette', 'textual'})\n"
        "print(heavy, file=sys.stderr)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=demo_env(tmp_path))
    assert run.returncode == 0, run.stderr
    assert run.stderr.strip() == "[]"
    assert "--writer-pace MS" in run.stdout and "--agents-out FILE" in run.stdout and "--demo" in run.stdout


def test_the_example_agents_file_matches_what_the_demo_writes_on_its_default_ports():
    example = load_agents(REPO / "examples" / "agents.demo.yaml", env={})
    written = [
        RunningAgent(
            a.name,
            f"http://127.0.0.1:{47101 + i}" + ("/" if a.protocol == "a2a" else ""),
            a.protocol,
            a.description,
            a.api_key_env,
            a.bearer_env,
            a.skills,
        )
        for i, a in enumerate(AGENTS)
    ]
    assert not example.warnings
    shape = [(a.name, a.url, a.protocol, a.api_key_env, a.bearer_env) for a in example.agents]
    assert shape == [(a.name, a.url, a.protocol, a.api_key_env, a.bearer_env) for a in written]
    assert render_agents_file(written).startswith("# The a2a-switchboard demo fleet")


# --- each agent through `switchboard send` ---------------------------------------------------------------


@VERSION_FLAGS
def test_cli_echo(cli, flags):
    run = cli("send", "echo", "hello there", *flags)
    assert run.returncode == 0, run.stderr
    assert "echo: hello there" in run.stdout and "Task ID" not in run.stdout


@VERSION_FLAGS
def test_cli_writer_jsonl_chunks_join_into_the_document(cli, flags):
    run = cli("send", "writer", "a field guide to houseplants pace 0", "--stream", "-o", "json", *flags)
    assert run.returncode == 0, run.stderr
    events = jsonl(run.stdout)
    chunks = [e["artifactUpdate"] for e in events if "artifactUpdate" in e]
    text = "".join(p["text"] for c in chunks for p in c["artifact"]["parts"])
    assert text == writer.compose("a field guide to houseplants")
    assert len(chunks) > 50 and chunks[-1]["lastChunk"] is True
    assert events[-1]["statusUpdate"]["status"]["state"] == "TASK_STATE_COMPLETED"


@VERSION_FLAGS
def test_cli_interviewer_three_turns(cli, flags):
    first = fields(cli("send", "interviewer", "interview me", *flags).stdout)
    assert first["State"] == "input-required"
    assert " send interviewer " in first["Resume"] and " ".join(flags) in first["Resume"]
    assert f"--task-id {first['Task ID']} --context-id {first['Context ID']}" in first["Resume"]
    ids = ["--task-id", first["Task ID"], "--context-id", first["Context ID"]]
    second = cli("send", "interviewer", *ids, "Grace", *flags)
    assert fields(second.stdout)["State"] == "input-required"
    # send announces the A2UI it renders (the card declares it): the question is worded for the form it shows
    assert interviewer.question_goal("Grace", form=True) in second.stdout and "learn how A2A works" in second.stdout
    third = cli("send", "interviewer", *ids, "test my own agent", "-o", "json", *flags)
    task = json.loads(third.stdout)["task"]
    assert task["status"]["state"] == "TASK_STATE_COMPLETED"
    parts = task["artifacts"][0]["parts"]
    assert {"name": "Grace", "goal": "test my own agent"} in [p.get("data") for p in parts]


@VERSION_FLAGS
def test_cli_researcher_cancel(cli, flags):
    started = fields(cli("send", "researcher", "the history of radio", "--async", *flags).stdout)
    canceled = cli("task", "cancel", "researcher", started["Task ID"], *flags)
    assert canceled.returncode == 0, canceled.stderr
    assert fields(canceled.stdout)["State"] == "canceled"


@VERSION_FLAGS
def test_cli_researcher_subscribe_and_download_the_report(cli, flags):
    started = fields(cli("send", "researcher", "quick tide tables", "--async", *flags).stdout)
    followed = cli("task", "subscribe", "researcher", started["Task ID"], "--stream", "-o", "json", *flags)
    assert followed.returncode == 0, followed.stderr
    events = jsonl(followed.stdout)
    said = [e["statusUpdate"]["status"]["message"]["parts"][0]["text"] for e in events if "statusUpdate" in e]
    assert any(s.startswith(researcher.PHASES) for s in said) and said[-1] == "report ready"
    task = json.loads(cli("task", "get", "researcher", started["Task ID"], "-o", "json", *flags).stdout)
    parts = task["artifacts"][0]["parts"]
    url = next(p["url"] for p in parts if "url" in p)
    assert httpx.get(url).text == researcher.report_markdown("tide tables")
    assert any(p.get("filename") == "sources.csv" and p.get("raw") for p in parts)


def test_cli_gatekeeper_with_no_key_exported_uses_the_demos_default_and_a_wrong_or_empty_one_exits_4(cli):
    # The README: unless set, the key is demo-key, for the demo and for switchboard alike (the TUI's path too).
    unset = cli("send", "gatekeeper", "open the vault")
    assert unset.returncode == 0, unset.stderr
    assert fields(unset.stdout)["State"] == "auth-required" and API_KEY not in unset.stdout + unset.stderr
    empty = cli("send", "gatekeeper", "open the vault", env={"SWITCHBOARD_DEMO_KEY": ""})  # set: read as set
    assert empty.returncode == 4 and "SWITCHBOARD_DEMO_KEY" in empty.stderr
    wrong = cli("send", "gatekeeper", "open the vault", env={"SWITCHBOARD_DEMO_KEY": "not-the-key"})
    assert wrong.returncode == 4 and "HTTP 401" in wrong.stderr and "not-the-key" not in wrong.stderr


@VERSION_FLAGS
def test_cli_gatekeeper_passcode(cli, flags):
    first = fields(cli("send", "gatekeeper", "open the vault", *flags, env=KEY).stdout)
    assert first["State"] == "auth-required"
    ids = ["--task-id", first["Task ID"], "--context-id", first["Context ID"]]
    wrong = cli("send", "gatekeeper", *ids, "abracadabra", *flags, env=KEY)
    assert fields(wrong.stdout)["State"] == "auth-required" and gatekeeper.WRONG_PASSCODE in wrong.stdout
    right = cli("send", "gatekeeper", *ids, "sesame", *flags, env=KEY)
    assert right.returncode == 0 and fields(right.stdout)["State"] == "completed"


@VERSION_FLAGS
@pytest.mark.parametrize(("ask", "state"), [("fail", "failed"), ("reject", "rejected")])
def test_cli_flaky_fail_and_reject(cli, flags, ask, state):
    run = cli("send", "flaky", ask, *flags)
    assert run.returncode == 0 and fields(run.stdout)["State"] == state
    assert f"the task ended {state}" in run.stderr


@VERSION_FLAGS
def test_cli_flaky_crash(cli, flags):
    run = cli("send", "flaky", "crash", "--stream", "-o", "json", *flags)
    lines = jsonl(run.stdout)
    # The tool did its job: the crash is reported, and the task's own state (failed) ends the stream.
    assert run.returncode == 0, run.stderr
    assert "InternalError" in run.stderr and "crashed on purpose" in run.stderr
    task_id = lines[0]["task"]["id"]
    assert [e["statusUpdate"]["status"]["state"] for e in lines[1:-1]] == ["TASK_STATE_WORKING"] * 2
    assert lines[-1]["task"]["id"] == task_id and lines[-1]["task"]["status"]["state"] == "TASK_STATE_FAILED"


def test_cli_legacy_card_and_two_turns(cli):
    card = json.loads(cli("card", "get", "legacy", "-o", "json").stdout)
    assert card["protocolVersion"] == "0.3.0" and "supportedInterfaces" not in card
    assert "Endpoint: " in (shown := cli("card", "get", "legacy").stdout) and "protocol 0.3" in shown
    first = fields(cli("send", "legacy", "72 f").stdout)
    assert first["State"] == "input-required"
    done = cli("send", "legacy", "--task-id", first["Task ID"], "--context-id", first["Context ID"], "c")
    assert fields(done.stdout)["State"] == "completed" and "72 f = 22.2222 c" in done.stdout
    refused = cli("send", "legacy", "72 f", "--a2a-version", "1.0")
    assert refused.returncode == 2 and "offers 0.3" in refused.stderr


def test_cli_tasks_agent_round_trip(cli):
    token = {"SWITCHBOARD_DEMO_TOKEN": TOKEN}
    first = fields(cli("send", "tasks", "book a table", "--poll-interval", "0.2", env=token).stdout)
    assert first["State"] == "input-required"
    done = cli("send", "tasks", "--task-id", first["Task ID"], "--context-id", first["Context ID"], "7:30pm", env=token)
    assert done.returncode == 0, done.stderr
    assert fields(done.stdout)["State"] == "completed" and "booked at 7:30pm" in done.stdout
    unset = cli("send", "tasks", "book a table", "--poll-interval", "0.2")  # demo-token unless set
    assert unset.returncode == 0 and fields(unset.stdout)["State"] == "input-required", unset.stderr
    refused = cli("send", "tasks", "book a table", env={"SWITCHBOARD_DEMO_TOKEN": "not-the-token"})
    assert refused.returncode == 4


def test_the_listing_warns_of_a_demo_agent_the_persons_agents_file_hides(tmp_path):
    """Issue 26, item 6: the person's agents file naming `writer` hid the demo's writer in the TUI, unsaid."""
    own = tmp_path / "config" / "agents.yaml"  # the default agents file under SWITCHBOARD_HOME
    own.parent.mkdir(parents=True)
    own.write_text("agents:\n  - name: writer\n    url: http://127.0.0.1:9/\n")
    demo = start_demo(tmp_path)
    code, stderr = demo.interrupt()
    assert code == 0
    warnings = [line for line in stderr.splitlines() if line.startswith("warning:")]
    assert warnings == [
        f"warning: your agents file {own} also names writer: the TUI (switchboard --demo) lists that entry and "
        "hides the demo's writer; the commands below use the demo's agents file, so they reach the demo's"
    ]
