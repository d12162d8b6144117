"""Push delivery (§4.3.3): an agent that declares push notifications POSTs a task's changes to the webhook its
push config names. The probe registers a webhook of its own for its task while the task runs (push.PushReceiver on
127.0.0.1, an ephemeral port: it decides on the path and the token before reading a body, and bounds the body, the
connections and what it queues, as for any push sender), then the cancel changes the task. What must arrive: at
least one POST (PUSH-DELIVER-002), carrying the config's token (X-A2A-Notification-Token; without it the receiver
refuses it, 401) and, at 1.0, the Authorization its `authentication` names (PUSH-DELIVER-001: a MUST; without it,
or with other credentials, 401 too), whose body is a StreamResponse about that task (PUSH-DELIVER-003; anything
else is refused, 400 or 404). Nothing a push carries is shown but the receiver's own refusal reasons (cut, without
control characters, the token and the credentials redacted)."""

from __future__ import annotations

import asyncio
import hmac
import secrets
import uuid
from contextlib import suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import h11

from ..a2a.errors import SwitchboardError
from ..a2a.model import StreamEvent, TaskState
from ..a2a.user_input import is_loopback
from ..push.receiver import PushReceiver

if TYPE_CHECKING:
    from .interface_probe import Probe

DELIVERY_BOUND = 5.0  # seconds the webhook waits for a push after the cancel answered (a busy host); probe(push_wait)
SCENARIO = "push delivery"
AUTH_SCHEME = "Bearer"  # the scheme of the push config's authentication (any from the IANA registry would do)


@dataclass(frozen=True)
class Head:
    """What one POST to the webhook's path carried, read off its headers: the config's token, the Authorization
    its authentication asked for."""

    token: bool
    authorized: bool


class Webhook(PushReceiver):
    """The receiver, checking the Authorization the config's `authentication` asked for (when it asked: at 1.0),
    noting what each POST's head carried, and telling when it refused a POST: the probe stops waiting there (an
    agent that pushed wrongly will not push again)."""

    def __init__(self, credentials: str | None = None) -> None:
        super().__init__()
        self.refusal = asyncio.Event()
        self.credentials = credentials
        if credentials:
            self.redactor.add(credentials)
        self.heads: list[Head] = []  # each POST that reached the webhook's path, in order

    def decide(self, request: h11.Request) -> int | None:
        refused = super().decide(request)
        if refused == 404:  # another method or path: nothing the config asked for was sent there
            return refused
        authorized = self.credentials is None or _authorization(request, self.credentials)
        self.heads.append(Head(token=refused is None, authorized=authorized))
        if refused is None and not authorized:
            return self.refuse(401, "no Authorization, or not the one the push config's authentication named")
        return refused

    def refuse(self, status: int, reason: str) -> int:
        self.refusal.set()
        return super().refuse(status, reason)


def _authorization(request: h11.Request, credentials: str) -> bool:
    """The request's Authorization is `Bearer CREDENTIALS` (the scheme is case-insensitive, RFC 9110 §11.1)."""
    value = next((v for name, v in request.headers if name == b"authorization"), b"")
    scheme, _, given = value.decode("latin-1").partition(" ")
    return scheme.lower() == AUTH_SCHEME.lower() and hmac.compare_digest(given.strip().encode(), credentials.encode())


@dataclass
class Delivery:
    receiver: Webhook
    task_id: str
    token: str
    config_id: str


async def register(p: Probe, task_id: str) -> None:
    """A webhook on 127.0.0.1 for the probe's task, and a push config that names it (kept in `p.push_delivery` for
    `judge`); a config the agent refuses is a skip here (the push-config scenario judges creating configs)."""
    host = _host(p.t.endpoint.url)
    if not is_loopback(host):
        why = f"the agent is at {host}, not on this machine: it cannot reach a webhook on 127.0.0.1"
        p.add(SCENARIO, "skip", why, op="push_set")
        return
    # At 1.0 the agent MUST send the config's authentication (§4.3.3); v0.3 lists schemes and leaves the choice to
    # the agent, so there only the token is asked for.
    credentials = secrets.token_urlsafe(24) if p.version == "1.0" else None
    receiver = Webhook(credentials)
    await receiver.start()
    token = receiver.register(task_id)
    config_id = f"switchboard-conformance-{uuid.uuid4().hex[:8]}"
    authentication = (AUTH_SCHEME, credentials) if credentials else None
    try:
        await p.t.create_push_config(
            task_id, receiver.url, token=token, config_id=config_id, authentication=authentication
        )
    except SwitchboardError as exc:
        await receiver.aclose()
        p.add(SCENARIO, "skip", f"a push config naming a webhook on 127.0.0.1 was refused: {exc.code}", op="push_set")
        return
    p.push_delivery = Delivery(receiver, task_id, token, config_id)


def _host(url: str) -> str:
    """The host of an interface's URL (a gRPC interface may name only host:port)."""
    return urlsplit(url if "://" in url else f"//{url}").hostname or ""


