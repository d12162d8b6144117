"""Shell completion scripts made from the parser itself (shtab), so they cannot drift from the flags: every
command's parser is filled first (they are filled lazily, for --help's sake), then each argument that takes a file
or an agent is marked with what completes it. Agent names come from the agents file as you type, through
`switchboard completion --agent-names`; the scripts treat them as data (matched and quoted, never evaluated).
shtab is imported here only, when a script is asked for."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from .parser import Parser, build_parser

AGENT_NAMES = "_switchboard_agent_names"
FILE_METAVARS = ("FILE", "FILE.yaml", "PATH|URL")

# Each shell's function listing the agent names: from the agents file named after --agents on the line being
# completed, else the default one. A name is only ever data here: compared, quoted (bash %q, zsh compadd, fish
# prints it for `complete -a`), never expanded or evaluated (shtab's own cmd() goes through `compgen -W`, which
# would expand a name such as $(...)).
_BASH = r"""
_switchboard_agent_names() {
  local file="" i word
  for (( i = 1; i < COMP_CWORD; i++ )); do
    word="${COMP_WORDS[i]}"
    if [[ $word == --agents ]]; then
      file="${COMP_WORDS[i+1]}"
      [[ $file == "=" ]] && file="${COMP_WORDS[i+2]}"
    elif [[ $word == --agents=* ]]; then
      file="${word#--agents=}"
    fi
  done
  [[ $file == "~/"* ]] && file="$HOME/${file:2}"
  local -a args=(completion --agent-names)
  [[ -n $file ]] && args+=(--agents "$file")
  local name quoted
  while IFS= read -r name; do
    printf -v quoted '%q' "$name"
    if [[ $quoted == "$1"* || $name == "$1"* ]]; then printf '%s\n' "$quoted"; fi
  done < <(command switchboard "${args[@]}" 2>/dev/null)
}
"""

_ZSH = r"""
_switchboard_agent_names() {
  local file="" i
  for (( i = 2; i < CURRENT; i++ )); do
    case ${words[i]} in
      (--agents) file=${words[i+1]} ;;
      (--agents=*) file=${words[i]#--agents=} ;;
    esac
  done
  [[ $file == "~/"* ]] && file="$HOME/${file:2}"
  local -a args names
  args=(completion --agent-names)
  [[ -n $file ]] && args+=(--agents "$file")
  names=("${(@f)$(command switchboard "${args[@]}" 2>/dev/null)}")
  names=(${names:#})
  (( ${#names} )) && compadd -a names
}
"""

_FISH = r"""
function _switchboard_agent_names
    command -q switchboard; or return  # fish itself would say so on the terminal
    set -l file
    set -l tokens (commandline -opc)
    for i in (seq (count $tokens))
        switch $tokens[$i]
            case --agents
                set -l next (math $i + 1)
                test $next -le (count $tokens); and set file $tokens[$next]
            case '--agents=*'
                set file (string replace -- '--agents=' '' $tokens[$i])
        end
    end
    set file (string replace -r -- '^~/' "$HOME/" "$file")
    if test -n "$file"
        command switchboard completion --agent-names --agents "$file" 2>/dev/null
    else
        command switchboard completion --agent-names 2>/dev/null
    end
end
"""

AGENT_COMPLETE: dict[str, Any] = {
    "bash": AGENT_NAMES,
    "zsh": AGENT_NAMES,
    "fish": f"({AGENT_NAMES})",
    "preamble": {"bash": _BASH, "zsh": _ZSH, "fish": _FISH},
}


def completion_script(shell: str) -> str:
    """The completion script for `shell` (bash, zsh or fish), made from the whole parser."""
    import shtab

    parser = build_parser()
    _mark(parser, shtab.FILE)
    script: str = shtab.complete(parser, shell=shell)
    return script if script.endswith("\n") else script + "\n"


def _mark(parser: argparse.ArgumentParser, files: Any) -> None:
    """Fill `parser` and every parser under it, and say what completes each argument that takes a file or an agent."""
    if isinstance(parser, Parser):
        parser.fill()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            if not isinstance(action.choices, dict):
                # the root's parsers are made on first use (parser._CommandParsers); shtab walks only a dict
                action.choices = action._name_parser_map = dict(action.choices.items())
            for sub in action.choices.values():
                _mark(sub, files)
        elif action.metavar in FILE_METAVARS:
            action.complete = files  # type: ignore[attr-defined]  # shtab reads this attribute
        elif _names_an_agent(action):
            action.complete = AGENT_COMPLETE  # type: ignore[attr-defined]


def _names_an_agent(action: argparse.Action) -> bool:
    if action.option_strings:
        return False
    metavar = action.metavar if isinstance(action.metavar, str) else ""
    return action.dest == "agent" or metavar.startswith("[AGENT]")


def agent_names(path: str | None) -> int:
    """Print the agents file's names, one a line, for a completion script: quietly nothing when there is no file
    or it cannot be read (a Tab press never prints an error). A name with a control character is left out: it
    could not be one line, nor shown safely."""
    try:
        names = _names(Path(path).expanduser() if path else None)
        sys.stdout.write("".join(f"{name}\n" for name in names))
        sys.stdout.flush()
    except Exception:  # a completion helper answers with what it has, never with a traceback
        pass
    return 0


def _names(path: Path | None) -> list[str]:
    import yaml

    from ..agents_yaml import entries
    from ..paths import agents_file

    path = path or agents_file()
    if not path.is_file():
        return []
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    names = (entry.get("name") for entry in entries(data) if isinstance(entry, dict))
    return list(dict.fromkeys(n for n in names if isinstance(n, str) and n.strip() and n.isprintable()))
