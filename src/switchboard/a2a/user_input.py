"""What a person types, checked where it enters: an agent's address (the agents file, the add-agent dialog, the
command line) and the text of a message. A mistake is a usage error (exit 2) that says what is wrong and what
to write instead, never a failure deep in the network stack.

Cheap to import: the standard library and the error classes only (httpx is imported when a URL is checked).
"""

from __future__ import annotations

import difflib
import ipaddress
import json
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from urllib.parse import unquote, urlsplit

from .errors import UsageError

SCHEMES = ("http", "https")
URL_HINT = (
    "Write the agent's address as http://HOST:PORT/ or https://HOST/ "
    "(a bare HOST:PORT gets http:// on this machine, https:// elsewhere)."
)
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")
_HALF_SCHEME = re.compile(r"^(https?):/?(?!/)", re.IGNORECASE)  # http:host, http:/host
_LABEL = re.compile(r"^[A-Za-z0-9_-]{1,63}$")


def shown(text: str, limit: int = 80) -> str:
    """A typed value quoted for a message: control characters escaped, long values cut."""
    quoted = json.dumps(text, ensure_ascii=False)
    return quoted if len(quoted) <= limit else quoted[: limit - 2] + '…"'


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """ " Did you mean X?" for the closest known name, or ""."""
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f" Did you mean {close[0]}?" if close else ""


