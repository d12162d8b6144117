"""Discovery: find and read an agent card, choose the interface and wire version, and lint the card."""

from __future__ import annotations

import asyncio
import importlib.util
from dataclasses import dataclass
from functools import cache
from typing import Any
from urllib.parse import urlsplit

import httpx

from .auth.credentials import is_loopback
from .bounded_read import answer_text, read_capped
from .errors import (
    CardInvalidError,
    CardNotFoundError,
    InvalidResponseError,
    ProtocolUnsupportedError,
    SwitchboardError,
    UnreachableError,
    UsageError,
    VersionNotOfferedError,
)
from .http import DEFAULT_RETRY, NO_RETRY, RetryPolicy, basic_challenge, http_status_error, open_response, parse_json
from .model import AgentCard
from .origin import origin_of
from .tap import Tap
from .user_input import card_file_path, check_agent_url
from .wire import v03, v10
from .wire.common import Notes, WireFormatError, shallow

CARD_PATH = "/.well-known/agent-card.json"
LEGACY_CARD_PATH = "/.well-known/agent.json"  # the <= 0.2.x path; sdk 0.3 still serves it
CARD_LIMIT = 4 * 2**20  # bytes: a card with hundreds of skills is a few hundred KiB
SUPPORTED_VERSIONS = ("1.0", "0.3")
# How a binding is named in cards (`protocolBinding`), and for people.
JSONRPC, HTTP_JSON, GRPC = "JSONRPC", "HTTP+JSON", "GRPC"
BINDING_NAMES = {JSONRPC: "JSON-RPC", HTTP_JSON: "HTTP+JSON", GRPC: "gRPC"}
# How --binding and `binding:` in the agents file name them.
BINDING_FLAGS = {"jsonrpc": JSONRPC, "rest": HTTP_JSON, "grpc": GRPC}
GRPC_EXTRA = "pip install 'a2a-switchboard[grpc]'"


@cache
def grpc_installed() -> bool:
    """Whether the extra a2a-switchboard[grpc] (grpcio) is installed: found, not imported (imports stay lazy)."""
    return importlib.util.find_spec("grpc") is not None


def spoken_bindings() -> tuple[str, ...]:
    """The bindings switchboard speaks here: JSON-RPC and HTTP+JSON always, gRPC with its extra."""
    return (JSONRPC, HTTP_JSON, GRPC) if grpc_installed() else (JSONRPC, HTTP_JSON)


@dataclass(frozen=True)
class Endpoint:
    """Where and how to talk to an agent: one interface of its card, its binding and wire version."""

    url: str
    version: str  # "1.0" or "0.3"
    tenant: str | None = None
    binding: str = JSONRPC

    @property
    def label(self) -> str:
        """`JSON-RPC 1.0`, `HTTP+JSON 0.3`: what is spoken, for people."""
        return f"{BINDING_NAMES.get(self.binding, self.binding)} {self.version}"

    @property
    def short_label(self) -> str:
        """The agents table's: `1.0` or `0.3 legacy` over JSON-RPC (what nearly every agent speaks, so said the
        shortest), the binding before it otherwise (`HTTP+JSON 1.0`)."""
        said = "1.0" if self.version == "1.0" else "0.3 legacy"
        return said if self.binding == JSONRPC else f"{BINDING_NAMES.get(self.binding, self.binding)} {said}"


@dataclass
class ResolvedCard:
    card: AgentCard
    card_url: str  # where it was read from (a URL, or file://...)
    notes: Notes


def parse_card(data: Any, notes: Notes | None = None) -> AgentCard:
    """A card with supportedInterfaces is v1.0 (legacy fields beside it are ignored); else it is legacy."""
    notes = Notes() if notes is None else notes
    if not isinstance(data, dict):
        raise CardInvalidError(f"an agent card must be a JSON object, got {type(data).__name__}")
    data = shallow(data, "the agent card", notes)
    try:
        return v10.decode_card(data, notes) if "supportedInterfaces" in data else v03.decode_card(data, notes)
    except WireFormatError as exc:
        raise CardInvalidError(f"the agent card is malformed: {exc.message}") from None


def candidate_urls(ref: str) -> list[str]:
    """Card URLs to try for a reference: a card file URL as is, else the well-known paths of the origin/base.

    A bare host gets http:// when it is loopback and https:// otherwise.
    """
    ref = ref.strip()
    if "://" not in ref:
        host = urlsplit("//" + ref).hostname or ""
        ref = ("http://" if is_loopback(host) else "https://") + ref
    parts = urlsplit(ref)
    if parts.path.endswith(".json"):
        return [ref]
    base = ref.split("?", 1)[0].rstrip("/")
    return [base + CARD_PATH, base + LEGACY_CARD_PATH]


