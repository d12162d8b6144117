"""What the fuzz tests feed the parsers, and what they check on the way out.

Inputs are bytes, as they arrive: captures of real servers (tests/fixtures/transcripts) with JSON values swapped for
tokens json.dumps never writes (nesting past any parser's limit, numbers of thousands of digits, NaN and Infinity,
duplicate keys, bytes that are not UTF-8, lone surrogates, a megabyte string), the same bytes cut, flipped and
spliced, and plain random bytes. The property tests' strategies (tests/unit/properties_support.py) give the
documents and the ways to break their structure.

Outputs: only the documented errors escape (`documented`), each example ends within its time (`bounded`), and what
a person is shown of the result carries no terminal control (`shown_clean`).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import itertools
import json
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import httpx
from hypothesis import strategies as st

sys.path.append(str(Path(__file__).resolve().parent.parent / "unit"))  # the property tests' strategies

from properties_support import HOSTILE_TEXT, has_terminal_controls, mutated, writable_odd_values

from switchboard.a2a.errors import SwitchboardError
from switchboard.cli.output import report, warn

__all__ = ["HOSTILE_TEXT", "has_terminal_controls"]  # the property tests' own, for the fuzz tests

TRANSCRIPTS = Path(__file__).resolve().parent.parent / "fixtures" / "transcripts"
# Seconds one example may take: generous (a slow shared machine), since the point is that nothing waits for ever.
EXAMPLE_TIMEOUT = 30.0

T = TypeVar("T")

# Raw JSON text json.dumps never writes, each standing where a value stood.
RAW_TOKENS: tuple[bytes, ...] = (
    b"[" * 100_000 + b"]" * 100_000,  # past the recursion limit of json and of any recursive walk
    b'{"a":' * 3000 + b"1" + b"}" * 3000,
    b"[" * 900 + b"]" * 900,  # under the parser's limit, over most walks' share of it
    b"[" * 980 + b"]" * 980,  # read by json.loads, then too deep for json.dumps a few frames further down
    b'{"a":' * 980 + b"1" + b"}" * 980,
    b"9" * 5000,  # past int's 4300-digit limit
    b"-" + b"9" * 4000,
    b"1e999",
    b"-1e999",
    b"1e-999",
    b"NaN",
    b"Infinity",
    b"-Infinity",
    b"9007199254740993",  # past 2**53
    b"-0",
    b"1.0000000000000000000000001",
    b'{"k": 1, "k": {"k": "two"}, "k": null}',
    b'"\xff\xfe\xc3("',  # not UTF-8
    b'"\xed\xa0\x80"',  # a surrogate encoded in UTF-8
    b'"\\ud800"',
    b'"\\udfff\\ud800"',
    b'"\\u0000"',
    b'"\\u001b]0;pwned\\u0007\\u001b[2J"',
    b'"\x1b[31mred\x1b[0m \xc2\x9b31m"',
    b'"\\u202eevil\\u202c"',
    b'"[bold red]markup[/] [link=http://evil.example]x[/link]"',
    b'"' + b"A" * 1_000_000 + b'"',
    b'"' + "\u2713".encode() * 100_000 + b'"',
    b"[" + b"0," * 50_000 + b"0]",
    b"{" + b",".join(b'"k%d":%d' % (i, i) for i in range(5000)) + b"}",
    b"true",
    b"null",
    b"[]",
    b"{}",
    b'""',
    b"0",
)

_PLACEHOLDER = "\u0001raw{}\u0001"


@st.composite
def raw_json(draw: st.DrawFn, document: Any, max_tokens: int = 3) -> bytes:
    """`document` written as JSON, with its structure broken (properties_support.mutated) and a few of its values
    replaced by RAW_TOKENS."""
    document = draw(mutated(document, values=writable_odd_values)) if draw(st.booleans()) else document
    tokens = draw(st.lists(st.sampled_from(RAW_TOKENS), min_size=1, max_size=max_tokens))
    for index in range(len(tokens)):
        document = draw(mutated(document, max_mutations=1, values=st.just(_PLACEHOLDER.format(index))))
    text = json.dumps(document).encode()
    for index, token in enumerate(tokens):
        text = text.replace(json.dumps(_PLACEHOLDER.format(index)).encode(), token)
    return text


@st.composite
def damaged(draw: st.DrawFn, data: bytes) -> bytes:
    """`data` cut, with bytes flipped, dropped, repeated or inserted."""
    out = bytearray(data)
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["cut", "flip", "drop", "repeat", "insert"]))
        at = draw(st.integers(0, len(out)))
        if kind == "cut":
            del out[at:]
        elif kind == "flip" and at < len(out):
            out[at] ^= draw(st.integers(1, 255))
        elif kind == "drop":
            del out[at : at + draw(st.integers(1, 16))]
        elif kind == "repeat":
            out[at:at] = out[at : at + draw(st.integers(1, 64))]
        else:
            out[at:at] = draw(st.binary(min_size=1, max_size=8) | st.sampled_from([b"\x00", b"\xff", b"\r", b"\n\n"]))
    return bytes(out)


def answers(document: Any) -> st.SearchStrategy[bytes]:
    """Bytes an agent might answer in place of `document`: broken JSON, damaged JSON, or noise."""
    whole = json.dumps(document).encode()
    return st.one_of(
        raw_json(document),
        raw_json(document),
        damaged(whole),
        st.just(whole),
        st.binary(max_size=64),
        st.sampled_from(RAW_TOKENS),
    )


def capture_json(path: str) -> Any:
    """The JSON body of a captured answer (tests/fixtures/transcripts/DIR/NAME.json)."""
    return json.loads((TRANSCRIPTS / path).read_text())


class ChunkedBody(httpx.AsyncByteStream):
    """A response body handed over in the pieces given, as a server's writes arrive; counts what was read."""

    def __init__(self, chunks: Iterable[bytes]) -> None:
        self.chunks = chunks  # a generator gives a body too big to build beforehand
        self.read = 0

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for chunk in self.chunks:
            self.read += len(chunk)
            yield chunk


