"""The basic catalog's functions, run on the client: values (formatString ...) and checks (required, email ...).

An agent names a function and its arguments; nothing it sends is ever run as code. A regular expression is run
only when short and free of nested quantifiers (Python's `re` has no time limit), on a bounded input.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from typing import Any

from .binding import absolute, as_text, is_call, is_path, read
from .bounds import MAX_CHECK_INPUT, MAX_PATTERN

MAX_CALL_DEPTH = 8
_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")
_NESTED_QUANTIFIER = re.compile(r"\([^()]*[+*}][^()]*\)\s*[+*{]|\\\d")  # (a+)+, (a*)*, (a{2,}){3,}, backrefs
_INTERPOLATION = re.compile(r"(?<!\\)\$\{([^{}]*)\}")

Scope = str


class Evaluation:
    """Where a value is resolved: the surface's data model, a template's scope, and what could not be run."""

    def __init__(self, data: Any, scope: Scope = "") -> None:
        self.data = data
        self.scope = scope
        self.notes: list[str] = []

    def value(self, value: Any, depth: int = 0) -> Any:
        """A literal as is, a path read from the data model, a call evaluated (None when it cannot be)."""
        if is_path(value):
            return read(self.data, absolute(value["path"], self.scope))
        if is_call(value):
            return self.call(value["call"], value.get("args"), depth + 1)
        if isinstance(value, str) and "${" in value:
            return self.interpolate(value)
        return value

    def _argument(self, value: Any, depth: int) -> Any:
        """An argument: a list's items are values too (and/or take a list of conditions)."""
        if isinstance(value, list):
            return [self.value(v, depth) for v in value[:100]]
        return self.value(value, depth)

    def text(self, value: Any) -> str:
        return as_text(self.value(value))

    def call(self, name: str, args: Any, depth: int = 0) -> Any:
        if depth > MAX_CALL_DEPTH:
            self.notes.append("function calls nested too deep")
            return None
        function = FUNCTIONS.get(name)
        if function is None:
            self.notes.append(f"function {name!r} is not in the basic catalog")
            return None
        raw = args if isinstance(args, dict) else {}
        try:
            return function(self, {k: self._argument(v, depth) for k, v in raw.items()})
        except (TypeError, ValueError, OverflowError) as exc:
            self.notes.append(f"{name}: {exc}")
            return None

    def interpolate(self, template: str) -> str:
        """formatString's `${/path}`, `${relative}` and `${fn()}` (no arguments) in a string; `\\${` is literal."""

        def one(match: re.Match[str]) -> str:
            inner = match.group(1).strip()
            if inner.endswith("()"):
                return as_text(self.call(inner[:-2], {}))
            return as_text(read(self.data, absolute(inner, self.scope)))

        return _INTERPOLATION.sub(one, template).replace("\\${", "${")


def _required(_: Evaluation, a: dict[str, Any]) -> bool:
    value = a.get("value")
    return not (value is None or value == "" or value == [] or value == {})


def _regex(e: Evaluation, a: dict[str, Any]) -> bool:
    pattern, value = a.get("pattern"), as_text(a.get("value"))
    if not isinstance(pattern, str):
        return True
    if len(pattern) > MAX_PATTERN or _NESTED_QUANTIFIER.search(pattern):
        e.notes.append("a regular expression was not run (too long, or it could take exponential time)")
        return True
    try:
        return re.fullmatch(pattern, value[:MAX_CHECK_INPUT]) is not None
    except re.error:
        e.notes.append("a regular expression could not be read")
        return True


def _length(_: Evaluation, a: dict[str, Any]) -> bool:
    size = len(as_text(a.get("value")))
    low, high = a.get("min"), a.get("max")
    return (not isinstance(low, int | float) or size >= low) and (not isinstance(high, int | float) or size <= high)


def _numeric(_: Evaluation, a: dict[str, Any]) -> bool:
    try:
        number = float(a.get("value"))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False
    low, high = a.get("min"), a.get("max")
    return (not isinstance(low, int | float) or number >= low) and (not isinstance(high, int | float) or number <= high)


def _email(_: Evaluation, a: dict[str, Any]) -> bool:
    return _EMAIL.fullmatch(as_text(a.get("value"))[:MAX_CHECK_INPUT]) is not None


def _format_number(_: Evaluation, a: dict[str, Any]) -> str:
    number = float(a.get("value") or 0)
    places = a.get("decimals", a.get("maximumFractionDigits"))
    places = int(places) if isinstance(places, int | float) and 0 <= places <= 10 else None
    text = f"{number:,.{places}f}" if places is not None else f"{number:,}"
    return text if a.get("grouping", a.get("useGrouping", True)) is not False else text.replace(",", "")


def _format_currency(e: Evaluation, a: dict[str, Any]) -> str:
    raw = a.get("currency")
    currency = raw if isinstance(raw, str) else ""
    return f"{_format_number(e, {'value': a.get('value'), 'decimals': 2})} {currency[:8]}".strip()


def _format_date(_: Evaluation, a: dict[str, Any]) -> str:
    value = as_text(a.get("value"))
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return value
    return moment.strftime("%a %d %b %Y %H:%M") if "T" in value else moment.strftime("%a %d %b %Y")


def _pluralize(_: Evaluation, a: dict[str, Any]) -> str:
    count = a.get("value", a.get("count"))
    forms = {k: v for k, v in a.items() if isinstance(v, str)}
    key = "zero" if count == 0 else "one" if count == 1 else "other"
    return forms.get(key) or forms.get("other") or ""


def _and(_: Evaluation, a: dict[str, Any]) -> bool:
    values = a.get("values")
    return all(v is True for v in values) if isinstance(values, list) else False


def _or(_: Evaluation, a: dict[str, Any]) -> bool:
    values = a.get("values")
    return any(v is True for v in values) if isinstance(values, list) else False


def _now(_: Evaluation, __: dict[str, Any]) -> str:
    return datetime.now().astimezone().isoformat(timespec="seconds")


FUNCTIONS: dict[str, Callable[[Evaluation, dict[str, Any]], Any]] = {
    "required": _required,
    "regex": _regex,
    "length": _length,
    "numeric": _numeric,
    "email": _email,
    "formatString": lambda e, a: e.interpolate(as_text(a.get("value"))),
    "formatNumber": _format_number,
    "formatCurrency": _format_currency,
    "formatDate": _format_date,
    "pluralize": _pluralize,
    "and": _and,
    "or": _or,
    "not": lambda _, a: a.get("value") is not True,
    "now": _now,
    # openUrl is an action, never run from a value: the renderer asks the person first (see actions.local_action)
    "openUrl": lambda _, a: None,
}


def failed_checks(checks: Any, evaluation: Evaluation) -> list[str]:
    """The messages of the checks that fail. A check is `{"condition", "message"}` (the schema) or a call with
    a message beside it (the protocol document's examples)."""
    failed: list[str] = []
    for check in checks if isinstance(checks, list) else []:
        if not isinstance(check, dict):
            continue
        condition = check.get("condition", check if "call" in check else True)
        if evaluation.value(condition) is not True:
            message = check.get("message")
            failed.append(message if isinstance(message, str) and message else "a check failed")
    return failed
