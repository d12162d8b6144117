"""Reading a JSON answer that may be too big to hold: whole under a bound, past it with its long strings left out.

An agent answers CancelTask with the whole task, every artifact chunk included: after a stream of a few seconds
that is a hundred megabytes and more. Held whole and parsed, it would cost several times that in memory.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import httpx

from .errors import InvalidResponseError, SwitchboardError
from .http import header_pairs, network_error
from .long_strings import LONG_STRING, LongStringFilter
from .tap import Tap

TAP_HEAD = 256 * 1024  # bytes of a skimmed answer the wire tap is given (it keeps less)


@dataclass(frozen=True)
class BoundedBody:
    content: bytes  # the whole body, or, when skimmed, the body with each long string left out
    size: int  # bytes the answer held
    skimmed: bool
    head: bytes  # the first bytes as sent: the whole body unless skimmed


async def read_bounded(
    response: httpx.Response, bound: int, *, url: str, long_string: int = LONG_STRING
) -> BoundedBody:
    """Read a streamed response's body, holding no more than about `bound` bytes of it at once.

    Up to `bound` bytes the body is kept whole. Past it, the body goes through a LongStringFilter: strings longer
    than `long_string` bytes become "", so a JSON document keeps its structure, ids and short texts. A body still
    past `bound` once filtered (a flood of short strings) is an InvalidResponseError. httpx errors pass through.
    """
    held: list[bytes] = []
    size = 0
    skim: LongStringFilter | None = None
    head = b""
    async for chunk in response.aiter_bytes():
        size += len(chunk)
        if skim is not None:
            if len(head) < TAP_HEAD:
                head += chunk[: TAP_HEAD - len(head)]
            skim.feed(chunk)
            if len(skim.out) > bound:
                raise InvalidResponseError(
                    f"the answer from {url} held more than {bound / 2**20:.1f} MB even with its long texts left out",
                    hint="The agent's answer is too big to read; `switchboard task get` shows the task's state.",
                    url=url,
                )
            continue
        held.append(chunk)
        if size > bound:
            head = _first(held, TAP_HEAD)
            skim = LongStringFilter(long_string)
            while held:
                skim.feed(held.pop(0))
    if skim is None:
        content = b"".join(held)
        return BoundedBody(content, size, False, content)
    return BoundedBody(bytes(skim.out), size, True, head)


@asynccontextmanager
async def _ended(response: httpx.Response, *, url: str, tap: Tap | None, exchange: int) -> AsyncIterator[None]:
    """However the read of a tapped exchange goes: httpx errors become ours, a failure is written on the tap, the
    response is closed and the exchange done."""
    try:
        yield
    except httpx.HTTPError as exc:
        if tap:
            tap.error(exchange, f"{type(exc).__name__}: {exc}")
        raise network_error(url, exc) from None
    except SwitchboardError as exc:
        if tap:
            tap.error(exchange, exc.message)
        raise
    finally:
        await response.aclose()
        if tap:
            tap.done(exchange)


async def read_tapped(response: httpx.Response, bound: int, *, url: str, tap: Tap | None, exchange: int) -> BoundedBody:
    """read_bounded for a response `open_response(stream=True)` left open: recorded on the tap (which is given the
    head of a skimmed body, no more), the response closed and the exchange done. httpx errors become ours."""
    async with _ended(response, url=url, tap=tap, exchange=exchange):
        answer = await read_bounded(response, bound, url=url)
        if tap:
            tap.response(exchange, response.status_code, header_pairs(response.headers), answer.head)
        return answer


async def fill_at_most(response: httpx.Response, cap: int) -> bool:
    """Read a streamed response's body into it (`.content`, `.text`, `.json()`, as httpx's own aread() does), unless
    it is past `cap` bytes: announced (then not a byte is read) or sent. False past the cap (httpx errors pass)."""
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > cap:
        return False
    held: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():  # decoded: a compressed body is counted as what it holds
        size += len(chunk)
        if size > cap:
            return False
        held.append(chunk)
    response._content = b"".join(held)
    return True


async def read_capped(
    response: httpx.Response, cap: int, *, url: str, what: str, tap: Tap | None, exchange: int
) -> httpx.Response:
    """Read a streamed response's body whole, refusing one past `cap` bytes (a Content-Length past it before a byte
    is read): for documents that are small by nature (a card, a key set), where no bound would let an agent make
    us hold gigabytes. The response comes back read (`.content`, `.text`), recorded on the tap and closed; past the
    cap, an InvalidResponseError. httpx errors become ours."""
    async with _ended(response, url=url, tap=tap, exchange=exchange):
        if not await fill_at_most(response, cap):
            raise _too_big(url, what, cap)
        if tap:
            tap.response(exchange, response.status_code, header_pairs(response.headers), response.content)
        return response


def _too_big(url: str, what: str, cap: int) -> InvalidResponseError:
    return InvalidResponseError(
        f"{url} answered with {what} larger than {cap // 1024} KiB; it was not read",
        hint="No agent needs that much here: the URL may point at something else; run with --verbose to see it.",
        url=url,
    )


def answer_text(response: httpx.Response) -> str:
    """The body of a read response as text. httpx decodes by the charset the server names, and its UTF-16 decoder
    raises, `errors="replace"` or not, on a body that does not start with a byte order mark: such a body (JSON is
    UTF-8, RFC 8259 section 8.1) is read as UTF-8, with what does not decode replaced."""
    try:
        return response.text
    except UnicodeError:
        return response.content.decode("utf-8", errors="replace")


def _first(chunks: list[bytes], count: int) -> bytes:
    pieces, taken = [], 0
    for chunk in chunks:
        if taken >= count:
            break
        pieces.append(chunk[: count - taken])
        taken += len(pieces[-1])
    return b"".join(pieces)