async def fetch_card(
    ref: str,
    http: httpx.AsyncClient,
    *,
    tap: Tap | None = None,
    headers: dict[str, str] | None = None,
    retry: RetryPolicy | None = DEFAULT_RETRY,
) -> ResolvedCard:
    """Resolve a card reference (URL, bare host, card file URL, or local file) to a parsed card.

    A card fetch is safe to repeat: connection failures and 429/502/503/504 are retried within `retry`,
    and each retry is in the notes.
    """
    notes = Notes()
    path = card_file_path(ref.strip())
    if path is not None:
        try:
            content = path.read_bytes()
        except OSError as exc:
            raise CardNotFoundError(
                f"cannot read the card file {path}: {exc.strerror}", hint="Check the path."
            ) from None
        try:
            text = content.decode("utf-8")
        except UnicodeDecodeError:
            notes.add("the card file is not valid UTF-8; undecodable bytes were replaced")
            text = content.decode("utf-8", errors="replace")
        card = parse_card(parse_json(str(path), text), notes)
        return ResolvedCard(card, path.resolve().as_uri(), notes)

    urls = candidate_urls(check_agent_url(ref))  # a malformed address is a usage error, before any request
    tried: list[str] = []
    for url in urls:
        response = await _get_card(http, url, tap, {"Accept": "application/json", **(headers or {})}, retry, notes)
        if response.status_code == 404 and url != urls[-1]:
            tried.append(f"{url} (404)")
            continue
        if response.status_code == 404:
            tried.append(f"{url} (404)")
            raise CardNotFoundError(
                "no agent card at " + ", ".join(tried),
                hint="Give the agent's base URL (its /.well-known/agent-card.json is found from there) "
                "or the full URL of its card.",
                url=url,
            )
        if response.status_code >= 400:
            # http_status_error quotes the body, and agents echo what they got (e.g. agents-file headers).
            body = tap.redactor.text(answer_text(response)) if tap else answer_text(response)
            basic = basic_challenge(response.headers.get("www-authenticate"))
            raise http_status_error(url, response.status_code, body, basic=basic)
        if url.endswith(LEGACY_CARD_PATH) and url != urls[0]:
            notes.add(f"card served only at the legacy path {LEGACY_CARD_PATH}")
        try:
            data = parse_json(url, answer_text(response), response.headers.get("content-type"))
        except SwitchboardError as exc:  # not JSON: what it is, and what to give instead
            raise CardInvalidError(exc.message, hint=exc.hint, url=url) from None
        try:
            card = parse_card(data, notes)
        except SwitchboardError as exc:
            raise CardInvalidError(exc.message, hint="The agent's card is not valid JSON for A2A.", url=url) from None
        return ResolvedCard(card, url, notes)
    raise CardNotFoundError(f"no agent card for {ref}", url=ref)  # unreachable: the loop returns or raises


async def _get_card(
    http: httpx.AsyncClient,
    url: str,
    tap: Tap | None,
    headers: dict[str, str],
    retry: RetryPolicy | None,
    notes: Notes,
) -> httpx.Response:
    """GET a card, its body read with a cap (a card is kilobytes: one past CARD_LIMIT is refused unread, whatever
    the status). A body cut by the network is fetched again within `retry`, as a failed request is."""
    policy = retry or NO_RETRY
    attempt = 1
    while True:
        response, exchange = await open_response(
            http, "GET", url, tap=tap, headers=headers, retry=retry, on_retry=notes.add, stream=True
        )
        try:
            return await read_capped(response, CARD_LIMIT, url=url, what="a card", tap=tap, exchange=exchange)
        except InvalidResponseError as exc:
            raise CardInvalidError(exc.message, hint=exc.hint, url=url) from None
        except UnreachableError as exc:
            if attempt >= policy.attempts:
                raise
            delay = policy.delay(attempt)
            notes.add(f"{exc.message}; retrying in {delay:.2f} s (attempt {attempt + 1} of {policy.attempts})")
            attempt += 1
            await asyncio.sleep(delay)


def wire_version(protocol_version: str | None) -> str | None:
    """Map a declared protocol version to the wire we speak: 1.x -> 1.0, 0.2.x / 0.3.x -> 0.3."""
    if not protocol_version:
        return "0.3"
    bits = protocol_version.strip().split(".")
    if bits[0] == "1":
        return "1.0"
    if bits[0] == "0" and len(bits) > 1 and bits[1] in ("2", "3"):
        return "0.3"
    return None


