"""`switchboard answer ITEM TEXT`: answer an item of the inbox (`switchboard inbox` lists them with their ids).

A conversation task gets the answer as `send --task-id` would send it, and the output is send's; a local run is
continued with it (`run --resume RUN --answer STEP=TEXT`: the run goes on here until it ends or asks again); a
run on Temporal gets it as that question's answer (never a later one's)."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from ..arguments import temporal_options

if TYPE_CHECKING:
    from ...inbox.item import InboxItem

ANSWER_EPILOG = """\
examples:
  switchboard answer t3f9c2a1 "Ada"
  switchboard answer t3f9c2a1 --data '{"choice": "a CLI"}'
  switchboard answer r77e01b2 "ship it" -o json
"""


@dataclass(frozen=True)
class AnswerOptions:
    item: str
    text: str | None = None
    data: str | None = None
    output: Literal["text", "json"] = "text"
    agents: str | None = None
    temporal: str | None = None
    namespace: str = "default"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = ANSWER_EPILOG
    parser.add_argument(
        "item", metavar="ITEM", help="the item's id from `switchboard inbox` (a unique prefix is enough)"
    )
    parser.add_argument("text", nargs="?", metavar="TEXT", help="the answer")
    parser.add_argument("--data", metavar="JSON|@FILE|-", help="answer a task with a data part instead of text")
    parser.add_argument("-o", "--output", choices=("text", "json"), default="text", help="output format (default text)")
    parser.add_argument("--agents", metavar="FILE", help="the agents file (default: the one in the config dir)")
    temporal_options(parser)


async def _answer_task(item: InboxItem, options: AnswerOptions) -> int:
    """A task: the answer sent as `send AGENT --task-id TASK --context-id CONTEXT` sends it (its output, its exit;
    the inbox lets the task go, or keeps its next question, as send does)."""
    from ..commands import send
    from ..context import registry_of
    from ..inbox import agent_ref
    from .send import SendOptions

    words = [agent_ref(item, registry_of(options))] + ([options.text] if options.text is not None else [])
    parts: list[tuple[str, str, str | None]] = [("data", options.data, None)] if options.data is not None else []
    send_options = SendOptions(
        words=words, parts=parts, task_id=item.task_id, context_id=item.context_id or None,
        output=options.output, agents=options.agents, inbox_name=item.agent or None,
    )  # fmt: skip
    return await send(send_options)


async def _answer_run(item: InboxItem, options: AnswerOptions) -> int:
    """A run: continued with the answer as `run --resume RUN --answer STEP=TEXT` (on Temporal: that question's)."""
    from .run import RunOptions

    run_options = RunOptions(
        resume=item.run_id, answer=[f"{item.step}={options.text}"], output=options.output, agents=options.agents
    )
    if item.kind == "temporal":
        from ..inbox import temporal_of
        from ..temporal import run as run_on_temporal

        run_options = replace(
            run_options, temporal=temporal_of(options), namespace=options.namespace, question_id=item.ask_id or None
        )
        return await run_on_temporal(run_options)
    from ..workflow import run

    return await run(run_options)


def main(namespace: argparse.Namespace) -> int:
    from functools import partial

    from ..guard import run_async
    from ..inbox import answer
    from ..options import options_from

    handler = partial(answer, answer_task=_answer_task, answer_run=_answer_run)
    return run_async(handler, options_from(AnswerOptions, namespace))
