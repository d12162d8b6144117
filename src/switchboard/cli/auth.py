"""`switchboard auth login|status|logout AGENT`: sign in to the issuer an agent's card names, see what is held,
forget it. Tokens are kept in memory for the command; --remember keeps them in the OS keyring (or a 0600 file
where there is none, with a warning naming it) so later commands use them and refresh them."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from ..a2a.errors import UsageError
from .context import open_agent, split_target
from .output import Out

if TYPE_CHECKING:
    from .groups.auth import AuthLoginOptions, AuthOptions

Options = TypeVar("Options", bound="AuthOptions")


async def _source(args: AuthOptions, link_holder: list[Any]) -> Any:
    """The agent's token source: the card read, its security planned for the configured client."""
    target = split_target(args, [args.agent] if args.agent else [], 0)
    link = await open_agent(args, target)
    link_holder.append(link)
    bearer = getattr(getattr(link.transport, "auth", None), "oauth", None)
    if bearer is None:
        name = target.entry.name if target.entry else target.ref
        raise UsageError(
            f"{name} is not reached through OAuth here: its card declares no OAuth2 or OpenID Connect scheme this "
            "client can use, or another credential was given",
            hint="`switchboard card get AGENT` shows its security schemes; give the client with oauth: in the "
            "agents file, or --client-id (and --client-secret-env for client credentials).",
        )
    return bearer.source


def _show(args: AuthOptions, facts: dict[str, Any], where: str | None) -> None:
    out = Out()
    if where:
        facts = {**facts, "rememberedIn": where}
    if args.output == "json":
        out.json_doc(facts)
        return
    out.field("Signed in", "yes" if facts["signedIn"] else "no")
    out.field("Scheme", facts["scheme"])
    out.field("Flow", facts["flow"])
    out.field("Client", facts["clientId"])
    out.field("Token endpoint", facts["tokenEndpoint"])
    out.field("Resource", facts.get("resource") or "(none sent)")
    out.field("Scope", facts.get("scope"))
    if "expiresIn" in facts:
        out.field("Expires in", f"{facts['expiresIn']} s")
    if facts["signedIn"]:
        out.field("Refresh token", "yes" if facts.get("refreshToken") else "no")
    out.field("Remembered in", where)
    out.field("Note", facts.get("note"))


async def _closing(run: Callable[[Options, list[Any]], Awaitable[int]], args: Options) -> int:
    links: list[Any] = []
    try:
        return await run(args, links)
    finally:
        for link in links:
            await link.aclose()


async def login(args: AuthLoginOptions) -> int:
    async def run(args: AuthLoginOptions, links: list[Any]) -> int:
        source = await _source(args, links)
        facts = await source.sign_in()
        store = source.client.store
        _show(args, facts, store.where if args.remember and store is not None else None)
        if not args.remember:
            from .output import warn

            warn("the token is kept for this command only; add --remember to keep it for later commands")
        return 0

    return await _closing(run, args)


async def status(args: AuthOptions) -> int:
    async def run(args: AuthOptions, links: list[Any]) -> int:
        source = await _source(args, links)
        source.interactive = False
        facts = await source.facts()
        store = source.client.store
        remembered = facts["signedIn"] and store is not None and store.load(await source.key()) is not None
        if not facts["signedIn"] and facts["flow"] == "clientCredentials":
            facts["note"] = "client credentials: a token is obtained when a command needs one"
        _show(args, facts, store.where if remembered else None)
        return 0

    return await _closing(run, args)


async def logout(args: AuthOptions) -> int:
    async def run(args: AuthOptions, links: list[Any]) -> int:
        source = await _source(args, links)
        source.interactive = False
        store = source.client.store
        where = store.where if store is not None else "memory"
        # At the issuer first: a token only forgotten here would stay valid there until it expires.
        outcome = await source.revoke()
        had = await source.forget()
        out = Out()
        if args.output == "json":
            out.json_doc({"signedOut": had, "removedFrom": where if had else None, **outcome})
            return 0
        out.field("Signed out", f"yes, the token is removed from {where}" if had else "nothing was remembered")
        if outcome["revoked"]:
            kinds = " and ".join(kind.replace("_", " ") for kind in outcome["revoked"])
            out.field("Revoked", f"the {kinds}, at the issuer")
        out.field("Note", outcome["note"])
        return 0

    return await _closing(run, args)