def choose_endpoint(card: AgentCard, prefer_version: str | None = None, *, binding: str | None = None) -> Endpoint:
    """The interface to speak: in the card's order of preference, the first one at protocol 1.0 whose binding
    switchboard speaks (JSON-RPC, HTTP+JSON, and gRPC when its extra is installed), else the first such at 0.3.

    `prefer_version` and `binding` (from --a2a-version, --binding, `binding:` in the agents file) are requirements,
    not preferences: a card that does not meet them is a usage error naming what it offers. Legacy cards speak the
    0.3 wire at `url` (0.2.x cards included: the same wire). A card with nothing spoken (only gRPC, say) is a
    ProtocolUnsupportedError; one that offers only gRPC, without the gRPC extra, names the extra to install.
    """
    interfaces = list(card.interfaces)
    if card.shape == "legacy":
        interfaces = [i.model_copy(update={"protocol_version": "0.3"}) for i in interfaces]
    offered = ", ".join(f"{i.binding} {i.protocol_version}" for i in card.interfaces) or "no interfaces"
    usable = [i for i in interfaces if i.binding.upper() in ((binding,) if binding else spoken_bindings())]
    if binding == GRPC and usable and not grpc_installed():
        raise ProtocolUnsupportedError(
            f"{card.name}: speaking gRPC needs the optional install a2a-switchboard[grpc], which is not installed",
            hint=f"Install it ({GRPC_EXTRA}), or drop --binding grpc to use another interface of the card.",
        )
    if binding and not usable:
        raise UsageError(
            f"{card.name} does not offer {BINDING_NAMES.get(binding, binding)}; it offers {offered}",
            hint="Drop --binding (or `binding:` for the agent in the agents file) to use what the card offers.",
        )
    # A version asked for by name is required, not a preference: silently using another would surprise.
    for version in [prefer_version] if prefer_version else SUPPORTED_VERSIONS:
        for iface in usable:
            if wire_version(iface.protocol_version) == version:
                return Endpoint(iface.url, version, iface.tenant, iface.binding.upper())
    spoken = sorted({v for i in usable if (v := wire_version(i.protocol_version))}, reverse=True)
    if prefer_version and spoken:
        # A choice the person made that the card cannot satisfy: their input to change, not the agent's fault.
        over = f" over {BINDING_NAMES.get(binding, binding)}" if binding else ""
        raise VersionNotOfferedError(
            f"{card.name} does not offer A2A protocol {prefer_version}; it offers {', '.join(spoken)}{over}",
            hint=f"Drop --a2a-version to use what the card offers, or ask for {' or '.join(spoken)}.",
        )
    if not grpc_installed() and any(i.binding.upper() == GRPC for i in card.interfaces):
        hint = (
            f"The agent speaks gRPC: install switchboard's gRPC support with {GRPC_EXTRA}, "
            "or ask the agent's operator for a JSON-RPC or HTTP+JSON interface."
        )
    else:
        hint = "switchboard speaks JSON-RPC, HTTP+JSON and gRPC at protocol 1.0 and 0.3 (0.2.x included)."
    raise ProtocolUnsupportedError(f"{card.name} offers no interface switchboard speaks: {offered}", hint=hint)


def lint_card(card: AgentCard, card_url: str | None = None) -> list[str]:
    """What is missing or odd in a card: warnings for people, never a failure."""
    warnings: list[str] = []
    if card.name == "(unnamed agent)":
        warnings.append("the card has no name")
    if not card.description:
        warnings.append("the card has no description")
    if not card.version:
        warnings.append("the card has no version")
    if not card.interfaces:
        warnings.append("the card declares no interface (no supportedInterfaces, no url)")
    if card.shape == "legacy":
        if card.legacy_protocol_version is None:
            warnings.append("legacy card without protocolVersion; 0.3 assumed")
        elif card.legacy_protocol_version.startswith("0.2"):
            warnings.append(f"protocolVersion {card.legacy_protocol_version} is pre-0.3; spoken as the 0.3 wire")
    try:
        choose_endpoint(card)
    except ProtocolUnsupportedError as exc:
        warnings.append(f"no interface this tool can use: {exc.message}")
    for iface in card.interfaces:
        if iface.binding.upper() == GRPC:
            continue  # HOST:PORT, no scheme: the gRPC transport checks it when it is used
        parts = urlsplit(iface.url)
        if parts.scheme not in ("http", "https"):
            warnings.append(f"interface URL {iface.url} is not http(s)")
        elif parts.scheme == "http" and not is_loopback(parts.hostname or ""):
            warnings.append(f"interface {iface.url} is plain http on a non-local host")
        if card_url and card_url.startswith("http") and origin_of(iface.url) != origin_of(card_url):
            warnings.append(
                f"interface {iface.url} is on another origin than the card; credentials are not sent there "
                "unless you allow it"
            )
    if not card.skills:
        warnings.append("the card lists no skills")
    for skill in card.skills:
        if not skill.description:
            warnings.append(f"skill {skill.id} has no description")
        if not skill.examples:
            warnings.append(f"skill {skill.id} has no examples")
    if card.capabilities.streaming is None:
        warnings.append("capabilities.streaming is not declared; streaming is assumed off")
    if not card.default_input_modes:
        warnings.append("defaultInputModes is empty")
    if not card.default_output_modes:
        warnings.append("defaultOutputModes is empty")
    for requirement in card.security:
        for name in requirement:
            if name not in card.security_schemes:
                warnings.append(f"security requirement names {name}, which securitySchemes does not declare")
    for name, scheme in card.security_schemes.items():
        if scheme.type == "unknown":
            warnings.append(f"security scheme {name} has an unknown type")
    return warnings
