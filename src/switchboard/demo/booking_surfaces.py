"""The booking agent's A2UI messages, written by hand in both versions (tests/demo validates each against the
spec's JSON Schemas): the booking form, the confirmation card, and the booked card.

Written once in v0.9's shapes; `v08()` turns a v0.9 component list into v0.8's, so the two versions say the same.
"""

from __future__ import annotations

from typing import Any

# v0.9.1 changed the extension (its URI, the media type application/a2ui+json); its messages' schemas still say
# "version": "v0.9", which is what each message carries to validate against them.
V091 = "v0.9"
CATALOG_V091 = "https://a2ui.org/specification/v0_9_1/catalogs/basic/catalog.json"
FORM = "booking-form"
CONFIRM = "booking-confirm"
BOOKED = "booking-done"
SEATING = (("indoor", "Indoors"), ("terrace", "On the terrace"), ("bar", "At the bar"))
DEFAULTS: dict[str, Any] = {"date": "", "time": "19:30", "party": 2, "seating": ["indoor"], "name": "", "notes": ""}
FIELDS = ("date", "time", "party", "seating", "name", "notes")


def _bound(key: str) -> dict[str, str]:
    return {"path": f"/booking/{key}"}


def _required(key: str, message: str) -> dict[str, Any]:
    return {"condition": {"call": "required", "args": {"value": _bound(key)}}, "message": message}


def form_components() -> list[dict[str, Any]]:
    """The booking form: a date, a time, a party size, a seating choice, a name, notes; Book and Cancel."""
    context = {key: _bound(key) for key in FIELDS}
    return [
        {"id": "root", "component": "Card", "child": "form"},
        {"id": "form", "component": "Column", "children": [
            "title", "when", "party", "seating", "name", "notes", "buttons"]},
        {"id": "title", "component": "Text", "variant": "h2", "text": "Book a table at Trattoria Demo"},
        {"id": "when", "component": "Row", "children": ["date", "time"]},
        {"id": "date", "component": "DateTimeInput", "label": "Date", "enableDate": True, "value": _bound("date"),
         "checks": [_required("date", "Pick a date.")]},
        {"id": "time", "component": "DateTimeInput", "label": "Time", "enableTime": True, "value": _bound("time"),
         "checks": [_required("time", "Pick a time.")]},
        {"id": "party", "component": "Slider", "label": "Party size", "min": 1, "max": 12, "value": _bound("party")},
        {"id": "seating", "component": "ChoicePicker", "label": "Seating", "variant": "mutuallyExclusive",
         "options": [{"label": label, "value": value} for value, label in SEATING], "value": _bound("seating")},
        {"id": "name", "component": "TextField", "label": "Name for the booking", "value": _bound("name"),
         "checks": [_required("name", "Say whose name the table is under."),
                    {"condition": {"call": "length", "args": {"value": _bound("name"), "max": 60}},
                     "message": "At most 60 characters."}]},
        {"id": "notes", "component": "TextField", "label": "Notes (optional)", "variant": "longText",
         "value": _bound("notes")},
        {"id": "buttons", "component": "Row", "children": ["book", "cancel"]},
        {"id": "book-label", "component": "Text", "text": "Book"},
        {"id": "book", "component": "Button", "variant": "primary", "child": "book-label",
         "action": {"event": {"name": "book", "context": context}}},
        {"id": "cancel-label", "component": "Text", "text": "Cancel"},
        {"id": "cancel", "component": "Button", "child": "cancel-label",
         "action": {"event": {"name": "cancel", "context": {}}}},
    ]  # fmt: skip


def confirm_components(booking: dict[str, Any]) -> list[dict[str, Any]]:
    """The confirmation card: what will be booked, then Confirm and Change."""
    return [
        {"id": "root", "component": "Card", "child": "body"},
        {"id": "body", "component": "Column", "children": ["head", "summary", "rule", "buttons"]},
        {"id": "head", "component": "Row", "children": ["icon", "title"]},
        {"id": "icon", "component": "Icon", "name": "event"},
        {"id": "title", "component": "Text", "variant": "h3", "text": "Please confirm your booking"},
        {"id": "summary", "component": "Text", "text": summary(booking)},
        {"id": "rule", "component": "Divider"},
        {"id": "buttons", "component": "Row", "children": ["confirm", "change"]},
        {"id": "confirm-label", "component": "Text", "text": "Confirm"},
        {"id": "confirm", "component": "Button", "variant": "primary", "child": "confirm-label",
         "action": {"event": {"name": "confirm", "context": {k: booking[k] for k in FIELDS}}}},
        {"id": "change-label", "component": "Text", "text": "Change"},
        {"id": "change", "component": "Button", "child": "change-label",
         "action": {"event": {"name": "change", "context": {}}}},
    ]  # fmt: skip


def booked_components(booking: dict[str, Any], reference: str) -> list[dict[str, Any]]:
    """The card left in the transcript once booked: its button starts a new booking (a new message)."""
    return [
        {"id": "root", "component": "Card", "child": "body"},
        {"id": "body", "component": "Column", "children": ["title", "summary", "map", "again"]},
        {"id": "title", "component": "Text", "variant": "h3", "text": f"Booked: reference {reference}"},
        {"id": "summary", "component": "Text", "text": summary(booking)},
        {"id": "map", "component": "Image", "url": "https://example.com/trattoria-demo/map.png",
         "description": "Map to Trattoria Demo"},
        {"id": "again-label", "component": "Text", "text": "Book another table"},
        {"id": "again", "component": "Button", "child": "again-label",
         "action": {"event": {"name": "book_again", "context": {}}}},
    ]  # fmt: skip


