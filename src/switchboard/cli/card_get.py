"""`switchboard card get`: a card fetched, its signatures checked, and shown. A module of its own, so that a card
get loads the card's path only, not the commands that send and follow tasks (commands.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..a2a.errors import CardUnverifiedError
from .context import open_agent, split_target
from .output import Out, warn

if TYPE_CHECKING:
    from ..a2a.auth.trust.card_signature import CardTrust
    from .groups.card import CardGetOptions


TRUST_KEY = "x-switchboard"  # the one member card get -o json adds to the card: switchboard's, not the agent's


def with_trust(raw: dict[str, Any], trust: CardTrust) -> dict[str, Any]:
    """The card as served, every member in its place, plus `x-switchboard.signature`: the outcome of checking its
    signatures. A card that carries the member itself cannot vouch for itself: ours replaces it, and a warning
    says so."""
    if TRUST_KEY in raw:
        warn(f"the card carries its own {TRUST_KEY!r} member; it is replaced by switchboard's signature outcome")
    doc = {k: v for k, v in raw.items() if k != TRUST_KEY}
    doc[TRUST_KEY] = {"signature": trust.to_json()}
    return doc


async def card_get(args: CardGetOptions) -> int:
    from ..a2a.cards import BINDING_FLAGS, fetch_card, lint_card
    from ..card_trust import check_card, keys_for
    from .context import extra_headers, http_client_for, make_tap
    from .render_card import render_card

    target = split_target(args, [args.agent] if args.agent else [], 0)
    if args.card_key:
        keys_for(target.entry, args.card_key)  # a bad key file is a usage error before any request
    out = Out()
    tap = make_tap(args, target.entry)
    async with http_client_for(args, target, args.timeout) as http:
        if args.extended:
            async with await open_agent(args, target) as link:
                card, card_url = await link.extended_card(), link.card_url
        else:
            resolved = await fetch_card(target.ref, http, tap=tap, headers=extra_headers(args, target.entry))
            card, card_url = resolved.card, resolved.card_url
            for note in resolved.notes:
                warn(note)
        trust = await check_card(card, card_url or "", target.entry, http=http, tap=tap, flag_keys=args.card_key)
    # an unverified card is not shown as if it could be relied on: the error alone
    if args.require_signature and not trust.verified:
        hint = (
            "The agent does not sign its card; drop --require-signature to use it unverified."
            if trust.status == "unsigned"
            else "If you trust the signer, name its key with --card-key FILE (or cardKeys: in the agents file, "
            "card_keys in the settings); a card that does not match its key's signature was changed after signing."
        )
        raise CardUnverifiedError(f"the card of {card.name} is {trust}", hint=hint, url=card_url)
    if args.output == "json":
        out.json_doc(with_trust(card.raw, trust))
        if args.validate:
            for warning in lint_card(card, card_url):
                warn(warning)
    else:
        binding = BINDING_FLAGS.get(args.binding or (target.entry.binding if target.entry else None) or "")
        activated = [*(target.entry.extensions if target.entry else []), *args.extension]
        render_card(
            out,
            card,
            card_url,
            validate=args.validate,
            version=args.a2a_version,
            binding=binding,
            trust=str(trust),
            activated=activated,
        )
    return 0
