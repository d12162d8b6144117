"""`switchboard serve examples/workflows/briefing.yaml` from a fresh home with the demo fleet running: the demo's
own agents file names the agents, no --agents needed (what the README shows)."""

from __future__ import annotations

import subprocess
import sys

from serve_support import EXAMPLES, REPO, cli, fields, serve_env, start_serve


def test_serve_finds_the_demo_fleets_agents_without_an_agents_file(tmp_path):
    env = serve_env(tmp_path)
    demo = subprocess.Popen(
        [sys.executable, "-m", "switchboard", "demo", "--port", "0", "--writer-pace", "1"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
        cwd=REPO,
    )
    try:
        for line in demo.stdout:
            if line.strip() == "Serving until Ctrl+C.":
                break
        assert (tmp_path / "data" / "demo" / "agents.yaml").is_file()
        served = start_serve(tmp_path, None, str(EXAMPLES / "briefing.yaml"), "--port", "0", env=env)
        try:
            assert "briefing" in served.urls and "card get" in served.text
            done = cli(tmp_path, "send", served.url("briefing"), "quick tides")
            assert done.returncode == 0, done.stderr
            assert fields(done.stdout)["State"] == "completed", done.stdout
            assert "Research on tides" in done.stdout
        finally:
            served.interrupt()
    finally:
        demo.terminate()
        demo.wait(20)
