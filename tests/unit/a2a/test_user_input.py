"""What a person types is checked where it enters: an agent's address is a usage error (exit 2) saying what is
wrong, never an httpx exception; an empty message is refused. The network layer turns any URL httpx or the
socket layer refuses into the same kind of error (for URLs no person typed, such as a card's interface)."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from switchboard.a2a.cards import fetch_card
from switchboard.a2a.errors import UsageError
from switchboard.a2a.http import new_http_client, tapped_request
from switchboard.a2a.user_input import (
    check_agent_ref,
    check_agent_url,
    check_header,
    check_message_text,
    looks_like_address,
)

# From the report: each reached the network stack and came back as an "unexpected" internal error.
BAD = {
    "127.0.0.1:47341ghost": 'the port "47341ghost", which is not a number from 1 to 65535',
    "http://127.0.0.1:47341x/": 'the port "47341x", which is not a number from 1 to 65535',
    "127.0.0.1:47341x": 'the port "47341x"',
    "http://127.0.0.1:99999/": 'the port "99999", which is not a number',
    "http://127.0.0.1:0/": 'the port "0"',
    "http://[::1/": "malformed IPv6 address",
    "htp://127.0.0.1:9/": "starts with htp://, which is not a scheme agents speak",
    "ftp://agents.example/": "starts with ftp://",
    "http:/127.0.0.1:9": "missing the // after http:",
    "http://": "has no host",
    "http://exa mple.com/": "contains a space",
    "http://a\x00b/": "contains the character",
    "http://a..b/": "which is not a host name",
    "http://%zz/": "which is not a host name",
    "": "is empty",
    "   ": "is empty",
}


@pytest.mark.parametrize("ref", list(BAD))
def test_a_malformed_address_is_a_usage_error_that_says_what_is_wrong(ref):
    with pytest.raises(UsageError) as caught:
        check_agent_url(ref)
    assert caught.value.exit_code == 2 and caught.value.code == "A2ACLI_ERR_USAGE"
    assert BAD[ref] in caught.value.message
    assert caught.value.hint and ("http://" in caught.value.hint or "address" in caught.value.hint)


@pytest.mark.parametrize(
    ("ref", "url"),
    [
        ("127.0.0.1:9101", "http://127.0.0.1:9101"),
        ("localhost:9101/", "http://localhost:9101/"),
        ("[::1]:9101", "http://[::1]:9101"),
        ("agents.example", "https://agents.example"),
        ("HTTPS://agents.example:8443/a2a", "HTTPS://agents.example:8443/a2a"),
        ("  http://127.0.0.1:9/  ", "http://127.0.0.1:9/"),
        ("http://büro.example/", "http://büro.example/"),
    ],
)
def test_a_good_address_comes_back_as_an_absolute_url(ref, url):
    assert check_agent_url(ref) == url


def test_a_card_file_is_an_address_too(tmp_path):
    card = tmp_path / "card.json"
    card.write_text("{}")
    assert check_agent_ref(str(card)) == str(card)
    assert check_agent_ref(card.as_uri()) == card.as_uri()


@pytest.mark.parametrize("word", ["sdk31", "writer", "my-agent", "a_b"])
def test_a_bare_word_is_a_name_not_an_address(word):
    assert not looks_like_address(word)


@pytest.mark.parametrize(
    "ref", ["sdk31.example", "sdk31:9101", "localhost", "LOCALHOST/x", "[::1]", "http://sdk31", "./card.json"]
)
def test_an_address_has_a_scheme_a_dot_a_port_or_is_localhost(ref):
    assert looks_like_address(ref)


@settings(max_examples=500)
@given(ref=st.text(max_size=40) | st.from_regex(r"\A(https?|htp|ftp)?(://)?[\w.\[\]:%-]{0,20}(:\w{0,7})?/?\Z"))
@example(ref="http://[::1]:99999/")
@example(ref="http://[zz]/")
@example(ref="http://" + "a" * 64 + ".example/")
@example(ref="http://" + "a." * 130 + "example/")
def test_any_text_is_an_http_url_httpx_takes_or_a_usage_error(ref):
    try:
        url = check_agent_url(ref)
    except UsageError as exc:
        assert exc.message and exc.hint
        return
    parsed = httpx.URL(url)  # never InvalidURL
    assert parsed.scheme in ("http", "https") and parsed.host
    assert parsed.port is None or 1 <= parsed.port <= 65535


@pytest.mark.parametrize(
    ("name", "value", "wrong"),
    [("X Team", "a", "not an HTTP header name"), ("X-Team", "é", "cannot carry"), ("X-Team", "a\nb", "cannot carry")],
)
def test_a_header_that_cannot_go_on_the_wire_is_a_usage_error(name, value, wrong):
    with pytest.raises(UsageError, match=wrong):
        check_header(name, value)
    check_header("X-Team", "blue team")


@pytest.mark.parametrize("text", ["", " ", "  \n\t "])
def test_an_empty_or_blank_message_is_a_usage_error(text):
    with pytest.raises(UsageError) as caught:
        check_message_text(text)
    assert caught.value.exit_code == 2
    assert caught.value.message in ("the message is empty", "the message is only whitespace")
    assert check_message_text(" hi ") == " hi "


# --- the second line of defence: the network layer --------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:47341x/",  # httpx: InvalidURL
        "http://127.0.0.1:99999/",  # the socket layer: OverflowError in an ExceptionGroup
        "http://[::1/",
        "htp://127.0.0.1:9/",  # httpx: UnsupportedProtocol, was "Retry; if it persists, check the agent's logs"
    ],
)
async def test_a_request_to_a_url_the_stack_refuses_is_a_usage_error(url):
    async with new_http_client(5) as http:
        with pytest.raises(UsageError) as caught:
            await tapped_request(http, "GET", url, tap=None)
    assert "the URL is not valid" in caught.value.message and caught.value.exit_code == 2


async def test_a_header_httpx_cannot_encode_is_a_usage_error_that_never_quotes_it():
    async with new_http_client(5) as http:
        with pytest.raises(UsageError) as caught:
            await tapped_request(http, "GET", "http://127.0.0.1:9/", tap=None, headers={"X-Key": "sécret"})
    assert "cannot carry" in caught.value.message and "sécret" not in caught.value.message


async def test_fetch_card_refuses_a_malformed_address_before_any_request():
    def refuse(request: httpx.Request) -> httpx.Response:
        raise AssertionError(f"a request went out: {request.url}")

    async with httpx.AsyncClient(transport=httpx.MockTransport(refuse)) as http:
        for ref in ("127.0.0.1:47341ghost", "http://127.0.0.1:99999/", "http://[::1/", "htp://x/"):
            with pytest.raises(UsageError):
                await fetch_card(ref, http)


async def test_a_header_with_a_line_break_is_a_usage_error_that_never_quotes_it():
    # h11 refuses the header once a connection is made (and quotes it): a listener that never answers.
    server = await asyncio.start_server(lambda reader, writer: None, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        async with new_http_client(5) as http:
            with pytest.raises(UsageError) as caught:
                await tapped_request(
                    http, "GET", f"http://127.0.0.1:{port}/", tap=None, headers={"X-Key": "s3cret\nX: y"}
                )
    finally:
        server.close()
    assert "a header is malformed" in caught.value.message and "s3cret" not in caught.value.message
