"""`switchboard schema agents|workflow|settings`: the JSON Schema of a file a person writes, for their editor."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Literal

# switchboard.schemas.SCHEMA_NAMES, written out so that building this parser loads no model (a test checks they agree)
NAMES = ("agents", "workflow", "settings")

SCHEMA_EPILOG = """\
The schema is JSON Schema draft-07, made from the models that read the file. An editor running the YAML language
server (VS Code's YAML extension, Neovim's yamlls, Helix, Zed ...) validates and completes a file whose first line
names it:

  # yaml-language-server: $schema=PATH-OR-URL

PATH is relative to the YAML file, or absolute. The repository's example files point at schemas/ this way.

examples:
  switchboard schema agents > ~/.config/a2a-switchboard/agents.schema.json
  switchboard schema workflow > workflow.schema.json
"""


@dataclass(frozen=True)
class SchemaOptions:
    name: Literal["agents", "workflow", "settings"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = SCHEMA_EPILOG
    parser.add_argument(
        "name", choices=NAMES, help="agents (the agents file), workflow (a workflow file, both layouts), settings"
    )


def main(namespace: argparse.Namespace) -> int:
    from ..guard import guarded
    from ..options import options_from

    options = options_from(SchemaOptions, namespace)

    def show() -> int:
        from ...schemas import schema_text

        print(schema_text(options.name), end="", flush=True)
        return 0

    return guarded(show, options)
