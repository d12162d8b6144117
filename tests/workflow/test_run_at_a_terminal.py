"""`switchboard run` at a real terminal (a pty): a question shows after the progress that came before it, and
progress that comes while the `answer>` prompt waits is held until the answer is typed, so neither garbles the
other (the line the person types stays on the prompt's line)."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import time
from pathlib import Path

from workflow_support import REPO, cli_env, fields, switchboard_argv, wait_for_record

PROMPT = b"answer> "


class Terminal:
    """The process's stdin and stderr on a pty (stdout, the result, on a pipe); what it wrote there so far."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.fd, child = pty.openpty()
        self.process = subprocess.Popen(argv, stdin=child, stdout=subprocess.PIPE, stderr=child, env=env, cwd=REPO)
        os.close(child)
        self.seen = b""

    def read_until(self, wanted: bytes, count: int = 1, seconds: float = 60) -> str:
        """Read until `wanted` has been written `count` times in all (the process's output, as the person sees it)."""
        deadline = time.monotonic() + seconds
        while self.seen.count(wanted) < count:
            assert time.monotonic() < deadline, f"no {wanted!r} x{count} in: {self.text}"
            ready, _, _ = select.select([self.fd], [], [], 0.2)
            if ready:
                try:
                    self.seen += os.read(self.fd, 65536)
                except OSError:  # the process ended and closed the terminal
                    break
        return self.text

    def type(self, line: str) -> None:
        os.write(self.fd, line.encode() + b"\n")

    @property
    def text(self) -> str:
        return self.seen.replace(b"\r\n", b"\n").decode("utf-8", errors="replace")

    def close(self) -> str:
        """Wait for the process to end; what it printed on stdout."""
        stdout, _ = self.process.communicate(timeout=60)
        os.close(self.fd)
        return stdout.decode()


def test_questions_and_progress_at_a_terminal_never_garble_each_other(home: Path, agents_file: Path, tmp_path: Path):
    gate = tmp_path / "gate"
    os.mkfifo(gate)  # the shell step ends when the test opens it: progress that comes while the prompt waits
    flow = tmp_path / "terminal.yaml"
    flow.write_text(
        "name: terminal\nagents: [interviewer]\nsteps:\n"
        "  - {name: interview, agent: interviewer, task: interview me}\n"
        f"  - {{name: gate, run: 'head -c 1 {gate} > /dev/null'}}\n"
    )
    terminal = Terminal(switchboard_argv(agents_file, "run", str(flow)), cli_env(home))
    try:
        shown = terminal.read_until(PROMPT)
        # The progress that led to the question comes before it, and the prompt is the last thing written.
        asks = shown.index("interview: the agent asks (input-required)")
        assert asks < shown.index("What is your name?") < shown.index("answer> ")
        with open(gate, "w") as opened:  # the gate step completes while the prompt waits ...
            opened.write("x")
        wait_for_record(home, lambda r: r["type"] == "StepCompleted" and r.get("step") == "gate")
        terminal.type("Ada")
        shown = terminal.read_until(PROMPT, count=2)
        # ... and its line waits for the answer: the typed answer sits on the prompt's line, the line after it.
        assert "answer> Ada\n" in shown, shown
        assert shown.index("answer> Ada\n") < shown.index("gate: completed\n")
        assert shown.rstrip(" ").endswith("answer>"), shown
        terminal.type("1")
        shown = terminal.read_until(b"run completed")
        assert "answer> 1\n" in shown, shown
        result = terminal.close()
    finally:
        if terminal.process.poll() is None:
            terminal.process.kill()
    assert terminal.process.returncode == 0
    assert fields(result)["State"] == "completed"
