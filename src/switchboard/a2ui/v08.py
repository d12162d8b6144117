"""v0.8's components and data model read into v0.9's shapes, so one renderer draws both.

v0.8 wraps each property's value (`{"literalString": "x"}`, `{"path": "/a"}`, both together meaning "bind and
initialise"), lists children as `explicitList`/`template`, names some components and properties differently
(MultipleChoice, entryPointChild, usageHint ...) and sends the data model as an adjacency list of typed entries.
"""

from __future__ import annotations

from typing import Any

_LITERALS = ("literalString", "literalNumber", "literalBoolean", "literalArray")
_RENAMED_TYPES = {"MultipleChoice": "ChoicePicker"}
# v0.8 property -> v0.9 property, per component ("*" for all)
_RENAMED_PROPS = {
    "*": {"usageHint": "variant"},
    "Image": {"altText": "description"},
    "TextField": {"text": "value", "textFieldType": "variant"},
    "Slider": {"minValue": "min", "maxValue": "max"},
    "Modal": {"entryPointChild": "trigger", "contentChild": "content"},
    "Tabs": {"tabItems": "tabs"},
    "ChoicePicker": {"selections": "value"},
    "Row": {"distribution": "justify", "alignment": "align"},
    "Column": {"distribution": "justify", "alignment": "align"},
    "List": {"alignment": "align"},
}


def dynamic(value: Any, inits: list[tuple[str, Any]]) -> Any:
    """A v0.8 bound value as v0.9 writes it: a literal, or {"path"}; a path with a literal also initialises the
    path with it (collected in `inits`, applied when the surface's data model is empty there)."""
    if not isinstance(value, dict):
        return value
    literal = next((value[k] for k in _LITERALS if k in value), None)
    path = value.get("path")
    if isinstance(path, str):
        if literal is not None:
            inits.append((path, literal))
        return {"path": path}
    return literal if literal is not None else value


def children(value: Any) -> Any:
    if isinstance(value, dict):
        if isinstance(value.get("explicitList"), list):
            return value["explicitList"]
        template = value.get("template")
        if isinstance(template, dict):
            return {"componentId": template.get("componentId"), "path": template.get("dataBinding")}
    return value


def component(entry: dict[str, Any], inits: list[tuple[str, Any]]) -> tuple[str, dict[str, Any]] | None:
    """A v0.8 surfaceUpdate entry `{"id", "weight"?, "component": {"Type": {...}}}` as (type, v0.9 props)."""
    wrapper = entry.get("component")
    if not isinstance(wrapper, dict) or len(wrapper) != 1:
        return None
    ((name, body),) = wrapper.items()
    if not isinstance(name, str):
        return None
    body = body if isinstance(body, dict) else {}
    kind = _RENAMED_TYPES.get(name, name)
    names = {**_RENAMED_PROPS["*"], **_RENAMED_PROPS.get(kind, {})}
    props: dict[str, Any] = {}
    for given, value in body.items():
        key = names.get(str(given), str(given))
        if key == "children":
            props[key] = children(value)
        elif key == "tabs" and isinstance(value, list):
            props[key] = [
                {"title": dynamic(t.get("title"), inits), "child": t.get("child")} for t in value if isinstance(t, dict)
            ]
        elif key == "options" and isinstance(value, list):
            props[key] = [
                {"label": dynamic(o.get("label"), inits), "value": o.get("value")} for o in value if isinstance(o, dict)
            ]
        elif key == "action" and isinstance(value, dict):
            props[key] = {"event": {"name": value.get("name"), "context": _context(value.get("context"), inits)}}
        else:
            props[key] = dynamic(value, inits)
    if kind == "ChoicePicker":
        most = body.get("maxAllowedSelections")
        props["variant"] = "mutuallyExclusive" if most == 1 else "multipleSelection"
    if kind == "Button" and body.get("primary") is True:
        props["variant"] = "primary"
    if kind == "TextField" and isinstance(body.get("validationRegexp"), str):
        props["validationRegexp"] = body["validationRegexp"]
    if "weight" in entry:
        props["weight"] = entry["weight"]
    return kind, props


def _context(entries: Any, inits: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in entries if isinstance(entries, list) else []:
        if isinstance(item, dict) and isinstance(item.get("key"), str):
            out[item["key"]] = dynamic(item.get("value"), inits)
    return out


def data_contents(contents: Any) -> dict[str, Any]:
    """A dataModelUpdate's `contents` (an adjacency list of typed entries) as a JSON object."""
    out: dict[str, Any] = {}
    for item in contents if isinstance(contents, list) else []:
        if not isinstance(item, dict) or not isinstance(item.get("key"), str):
            continue
        if "valueMap" in item:
            out[item["key"]] = data_contents(item["valueMap"])
        else:
            value = next((item[k] for k in ("valueString", "valueNumber", "valueBoolean") if k in item), None)
            if "valueArray" in item:  # not in the schema; some agents send it
                value = item["valueArray"]
            out[item["key"]] = value
    return out
