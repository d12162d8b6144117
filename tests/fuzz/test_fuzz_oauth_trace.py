"""The identity provider's requests and answers on the wire tap (a2a.oauth_trace): an identity provider's answer is
untrusted bytes, so tracing one never raises whatever it holds, and a secret-named form field or JSON member never
shows its value, however the body is written."""

from __future__ import annotations

import json
from urllib.parse import urlencode

from fuzz_support import fuzz
from hypothesis import given
from hypothesis import strategies as st

from switchboard.a2a.auth.oauth.trace import SECRET_NAMES, redacted_body

FORM = "application/x-www-form-urlencoded;charset=UTF-8"
secrets = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=6, max_size=40).map(
    lambda s: "S3cr3t" + s
)
names = st.sampled_from(sorted(SECRET_NAMES))
plain = st.dictionaries(st.sampled_from(["grant_type", "scope", "expires_in", "token_type", "resource"]),
                        st.text(max_size=20), max_size=3)  # fmt: skip


@fuzz(examples=300)
@given(st.binary(max_size=300), st.sampled_from([FORM, "application/json", "text/html", ""]))
def test_any_body_is_traced_as_text(body, content_type):
    assert isinstance(redacted_body(body, content_type), str)


@fuzz(examples=300)
@given(st.dictionaries(names, secrets, min_size=1, max_size=4), plain)
def test_a_secret_in_a_form_is_never_shown(found, others):
    body = urlencode({**others, **found}).encode()
    traced = redacted_body(body, FORM)
    for value in found.values():
        assert value not in traced and urlencode({"v": value})[2:] not in traced


@fuzz(examples=300)
@given(st.dictionaries(names, secrets, min_size=1, max_size=4), plain, st.integers(0, 3), st.booleans())
def test_a_secret_in_a_json_answer_is_never_shown_nested_or_cut(found, others, depth, cut):
    doc: object = {**others, **found}
    for _ in range(depth):
        doc = {"wrapped": [doc]}
    text = json.dumps(doc)
    if cut:  # an answer cut short (or not JSON at all): the members still go
        text = text[:-1]
    traced = redacted_body(text.encode(), "application/json")
    for value in found.values():
        assert value not in traced and json.dumps(value)[1:-1] not in traced
