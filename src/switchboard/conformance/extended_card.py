"""The extended card, answered as the card declares it (§3.3.4): served (or ExtendedAgentCardNotConfigured) where
declared, UnsupportedOperationError where not; at v1.0, declared only by capabilities.extendedAgentCard."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..a2a.errors import ProtocolError
from ..a2a.model import AgentCard
from .error_codes import NOT_CONFIGURED, UNSUPPORTED

if TYPE_CHECKING:
    from .interface_probe import Probe


async def extended_card(p: Probe) -> None:
    declared = bool(p.card.capabilities.extended_card)
    # At v1.0 only capabilities.extendedAgentCard declares it (§3.3.4); the v0.3 flag a merged card may carry
    # is what a client falls back to, not what a v1.0 caller is told.
    legacy_only = declared and p.version == "1.0" and p.card.shape == "v1.0" and not _v10_extended(p.card)
    declared = declared and not legacy_only
    try:
        extended = await p.t.extended_card()
    except ProtocolError as exc:
        answered = f"error {exc.rpc_code} {exc.code}"
        if declared and exc.rpc_code == NOT_CONFIGURED:
            said = f"{exc.code}: declared, not configured"
            p.judge("extended card", True, said, op="extended_card", answered=answered)
        elif not declared:
            ok = exc.rpc_code == UNSUPPORTED
            said = "UnsupportedOperationError, as the card declares none" if ok else (
                f"not declared; answered {exc.code}, not UnsupportedOperationError (-32004)"
            )  # fmt: skip
            p.judge("extended card", ok, said, op="extended_card", answered=answered)
        else:
            raise
        return
    answered = f"a card, {len(extended.skills)} skill(s)"
    if legacy_only:
        said = (
            "served, but the card declares it only in v0.3's supportsAuthenticatedExtendedCard, not in "
            "capabilities.extendedAgentCard (UnsupportedOperationError is expected at v1.0 without it)"
        )
        p.judge("extended card", False, said, op="extended_card", answered=answered)
    elif not declared:
        said = "served although the card does not declare one (UnsupportedOperationError is expected)"
        p.judge("extended card", False, said, op="extended_card", answered=answered)
    else:
        p.judge("extended card", True, f"{extended.name}, {answered}", op="extended_card", answered=answered)


def _v10_extended(card: AgentCard) -> bool:
    """The card as served declares the extended card the v1.0 way: capabilities.extendedAgentCard true."""
    capabilities = card.raw.get("capabilities")
    return isinstance(capabilities, dict) and capabilities.get("extendedAgentCard") is True
