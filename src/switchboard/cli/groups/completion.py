"""`switchboard completion bash|zsh|fish`: a shell completion script, made from the parser itself (commands,
flags, files, and agent names read from the agents file as you type)."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Literal

SHELLS = ("bash", "zsh", "fish")

COMPLETION_EPILOG = """\
Install (then open a new shell):
  bash   mkdir -p ~/.local/share/bash-completion/completions
         switchboard completion bash > ~/.local/share/bash-completion/completions/switchboard
         (loaded by the bash-completion package; without it, add to ~/.bashrc:
          source <(switchboard completion bash))
  zsh    mkdir -p ~/.zfunc && switchboard completion zsh > ~/.zfunc/_switchboard
         and in ~/.zshrc, before compinit:  fpath=(~/.zfunc $fpath); autoload -Uz compinit; compinit
  fish   mkdir -p ~/.config/fish/completions
         switchboard completion fish > ~/.config/fish/completions/switchboard.fish

Commands, flags, files and agent names are completed; the names come from the agents file (the one after
--agents on the line, else the default one), read each time you press Tab, so a new agent is there at once.
Write the script again after upgrading switchboard: it is made from this version's flags.
"""


@dataclass(frozen=True)
class CompletionOptions:
    shell: Literal["bash", "zsh", "fish"] | None = None
    agent_names: bool = False
    agents: str | None = None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = COMPLETION_EPILOG
    parser.add_argument("shell", nargs="?", choices=SHELLS, help="the shell whose script to print")
    # What the scripts call as you type: the agent names, one a line (hidden: not for people).
    parser.add_argument("--agent-names", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--agents", metavar="FILE", help=argparse.SUPPRESS)


def main(namespace: argparse.Namespace) -> int:
    from ..completion import agent_names, completion_script
    from ..guard import guarded
    from ..options import options_from

    options = options_from(CompletionOptions, namespace)
    if options.agent_names:
        return agent_names(options.agents)
    if options.shell is None:
        from ...a2a.errors import UsageError
        from ..output import report

        error = UsageError("`completion` needs a shell: bash, zsh or fish", hint="switchboard completion --help")
        report(error, "text")
        return error.exit_code

    def show() -> int:
        print(completion_script(options.shell or "bash"), end="", flush=True)
        return 0

    return guarded(show, options)
