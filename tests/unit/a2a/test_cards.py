"""Discovery: card URLs to try, fetching (with fallbacks and failures), choosing the endpoint, linting."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from switchboard.a2a import cards
from switchboard.a2a.cards import (
    CARD_PATH,
    LEGACY_CARD_PATH,
    candidate_urls,
    choose_endpoint,
    fetch_card,
    lint_card,
    parse_card,
)
from switchboard.a2a.errors import (
    AuthFailedError,
    CardInvalidError,
    CardNotFoundError,
    ProtocolUnsupportedError,
    UsageError,
)
from switchboard.a2a.redact import REDACTED
from switchboard.a2a.tap import Tap

LEGACY_CARD = {
    "name": "Legacy Agent",
    "description": "speaks 0.3",
    "version": "1.2.3",
    "url": "http://127.0.0.1:9101/",
    "protocolVersion": "0.3.0",
    "capabilities": {"streaming": True},
    "defaultInputModes": ["text/plain"],
    "defaultOutputModes": ["text/plain"],
    "skills": [{"id": "echo", "name": "Echo", "description": "echoes", "tags": [], "examples": ["hi"]}],
}


def v10_card(*interfaces: dict[str, Any], **extra: Any):
    return parse_card({"name": "v10 agent", "supportedInterfaces": list(interfaces), **extra})


# --- candidate_urls ----------------------------------------------------------------------------------


@pytest.mark.parametrize("ref", ["http://127.0.0.1:9101", "http://127.0.0.1:9101/"])
def test_a_base_url_with_or_without_slash_gives_both_well_known_paths(ref):
    assert candidate_urls(ref) == [
        "http://127.0.0.1:9101/.well-known/agent-card.json",
        "http://127.0.0.1:9101/.well-known/agent.json",
    ]


@pytest.mark.parametrize("host", ["localhost:9101", "127.0.0.1:9101", "127.1.2.3", "[::1]:9101"])
def test_a_bare_loopback_host_gets_http(host):
    assert candidate_urls(host)[0] == f"http://{host}{CARD_PATH}"


@pytest.mark.parametrize("host", ["agents.example.com", "agents.example.com:8443", "203.0.113.7"])
def test_a_bare_public_host_gets_https(host):
    assert candidate_urls(host)[0] == f"https://{host}{CARD_PATH}"


def test_a_card_url_ending_in_json_is_used_as_is():
    assert candidate_urls("https://agents.example.com/cards/writer.json") == [
        "https://agents.example.com/cards/writer.json"
    ]


def test_a_path_prefix_is_kept_before_the_well_known_path():
    assert candidate_urls("https://gateway.example.com/agents/writer/") == [
        "https://gateway.example.com/agents/writer" + CARD_PATH,
        "https://gateway.example.com/agents/writer" + LEGACY_CARD_PATH,
    ]


def test_surrounding_whitespace_is_ignored():
    assert candidate_urls("  http://127.0.0.1:9101 \n")[0] == "http://127.0.0.1:9101" + CARD_PATH


# --- fetch_card --------------------------------------------------------------------------------------


def mock_http(handler: Callable[[httpx.Request], httpx.Response]) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.MockTransport(handler))


def serving(routes: dict[str, httpx.Response]) -> tuple[Callable[[httpx.Request], httpx.Response], list[str]]:
    """A handler answering by path (404 for anything else), and the URLs it was asked for."""
    asked: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        asked.append(str(request.url))
        return routes.get(request.url.path, httpx.Response(404))

    return handler, asked


async def test_the_card_at_the_well_known_path_is_fetched_first():
    handler, asked = serving({CARD_PATH: httpx.Response(200, json=LEGACY_CARD)})
    async with mock_http(handler) as http:
        resolved = await fetch_card("http://127.0.0.1:9101", http)
    assert resolved.card.name == "Legacy Agent"
    assert resolved.card_url == "http://127.0.0.1:9101" + CARD_PATH
    assert asked == [resolved.card_url]
    assert list(resolved.notes) == []


async def test_a_404_falls_back_to_the_legacy_path_and_adds_a_note():
    handler, asked = serving({LEGACY_CARD_PATH: httpx.Response(200, json=LEGACY_CARD)})
    async with mock_http(handler) as http:
        resolved = await fetch_card("http://127.0.0.1:9101/", http)
    assert asked == ["http://127.0.0.1:9101" + CARD_PATH, "http://127.0.0.1:9101" + LEGACY_CARD_PATH]
    assert resolved.card_url == "http://127.0.0.1:9101" + LEGACY_CARD_PATH
    assert resolved.card.name == "Legacy Agent"
    assert any("legacy path" in note for note in resolved.notes)


async def test_two_404s_are_card_not_found_listing_both_urls():
    handler, _ = serving({})
    async with mock_http(handler) as http:
        with pytest.raises(CardNotFoundError) as caught:
            await fetch_card("http://127.0.0.1:9101", http)
    error = caught.value
    assert error.exit_code == 3
    assert "http://127.0.0.1:9101" + CARD_PATH in error.message
    assert "http://127.0.0.1:9101" + LEGACY_CARD_PATH in error.message
    assert error.hint


async def test_a_401_is_an_auth_failure_and_no_fallback_is_tried():
    handler, asked = serving({CARD_PATH: httpx.Response(401, text="login first")})
    async with mock_http(handler) as http:
        with pytest.raises(AuthFailedError) as caught:
            await fetch_card("http://127.0.0.1:9101", http)
    assert caught.value.exit_code == 4 and "401" in caught.value.message
    assert asked == ["http://127.0.0.1:9101" + CARD_PATH]


async def test_a_refusal_that_echoes_a_header_secret_is_redacted_in_the_error():
    tap = Tap()
    tap.redactor.add("team-secret-77")

    def echo(request: httpx.Request) -> httpx.Response:
        return httpx.Response(403, json={"error": "denied", "got": request.headers.get("X-Team-Token")})

    async with mock_http(echo) as http:
        with pytest.raises(AuthFailedError) as caught:
            await fetch_card("http://127.0.0.1:9101", http, tap=tap, headers={"X-Team-Token": "team-secret-77"})
    assert "team-secret-77" not in caught.value.message
    assert REDACTED in caught.value.message


async def test_an_html_page_is_an_invalid_card():
    page = httpx.Response(200, text="<html><body>Welcome</body></html>", headers={"Content-Type": "text/html"})
    handler, _ = serving({CARD_PATH: page})
    async with mock_http(handler) as http:
        with pytest.raises(CardInvalidError) as caught:
            await fetch_card("http://127.0.0.1:9101", http)
    assert "answered with a web page (text/html), not JSON" in caught.value.message
    assert caught.value.url == "http://127.0.0.1:9101" + CARD_PATH


async def test_a_json_value_that_is_not_an_object_is_an_invalid_card():
    handler, _ = serving({CARD_PATH: httpx.Response(200, json=["not", "a", "card"])})
    async with mock_http(handler) as http:
        with pytest.raises(CardInvalidError, match="must be a JSON object"):
            await fetch_card("http://127.0.0.1:9101", http)


async def test_a_local_card_file_is_read_without_the_network(tmp_path):
    path = tmp_path / "card.json"
    path.write_text(json.dumps(LEGACY_CARD), encoding="utf-8")
    handler, asked = serving({})
    async with mock_http(handler) as http:
        resolved = await fetch_card(str(path), http)
    assert resolved.card.name == "Legacy Agent"
    assert resolved.card_url == path.resolve().as_uri()
    assert asked == []


async def test_a_file_url_is_read_and_its_card_url_reads_back(tmp_path):
    folder = tmp_path / "my cards"  # a space: as_uri() percent-encodes it
    folder.mkdir()
    path = folder / "agent card.json"
    path.write_text(json.dumps(LEGACY_CARD), encoding="utf-8")
    handler, asked = serving({})
    async with mock_http(handler) as http:
        first = await fetch_card(path.as_uri(), http)
        again = await fetch_card(first.card_url, http)
    assert first.card.name == again.card.name == "Legacy Agent"
    assert again.card_url == first.card_url == path.resolve().as_uri()
    assert asked == []


async def test_a_missing_local_file_is_card_not_found_naming_the_path(tmp_path):
    missing = tmp_path / "nope.json"
    handler, asked = serving({})
    async with mock_http(handler) as http:
        with pytest.raises(CardNotFoundError) as caught:
            await fetch_card(str(missing), http)
    assert str(missing) in caught.value.message and caught.value.exit_code == 3
    assert asked == []


# --- choose_endpoint ---------------------------------------------------------------------------------


@pytest.fixture
def without_grpc_extra(monkeypatch):
    """As if a2a-switchboard[grpc] were not installed (the test venv has it)."""
    monkeypatch.setattr(cards, "grpc_installed", lambda: False)


def test_a_legacy_0_2_6_card_is_spoken_as_the_0_3_wire_at_its_url():
    card = parse_card({"name": "old", "url": "http://127.0.0.1:9101/rpc", "protocolVersion": "0.2.6"})
    endpoint = choose_endpoint(card)
    assert (endpoint.url, endpoint.version, endpoint.tenant) == ("http://127.0.0.1:9101/rpc", "0.3", None)


def test_a_legacy_card_without_protocol_version_is_0_3():
    assert choose_endpoint(parse_card({"name": "old", "url": "http://h/"})).version == "0.3"


def test_without_the_extra_a_grpc_only_card_is_protocol_unsupported_with_a_hint_naming_the_extra(
    without_grpc_extra,
):
    card = v10_card({"url": "http://h/grpc", "protocolBinding": "GRPC", "protocolVersion": "1.0"})
    with pytest.raises(ProtocolUnsupportedError) as caught:
        choose_endpoint(card)
    error = caught.value
    assert error.message == "v10 agent offers no interface switchboard speaks: GRPC 1.0"
    assert error.code == "SWITCHBOARD_ERR_PROTOCOL_UNSUPPORTED" and error.exit_code == 1  # never an internal error
    assert error.workflow_code == "DELEGATE_PROTOCOL_UNSUPPORTED"
    assert "pip install 'a2a-switchboard[grpc]'" in error.hint and "JSON-RPC or HTTP+JSON" in error.hint
    assert error.envelope()["error"]["code"] == "SWITCHBOARD_ERR_PROTOCOL_UNSUPPORTED"


def test_without_the_extra_forcing_grpc_names_the_extra(without_grpc_extra):
    card = v10_card(
        {"url": "h:50051", "protocolBinding": "GRPC", "protocolVersion": "1.0"},
        {"url": "http://h/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
    )
    assert choose_endpoint(card).binding == "JSONRPC"  # the first interface spoken here
    with pytest.raises(ProtocolUnsupportedError) as caught:
        choose_endpoint(card, binding="GRPC")
    assert "pip install 'a2a-switchboard[grpc]'" in caught.value.hint and "--binding grpc" in caught.value.hint


def test_with_the_extra_a_grpc_only_card_is_spoken_over_grpc():
    card = v10_card({"url": "127.0.0.1:50051", "protocolBinding": "GRPC", "protocolVersion": "1.0"})
    endpoint = choose_endpoint(card)
    assert (endpoint.binding, endpoint.url, endpoint.label) == ("GRPC", "127.0.0.1:50051", "gRPC 1.0")
    assert endpoint.short_label == "gRPC 1.0"
    assert not [w for w in lint_card(card) if "127.0.0.1:50051" in w]  # HOST:PORT is how gRPC is written


def test_a_legacy_card_preferring_grpc_only_is_protocol_unsupported(without_grpc_extra):
    card = parse_card({"name": "g", "url": "http://h/", "preferredTransport": "GRPC", "protocolVersion": "0.3.0"})
    with pytest.raises(ProtocolUnsupportedError) as caught:
        choose_endpoint(card)
    assert "a2a-switchboard[grpc]" in caught.value.hint


@pytest.mark.parametrize(
    ("bindings", "chosen"),
    [
        (["HTTP+JSON"], "HTTP+JSON"),  # a REST-only card
        (["GRPC", "HTTP+JSON", "JSONRPC"], "HTTP+JSON"),  # the card's order: the first one spoken
        (["GRPC", "JSONRPC", "HTTP+JSON"], "JSONRPC"),
        (["http+json"], "HTTP+JSON"),  # names are read whatever their case
    ],
)
def test_the_first_interface_in_the_cards_order_whose_binding_is_spoken_is_chosen(bindings, chosen, without_grpc_extra):
    card = v10_card(*[{"url": f"http://h/{b}", "protocolBinding": b, "protocolVersion": "1.0"} for b in bindings])
    endpoint = choose_endpoint(card)
    assert (endpoint.binding, endpoint.version, endpoint.url.lower()) == (chosen, "1.0", f"http://h/{chosen.lower()}")
    assert endpoint.label == {"JSONRPC": "JSON-RPC 1.0", "HTTP+JSON": "HTTP+JSON 1.0"}[chosen]


def test_protocol_1_0_over_any_spoken_binding_comes_before_0_3():
    card = v10_card(
        {"url": "http://h/rpc03", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"},
        {"url": "http://h/rest10", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"},
    )
    assert (choose_endpoint(card).url, choose_endpoint(card).version) == ("http://h/rest10", "1.0")


def test_a_legacy_card_preferring_http_json_is_spoken_over_rest_at_0_3():
    card = parse_card({"name": "r", "url": "http://h/", "preferredTransport": "HTTP+JSON", "protocolVersion": "0.3.0"})
    assert (choose_endpoint(card).binding, choose_endpoint(card).version) == ("HTTP+JSON", "0.3")


def test_a_forced_binding_picks_its_interface_and_one_the_card_lacks_is_a_usage_error_naming_what_it_offers():
    card = v10_card(
        {"url": "http://h/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
        {"url": "http://h/rest", "protocolBinding": "HTTP+JSON", "protocolVersion": "0.3"},
    )
    assert choose_endpoint(card, binding="HTTP+JSON").url == "http://h/rest"
    only_rpc = v10_card({"url": "http://h/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"})
    with pytest.raises(UsageError) as caught:
        choose_endpoint(only_rpc, binding="HTTP+JSON")
    assert caught.value.exit_code == 2
    assert caught.value.message == "v10 agent does not offer HTTP+JSON; it offers JSONRPC 1.0"
    assert "--binding" in caught.value.hint
    with pytest.raises(UsageError, match=r"it offers 0\.3 over HTTP\+JSON"):
        choose_endpoint(card, "1.0", binding="HTTP+JSON")


def test_a_json_rpc_interface_at_an_unknown_version_is_protocol_unsupported():
    card = v10_card({"url": "http://h/", "protocolBinding": "JSONRPC", "protocolVersion": "2.0"})
    with pytest.raises(ProtocolUnsupportedError, match=r"JSONRPC 2\.0"):
        choose_endpoint(card)


BOTH = (
    {"url": "http://h/v03", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"},
    {"url": "http://h/grpc", "protocolBinding": "GRPC", "protocolVersion": "1.0"},
    {"url": "http://h/v1", "protocolBinding": "JSONRPC", "protocolVersion": "1.0", "tenant": "team-a"},
)


def test_protocol_1_0_is_preferred_when_the_card_offers_both(without_grpc_extra):
    endpoint = choose_endpoint(v10_card(*BOTH))
    assert (endpoint.url, endpoint.version) == ("http://h/v1", "1.0")


def test_prefer_version_picks_the_interface_of_that_version(without_grpc_extra):
    endpoint = choose_endpoint(v10_card(*BOTH), prefer_version="0.3")
    assert (endpoint.url, endpoint.version) == ("http://h/v03", "0.3")
    assert choose_endpoint(v10_card(*BOTH), prefer_version="1.0").url == "http://h/v1"


def test_a_version_asked_for_by_name_is_required_not_preferred_and_a_usage_error_naming_what_is_offered():
    only_v10 = v10_card({"url": "http://h/v1", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"})
    with pytest.raises(UsageError) as caught:
        choose_endpoint(only_v10, prefer_version="0.3")
    assert caught.value.exit_code == 2 and caught.value.code == "A2ACLI_ERR_USAGE"
    assert "does not offer A2A protocol 0.3; it offers 1.0" in caught.value.message
    assert "--a2a-version" in caught.value.hint


def test_a_patch_version_still_matches_its_wire():
    card = v10_card({"url": "http://h/v1", "protocolBinding": "JSONRPC", "protocolVersion": "1.0.2"})
    assert choose_endpoint(card).version == "1.0"


def test_the_tenant_is_carried_into_the_endpoint(without_grpc_extra):
    assert choose_endpoint(v10_card(*BOTH)).tenant == "team-a"


# --- lint_card ---------------------------------------------------------------------------------------


def test_a_bare_minimum_card_lists_what_it_lacks():
    warnings = lint_card(parse_card({"name": "bare", "url": "http://127.0.0.1:9101/"}))
    assert "the card has no description" in warnings
    assert "the card has no version" in warnings
    assert "the card lists no skills" in warnings
    assert any("capabilities.streaming is not declared" in w for w in warnings)
    assert any("protocolVersion" in w for w in warnings)


def test_a_complete_card_has_no_warnings():
    assert lint_card(parse_card(LEGACY_CARD), "http://127.0.0.1:9101" + CARD_PATH) == []


def test_a_requirement_naming_an_undeclared_scheme_is_a_warning():
    card = parse_card(
        {
            **LEGACY_CARD,
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            "security": [{"bearer": []}, {"apiKey": []}],
        }
    )
    warnings = lint_card(card)
    assert warnings == ["security requirement names apiKey, which securitySchemes does not declare"]


def test_a_v10_requirement_naming_an_undeclared_scheme_is_a_warning():
    card = v10_card(
        {"url": "http://127.0.0.1:9101/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
        securityRequirements=[{"schemes": {"oauth": {"list": ["read"]}}}],
    )
    assert "security requirement names oauth, which securitySchemes does not declare" in lint_card(card)


def test_an_interface_on_another_origin_or_plain_http_is_a_warning():
    card = parse_card({**LEGACY_CARD, "url": "http://agents.example.com/rpc"})
    warnings = lint_card(card, "https://cards.example.com" + CARD_PATH)
    assert any("plain http on a non-local host" in w for w in warnings)
    assert any("another origin than the card" in w for w in warnings)


def test_an_unusable_card_is_linted_not_raised(without_grpc_extra):
    card = v10_card({"url": "http://h/grpc", "protocolBinding": "GRPC", "protocolVersion": "1.0"})
    assert any(w.startswith("no interface this tool can use") for w in lint_card(card))


def test_parse_card_tells_the_shapes_apart_by_supported_interfaces():
    assert parse_card(LEGACY_CARD).shape == "legacy"
    assert v10_card({"url": "http://h/"}).shape == "v1.0"


# --- a card in both shapes (a2a-sdk 1.x serving v1.0 and v0.3 merges them) ----------------------------------------

DEVICE_FLOW = {"deviceAuthorizationUrl": "https://id.example/device", "tokenUrl": "https://id.example/token"}
# Byte for byte what a2a-sdk 1.3's agent_card_to_dict publishes for a device code scheme (v0.3 has no such flow).
MERGED_DEVICE_SCHEME = {
    "oauth2SecurityScheme": {"flows": {"deviceCode": {**DEVICE_FLOW, "scopes": {"a2a": "talk"}}}},
    "flows": {},
    "type": "oauth2",
}
MERGED_PKCE_SCHEME = {
    "oauth2SecurityScheme": {
        "flows": {"authorizationCode": {"authorizationUrl": "https://id.example/auth", "pkceRequired": True}}
    },
    "flows": {"authorizationCode": {"authorizationUrl": "https://id.example/auth"}},
    "type": "oauth2",
}
IFACE = {"url": "http://h/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}


@pytest.mark.parametrize(
    "card_of",
    [lambda **kw: v10_card(IFACE, **kw), lambda **kw: parse_card({**LEGACY_CARD, **kw})],
    ids=["v10", "legacy"],
)
def test_a_scheme_in_both_shapes_is_read_from_the_v1_0_shape_which_says_more(card_of):
    card = card_of(securitySchemes={"device": MERGED_DEVICE_SCHEME, "user": MERGED_PKCE_SCHEME})
    assert card.security_schemes["device"].flows == {"deviceCode": {**DEVICE_FLOW, "scopes": {"a2a": "talk"}}}
    assert card.security_schemes["user"].flows["authorizationCode"]["pkceRequired"] is True


def test_a_scheme_in_the_v0_3_shape_alone_is_still_read_in_a_v1_0_card():
    card = v10_card(IFACE, securitySchemes={"k": {"type": "apiKey", "in": "header", "name": "X-Key"}})
    assert card.security_schemes["k"].type == "apiKey" and card.security_schemes["k"].param_name == "X-Key"


def test_a_v1_0_card_falls_back_to_the_v0_3_extended_card_flag():
    assert v10_card(IFACE, supportsAuthenticatedExtendedCard=True).capabilities.extended_card is True
    assert v10_card(IFACE).capabilities.extended_card is None


def test_the_v1_0_extended_card_flag_wins_over_the_v0_3_one():
    card = v10_card(IFACE, capabilities={"extendedAgentCard": False}, supportsAuthenticatedExtendedCard=True)
    assert card.capabilities.extended_card is False


def test_v1_0_requirements_win_over_v0_3_security_in_a_merged_card():
    card = v10_card(
        IFACE,
        securitySchemes={"a": {"type": "http", "scheme": "bearer"}, "b": {"type": "http", "scheme": "basic"}},
        securityRequirements=[{"schemes": {"a": {"list": ["x"]}}}],
        security=[{"b": []}],
    )
    assert card.security == [{"a": ["x"]}]