def endless(chunk: bytes = b"A" * 2**20, total: int = 50 * 2**20) -> Iterator[bytes]:
    """`total` bytes in pieces, made as they are read."""
    for _ in range(total // len(chunk)):
        yield chunk


def split(data: bytes, cuts: list[int]) -> list[bytes]:
    """`data` in pieces at the given offsets (taken modulo its length)."""
    points = sorted({c % (len(data) + 1) for c in cuts} | {0, len(data)})
    return [data[a:b] for a, b in itertools.pairwise(points) if b > a]


def bounded(make: Callable[[], Awaitable[T]], timeout: float = EXAMPLE_TIMEOUT) -> T:
    """Run one example's coroutine; a hang fails the example instead of the whole run."""

    async def run() -> T:
        try:
            return await asyncio.wait_for(make(), timeout)
        except TimeoutError:
            raise AssertionError(f"the example did not end within {timeout} s") from None

    return asyncio.run(run())


def documented(error: BaseException) -> SwitchboardError:
    """`error` if it is one the product documents (a SwitchboardError with a message), else the failure itself."""
    if not isinstance(error, SwitchboardError):
        raise error
    assert isinstance(error.message, str) and error.message, repr(error)
    return error


def shown_clean(error: SwitchboardError | None = None, notes: Iterable[str] = ()) -> None:
    """What a person is shown of an error and of the notes (text on stderr, JSON on stdout) holds no terminal
    control, and can be written as UTF-8."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        if error is not None:
            report(error, "text")
            report(error, "json")
        for note in notes:
            warn(note)
    for text in (out.getvalue(), err.getvalue()):
        assert not has_terminal_controls(text.replace("\n", "")), text[:500]
        text.encode("utf-8")
    if error is not None:
        json.loads(out.getvalue().splitlines()[0])
