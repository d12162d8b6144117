"""What the home screen knows about each agent: its card (or why there is none), checked on demand and
in the background, as agent registries do."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import httpx

from .a2a import cards
from .a2a.auth.trust.card_signature import CardTrust
from .a2a.cards import BINDING_FLAGS, BINDING_NAMES, GRPC, choose_endpoint, fetch_card, lint_card
from .a2a.errors import SwitchboardError, UsageError
from .a2a.model import AgentCard, SecurityScheme, Skill
from .a2a.tap import Tap
from .a2a.wire.card_parts import decode_skill
from .a2a.wire.common import Notes, decode_list
from .agents import AgentEntry


@dataclass
class AgentStatus:
    entry: AgentEntry
    card: AgentCard | None = None
    card_url: str | None = None
    error: SwitchboardError | None = None
    checked_at: float | None = None
    lint: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    checking: bool = False
    trust: CardTrust | None = None  # what the card's signatures prove (None: no card, or not checked)

    @property
    def reachable(self) -> bool | None:
        """True with a card (or an answering REST task API), False after a failed check, None before any."""
        if self.checked_at is None:
            return None
        return self.error is None

    @property
    def protocol(self) -> str:
        if self.entry.protocol == "tasks":
            return "tasks API"
        if self.card is None:
            return "?"
        binding = BINDING_FLAGS.get(self.entry.binding or "")
        try:
            return choose_endpoint(self.card, binding=binding).short_label
        except UsageError:  # the agents file forces a binding the card does not offer
            return f"no {BINDING_NAMES[binding]}" if binding else "unsupported"
        except SwitchboardError:
            if not cards.grpc_installed() and any(i.binding.upper() == GRPC for i in self.card.interfaces):
                return "gRPC not installed"  # the card view's hint names the extra
            return "unsupported"

    @property
    def streaming(self) -> bool | None:
        if self.entry.protocol == "tasks":
            return False
        return bool(self.card.capabilities.streaming) if self.card else None

    @property
    def auth_kind(self) -> str | None:
        """What the agent asks callers for, in a word for a table: the card's required schemes first (`oauth`,
        `oidc`, `key`, `bearer`, `basic`, `mtls`), else the credential the agents file names; None: nothing."""
        card = self.card
        if card is not None:
            schemes = card.security_schemes
            required = [name for requirement in card.security for name in requirement] or list(schemes)
            kinds = [_AUTH_WORD.get(_scheme_kind(schemes[name])) for name in required if name in schemes]
            words = list(dict.fromkeys(k for k in kinds if k))
            if words:
                return "/".join(words[:2])
        if self.entry.bearer_env:
            return "bearer"
        if self.entry.api_key_env:
            return "key"
        return "auth" if card is not None and (card.security or card.security_schemes) else None

    @property
    def skills(self) -> list[Skill]:
        """The agents file's `skills` when it gives them (they override the card's), else the card's."""
        if self.entry.skills:
            notes = Notes()
            overrides = decode_list(self.entry.skills, decode_skill, "agents file skills", notes)
            if overrides:
                return overrides
        return self.card.skills if self.card else []

    @property
    def skill_count(self) -> int | None:
        if self.card is None and not self.entry.skills:
            return None
        return len(self.skills)

    @property
    def title(self) -> str:
        return self.card.name if self.card else self.entry.name


async def check_agent(entry: AgentEntry, http: httpx.AsyncClient, tap: Tap | None = None) -> AgentStatus:
    """Fetch the agent's card (A2A) and check its signatures, or see that its REST task API answers; never raises.

    An agent with `tls:` is checked on a client of its own, so its client certificate goes to it alone."""
    status = AgentStatus(entry)
    own: httpx.AsyncClient | None = None
    try:
        if entry.tls is not None:
            from .agent_http import agent_http_client

            own = http = agent_http_client(entry)
        if entry.protocol == "tasks":
            # The REST task API has no card; any HTTP answer from its base URL means it is up.
            await http.get(entry.url.rstrip("/") + "/tasks/_probe", headers=entry.headers or None)
        else:
            resolved = await fetch_card(entry.url, http, tap=tap, headers=entry.headers or None)
            status.card, status.card_url = resolved.card, resolved.card_url
            status.notes = list(resolved.notes)
            status.lint = lint_card(resolved.card, resolved.card_url)
            status.trust = await _trust(status, http, tap)
    except SwitchboardError as exc:
        status.error = exc
    except httpx.HTTPError as exc:
        from .a2a.http import network_error

        status.error = network_error(entry.url, exc)
    finally:
        if own is not None:
            await own.aclose()
    status.checked_at = time.time()
    return status


async def _trust(status: AgentStatus, http: httpx.AsyncClient, tap: Tap | None) -> CardTrust:
    """The card's signature outcome; a key file that cannot be read makes it unverifiable, saying why."""
    from .card_trust import check_card

    assert status.card is not None
    try:
        return await check_card(status.card, status.card_url or "", status.entry, http=http, tap=tap)
    except SwitchboardError as exc:
        return CardTrust("unverifiable", exc.message)


_AUTH_WORD = {"apiKey": "key", "oauth2": "oauth", "openIdConnect": "oidc", "mutualTLS": "mtls", "bearer": "bearer",
              "basic": "basic"}  # fmt: skip


def _scheme_kind(scheme: SecurityScheme) -> str:
    """A scheme's type, with HTTP auth said by its scheme (bearer, basic)."""
    return (scheme.scheme or "").lower() if scheme.type == "http" else scheme.type
