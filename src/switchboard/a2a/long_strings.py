"""A streaming filter over JSON bytes that keeps the document's structure and leaves out its long strings.

An answer too big to hold (the whole task, every artifact chunk included) still parses once each string longer
than `limit` bytes is replaced by "": ids, states and short messages are kept, texts are dropped. Quotes and
backslashes are ASCII and never part of a multi-byte UTF-8 sequence, so the filter works on bytes and finds
them in C: bytes.find for the next quote, and a regular expression that steps over escapes once a string holds an
escaped quote. Python runs once per string, never per byte. A chunk boundary may fall anywhere: inside a string,
inside an escape, between a backslash and the quote it escapes.
"""

from __future__ import annotations

import re

LONG_STRING = 4096  # bytes of a JSON string (as sent, escapes included) past which it is left out

_QUOTE = b'"'
_BACKSLASH = 0x5C
# The inside of a string from where it stands up to its closing quote, or to the end of the chunk (or to a last
# backslash whose escaped byte is in the next chunk). The unrolled form: no backtracking, one C loop.
_BODY = re.compile(rb'[^"\\]*(?:\\.[^"\\]*)*', re.DOTALL)


class LongStringFilter:
    """Feed byte chunks of one JSON document; `out` holds the same document with each string longer than `limit`
    bytes (between its quotes, as sent) replaced by "". The input is not checked: what is not JSON stays not JSON.
    """

    def __init__(self, limit: int = LONG_STRING) -> None:
        self.limit = limit
        self.out = bytearray()
        self.read = 0  # bytes fed
        self.dropped = 0  # strings left out
        self._in_string = False
        self._kept: bytearray | None = None  # the open string's bytes so far, while it is short enough to keep
        self._length = 0  # bytes of the open string so far
        self._escaped = False  # the open string's last byte so far is a backslash escaping the next one

    def feed(self, chunk: bytes) -> None:
        self.read += len(chunk)
        out, end, at = self.out, len(chunk), 0
        view = memoryview(chunk)  # slices of a view are copied once, where they go
        while at < end:
            if not self._in_string:
                quote = chunk.find(_QUOTE, at)
                if quote < 0:
                    out += view[at:]
                    return
                out += view[at:quote]
                self._in_string, self._kept, self._length = True, bytearray(), 0
                at = quote + 1
                continue
            if self._escaped:  # the byte a backslash at the end of the last chunk escapes
                self._take(view, at, at + 1)
                self._escaped = False
                at += 1
                continue
            quote = chunk.find(_QUOTE, at)
            stop = end if quote < 0 else quote
            if stop > at and chunk[stop - 1] == _BACKSLASH:
                # `at` follows no open escape, so the parity of the backslashes ending chunk[at:stop] decides.
                segment = chunk[at:stop]
                if (len(segment) - len(segment.rstrip(b"\\"))) % 2:
                    if quote < 0:  # the chunk ends in half an escape
                        self._take(view, at, end)
                        self._escaped = True
                        return
                    # An escaped quote: escapes are dense here, so step over them in C to the string's end.
                    body = _BODY.match(chunk, quote + 1)
                    assert body is not None  # the pattern matches the empty string too
                    stop = body.end()
                    if stop == end or (stop == end - 1 and chunk[stop] == _BACKSLASH):
                        self._take(view, at, end)
                        self._escaped = stop != end
                        return
                    quote = stop
            if quote < 0:
                self._take(view, at, end)
                return
            self._take(view, at, quote)
            if self._kept is None:
                out += b'""'
                self.dropped += 1
            else:
                out += b'"' + self._kept + b'"'
            self._in_string, self._kept = False, None
            at = quote + 1

    def _take(self, view: memoryview, start: int, stop: int) -> None:
        self._length += stop - start
        if self._kept is not None:
            if self._length > self.limit:
                self._kept = None
            else:
                self._kept += view[start:stop]
