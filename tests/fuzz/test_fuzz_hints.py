"""A hint as the TUI says it keeps every token whole (issue 26, item 4): sentences are cut at a sentence's end,
never at the dots of a URL, a file name, a version or a decimal, and a sentence naming a flag goes as one."""

from __future__ import annotations

from fuzz_support import fuzz
from hypothesis import example, given
from hypothesis import strategies as st

from switchboard.a2a.errors import UsageError
from switchboard.tui.hints import tui_hint

word = st.sampled_from(["give", "the", "port", "agent", "file", "version", "value", "check", "again", "is", "in"])
number = st.integers(min_value=0, max_value=65535).map(str)
url = st.builds(
    lambda scheme, a, b, port, path: f"{scheme}://{a}.0.{b}.1:{port}/{path}",
    st.sampled_from(["http", "https"]),
    number,
    number,
    number,
    st.sampled_from(["", "a2a", "v1/card.json", ".well-known/agent-card.json", "x?y=1.5"]),
)
file_name = st.builds(
    lambda stem, ext: f"{stem}.{ext}", st.sampled_from(["agents", "draft", "run.2026", "notes"]),
    st.sampled_from(["yaml", "md", "tar.gz", "json"]),
)  # fmt: skip
version = st.builds(lambda *n: ".".join(n), number, number, number) | st.sampled_from(["v1.0", "0.3.26", "1.x"])
decimal = st.builds(lambda whole, frac: f"{whole}.{frac}", number, st.integers(0, 999).map(str))
token = url | file_name | version | decimal


@st.composite
def sentence(draw: st.DrawFn) -> tuple[str, list[str]]:
    """A sentence with tokens in it, the last maybe right before the closing period; and its tokens."""
    words = draw(st.lists(word, min_size=1, max_size=4))
    tokens = draw(st.lists(token, min_size=1, max_size=3))
    text = " ".join([*words, "as", "in", " or ".join(tokens)])
    return (text[0].upper() + text[1:] + draw(st.sampled_from([".", "!", "?"])), tokens)


@fuzz(examples=200)
@given(st.lists(sentence(), min_size=1, max_size=4), st.sampled_from([" ", "  ", "\n"]))
@example([("Give the port the agent listens on, as in http://127.0.0.1:9101/.", ["http://127.0.0.1:9101/"])], " ")
def test_a_hint_without_flags_is_said_as_written(sentences, gap):
    hint = gap.join(text for text, _ in sentences)
    said = tui_hint(UsageError("bad", hint=hint))
    assert said == " ".join(text for text, _ in sentences)
    for _, tokens in sentences:
        for t in tokens:
            assert t in said


@fuzz(examples=100)
@given(st.lists(sentence(), min_size=2, max_size=4), st.data())
def test_a_sentence_naming_a_flag_goes_whole_and_the_others_stay_whole(sentences, data):
    flagged = data.draw(st.integers(0, len(sentences) - 1))
    texts = [text for text, _ in sentences]
    texts[flagged] = texts[flagged][:-1] + " with --port."
    said = tui_hint(UsageError("bad", hint=" ".join(texts))) or ""
    kept = [text for i, text in enumerate(texts) if i != flagged]
    assert said == " ".join(kept)
    assert "--" not in said
