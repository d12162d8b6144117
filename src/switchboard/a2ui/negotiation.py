"""What the client announces: the versions and catalogs it renders (`a2uiClientCapabilities` in every message's
metadata) and the extension URIs it activates where an agent's card declares them.
"""

from __future__ import annotations

from typing import Any

from ..a2a.model import AgentCard

EXTENSION_BASE = "https://a2ui.org/a2a-extension/a2ui/"
EXTENSIONS = {
    "v0.8": EXTENSION_BASE + "v0.8",
    "v0.9": EXTENSION_BASE + "v0.9",
    "v0.9.1": EXTENSION_BASE + "v0.9.1",
}
CATALOG_V08 = "https://a2ui.org/specification/v0_8/standard_catalog_definition.json"
# v0.9.1's documents name its basic catalog under v0_9_1, its catalog.json still says v0_9: both are the one we draw.
CATALOGS_V09 = (
    "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json",
    "https://a2ui.org/specification/v0_9_1/catalogs/basic/catalog.json",
)
CAPABILITIES_KEY = "a2uiClientCapabilities"
DATA_MODEL_KEY = "a2uiClientDataModel"


def client_capabilities() -> dict[str, Any]:
    """One object both versions read: v0.8's flat `supportedCatalogIds`, and v0.9's under its version key."""
    return {
        "supportedCatalogIds": [CATALOG_V08],
        "v0.9": {"supportedCatalogIds": list(CATALOGS_V09)},
    }


def declared_extensions(card: AgentCard | None) -> list[str]:
    """The A2UI extension URIs the card declares that this client renders (to activate on its requests)."""
    if card is None:
        return []
    known = set(EXTENSIONS.values())
    return [e.uri for e in card.capabilities.extensions or [] if e.uri in known]


def announcement(card: AgentCard | None) -> dict[str, Any] | None:
    """The metadata every message to this agent carries, None when its card declares no A2UI extension."""
    return {CAPABILITIES_KEY: client_capabilities()} if declared_extensions(card) else None
