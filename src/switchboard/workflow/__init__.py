"""Workflows: several A2A agents (and shell commands) in a dependency graph, run live and journaled.

`spec` is the model, `loader` reads and validates it from a file, `template` fills in `{{...}}`, `engine` runs
it, `journal` records it so a run survives a crash, `runs` reads it back. Never imports textual (an
import-linter contract says so).
"""

# What each name is imported from: imported on first use, so that reading run events (the TUI, `runs show`)
# does not load the engine, the YAML reader and the A2A client.
_HOMES = {
    "Ask": "delegate",
    "WorkflowRun": "engine",
    "resume_run": "engine",
    "start_run": "engine",
    "RunRecord": "runs",
    "RunSummary": "summary",
    "list_runs": "runs",
    "read_run": "runs",
    "Issue": "spec",
    "Step": "spec",
    "Workflow": "spec",
    "WorkflowInvalid": "spec",
    "load_workflow": "loader",
    "AskRequest": "state",
    "RunEvent": "state",
    "StepState": "state",
}


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


__all__ = [
    "Ask",
    "AskRequest",
    "Issue",
    "RunEvent",
    "RunRecord",
    "RunSummary",
    "Step",
    "StepState",
    "Workflow",
    "WorkflowInvalid",
    "WorkflowRun",
    "list_runs",
    "load_workflow",
    "read_run",
    "resume_run",
    "start_run",
]
