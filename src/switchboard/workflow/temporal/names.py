"""The names a run on Temporal is known by: its workflow type and its search attributes (light: clients that
only list runs import this, not the workflow code)."""

from __future__ import annotations

from temporalio.common import SearchAttributeKey

WORKFLOW_TYPE = "SwitchboardRun"
STATE = SearchAttributeKey.for_keyword("SwitchboardState")
NAME = SearchAttributeKey.for_keyword("SwitchboardWorkflow")
WAITING = SearchAttributeKey.for_keyword_list("SwitchboardWaiting")
ALREADY_ANSWERED = "already answered"
STEP_REQUESTED = "stepRequested"  # the signal a turn sends its run before its message goes