def is_loopback(host: str) -> bool:
    """localhost or a loopback address (127.0.0.0/8, ::1)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def card_file_path(ref: str) -> Path | None:
    """The local card file a reference names (file://..., a path, or an existing NAME.json), else None."""
    if ref.startswith("file://"):
        return Path(unquote(urlsplit(ref).path))  # as_uri() percent-encodes; decode it back
    if "://" not in ref and (ref.startswith(("/", "./", "../", "~")) or ref.endswith(".json")):
        try:
            path = Path(ref).expanduser()
            return path if path.exists() or ref.startswith(("/", "./", "../", "~")) else None
        except (OSError, RuntimeError, ValueError):  # a name too long for the file system, ~nobody, a NUL
            return None
    return None


def looks_like_address(ref: str) -> bool:
    """Whether a word that names no agent of the agents file is meant as an address: it has a scheme, a dot
    or a port, is localhost or an IPv6 literal, or names a card file. `sdk31` is none of these: a name."""
    ref = ref.strip()
    if "://" in ref or _HALF_SCHEME.match(ref) or card_file_path(ref) is not None:
        return True
    host = ref.split("/", 1)[0]
    return "." in host or ":" in host or host.startswith("[") or host.lower() == "localhost"


def check_agent_url(ref: str, what: str = "the agent's address") -> str:
    """The absolute http(s) URL of an agent's address as a person wrote it (a URL, or HOST[:PORT][/PATH], which
    gets http:// on loopback and https:// elsewhere); a UsageError saying what is wrong with it otherwise."""
    text = ref.strip()
    if not text:
        raise UsageError(f"{what} is empty", hint=URL_HINT)
    odd = next((c for c in text if c.isspace() or not c.isprintable()), None)
    if odd is not None:
        kind = "a space" if odd == " " else f"the character {shown(odd)}"
        raise UsageError(f"{what} {shown(text)} contains {kind}", hint="Remove it: an address is one word.")
    scheme_match = _SCHEME.match(text)
    if scheme_match:
        scheme = scheme_match.group(1)
        if scheme.lower() not in SCHEMES:
            raise UsageError(
                f"{what} {shown(text)} starts with {scheme}://, which is not a scheme agents speak",
                hint="Agents are reached over http:// or https://: write http://HOST:PORT/ or https://HOST/.",
            )
        url = text
    elif half := _HALF_SCHEME.match(text):
        raise UsageError(
            f"{what} {shown(text)} is missing the // after {half.group(1)}:",
            hint=f"Write {half.group(1).lower()}://HOST:PORT/.",
        )
    else:
        try:
            bare_host = urlsplit("//" + text).hostname or ""
        except ValueError:
            bare_host = ""
        url = ("http://" if is_loopback(bare_host) else "https://") + text
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError as exc:  # an unclosed or malformed [IPv6] literal
        raise UsageError(f"{what} {shown(text)} has a malformed IPv6 address ({exc})", hint=URL_HINT) from None
    if not host:
        raise UsageError(f"{what} {shown(text)} has no host", hint=URL_HINT)
    try:
        port = parts.port
    except ValueError:
        port = -1
    if port is not None and not 1 <= port <= 65535:
        given = parts.netloc.rpartition("]")[2].rpartition(":")[2]
        raise UsageError(
            f"{what} {shown(text)} has the port {shown(given)}, which is not a number from 1 to 65535",
            hint="Give the port the agent listens on, as in http://127.0.0.1:9101/.",
        )
    import httpx

    try:
        parsed = httpx.URL(url)
        raw_host = parsed.raw_host.decode("ascii")
    except (httpx.InvalidURL, UnicodeError) as exc:
        raise UsageError(f"{what} {shown(text)} is not a valid URL: {exc}", hint=URL_HINT) from None
    if not _valid_host(raw_host):
        raise UsageError(f"{what} {shown(text)} has {shown(host)}, which is not a host name", hint=URL_HINT)
    return url


def _valid_host(host: str) -> bool:
    if host.startswith("["):
        return True  # httpx checked the IPv6 literal
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        pass
    labels = host.removesuffix(".").split(".")
    return len(host) <= 253 and all(_LABEL.match(label) for label in labels)


def check_agent_ref(ref: str, what: str = "the agent's address") -> str:
    """`check_agent_url` for a reference that may also name a local card file (returned as given)."""
    if card_file_path(ref.strip()) is not None:
        return ref.strip()
    return check_agent_url(ref, what)


# --- headers ----------------------------------------------------------------------------------------------

_HEADER_NAME = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")


def check_header(name: str, value: str, what: str = "the header") -> None:
    """A UsageError unless `name: value` can go on the wire as it is. The value is never quoted: it may hold a
    secret from the environment."""
    if not _HEADER_NAME.match(name):
        raise UsageError(
            f"{what} name {shown(name)} is not an HTTP header name",
            hint="Header names are letters, digits and dashes, for example X-Team.",
        )
    if any(not (c == "\t" or " " <= c <= "~") for c in value):
        raise UsageError(
            f"{what} {name} has a character HTTP headers cannot carry (a line break, a control character or a "
            "non-ASCII letter)",
            hint="Header values are printable ASCII on one line.",
        )


def check_secret(value: str, what: str) -> str:
    """A credential as it will go on the wire, or a UsageError that names where it came from (never the value):
    a line break or control character (often the newline a file ends with) or a non-ASCII letter."""
    if any(not (" " <= c <= "~") for c in value):
        raise UsageError(
            f"{what} has a character a credential cannot carry (a line break, a control character or a non-ASCII "
            "letter)",
            hint="Set it to the credential alone, on one line: a value read from a file often ends with a newline.",
        )
    return value


# --- message text ------------------------------------------------------------------------------------------

EMPTY_MESSAGE_HINT = "Give the text to send: an empty message, or one of only spaces, is not sent."


def check_message_text(text: str, what: str = "the message") -> str:
    """The text itself, or a UsageError when it is empty or only whitespace: agents answer such a message
    with an error of their own, or not at all."""
    if not text.strip():
        raise UsageError(f"{what} is empty" if not text else f"{what} is only whitespace", hint=EMPTY_MESSAGE_HINT)
    return text


def check_message_texts(texts: Sequence[str], what: str = "the message") -> None:
    """Every text part a person typed for one message has something in it (see `check_message_text`)."""
    for text in texts:
        check_message_text(text, what)
