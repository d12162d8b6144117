"""Property tests of card reading and card lint: a broken card is read (or refused as CardInvalidError), lint
never raises and reports what is wrong, and the card's text output carries no terminal controls."""

from __future__ import annotations

import io
import json

from hypothesis import given, settings
from hypothesis import strategies as st
from properties_support import has_terminal_controls, json_values, mutated, texts
from transcripts import ROOT

from switchboard.a2a.cards import lint_card, parse_card
from switchboard.a2a.errors import CardInvalidError, SwitchboardError
from switchboard.a2a.model import AgentCard
from switchboard.a2a.transports.jsonrpc import JsonRpcTransport
from switchboard.a2a.wire.common import Notes
from switchboard.cli.output import Out, json_text
from switchboard.cli.render import render_card

V10_CARD = json.loads((ROOT / "v10-jsonrpc/v10-01-agent-card.json").read_text())
V03_CARD = json.loads((ROOT / "v03-jsonrpc-sdk03-native/v03-01-agent-card.json").read_text())
CARD_URL = "http://127.0.0.1:9999/.well-known/agent-card.json"

cards = st.sampled_from([V10_CARD, V03_CARD]).flatmap(lambda card: mutated(card, max_mutations=4))


def read(document) -> tuple[AgentCard | None, Notes]:
    notes = Notes()
    try:
        return parse_card(document, notes), notes
    except CardInvalidError as exc:
        assert exc.message
        return None, notes


@settings(max_examples=200)
@given(document=cards)
def test_a_broken_card_is_read_or_refused_and_lint_never_raises(document):
    card, _ = read(document)
    if card is None:
        return
    warnings = lint_card(card, CARD_URL)
    assert all(isinstance(w, str) for w in warnings)
    buffer = io.StringIO()
    render_card(Out(buffer), card, CARD_URL, validate=True)
    assert not has_terminal_controls(buffer.getvalue())
    json_text(card.raw, indent=2).encode("utf-8")
    try:  # a client for it either exists or is refused with a reason; nothing else
        JsonRpcTransport(card, card_url=CARD_URL)
    except SwitchboardError as exc:
        assert exc.message


@settings(max_examples=100)
@given(document=st.dictionaries(texts | st.sampled_from(["name", "url", "skills", "supportedInterfaces"]), json_values))
def test_any_json_object_is_read_as_a_card_or_refused(document):
    card, _ = read(document)
    if card is not None:
        lint_card(card, CARD_URL)


@settings(max_examples=100)
@given(
    field=st.sampled_from(["name", "description", "version", "skills", "capabilities", "defaultInputModes"]),
    base=st.sampled_from([V10_CARD, V03_CARD]),
)
def test_lint_reports_a_missing_field(field, base):
    document = {k: v for k, v in base.items() if k != field}
    card, _ = read(document)
    expected = {
        "name": "the card has no name",
        "description": "the card has no description",
        "version": "the card has no version",
        "skills": "the card lists no skills",
        "capabilities": "capabilities.streaming is not declared; streaming is assumed off",
        "defaultInputModes": "defaultInputModes is empty",
    }[field]
    assert expected in lint_card(card, CARD_URL)


def test_an_interface_url_that_does_not_parse_is_dropped_with_a_note_and_linted():
    for document in (
        {**V10_CARD, "supportedInterfaces": [{"url": "http://[::1", "protocolBinding": "JSONRPC"}]},
        {**V03_CARD, "url": "http://127.0.0.1:99999/", "additionalInterfaces": [{"url": "http://[::1"}]},
    ):
        card, notes = read(document)
        assert card.interfaces == [] and any("valid url" in n.lower() for n in notes)
        assert "the card declares no interface (no supportedInterfaces, no url)" in lint_card(card, CARD_URL)


def test_a_numeric_skill_id_names_the_skill_and_capabilities_of_the_wrong_type_are_a_note():
    card, notes = read({**V03_CARD, "skills": [{"id": 7}], "capabilities": "yes"})
    assert card.skills[0].id == card.skills[0].name == "7"
    assert card.capabilities.streaming is None
    assert any("capabilities should be an object" in n for n in notes)


def test_a_card_nested_too_deep_keeps_its_raw_json_writable():
    deep: object = "bottom"
    for _ in range(5000):
        deep = {"x": deep}
    card, notes = read({**V10_CARD, "signatures": [{"header": deep}], "extra": deep})
    assert any("nested more than" in n for n in notes)
    json_text(card.raw)
