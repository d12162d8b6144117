"""Public keys a person trusts to sign agent cards: read from JWKS, JWK or PEM files (agents file `cardKeys:`,
settings `card_keys:`, `--card-key FILE`), and from a card's `jku` JWKS. Only asymmetric keys: a shared secret
(`oct`) could be used by anyone who holds it to sign any card."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ...errors import UsageError

KEY_FILE_HINT = (
    'A card key file is a JWKS ({"keys": [...]}), one JWK, or a PEM public key or certificate; '
    "public keys only (RSA, EC or OKP)."
)


@dataclass(frozen=True)
class CardKey:
    """One public key, the `kid` it answers to (None: tried for any signature) and where it came from."""

    kid: str | None
    key: Any  # a cryptography public key object
    source: str
    # a certificate's validity window (UTC): outside it the key is not used (A2A §8.4.3: expired keys MUST NOT)
    not_before: datetime | None = None
    not_after: datetime | None = None

    def expired(self, now: datetime | None = None) -> str | None:
        """Why the key may not be used now (None: it may)."""
        now = now or datetime.now(UTC)
        if self.not_after is not None and now > self.not_after:
            return f"the key from {self.source} expired on {self.not_after:%Y-%m-%d}"
        if self.not_before is not None and now < self.not_before:
            return f"the key from {self.source} is not valid before {self.not_before:%Y-%m-%d}"
        return None


def jwk_keys(document: Any, source: str) -> list[CardKey]:
    """The public keys of a JWKS or a single JWK; symmetric and unreadable keys are skipped."""
    from jwt import PyJWK
    from jwt.exceptions import PyJWKError, PyJWTError

    items = document.get("keys") if isinstance(document, dict) and "keys" in document else [document]
    keys: list[CardKey] = []
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, dict) or item.get("kty") not in ("RSA", "EC", "OKP"):
            continue
        try:
            key = PyJWK(item).key
        except (PyJWKError, PyJWTError, ValueError, TypeError, KeyError):  # InvalidKeyError is a PyJWTError
            continue
        key = key.public_key() if hasattr(key, "private_bytes") else key  # a private JWK given by mistake
        kid = item.get("kid") if isinstance(item.get("kid"), str) else None
        keys.append(CardKey(kid, key, source))
    return keys


def _pem_keys(data: bytes, source: str) -> list[CardKey]:
    from cryptography import x509
    from cryptography.hazmat.primitives.serialization import load_pem_public_key

    if b"BEGIN CERTIFICATE" in data:
        cert = x509.load_pem_x509_certificate(data)
        return [CardKey(None, cert.public_key(), source, cert.not_valid_before_utc, cert.not_valid_after_utc)]
    return [CardKey(None, load_pem_public_key(data), source)]


def load_key_file(path: Path, kid: str | None = None) -> list[CardKey]:
    """The keys in one file. `kid` names a PEM key (PEM has no key id); a file that is missing, unreadable or
    holds no public key is a usage error naming it."""
    source = f"trusted key file {path}"
    try:
        data = path.expanduser().read_bytes()
    except OSError as exc:
        raise UsageError(
            f"cannot read the card key file {path}: {exc.strerror}", hint="Check the path. " + KEY_FILE_HINT
        ) from None
    try:
        if data.lstrip().startswith(b"{"):
            keys = jwk_keys(json.loads(data), source)
        else:
            keys = [replace(k, kid=kid) for k in _pem_keys(data, source)]
    except (ValueError, TypeError) as exc:
        raise UsageError(f"the card key file {path} holds no usable key ({exc})", hint=KEY_FILE_HINT) from None
    if not keys:
        raise UsageError(f"the card key file {path} holds no public RSA, EC or OKP key", hint=KEY_FILE_HINT)
    return keys


def load_key_files(paths: Iterable[Path | str], base: Path | None = None) -> list[CardKey]:
    """Every key of every file; relative paths are read from `base` (the agents file's folder)."""
    keys: list[CardKey] = []
    for item in paths:
        path = Path(item).expanduser()
        if base is not None and not path.is_absolute():
            path = base / path
        keys += load_key_file(path)
    return keys
