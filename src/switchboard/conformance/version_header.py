"""A2A-Version negotiation (§3.6.2): a request naming a version the interface does not speak (another major, or
another minor) is VersionNotSupportedError; one naming a patch of its version is served as that version (versions
match on Major.Minor). (An empty header, which means 0.3, is deeper.py's.)"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

from ..a2a.errors import ProtocolError
from .error_codes import TASK_NOT_FOUND, UNSPOKEN_VERSION, VERSION_NOT_SUPPORTED

if TYPE_CHECKING:
    from .interface_probe import Probe


async def unspoken_major(p: Probe) -> None:
    await version_header(p, "version", UNSPOKEN_VERSION)


async def unspoken_minor(p: Probe) -> None:
    await version_header(p, "version: minor", "1.1")


async def patch(p: Probe) -> None:
    await version_header(p, "version: patch", "1.0.3")


async def version_header(p: Probe, scenario: str, asked: str) -> None:
    """A request whose A2A-Version is `asked`: VersionNotSupportedError, but for `version: patch`, served as 1.0.
    The request is GetTask of an id the agent never gave: served, it is TaskNotFoundError."""
    headers = getattr(p.t, "_headers", None)  # the header every request of the transport carries
    if p.version != "1.0":
        p.add(scenario, "skip", "v0.3 has no A2A-Version negotiation")
        return
    if headers is None:
        p.add(scenario, "skip", "not probed over this binding (its version travels in gRPC metadata)")
        return
    served = scenario == "version: patch"
    want = "served as 1.0 (TaskNotFoundError)" if served else "VersionNotSupportedError"
    headers["A2A-Version"] = asked
    try:
        await p.t.get_task(f"switchboard-conformance-{uuid.uuid4()}")
    except ProtocolError as exc:
        answered = f"error {exc.rpc_code} {exc.code}"
        ok = exc.rpc_code == (TASK_NOT_FOUND if served else VERSION_NOT_SUPPORTED)
        said = f"A2A-Version {asked}: " + (want if ok else f"answered {exc.code}, not {want}")
        p.judge(scenario, ok, said, op="get", answered=answered)
        return
    finally:
        headers["A2A-Version"] = "1.0"
    said = f"A2A-Version {asked} answered with a task for an id it never gave"
    p.judge(scenario, False, said, op="get", answered="a Task")
