"""The A2A error codes the probe's scenarios expect (the JSON-RPC codes; the other bindings' errors are read as these
by the transports), and the values the probe sends that no agent can know."""

from __future__ import annotations

TASK_NOT_FOUND, TASK_NOT_CANCELABLE, UNSUPPORTED, NOT_CONFIGURED = -32001, -32002, -32004, -32007
VERSION_NOT_SUPPORTED = -32009
UNSPOKEN_VERSION = "99.0"  # a protocol version no agent speaks
PROBE_TEXT = "hello from switchboard conformance"
