"""Redaction: one redactor replaces every secret the tool knows (in each of the forms it travels in) and the values of
credential headers with a fixed marker. Everything that shows or writes what went over the wire goes through it
(the wire view's tap, journals, exports, recordings, errors)."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterable
from urllib.parse import quote, quote_plus

REDACTED = "[redacted]"
_SENSITIVE_HEADERS = {"authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key"}


def secret_forms(secret: str) -> list[str]:
    """The ways one secret travels: as is, URL-encoded (an API key in a query string), base64 (basic auth, or
    an agent quoting it back encoded) and JSON-escaped."""
    raw = secret.encode("utf-8", "surrogatepass")  # a secret from JSON may hold a lone surrogate
    b64 = base64.b64encode(raw).decode("ascii")
    forms = [
        secret,
        quote(raw, safe=""),
        quote(raw),
        quote_plus(raw),
        b64,
        b64.rstrip("="),
        base64.urlsafe_b64encode(raw).decode("ascii").rstrip("="),
        json.dumps(secret)[1:-1],
    ]
    return list(dict.fromkeys(forms))


class Redactor:
    """Replaces secret values, and values of credential headers, with a fixed marker."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        self._secrets: list[str] = []
        self.add(*secrets)

    def add(self, *secrets: str) -> None:
        for secret in secrets:
            # Very short values would redact ordinary text; they are still masked in credential headers.
            if not secret or len(secret) < 4:
                continue
            for form in secret_forms(secret):
                if form not in self._secrets:
                    self._secrets.append(form)
        self._secrets.sort(key=len, reverse=True)

    def text(self, value: str) -> str:
        """`value` with every secret redacted. Secrets that overlap (one written twice with a shared middle, or
        two whose ends meet) are redacted as one span: replaced one after another, the first replacement would
        break the other and leave part of it in the clear."""
        spans: list[tuple[int, int]] = []
        for secret in self._secrets:
            at = value.find(secret)
            while at >= 0:
                spans.append((at, at + len(secret)))
                at = value.find(secret, at + 1)
        if not spans:
            return value
        spans.sort()
        pieces, done = [], 0  # done: where the text not yet copied starts
        start, end = spans[0]
        for next_start, next_end in spans[1:]:
            if next_start < end:  # overlaps the span being built
                end = max(end, next_end)
                continue
            pieces += [value[done:start], REDACTED]
            done, start, end = end, next_start, next_end
        pieces += [value[done:start], REDACTED, value[end:]]
        return "".join(pieces)

    @property
    def longest(self) -> int:
        """The length of the longest secret form (0: none)."""
        return len(self._secrets[0]) if self._secrets else 0

    def cut(self, value: str, limit: int) -> str:
        """The first `limit` characters of `value`, redacted. Cut first, a secret across the cut would keep its
        first part; so the text is redacted a secret's length past the cut (every secret that starts before the cut
        ends in there), then a secret's start left at that end goes, then the text is cut. Trimmed before the
        redaction, that start could be the end of a whole secret the redaction would have caught (one secret
        written twice, back to back)."""
        if len(value) <= limit:
            return self.text(value)
        if not self._secrets:
            return value[:limit]
        window = value[: limit + self.longest]
        redacted = self.text(window)
        if len(value) > len(window):
            redacted = redacted[: len(redacted) - self._started_at_end(redacted)]
        return redacted[:limit]

    def _started_at_end(self, text: str) -> int:
        """How long the longest start of a secret that `text` ends with is (0: none)."""
        longest = 0
        for secret in self._secrets:
            tail = text[len(text) - len(secret) + 1 :] if len(secret) > 1 else ""
            at = tail.find(secret[0])
            while at >= 0 and len(tail) - at > longest:
                if secret.startswith(tail[at:]):
                    longest = len(tail) - at
                    break
                at = tail.find(secret[0], at + 1)
        return longest

    def headers(self, headers: Iterable[tuple[str, str]], extra_sensitive: Iterable[str] = ()) -> dict[str, str]:
        sensitive = _SENSITIVE_HEADERS | {h.lower() for h in extra_sensitive}
        out: dict[str, str] = {}
        for name, value in headers:
            if name.lower() in sensitive:
                scheme, _, rest = value.partition(" ")
                out[name] = f"{scheme} {REDACTED}" if rest and scheme.lower() in ("bearer", "basic") else REDACTED
            else:
                out[name] = self.text(value)
        return out
