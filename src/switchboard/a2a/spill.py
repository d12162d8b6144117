"""Text kept on disk instead of in memory: where an artifact's text goes once it grows past a bound.

An anonymous temporary file (gone when closed or when the process ends), appended to in order and read
back whole, from a character offset, or copied out in blocks, so an endless stream costs disk, not memory.
"""

from __future__ import annotations

import bisect
import tempfile
import weakref
from collections.abc import Iterator

_ENCODING, _ERRORS = "utf-8", "surrogatepass"  # a lone surrogate from a JSON escape survives the round trip


class TextSpill:
    def __init__(self) -> None:
        self._file = tempfile.TemporaryFile()  # noqa: SIM115 - open for the life of the artifact
        weakref.finalize(self, self._file.close)  # a view dropped without close() lets go of it quietly
        self.length = 0  # characters written
        # (character offset, byte offset) where each write starts, and the end: a read starts at one of them
        self._chars = [0]
        self._bytes = [0]

    def append(self, text: str) -> None:
        if not text:
            return
        data = text.encode(_ENCODING, _ERRORS)
        self._file.seek(self._bytes[-1])
        self._file.write(data)
        self.length += len(text)
        self._chars.append(self.length)
        self._bytes.append(self._bytes[-1] + len(data))

    def blocks(self, offset: int = 0, end: int | None = None) -> Iterator[str]:
        """The text from character `offset` up to `end` (or the end), one write at a time."""
        end = self.length if end is None else max(0, min(end, self.length))
        offset = max(0, min(offset, end))
        first = bisect.bisect_right(self._chars, offset) - 1
        for i in range(first, len(self._chars) - 1):
            if self._chars[i] >= end:
                break
            self._file.seek(self._bytes[i])
            block = self._file.read(self._bytes[i + 1] - self._bytes[i]).decode(_ENCODING, _ERRORS)
            yield block[max(0, offset - self._chars[i]) : end - self._chars[i]]

    def read(self, offset: int = 0, end: int | None = None) -> str:
        return "".join(self.blocks(offset, end))

    def close(self) -> None:
        self._file.close()
