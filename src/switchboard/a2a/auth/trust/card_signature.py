"""Agent card signatures (A2A §8.4): each entry of `signatures` is a JWS (RFC 7515) over the card canonicalized
with RFC 8785, `signatures` removed. The outcome is verified, unverifiable (with why) or unsigned.

Canonical payload: the card as served, `signatures` dropped, then nulls, empty strings, empty lists and empty
objects dropped recursively (default values are absent from a card served as proto JSON already): what the
official a2a-sdk signer canonicalizes. A signer that keeps the spec's required empty fields (`"skills": []`)
signed the card as served, so that form is tried too; both are fixed functions of the received card, so trying
both lets no change through.

Keys: the person's trusted keys (by `kid`, or a key with none); else the JWKS at the signature's `jku`, fetched
only over https or from the card's own origin (so a key is never taken from a place the card's own transport does
not vouch for). Asymmetric algorithms only: `none` and HMAC would let anyone holding the shared value sign.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import urlsplit

import httpx

from ...errors import InvalidResponseError, SwitchboardError
from ...origin import origin_of
from ...tap import Tap
from .card_keys import CardKey, jwk_keys

ALLOWED_ALGORITHMS = ("ES256", "ES384", "ES512", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "EdDSA")
JWKS_LIMIT = 256 * 1024  # a JWKS is a few keys; more is not one
MAX_SIGNATURES = 8  # key rotation needs two or three; a hostile card must not make us fetch a thousand jku

Status = Literal["verified", "unverifiable", "unsigned"]


@dataclass(frozen=True)
class CardTrust:
    """What the card's signatures prove. `detail`: for verified, the algorithm and key; else why not."""

    status: Status
    detail: str = ""

    @property
    def verified(self) -> bool:
        return self.status == "verified"

    def __str__(self) -> str:
        return f"{self.status} ({self.detail})" if self.detail else self.status

    def to_json(self) -> dict[str, str]:
        return {"status": self.status, "detail": self.detail}


def _clean(value: Any) -> Any:
    """`value` without nulls, empty strings, lists and objects, recursively (None: nothing left)."""
    if isinstance(value, dict):
        kept = {k: c for k, v in value.items() if (c := _clean(v)) is not None}
        return kept or None
    if isinstance(value, list):
        items = [c for v in value if (c := _clean(v)) is not None]
        return items or None
    if value is None or value == "":
        return None
    return value


def _without_nulls(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_nulls(v) for v in value]
    return value


def canonical_payloads(raw: dict[str, Any]) -> list[bytes]:
    """The RFC 8785 bytes a signer may have signed for this card (see the module's note), most likely first."""
    import rfc8785

    card = {k: v for k, v in raw.items() if k != "signatures"}
    forms = [_clean(card) or {}, _without_nulls(card)]
    out: list[bytes] = []
    for form in forms:
        payload = rfc8785.dumps(form)
        if payload not in out:
            out.append(payload)
    return out


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _header(signature: Any) -> tuple[dict[str, Any] | None, str]:
    """The protected header of one `signatures` entry, or None and why it cannot be read."""
    if not isinstance(signature, dict):
        return None, "a signature is not a JSON object"
    protected, value = signature.get("protected"), signature.get("signature")
    if not isinstance(protected, str) or not isinstance(value, str) or not protected or not value:
        return None, "a signature lacks its protected header or value"
    try:
        decoded = json.loads(base64.urlsafe_b64decode(protected + "=" * (-len(protected) % 4)))
    except (binascii.Error, ValueError, RecursionError):  # RecursionError: JSON nested past the parser's limit
        return None, "a signature's protected header is not base64url JSON"
    if not isinstance(decoded, dict):
        return None, "a signature's protected header is not a JSON object"
    return decoded, ""


def jku_refusal(jku: str, card_url: str) -> str | None:
    """Why keys may not be fetched from `jku` (None: they may): https, or the card's own origin."""
    try:
        scheme = urlsplit(jku).scheme.lower()
        same_origin = card_url.startswith(("http://", "https://")) and origin_of(jku) == origin_of(card_url)
    except ValueError:
        return f"its jku {jku!r} is not a URL"
    if scheme == "https" or (scheme == "http" and same_origin):
        return None
    return f"its jku {jku} is neither https nor on the card's own origin, so its keys are not fetched"


