"""The demo's card-signing key: made fresh at each start (ES256, in memory), its public half written beside the
demo agents file, which names it in `cardKeys:` so a new user sees a card switchboard verifies."""

from __future__ import annotations

from pathlib import Path
from typing import Any

KEY_FILE = "card-signing-key.pub.pem"
KID = "demo-card-key"


def new_key() -> Any:
    from cryptography.hazmat.primitives.asymmetric import ec

    return ec.generate_private_key(ec.SECP256R1())


def sign_card(card: Any, key: Any) -> Any:
    """The card with a JWS signature by the official a2a-sdk signer (RFC 8785 canonical card)."""
    from a2a.utils.signing import create_agent_card_signer

    header: Any = {"alg": "ES256", "kid": KID, "typ": "JOSE"}  # no jku: the demo agents file names the key
    return create_agent_card_signer(key, header)(card)


def write_public_key(folder: Path, key: Any) -> Path:
    from cryptography.hazmat.primitives import serialization

    from ..files import write_atomically

    path = folder / KEY_FILE
    pem = key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    write_atomically(path, pem)
    return path
