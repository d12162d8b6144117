"""`card get`'s text output: the card as `Label: value` lines. A module of its own so that a card get does not
import what rendering a task's parts needs (the A2UI surfaces, the turn's view: render.py)."""

from __future__ import annotations

from ..a2a.auth.credentials import describe_scheme
from ..a2a.cards import BINDING_NAMES, choose_endpoint, lint_card
from ..a2a.errors import ProtocolUnsupportedError, UsageError
from ..a2a.extensions import extension_marks
from ..a2a.model import AgentCard
from .output import Out

__all__ = ["render_card"]


def render_card(
    out: Out,
    card: AgentCard,
    card_url: str | None,
    *,
    validate: bool,
    version: str | None = None,
    binding: str | None = None,
    trust: str | None = None,
    activated: list[str] | None = None,
) -> None:
    """The card as `Label: value` lines; `Endpoint` is the interface switchboard speaks to (as --a2a-version and
    --binding, or `binding:` in the agents file, force it), or why there is none. `activated`: the extensions this
    agent's requests carry, marked as such."""
    out.field("Name", card.name)
    out.field("Description", card.description)
    out.field("Version", card.version)
    out.field("Card URL", card_url)
    out.field("Signature", trust)
    if card.provider:
        out.field("Provider", f"{card.provider.organization} {card.provider.url or ''}".strip())
    out.field("Documentation", card.documentation_url)
    try:
        endpoint = choose_endpoint(card, version, binding=binding)
        out.field("Endpoint", f"{endpoint.url} ({BINDING_NAMES[endpoint.binding]}, protocol {endpoint.version})")
    except (ProtocolUnsupportedError, UsageError) as exc:
        out.field("Endpoint", f"none usable: {exc.message}")
    for iface in card.interfaces:
        out.field("Interface", f"{iface.binding} {iface.protocol_version} {iface.url}")
    caps = card.capabilities
    out.field("Streaming", "yes" if caps.streaming else "no")
    out.field("Push Notifications", "yes" if caps.push_notifications else "no")
    out.field("Extended Card", "yes" if caps.extended_card else "no")
    for ext in caps.extensions or []:
        out.field("Extension", ext.uri + extension_marks(ext.uri, ext.required, activated or []))
    out.field("Input Modes", ", ".join(card.default_input_modes))
    out.field("Output Modes", ", ".join(card.default_output_modes))
    for name, scheme in card.security_schemes.items():
        out.field("Security Scheme", describe_scheme(name, scheme))
    if card.security:
        out.field("Security Required", " or ".join(" + ".join(req) for req in card.security))
    for skill in card.skills:
        out.field("Skill", f"{skill.id}: {skill.name}")
        out.field("Skill Description", skill.description)
        if skill.tags:
            out.field("Skill Tags", ", ".join(skill.tags))
        for example in skill.examples:
            out.field("Skill Example", example)
    if validate:
        warnings = lint_card(card, card_url)
        for warning in warnings:
            out.field("Lint", warning)
        out.field("Lint Result", f"{len(warnings)} warning{'s' if len(warnings) != 1 else ''}")
