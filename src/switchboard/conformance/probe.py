"""`switchboard conformance AGENT`: probe an agent with the scenarios a client relies on, over every binding and
protocol version its card offers that switchboard speaks, and judge each finding against a requirement of the A2A
specification in the version the interface speaks (requirements.py): a MUST broken is a fail, a SHOULD a warning.

A probe sends a short text message (the agent does whatever it does with it), then reads, lists, re-subscribes to
and cancels the task that came of it, asks for a task that does not exist, and checks that what the card declares
(streaming, push notifications, the extended card) is answered as declared. What went over the wire is read from
the tap (wire_log.py): the transports read leniently, the probe does not. Nothing here prints: the command renders
the Report.

This module is the entry: the card, the interfaces it offers, one interface_probe.Probe over each.
"""

from __future__ import annotations

import httpx

from ..a2a.auth.credentials import Credentials
from ..a2a.cards import BINDING_NAMES, ResolvedCard, fetch_card, lint_card, spoken_bindings, wire_version
from ..a2a.client import transport_for
from ..a2a.errors import CredentialsMissingError
from ..a2a.tap import Tap
from . import deeper
from .error_codes import PROBE_TEXT
from .interface_probe import Probe
from .push_delivery import DELIVERY_BOUND
from .report import Check, Report
from .requirements import requirement
from .wire_log import WireLog

__all__ = ["PROBE_TEXT", "Probe", "Report", "offered_interfaces", "probe"]


def offered_interfaces(resolved: ResolvedCard) -> tuple[list[tuple[str, str]], list[str]]:
    """The (binding, version) pairs the card offers that switchboard speaks, in the card's order, and the
    interfaces it offers that switchboard does not speak (as labels)."""
    card = resolved.card
    spoken: list[tuple[str, str]] = []
    unspoken: list[str] = []
    for iface in card.interfaces:
        binding = iface.binding.upper()
        version = "0.3" if card.shape == "legacy" else wire_version(iface.protocol_version)
        if binding in spoken_bindings() and version is not None:
            if (binding, version) not in spoken:
                spoken.append((binding, version))
        else:
            unspoken.append(f"{iface.binding} {iface.protocol_version}")
    return spoken, unspoken


async def probe(
    ref: str,
    *,
    http: httpx.AsyncClient,
    credentials: Credentials | None = None,
    headers: dict[str, str] | None = None,
    tap: Tap | None = None,
    op_timeout: float = 20.0,
    push_wait: float = DELIVERY_BOUND,
) -> Report:
    """The conformance report of the agent at `ref`. A card that cannot be read raises (unreachable, not found).
    `push_wait`: seconds the probe's webhook waits for the push its cancel should cause (push_delivery.py)."""
    tap = tap or Tap()
    wire = WireLog(tap)
    resolved = await fetch_card(ref, http, tap=tap, headers=headers)
    card = resolved.card
    report = Report(ref, card.name, resolved.card_url)
    checks = report.checks
    card_version = "0.3" if card.shape == "legacy" else "1.0"
    said = f"a {card.shape} card, {len(card.interfaces)} interface(s)"
    checks.append(Check("card", "", "pass", said, requirement("card", card_version), "GET agent card", "HTTP 200"))
    if card.shape == "v1.0":
        checks += deeper.card_caching(wire, resolved.card_url)
    lint = requirement("card lint", card_version)
    checks += [Check("card lint", "", "warn", w, lint) for w in [*resolved.notes, *lint_card(card, resolved.card_url)]]
    spoken, unspoken = offered_interfaces(resolved)
    for label in unspoken:
        checks.append(Check("interfaces", label, "skip", "switchboard does not speak this interface"))
    if not spoken:
        said = "the card offers no interface over JSON-RPC or HTTP+JSON"
        checks.append(Check("interfaces", "", "fail", said, requirement("interfaces", card_version)))
        return report
    for binding, version in spoken:
        label = f"{BINDING_NAMES[binding]} {version}"
        try:
            transport = transport_for(
                resolved,
                prefer_version=version,
                binding=binding,
                http=http,
                tap=tap,
                credentials=credentials,
                extra_headers=headers or None,
                retry=None,
            )
        except CredentialsMissingError as exc:
            said = f"not probed: {exc.message}; give them (--api-key-env, --bearer-env) to probe this interface"
            checks.append(Check("interfaces", label, "skip", said, binding=binding, version=version))
            continue
        await Probe(transport, label, resolved, op_timeout, checks, wire, push_wait=push_wait).run()
    return report
