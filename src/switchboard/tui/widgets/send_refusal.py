"""Why a conversation tab cannot send a message right now, said as a sentence the person can act on."""

from __future__ import annotations

from ...a2a.errors import (
    CardInvalidError,
    CardNotFoundError,
    InvalidResponseError,
    ProtocolUnsupportedError,
    SwitchboardError,
    UnreachableError,
)
from ...conversation import Conversation
from ...safe_text import strip_controls


def send_refusal(
    conversation: Conversation | None, link_error: SwitchboardError | None, *, canceling: bool
) -> str | None:
    """Why a message cannot go out now, in a sentence; None when it can. `link_error`: why there is no
    conversation yet (None while still connecting)."""
    if conversation is None:
        return _not_connected(link_error)
    if canceling:
        return "still canceling the task; wait for the agent's answer."
    if conversation.running:
        return "the agent is still answering. Wait, or press ctrl+g to cancel the task."
    return None


def _not_connected(error: SwitchboardError | None) -> str:
    if error is None:
        return "still connecting to the agent. Send again in a moment."
    if isinstance(error, UnreachableError):
        return "the agent cannot be reached (see the message above). Check that it runs, then reopen the tab."
    if isinstance(error, ProtocolUnsupportedError):
        return "the agent offers no protocol binding switchboard speaks (see the message above)."
    if isinstance(error, CardNotFoundError | CardInvalidError | InvalidResponseError):
        return "this address does not answer as an A2A agent (see the message above)."
    return f"could not connect to the agent: {strip_controls(error.message)}"
