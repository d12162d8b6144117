"""The documentation site builds with `mkdocs build --strict`: a broken link, a missing anchor, a page left out of
the navigation, a code without its troubleshooting section or an API name mkdocstrings cannot find fails it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from error_codes import codes_in_source, codes_without_a_section

REPO = Path(__file__).resolve().parents[2]


def test_the_site_builds_strictly_with_no_warning(tmp_path: Path) -> None:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(REPO / "src")}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "WARNING" not in done.stderr, done.stderr
    reference = (tmp_path / "site" / "cli-reference" / "index.html").read_text(encoding="utf-8")
    assert "switchboard task push" in reference  # a subcommand's parser, filled only when asked, is on the page
    troubleshooting = (tmp_path / "site" / "troubleshooting" / "index.html").read_text(encoding="utf-8")
    assert all(f'id="{code.lower()}"' in troubleshooting for code in codes_in_source())


def test_the_troubleshooting_page_explains_every_code_the_source_declares() -> None:
    page = (REPO / "docs" / "troubleshooting.md").read_text(encoding="utf-8")
    codes = codes_in_source()
    assert "A2ACLI_ERR_USAGE" in codes and "SHELL_FAILED" in codes and "TaskNotFoundError" in codes
    assert codes_without_a_section(page) == []


def test_a_code_without_a_section_is_found() -> None:
    """The check the build runs names a code the page lacks (so a new code cannot go unexplained)."""
    page = (REPO / "docs" / "troubleshooting.md").read_text(encoding="utf-8")
    assert codes_without_a_section(page.replace("### `SERVE_BUSY`", "### Busy")) == ["SERVE_BUSY"]
