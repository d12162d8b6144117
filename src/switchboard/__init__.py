"""a2a-switchboard: a terminal switchboard for A2A agents, and a Python API to the same core.

    from switchboard import Agent, Workflow

The names in `__all__` are the stable surface; everything else is private by convention and may change.
They are imported on first use, so `import switchboard` (and `switchboard --help`) stays light.
"""

from __future__ import annotations

from importlib import import_module

# Not `typing`'s: importing typing costs `switchboard --help` a tenth of its start (mypy reads this name the same).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .a2a.errors import SwitchboardError, UsageError
    from .a2a.follow import Notice, TurnEvent
    from .a2a.model import (
        AgentCard,
        ArtifactUpdate,
        DataPart,
        FilePart,
        Message,
        Part,
        StatusUpdate,
        Task,
        TaskState,
        TextPart,
    )
    from .api.agent import Agent, Reply
    from .api.builder import RunResult, Workflow
    from .workflow.spec import WorkflowInvalid
    from .workflow.state import AskRequest

# Where each public name lives (imported when first asked for).
_HOMES = {
    "Agent": "api.agent",
    "Reply": "api.agent",
    "Workflow": "api.builder",
    "RunResult": "api.builder",
    "AskRequest": "workflow.state",
    "WorkflowInvalid": "workflow.spec",
    "SwitchboardError": "a2a.errors",
    "UsageError": "a2a.errors",
    "Notice": "a2a.follow",
    "TurnEvent": "a2a.follow",
    "ArtifactUpdate": "a2a.model",
    "DataPart": "a2a.model",
    "FilePart": "a2a.model",
    "Message": "a2a.model",
    "Part": "a2a.model",
    "StatusUpdate": "a2a.model",
    "Task": "a2a.model",
    "TaskState": "a2a.model",
    "TextPart": "a2a.model",
    "AgentCard": "a2a.model",
}

__all__ = [
    "Agent",
    "AgentCard",
    "ArtifactUpdate",
    "AskRequest",
    "DataPart",
    "FilePart",
    "Message",
    "Notice",
    "Part",
    "Reply",
    "RunResult",
    "StatusUpdate",
    "SwitchboardError",
    "Task",
    "TaskState",
    "TextPart",
    "TurnEvent",
    "UsageError",
    "Workflow",
    "WorkflowInvalid",
    "__version__",
]


def __getattr__(name: str) -> Any:
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            value: Any = version("a2a-switchboard")
        except PackageNotFoundError:  # run from a source tree that was never installed
            value = "0+unknown"
    elif name in _HOMES:
        value = getattr(import_module(f"{__name__}.{_HOMES[name]}"), name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
