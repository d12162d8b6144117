"""A request body as JSON, read strictly and within bounds, or a -32700 saying what is wrong with it.

I-JSON (RFC 7493), which is what A2A's ProtoJSON needs: UTF-8 without a byte-order mark, no unpaired
surrogates, no repeated key in an object (the guard and the SDK could otherwise read different values), no
NaN or Infinity, numbers of at most MAX_NUMBER_DIGITS characters; and nesting of at most MAX_DEPTH, checked
before the parser recurses (Python's parser raises RecursionError a thousand levels down, the SDK's answer was
an internal error with that text).
"""

from __future__ import annotations

import json
import math
import re
from itertools import accumulate
from typing import Any

from .bounds import MAX_DEPTH, MAX_NUMBER_DIGITS
from .refusal import PARSE_ERROR, Refusal

_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)  # unrolled: one step per run of plain bytes
_NOT_BRACKET = bytes(b for b in range(256) if b not in b"[]{}")
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}
_SURROGATE = re.compile("[\ud800-\udfff]")
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


def parse_json(body: bytes, max_depth: int = MAX_DEPTH) -> Any:
    """The body's JSON value. Raises Refusal(-32700) with our own sentence for anything not I-JSON or too deep."""
    if not body.strip():
        raise Refusal(PARSE_ERROR, "the request body is empty; send a JSON object")
    if body.startswith(b"\xef\xbb\xbf"):
        raise Refusal(PARSE_ERROR, "the body starts with a byte-order mark; send UTF-8 JSON without one")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Refusal(PARSE_ERROR, f"the body is not UTF-8 (a bad byte at offset {exc.start})") from None
    if nesting(body) > max_depth:
        raise Refusal(PARSE_ERROR, f"the JSON is nested more than {max_depth} levels deep")
    try:
        value = json.loads(
            text,
            object_pairs_hook=_object,
            parse_constant=_constant,
            parse_int=_integer,
            parse_float=_float,
        )
    except Refusal:
        raise
    except (ValueError, RecursionError) as exc:
        at = getattr(exc, "pos", None)
        where = f" at character {at}" if isinstance(at, int) else ""
        raise Refusal(PARSE_ERROR, f"the body is not valid JSON{where}") from None
    if _SURROGATE_ESCAPE.search(body):  # UTF-8 cannot carry a surrogate: only a \u escape can make one
        _no_surrogates(value)
    return value


def nesting(body: bytes) -> int:
    """How deep the brackets outside strings go (an unbalanced text may claim less; the parser refuses it)."""
    brackets = _STRING.sub(b'""', body).translate(None, _NOT_BRACKET)
    if not brackets:
        return 0
    return max(accumulate(_STEP[b] for b in brackets))


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise Refusal(PARSE_ERROR, f"an object repeats the key {_shown(key)}; each key may appear once")
        found[key] = value
    return found


def _constant(name: str) -> Any:
    raise Refusal(PARSE_ERROR, f"{name} is not a JSON number")


def _integer(text: str) -> int:
    if len(text) > MAX_NUMBER_DIGITS:
        raise Refusal(PARSE_ERROR, f"a number has more than {MAX_NUMBER_DIGITS} digits")
    return int(text)


def _float(text: str) -> float:
    if len(text) > MAX_NUMBER_DIGITS:
        raise Refusal(PARSE_ERROR, f"a number has more than {MAX_NUMBER_DIGITS} characters")
    value = float(text)
    if not math.isfinite(value):
        raise Refusal(PARSE_ERROR, "a number is too large for a double")
    return value


def _no_surrogates(value: Any) -> None:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                raise Refusal(PARSE_ERROR, "a string holds an unpaired UTF-16 surrogate (\\ud800-\\udfff)")
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _shown(key: str) -> str:
    """A key in our sentence: quoted, printable, short (it is the caller's text, echoed back to the caller)."""
    printable = "".join(ch if ch.isprintable() else "?" for ch in key[:40])
    return json.dumps(printable + ("..." if len(key) > 40 else ""), ensure_ascii=True)
