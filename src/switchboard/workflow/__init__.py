"""Workflows: several A2A agents (and shell commands) in a dependency graph, run live and journaled.

`spec` reads and validates the file, `template` fills in `{{...}}`. Never imports textual (an
import-linter contract says so).
"""

from .spec import Issue, Step, Workflow, WorkflowInvalid, load_workflow

__all__ = ["Issue", "Step", "Workflow", "WorkflowInvalid", "load_workflow"]