def summary(booking: dict[str, Any]) -> str:
    seating = booking.get("seating")
    seat = seating[0] if isinstance(seating, list) and seating else seating
    label = dict(SEATING).get(str(seat), str(seat))
    party = booking.get("party")
    people = int(party) if isinstance(party, int | float) else party
    return f"{booking.get('name')}, {people} people, {booking.get('date')} at {booking.get('time')}, {label.lower()}"


def surface_v091(surface_id: str, components: list[dict[str, Any]], data: dict[str, Any] | None) -> list[dict]:
    """createSurface, updateComponents, and updateDataModel when there is data: one list, as the extension sends."""
    messages: list[dict[str, Any]] = [
        {"version": V091, "createSurface": {"surfaceId": surface_id, "catalogId": CATALOG_V091}},
        {"version": V091, "updateComponents": {"surfaceId": surface_id, "components": components}},
    ]
    if data is not None:
        messages.append({"version": V091, "updateDataModel": {"surfaceId": surface_id, "path": "/", "value": data}})
    return messages


def delete_v091(surface_id: str) -> dict[str, Any]:
    return {"version": V091, "deleteSurface": {"surfaceId": surface_id}}


# --- v0.8 ----------------------------------------------------------------------------------------------


def _v08_value(value: Any, kind: str = "String") -> dict[str, Any]:
    if isinstance(value, dict) and "path" in value:
        return {"path": value["path"]}
    if isinstance(value, bool):
        return {"literalBoolean": value}
    if isinstance(value, int | float):
        return {"literalNumber": value}
    if isinstance(value, list):  # v0.8 has no list literals: one choice goes as its string
        return {"literalString": str(value[0]) if value else ""}
    return {f"literal{kind}": value}


def v08_component(c: dict[str, Any]) -> dict[str, Any]:
    """One v0.9 component of these surfaces as v0.8 writes it."""
    kind, cid = c["component"], c["id"]
    body: dict[str, Any] = {}
    if kind == "Text":
        body = {"text": _v08_value(c["text"])} | ({"usageHint": c["variant"]} if "variant" in c else {})
    elif kind in ("Row", "Column"):
        body = {"children": {"explicitList": c["children"]}}
    elif kind == "Card":
        body = {"child": c["child"]}
    elif kind == "Icon":
        body = {"name": _v08_value(c["name"])}
    elif kind == "Image":
        body = {"url": _v08_value(c["url"]), "altText": _v08_value(c["description"])}
    elif kind == "Divider":
        body = {}
    elif kind == "Button":
        event = c["action"]["event"]
        context = [{"key": k, "value": _v08_value(v)} for k, v in event["context"].items() if not isinstance(v, dict)
                   or "path" in v]  # fmt: skip
        body = {"child": c["child"], "primary": c.get("variant") == "primary",
                "action": {"name": event["name"], "context": context}}  # fmt: skip
    elif kind == "DateTimeInput":
        body = {"value": _v08_value(c["value"]), "enableDate": c.get("enableDate", False),
                "enableTime": c.get("enableTime", False)}  # fmt: skip
    elif kind == "Slider":
        body = {"label": _v08_value(c["label"]), "value": _v08_value(c["value"]), "minValue": c["min"],
                "maxValue": c["max"]}  # fmt: skip
    elif kind == "ChoicePicker":
        kind = "MultipleChoice"
        body = {"selections": _v08_value(c["value"]), "maxAllowedSelections": 1,
                "options": [{"label": _v08_value(o["label"]), "value": o["value"]} for o in c["options"]]}  # fmt: skip
    elif kind == "TextField":
        body = {"label": _v08_value(c["label"]), "text": _v08_value(c["value"])}
        body["textFieldType"] = c.get("variant", "shortText")
    return {"id": cid, "component": {kind: body}}


def _v08_contents(data: dict[str, Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for key, value in data.items():
        if isinstance(value, dict):
            out.append({"key": key, "valueMap": _v08_contents(value)})
        elif isinstance(value, bool):
            out.append({"key": key, "valueBoolean": value})
        elif isinstance(value, int | float):
            out.append({"key": key, "valueNumber": value})
        elif isinstance(value, list):  # v0.8's contents have no arrays: a one-choice list goes as its string
            out.append({"key": key, "valueString": str(value[0]) if value else ""})
        else:
            out.append({"key": key, "valueString": str(value)})
    return out


def surface_v08(surface_id: str, components: list[dict[str, Any]], data: dict[str, Any] | None) -> list[dict]:
    """surfaceUpdate, dataModelUpdate, beginRendering: v0.8's messages, one per data part."""
    messages: list[dict[str, Any]] = [
        {"surfaceUpdate": {"surfaceId": surface_id, "components": [v08_component(c) for c in components]}}
    ]
    if data is not None:
        messages.append({"dataModelUpdate": {"surfaceId": surface_id, "contents": _v08_contents(data)}})
    messages.append({"beginRendering": {"surfaceId": surface_id, "root": "root"}})
    return messages


def delete_v08(surface_id: str) -> dict[str, Any]:
    return {"deleteSurface": {"surfaceId": surface_id}}
