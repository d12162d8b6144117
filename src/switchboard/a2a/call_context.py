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
    """One call's own listeners and manner. `on_retry` hears that a request of this call failed and is tried again
    (the text says why and when); without it, the retry is one of the transport's notes. `interactive` False: the
    call is made in the background, nobody asked for it (the inbox re-reading a task), so it never starts a
    sign-in that needs the person (a browser, a device code): a held token is used, or renewed silently (a refresh
    token, client credentials); else the call fails with AuthFailedError, and the person, when they ask, signs in."""

    on_retry: Callable[[str], None] | None = None
    interactive: bool = True


BACKGROUND = CallContext(interactive=False)  # a read nobody asked for: never a sign-in with the person
