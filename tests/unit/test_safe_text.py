"""Agent-supplied text reaches the terminal without escape sequences or control characters."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from switchboard.safe_text import strip_controls

FORBIDDEN = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("\x1b[31mred\x1b[0m plain", "red plain"),
        ("\x1b[1;38;5;208mbold orange\x1b[m", "bold orange"),
        ("\x1b[2J\x1b[Hcleared", "cleared"),
        ("\x1b[?25lhidden cursor\x1b[?25h", "hidden cursor"),
        ("a\x9b31mb", "ab"),  # the 8-bit CSI introducer
    ],
    ids=["sgr", "256-colour", "clear-screen", "private-mode", "8-bit-csi"],
)
def test_csi_sequences_are_removed(raw, clean):
    assert strip_controls(raw) == clean


def test_an_osc_8_hyperlink_keeps_its_visible_text_only():
    raw = "see \x1b]8;;https://evil.example/\x1b\\the docs\x1b]8;;\x1b\\ now"
    assert strip_controls(raw) == "see the docs now"


@pytest.mark.parametrize(
    "raw",
    ["\x1b]0;pwned title\x07after", "\x1b]2;pwned title\x1b\\after"],
    ids=["bel-terminated", "st-terminated"],
)
def test_an_osc_title_set_is_removed_with_its_payload(raw):
    assert strip_controls(raw) == "after"


def test_a_dcs_string_is_removed_with_its_payload():
    assert strip_controls("before\x1bP1$r0m\x1b\\after") == "beforeafter"


@pytest.mark.parametrize("introducer", ["X", "^", "_"], ids=["sos", "pm", "apc"])
def test_sos_pm_and_apc_strings_are_removed_with_their_payload(introducer):
    assert strip_controls(f"a\x1b{introducer}hidden payload\x1b\\b") == "ab"


def test_a_lone_escape_is_removed():
    assert strip_controls("end\x1b") == "end"
    assert strip_controls("\x1b") == ""


def test_charset_designations_and_cursor_saves_leave_nothing_behind():
    assert strip_controls("a\x1b(Bb\x1b7c\x1b8d\x1bce") == "abcde"


def test_c1_controls_are_removed():
    assert strip_controls("a\x85b\x8dc\x9fd") == "abcd"


def test_nul_bel_backspace_and_delete_are_removed():
    assert strip_controls("a\x00b\x07c\x08d\x7fe") == "abcde"


def test_a_bare_carriage_return_is_removed_so_it_cannot_overwrite_the_line():
    assert strip_controls("safe\rEVIL") == "safeEVIL"


def test_crlf_becomes_lf():
    assert strip_controls("one\r\ntwo\r\n") == "one\ntwo\n"


def test_newlines_and_tabs_are_kept():
    assert strip_controls("col1\tcol2\nrow2\n\n") == "col1\tcol2\nrow2\n\n"


def test_bidi_overrides_and_isolates_are_removed():
    # "\u202e" (RLO) would show "txt.exe" as "exe.txt"; isolates and embeddings reorder text the same way.
    assert strip_controls("invoice\u202etxt.exe") == "invoicetxt.exe"
    assert strip_controls("a\u2066b\u2069c\u202ad\u202ce") == "abcde"


def test_a_lone_surrogate_becomes_a_replacement_character_so_the_text_can_be_encoded():
    cleaned = strip_controls("bad \ud800 pair \udfff")
    assert cleaned == "bad \ufffd pair \ufffd"
    cleaned.encode("utf-8")


def test_unicode_text_is_kept():
    text = "emoji 😀🎉, CJK 漢字かな한글, accents éàü, RTL שלום, ZWJ 👩‍💻"
    assert strip_controls(text) == text


def test_an_unterminated_osc_cannot_swallow_text_after_a_later_escape():
    # The OSC runs to the next ESC; what follows that sequence is ordinary text again.
    assert strip_controls("\x1b]0;title\x1b[0mvisible") == "visible"


@given(st.text())
def test_output_never_contains_escape_or_control_characters(text):
    cleaned = strip_controls(text)
    assert "\x1b" not in cleaned
    assert FORBIDDEN.search(cleaned) is None


@given(st.text(alphabet=st.characters(exclude_categories=("Cs",), exclude_characters="\x1b")))
def test_output_never_contains_controls_even_from_escape_heavy_input(text):
    hostile = "\x1b[" + text + "\x1b]" + text + "\x07\x9b" + text + "\x1bP" + text
    cleaned = strip_controls(hostile)
    assert "\x1b" not in cleaned and FORBIDDEN.search(cleaned) is None


@given(st.text(alphabet=st.characters(exclude_categories=("Cs",)).filter(lambda c: not FORBIDDEN.match(c))))
def test_text_without_controls_is_unchanged(text):
    assert strip_controls(text) == text


@pytest.mark.parametrize("opener", ["\x1b]0;title ", "\x1bPq payload ", "\x1b_apc "])
def test_an_unterminated_string_sequence_hides_no_later_line(opener):
    cleaned = strip_controls("before " + opener + "never terminated\nthe next line\nand the last")
    assert cleaned == "before \nthe next line\nand the last"
