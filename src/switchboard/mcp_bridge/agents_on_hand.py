"""The agents the bridge serves: the agents file (read again when it changes), one link per call on a shared HTTP
client and card cache, and each agent's credentials kept here across calls (an OAuth sign-in holds for the
server's life). The redactor learns every secret an agent's configuration names, before the first request."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx

from ..a2a.auth.credentials import Credentials
from ..a2a.errors import UsageError
from ..a2a.http import new_http_client
from ..a2a.model import AgentCard
from ..a2a.redact import Redactor
from ..a2a.user_input import did_you_mean
from ..agent_http import known_secrets
from ..agents import AgentEntry, AgentsFile, load_agents
from ..link import AgentLink, CardCache, entry_credentials, open_link
from .sign_in import SignInRelay


class AgentsOnHand:
    def __init__(self, path: Path, http: httpx.AsyncClient | None = None) -> None:
        self.path = path
        self.registry: AgentsFile = load_agents(path)
        self.redactor = Redactor()
        self.sign_in = SignInRelay()
        self._stamp = self._file_stamp()
        self._http = http or new_http_client()
        self._cards = CardCache()
        self._credentials: dict[str, Credentials] = {}
        self._learn_secrets()

    @property
    def http(self) -> httpx.AsyncClient:
        """The client every link of this server shares."""
        return self._http

    @property
    def agents(self) -> list[AgentEntry]:
        return self.registry.agents

    def _file_stamp(self) -> tuple[int, int] | None:
        try:
            stat = os.stat(self.path)
        except OSError:
            return None
        return stat.st_mtime_ns, stat.st_size

    def _learn_secrets(self) -> None:
        for entry in self.registry.agents:
            self.redactor.add(*known_secrets(entry))

    def reload_if_changed(self) -> bool:
        """Read the agents file again when it changed on disk; True when it did (and was read). A file that no
        longer parses keeps the agents read before (the person is most likely in the middle of editing it)."""
        stamp = self._file_stamp()
        if stamp == self._stamp:
            return False
        self._stamp = stamp
        try:
            registry = load_agents(self.path)
        except UsageError:
            return False
        before, self.registry = self.registry, registry
        self._cards = CardCache()  # an entry's URL or headers may have changed
        # credentials (an OAuth sign-in) are kept for an agent whose entry is the same as before, and only then
        self._credentials = {n: c for n, c in self._credentials.items() if registry.find(n) == before.find(n)}
        self._learn_secrets()
        return True

    def entry(self, name: str) -> AgentEntry:
        """The agents file's entry named `name`; a UsageError naming the known ones otherwise."""
        entry = self.registry.find(name)
        if entry is None:
            known = [a.name for a in self.registry.agents]
            raise UsageError(
                f"no agent named {name[:80]!r} in the agents file",
                hint=did_you_mean(name, known).strip() or f"Its agents: {', '.join(known) or 'none'} (list_agents).",
            )
        return entry

    def _credentials_for(self, entry: AgentEntry) -> Credentials:
        found = self._credentials.get(entry.name)
        if found is None:
            found = self._credentials[entry.name] = entry_credentials(entry, self.sign_in)
        return found

    async def card(self, entry: AgentEntry) -> AgentCard:
        """The agent's card (read once while the agents file stays the same)."""
        return (await self._cards.get(entry, self._http, None)).card

    @asynccontextmanager
    async def link(self, entry: AgentEntry) -> AsyncIterator[AgentLink]:
        """A link to the agent for one call (its card read once per server, its credentials attached here). It does
        not announce A2UI: a host answers a question in words or from the choices (an elicitation), never a form."""
        link = await open_link(
            entry, http=self._http, cards=self._cards, credentials=self._credentials_for(entry), a2ui=False
        )
        try:
            yield link
        finally:
            await link.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()
