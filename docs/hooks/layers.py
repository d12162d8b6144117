"""The architecture page's layers, written at build time from pyproject.toml's import-linter contracts (the ones
`make lint` enforces), so the page shows the layers the build holds the code to."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def contracts() -> list[dict[str, Any]]:
    """The import-linter contracts, in the file's order."""
    with PYPROJECT.open("rb") as file:
        config = tomllib.load(file)
    found: list[dict[str, Any]] = config["tool"]["importlinter"]["contracts"]
    return found


def layers_markdown() -> str:
    """Each layers contract as a numbered list (top first), then every forbidden import, then the cycle rule."""
    lines: list[str] = []
    for contract in contracts():
        if contract["type"] == "layers":
            container = ", ".join(f"`{c}`" for c in contract["containers"])
            lines += [f"**{contract['name']}** (in {container}, highest first):", ""]
            for number, layer in enumerate(contract["layers"], 1):
                names = " · ".join(f"`{part.strip()}`" for part in layer.split("|"))
                lines.append(f"{number}. {names}")
            lines.append("")
    lines += ["**Forbidden imports**:", ""]
    for contract in contracts():
        if contract["type"] == "forbidden":
            sources = ", ".join(f"`{s}`" for s in contract["source_modules"])
            forbidden = ", ".join(f"`{f}`" for f in contract["forbidden_modules"])
            lines.append(f"- {contract['name']}: {sources} never import {forbidden}.")
    lines.append("")
    for contract in contracts():
        if contract["type"] == "acyclic_siblings":
            lines += [f"**{contract['name']}**.", ""]
    return "\n".join(lines)
