"""The MkDocs hook that writes the generated parts of the site from the code at build time (so they cannot drift):
the CLI reference from the real parser, the agents file's reference from its schema, the TUI's keys from its
bindings, the error codes' index (and a failed build when the troubleshooting page lacks a code the source
declares), and the layers from pyproject.toml.
It also brings the screenshots (kept at the repository's top, where the README shows them) into the site.

A page asks for a generated part with a line `<!-- generated: NAME -->`; the line after it, when it starts with
`*This part is written`, is what a reader of the bare Markdown (on GitHub, say) sees instead, and goes too.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

HOOKS = Path(__file__).resolve().parent
ROOT = HOOKS.parents[1]
sys.path[:0] = [str(HOOKS), str(ROOT / "src")]

import agents_reference  # noqa: E402  (beside this file, found through the path set above)
import cli_reference  # noqa: E402
import error_codes  # noqa: E402
import keymap  # noqa: E402
import layers  # noqa: E402

GENERATORS = {
    "cli-reference": cli_reference.cli_reference_markdown,
    "agents-schema": agents_reference.agents_reference_markdown,
    "error-codes": error_codes.codes_index_markdown,
    "layers": layers.layers_markdown,
    "keymap": keymap.keymap_markdown,
}
_MARKER = re.compile(r"^<!-- generated: ([a-z-]+) -->$(\n\*This part is written[^\n]*$)?", re.MULTILINE)


def on_files(files: Files, config: Any) -> Files:
    """The screenshots, and the JSON Schemas where the repository keeps them (schemas/), served beside the pages."""
    for folder, suffixes in (("screenshots", {".svg", ".png"}), ("schemas", {".json"})):
        if not (ROOT / folder).is_dir():
            continue
        for path in sorted((ROOT / folder).iterdir()):
            if path.suffix in suffixes:
                files.append(File(f"{folder}/{path.name}", str(ROOT), config["site_dir"], config["use_directory_urls"]))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    def generated(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in GENERATORS:
            raise PluginError(f"{page.file.src_uri}: no generator named {name!r} (there are {sorted(GENERATORS)})")
        return GENERATORS[name]()

    if page.file.src_uri == "troubleshooting.md":
        missing = error_codes.codes_without_a_section(markdown)
        if missing:
            raise PluginError(f"troubleshooting.md has no section for these codes the source declares: {missing}")
    return _MARKER.sub(generated, markdown)
