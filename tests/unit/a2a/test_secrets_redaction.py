"""A secret is masked in every form it travels in: as is, URL-encoded (an API key in the query string),
base64 (basic auth, an agent quoting it back encoded) and JSON-escaped."""

from __future__ import annotations

import base64
import json
from urllib.parse import quote, quote_plus

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from switchboard.a2a.auth.credentials import Credentials
from switchboard.a2a.cards import parse_card
from switchboard.a2a.errors import AuthFailedError
from switchboard.a2a.redact import REDACTED, Redactor
from switchboard.a2a.tap import Tap, format_record
from switchboard.a2a.transports.jsonrpc import JsonRpcTransport

KEY = "q-key+with/odd=chars&more"
CARD_URL = "http://127.0.0.1:9101/.well-known/agent.json"


def every_form(secret: str) -> list[str]:
    raw = secret.encode()
    return [
        secret,
        quote(secret, safe=""),
        quote(secret),
        quote_plus(secret),
        base64.b64encode(raw).decode(),
        base64.urlsafe_b64encode(raw).decode(),
        json.dumps(secret)[1:-1],
    ]


@pytest.mark.parametrize("form", every_form(KEY))
def test_the_redactor_masks_each_form(form: str):
    assert Redactor([KEY]).text(f"before {form} after") == f"before {REDACTED} after"


def test_a_short_secret_does_not_make_ordinary_text_vanish():
    assert Redactor(["ab"]).text("a b ab YWI=") == "a b ab YWI="


async def test_an_api_key_in_the_query_string_is_masked_in_the_wire_record_and_errors():
    card = parse_card(
        {
            "name": "query-agent",
            "url": "http://127.0.0.1:9101/",
            "protocolVersion": "0.3.0",
            "securitySchemes": {"key": {"type": "apiKey", "in": "query", "name": "key"}},
            "security": [{"key": []}],
        }
    )
    seen: list[httpx.Request] = []

    def agent(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        # A careless server quoting the URL it was called with, encoded and all.
        return httpx.Response(401, text=f"denied for {request.url}")

    tap = Tap()
    async with httpx.AsyncClient(transport=httpx.MockTransport(agent)) as http:
        client = JsonRpcTransport(card, card_url=CARD_URL, http=http, tap=tap, credentials=Credentials(api_key=KEY))
        with pytest.raises(AuthFailedError) as caught:
            await client.get_task("t-1")
    assert seen[-1].url.params["key"] == KEY  # the key went out, encoded in the URL
    assert quote_plus(KEY) in str(seen[-1].url) or quote(KEY, safe="") in str(seen[-1].url)
    shown = "\n".join(format_record(r) for r in tap.records) + caught.value.message + str(caught.value.hint)
    for form in every_form(KEY):
        assert form not in shown
    assert REDACTED in shown


SECRET_CHARACTERS = "XYZ0123456789"  # what the secrets below are made of; the text around them has none


@settings(max_examples=300, deadline=None)
@given(
    secrets=st.lists(st.text(SECRET_CHARACTERS, min_size=4, max_size=40), min_size=1, max_size=3),
    pieces=st.lists(st.tuples(st.text("abcd \n", max_size=30), st.integers(0, 2)), max_size=12),
    limit=st.integers(1, 200),
)
def test_a_cut_never_keeps_part_of_a_secret(secrets: list[str], pieces: list[tuple[str, int]], limit: int):
    # Secrets at any place in the text, one across the cut included: the cut keeps no character of any.
    text = "".join(filler + secrets[which % len(secrets)] for filler, which in pieces)
    redactor = Redactor(secrets)
    kept = redactor.cut(text, limit)
    assert not set(kept) & set(SECRET_CHARACTERS), kept
    assert redactor.text(text).startswith(kept)  # nothing else lost, nothing invented
    assert len(kept) <= limit or len(text) <= limit  # a text within the limit is redacted whole


def test_the_tap_finds_a_secret_that_a_body_cut_would_halve():
    tap = Tap(Redactor([KEY]), max_body=100)
    for body in ("x" * 95 + KEY + "y" * 50, ("x" * 95 + KEY + "y" * 50).encode()):
        exchange = tap.request("POST", "http://127.0.0.1:9101/", [], body)
        record = tap.records[-1]
        assert record.truncated and record.body == "x" * 95 + "[reda"  # the cut would have kept "q-key"
        tap.done(exchange)


def test_overlapping_secrets_are_redacted_as_one_span():
    # Replaced one after another, the first replacement broke the other and left part of it in the clear.
    assert Redactor(["0001", "11111"]).text("x000111111y") == "x[redacted]y"
    assert Redactor(["00000000"]).text("a" + "0" * 12 + "b") == "a[redacted]b"  # one secret, written overlapping
    assert Redactor(["k3y!"]).text("k3y!k3y!") == "[redacted][redacted]"  # back to back: two spans, as before


def test_a_cut_after_a_secret_written_twice_keeps_none_of_it():
    # The start trimmed at the cut was the end of a whole secret the redaction would have caught.
    assert Redactor(["00000000"]).cut("0" * 16, 1) == "["