class _JwksCache:
    """JWKS documents fetched during one verification, each URL at most once."""

    def __init__(self, http: httpx.AsyncClient | None, tap: Tap | None, card_url: str) -> None:
        self.http, self.tap, self.card_url = http, tap, card_url
        self.sets: dict[str, list[CardKey] | str] = {}

    async def keys(self, url: str) -> list[CardKey] | str:
        """The keys at `url`, or why none could be read."""
        if url not in self.sets:
            self.sets[url] = await self._fetch(url)
        return self.sets[url]

    async def _fetch(self, url: str) -> list[CardKey] | str:
        from ...bounded_read import answer_text, read_capped
        from ...http import new_http_client, open_response, parse_json

        if self.http is None:
            return f"its keys at {url} were not fetched (offline)"
        # No credentials: a JWKS is public. Another origin gets a plain client, not the agent's (which may hold
        # the agent's client certificate).
        elsewhere = origin_of(url) != origin_of(self.card_url) if self.card_url.startswith("http") else True
        http = new_http_client() if elsewhere else self.http
        try:
            response, exchange = await open_response(
                http, "GET", url, tap=self.tap, headers={"Accept": "application/json"}, stream=True
            )
            await read_capped(response, JWKS_LIMIT, url=url, what="a key set", tap=self.tap, exchange=exchange)
        except InvalidResponseError:
            return f"the key set at {url} is larger than {JWKS_LIMIT // 1024} KiB"
        except SwitchboardError as exc:
            return f"its keys at {url} could not be fetched: {exc.message}"
        finally:
            if elsewhere:
                await http.aclose()
        if response.status_code != 200:
            return f"its keys at {url} could not be fetched: HTTP {response.status_code}"
        try:
            document = parse_json(url, answer_text(response))
        except SwitchboardError:
            return f"the key set at {url} is not JSON"
        return jwk_keys(document, f"the key set at {url}")


def _verifies(token_parts: tuple[str, str], payloads: Sequence[bytes], key: Any, alg: str) -> bool:
    from jwt import api_jws
    from jwt.exceptions import PyJWTError

    protected, signature = token_parts
    for payload in payloads:
        try:
            api_jws.decode_complete(f"{protected}.{_b64url(payload)}.{signature}", key=key, algorithms=[alg])
            return True
        except (PyJWTError, ValueError, TypeError):
            continue
    return False


async def verify_card(
    raw: dict[str, Any],
    card_url: str,
    trusted: Sequence[CardKey] = (),
    *,
    pinned: bool = False,
    http: httpx.AsyncClient | None = None,
    tap: Tap | None = None,
) -> CardTrust:
    """Check the card's signatures; the first that verifies wins.

    `trusted` are the person's keys; `pinned` means only they count (the agent's own `cardKeys:`), so no `jku`
    is fetched. Never raises for anything the card holds: a bad signature is an `unverifiable` outcome.
    """
    signatures = raw.get("signatures")
    if not signatures:
        return CardTrust("unsigned")
    if not isinstance(signatures, list):
        return CardTrust("unverifiable", "signatures is not a list")
    try:
        payloads = canonical_payloads(raw)
    except Exception as exc:  # rfc8785 refuses e.g. integers past 2**53 or NaN: no canonical form, no signature
        return CardTrust("unverifiable", f"the card has no RFC 8785 canonical form ({type(exc).__name__})")
    jwks = _JwksCache(http, tap, card_url)
    reasons: list[str] = []
    if len(signatures) > MAX_SIGNATURES:
        reasons.append(f"only the first {MAX_SIGNATURES} of {len(signatures)} signatures were checked")
    for entry in signatures[:MAX_SIGNATURES]:
        header, why = _header(entry)
        if header is None:
            reasons.append(why)
            continue
        alg, kid, jku = header.get("alg"), header.get("kid"), header.get("jku")
        named = f"the signature by key {kid}" if isinstance(kid, str) else "a signature without kid"
        if alg not in ALLOWED_ALGORITHMS:
            allowed = ", ".join(ALLOWED_ALGORITHMS)
            reasons.append(f"{named} uses algorithm {alg!r}, which is not allowed (only {allowed})")
            continue
        if header.get("crit") or header.get("b64") is False:
            reasons.append(f"{named} has critical header parameters this tool does not implement")
            continue
        keys = [k for k in trusted if k.kid is None or k.kid == kid]
        fetch_failed = None
        if not pinned and isinstance(jku, str) and not any(k.kid == kid for k in keys):
            fetched = jku_refusal(jku, card_url) or await jwks.keys(jku)
            if isinstance(fetched, str):
                fetch_failed = f"{named}: {fetched}"
            else:
                from_jku = [k for k in fetched if k.kid == kid] if isinstance(kid, str) else fetched
                fetch_failed = None if from_jku else f"{named}: the key set at {jku} has no such key"
                keys += from_jku
        if not keys:
            where = "the keys pinned for this agent" if pinned else "the trusted keys"
            tail = "" if pinned or isinstance(jku, str) else " and it names no jku to fetch keys from"
            reasons.append(fetch_failed or f"{named}: no key for it among {where}{tail}")
            continue
        usable = [k for k in keys if not k.expired()]
        reasons += [gone for k in keys if (gone := k.expired())]  # (a walrus binds in the function: not `why`)
        for key in usable:
            if _verifies((entry["protected"], entry["signature"]), payloads, key.key, alg):
                return CardTrust("verified", f"{alg}, key {kid or '(no kid)'} from {key.source}")
        if usable:
            reasons.append(f"{named} does not match the card: it was changed after signing, or signed with another key")
        if fetch_failed:
            reasons.append(fetch_failed)
    return CardTrust("unverifiable", "; ".join(dict.fromkeys(reasons)))
