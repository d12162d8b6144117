"""The name a saved artifact or file gets (issue 26, item 6): the agent's own extension kept, one added from the
media type when there is none, safe to type in a shell, and a file already there never replaced."""

from __future__ import annotations

import pytest

from switchboard.tui.downloads import file_name, free_path


@pytest.mark.parametrize(
    ("name", "media_type", "expected"),
    [
        ("draft.md", "text/markdown", "draft.md"),
        ("draft.md", None, "draft.md"),
        ("research results", None, "research-results.md"),
        ("research results.md", "text/markdown", "research-results.md"),
        ("notes", "text/plain", "notes.txt"),
        ("notes", "text/plain; charset=utf-8", "notes.txt"),
        ("table", "text/csv", "table.csv"),
        ("summary", "application/json", "summary.json"),
        ("REPORT.MD", None, "REPORT.MD"),
        ("release v1.0", None, "release-v1.0.md"),  # ".0" is not an extension
        ("../../etc/passwd", None, "etc-passwd.md"),
        ("a\x1b[31mred", "text/plain", "ared.txt"),
        ("  ..  ", None, "artifact.md"),
        ("résumé final.txt", None, "résumé-final.txt"),
    ],
)
def test_a_saved_name_keeps_its_own_extension_and_is_safe_to_type(name, media_type, expected):
    assert file_name(name, media_type) == expected


def test_a_file_already_there_is_never_replaced(tmp_path):
    first = free_path(tmp_path, "draft.md")
    first.write_text("one")
    second = free_path(tmp_path, "draft.md")
    second.write_text("two")
    assert (first.name, second.name, free_path(tmp_path, "draft.md").name) == ("draft.md", "draft-2.md", "draft-3.md")
