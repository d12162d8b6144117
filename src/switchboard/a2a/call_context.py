"""What belongs to one call rather than to the transport it goes over (a2a-python's ClientCallContext).

A transport is shared: the turns of parallel workflow steps to one agent, a conversation's turn and its get-task,
all go over one. What one call needs to hear travels with that call, never on the transport, so two calls at once
each hear only their own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class CallContext:
    """One call's own listeners. `on_retry` hears that a request of this call failed and is tried again (the text
    says why and when); without it, the retry is one of the transport's notes."""

    on_retry: Callable[[str], None] | None = None