async def judge(p: Probe) -> None:
    """After the cancel: what reached the webhook, then the webhook closed and its config deleted."""
    delivery = p.push_delivery
    if delivery is None:
        why = "the card declares no push notifications" if not p.card.capabilities.push_notifications else (
            "no webhook was registered (the task ended first, or its config was refused)"
        )  # fmt: skip
        if not any(c.scenario == SCENARIO and c.interface == p.label for c in p.checks):
            p.add(SCENARIO, "skip", why, op="push_set")
        return
    p.push_delivery = None
    try:
        await _judge(p, delivery)
    finally:
        delivery.receiver.unregister(delivery.token)
        await delivery.receiver.aclose()
        with suppress(SwitchboardError):
            await p.t.delete_push_config(delivery.task_id, delivery.config_id)


async def _first_push(delivery: Delivery) -> StreamEvent:
    async for event in delivery.receiver.events(delivery.task_id):
        return event
    raise LookupError("the receiver's events ended")  # they never do: it yields for ever


async def _judge(p: Probe, delivery: Delivery) -> None:
    if p.task is None or p.task.status.state is not TaskState.CANCELED:
        p.add(SCENARIO, "skip", "the cancel did not end the task: no change the agent must push", op="push_set")
        return
    first: asyncio.Task[StreamEvent] = asyncio.create_task(_first_push(delivery))
    refused_one = asyncio.create_task(delivery.receiver.refusal.wait())
    # Whichever comes first: the push, a POST refused (a wrong one is not sent again), or the bound.
    await asyncio.wait({first, refused_one}, timeout=p.push_wait, return_when=asyncio.FIRST_COMPLETED)
    for waiting in (first, refused_one):
        waiting.cancel()
        with suppress(asyncio.CancelledError):
            await waiting
    arrived = first.result() if first.done() and not first.cancelled() else None
    heads = list(delivery.receiver.heads)
    refused = list(delivery.receiver.refused)
    malformed = [r for r in refused if r.status in (400, 404, 413)]
    if arrived is None and not heads and not malformed:
        said_refused = (
            f"; refused: {len(refused)} POST(s), first {refused[0].status} {refused[0].reason[:80]}" if refused else ""
        )
        asked = "a token" + (f" and {AUTH_SCHEME} authentication" if delivery.receiver.credentials else "")
        said = (
            f"sent {p.sent('push_set')} for task {delivery.task_id} (config {delivery.config_id}, webhook "
            f"{delivery.receiver.url}, with {asked}), then {p.sent('cancel')}: the task was canceled, and nothing "
            f"reached the webhook within {p.push_wait:g} s"
        )
        p.judge("push delivery", False, said + said_refused, op="push_set", answered="no POST", scenario=SCENARIO)
        return
    what = f"a {type(arrived).__name__}" if arrived is not None else "its body not read: refused"
    posts = f"{len(heads) or len(malformed)} POST(s)"
    delivered = f"a push reached the webhook after the cancel ({what})"
    p.judge("push delivery", True, delivered, op="push_set", answered=posts, scenario=SCENARIO)
    if heads:
        _judge_heads(p, heads, authentication=delivery.receiver.credentials is not None)
    if arrived is not None:
        said = f"a StreamResponse ({type(arrived).__name__}) of the task"
        p.judge("push delivery: payload", True, said, op="push_set", answered=posts, scenario=SCENARIO)
    elif malformed:
        said = f"the push was no StreamResponse of the task: {malformed[0].status} {malformed[0].reason[:120]}"
        p.judge("push delivery: payload", False, said, op="push_set", answered=f"{len(malformed)} POST(s) refused",
                scenario=SCENARIO)  # fmt: skip
    # else: refused on its headers, its body was never read: the payload is not judged


def _judge_heads(p: Probe, heads: list[Head], *, authentication: bool) -> None:
    """What the POSTs' headers carried: the config's token (a SHOULD), and the Authorization its authentication
    named (PUSH-DELIVER-001, a MUST at 1.0), where the probe asked for one."""
    unsigned = sum(not h.token for h in heads)
    if unsigned:
        said = "the push reached the webhook without the config's token (X-A2A-Notification-Token): refused 401"
        p.judge("push delivery: token", False, said, op="push_set", answered=f"{unsigned} POST(s), no token")
    else:
        p.judge("push delivery: token", True, "with the config's token", op="push_set",
                answered=f"{len(heads)} POST(s) with the token")  # fmt: skip
    if not authentication:
        return
    unauthorized = sum(not h.authorized for h in heads)
    if unauthorized:
        said = (
            f"the push reached the webhook without the Authorization the config's authentication named "
            f"({AUTH_SCHEME} and the credentials the probe sent), or with other credentials: refused 401"
        )
        answered = f"{unauthorized} POST(s) without that Authorization"
        p.judge("push delivery: authentication", False, said, op="push_set", answered=answered, scenario=SCENARIO)
    else:
        said = f"with the Authorization the config's authentication named ({AUTH_SCHEME})"
        answered = f"{len(heads)} POST(s) with that Authorization"
        p.judge("push delivery: authentication", True, said, op="push_set", answered=answered, scenario=SCENARIO)
