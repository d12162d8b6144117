"""Whether a question's plain data part says nothing the drawn form does not already show.

An agent that speaks A2UI often sends its choices twice: as a data part (`{"choices": [...]}`, for clients without
A2UI) and as a form's choice picker. Where the form is drawn, showing both puts the same list on screen twice, once
as JSON. The rule is narrow on purpose, so nothing the agent said is ever hidden: a data part counts as presented
only when it holds at least one value and every value in it (at any depth; keys are its shape, not its content) is
the value or the label of an option of a choice picker in the drawn surfaces. A data part with anything else (an
order id, a price, a hint) is shown whole, as before.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from .binding import as_text
from .functions import Evaluation
from .model import Surface

_MAX_VALUES = 1000  # a data part with more values than this is shown: no form's picker lists that many
_MAX_DEPTH = 32


def option_texts(surfaces: Iterable[Surface]) -> set[str]:
    """Every choice picker's option values and labels (as the picker shows them), across `surfaces`."""
    texts: set[str] = set()
    for surface in surfaces:
        evaluation = Evaluation(surface.data)
        for component in surface.components.values():
            if component.type != "ChoicePicker":
                continue
            options = component.props.get("options")
            for option in options if isinstance(options, list) else []:
                if not isinstance(option, dict):
                    continue
                if option.get("value") is not None:
                    texts.add(as_text(option.get("value")))
                label = evaluation.text(option.get("label"))
                if label:
                    texts.add(label)
    return texts


def _leaves(data: Any, depth: int = 0) -> Iterator[Any]:
    if depth > _MAX_DEPTH:
        yield data  # too deep to be a list of choices: a value no option has, so the part is shown
    elif isinstance(data, dict):
        for value in data.values():
            yield from _leaves(value, depth + 1)
    elif isinstance(data, list):
        for value in data:
            yield from _leaves(value, depth + 1)
    else:
        yield data


def shown_by_form(data: Any, surfaces: Iterable[Surface]) -> bool:
    """True when every value of the data part `data` is an option of a choice picker in `surfaces` (see above)."""
    options = option_texts(surfaces)
    if not options:
        return False
    seen = 0
    for leaf in _leaves(data):
        seen += 1
        if seen > _MAX_VALUES or leaf is None or isinstance(leaf, bool) or as_text(leaf) not in options:
            return False
    return seen > 0
