"""What an `auth-required` question asks for, when switchboard can get it itself: the OAuth scopes it names.

A2A leaves the question free-form, so this reads what agents write: a Bearer challenge (`scope="a b"`), a data
part with `scope`/`scopes` (and `scheme`), or the names of scopes the card's OAuth schemes declare, mentioned in
the text. A question that names none, on a card whose security requirement is an OAuth scheme, asks for what that
requirement lists. No OAuth scheme on the card: nothing to offer (the person types a credential, as before).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from typing import Any

from ...safe_text import strip_controls
from ..model import AgentCard, DataPart, Message, Part, TextPart

OAUTH_TYPES = ("oauth2", "openIdConnect")
_CHALLENGE_SCOPE = re.compile(r'\bscope\s*=\s*"([^"]*)"')
# Narrower than RFC 6749's scope-token: the names become flags on a command line a person pastes (`read:user`,
# `offline_access`, `https://host/auth/x`, `api://x/.default` pass; a name starting with `-` or holding `$` does not).
_SCOPE_TOKEN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:/+=@*-]{0,199}$")
MAX_SCOPES = 20


@dataclass(frozen=True)
class SignInOffer:
    """Scopes to sign in with (on top of those held), and where they came from, for the person."""

    scopes: tuple[str, ...]
    scheme: str | None  # a scheme of the card the question names (None: whichever the client can use)
    source: str  # "the agent's question" or "the card's security requirement"

    def scope_flags(self) -> str:
        """`--scope S ...`, quoted for a shell: the names come from the agent."""
        return " ".join(f"--scope {shlex.quote(scope)}" for scope in self.scopes)

    def wanted_by(self, who: str) -> str:
        """`who wants a sign-in with SCOPES (where they came from)`, for the person."""
        scopes = " ".join(self.scopes) or "the card's scopes"
        return f"{who} wants a sign-in with {scopes} ({self.source})"

    @property
    def answer(self) -> str:
        """What the task is told once signed in (sent with the new token)."""
        return f"Signed in with the scope {' '.join(self.scopes)}." if self.scopes else "Signed in."

    async def sign_in(self, source: Any) -> None:
        """Run the flow on `source` (an OAuth token source) with these scopes besides those it holds."""
        source.widen(self.scopes)
        await source.sign_in()


def oauth_source(link: Any) -> Any:
    """The OAuth token source a link (or anything with a transport) sends with; None when it is not OAuth."""
    bearer = getattr(getattr(getattr(link, "transport", None), "auth", None), "oauth", None)
    return getattr(bearer, "source", None)


def sign_in_offer(card: AgentCard | None, question: Message | list[Part] | None) -> SignInOffer | None:
    """The sign-in that would answer `question` (an auth-required status message, or its parts), or None."""
    if card is None:
        return None
    schemes = {name: s for name, s in card.security_schemes.items() if s.type in OAUTH_TYPES}
    if not schemes:
        return None
    named, scheme = _named_by(question, _declared_scopes(card, schemes)) if question else ((), None)
    if named:
        return SignInOffer(named, scheme if scheme in schemes else None, "the agent's question")
    for requirement in card.security:
        for name, scopes in requirement.items():
            if name in schemes:
                return SignInOffer(tuple(valid_scopes(scopes)), name, "the card's security requirement")
    return None


def _declared_scopes(card: AgentCard, schemes: dict[str, Any]) -> set[str]:
    known: set[str] = set()
    for scheme in schemes.values():
        for flow in (scheme.flows or {}).values():
            if isinstance(flow, dict) and isinstance(flow.get("scopes"), dict):
                known.update(flow["scopes"])
    for requirement in card.security:
        for name, scopes in requirement.items():
            if name in schemes:
                known.update(scopes)
    return known


def _named_by(question: Message | list[Part], known: set[str]) -> tuple[tuple[str, ...], str | None]:
    found: list[str] = []
    scheme = None
    for part in question.parts if isinstance(question, Message) else question:
        if isinstance(part, DataPart) and isinstance(part.data, dict):
            value = part.data.get("scopes", part.data.get("scope"))
            found += value.split() if isinstance(value, str) else [v for v in value or [] if isinstance(v, str)]
            if isinstance(part.data.get("scheme"), str):
                scheme = part.data["scheme"]
        elif isinstance(part, TextPart):
            for challenge in _CHALLENGE_SCOPE.findall(part.text):
                found += challenge.split()
            words = {w.rstrip(".!?") for w in re.split(r"[\s,;()\[\]`'\"]+", part.text)}
            found += sorted(s for s in known if s in words)
    return tuple(dict.fromkeys(valid_scopes(found)))[:MAX_SCOPES], scheme


def valid_scopes(scopes: Any) -> list[str]:
    """Scope tokens only: agent-supplied text becomes a command-line flag and a token request."""
    return [strip_controls(s) for s in scopes if isinstance(s, str) and _SCOPE_TOKEN.match(s)]
