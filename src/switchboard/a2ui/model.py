"""One model of A2UI for both versions: v0.8's messages are read into the shapes of v0.9 (see v08.py).

A component keeps the JSON it came as (`raw`), for the placeholder of one this client does not render and for the
wire view; a surface remembers the version and media type it came in, so the client answers in the same.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

MIME_TYPE = "application/a2ui+json"  # v0.9.1 (IANA's order)
MIME_TYPE_OLD = "application/json+a2ui"  # v0.8 and v0.9
MIME_TYPES = frozenset({MIME_TYPE, MIME_TYPE_OLD})

# The basic catalog (v0.9 names; v0.8's MultipleChoice is read as ChoicePicker): what the renderers draw.
BASIC_COMPONENTS = (
    "Text", "Image", "Icon", "Video", "AudioPlayer", "Row", "Column", "List", "Card", "Tabs", "Modal", "Divider",
    "Button", "TextField", "CheckBox", "ChoicePicker", "Slider", "DateTimeInput",
)  # fmt: skip
INPUTS = frozenset({"TextField", "CheckBox", "ChoicePicker", "Slider", "DateTimeInput"})

Version = str  # "v0.8", "v0.9" or "v0.9.1", as the agent wrote it


@dataclass
class Component:
    id: str
    type: str  # "Text", "Button" ... or whatever the agent named (drawn as a placeholder when unknown)
    props: dict[str, Any]
    raw: Any = None  # as sent

    @property
    def known(self) -> bool:
        return self.type in BASIC_COMPONENTS


@dataclass(frozen=True)
class CreateSurface:
    surface_id: str
    version: Version
    catalog_id: str | None = None
    root: str = "root"
    send_data_model: bool = False
    agent_name: str | None = None  # the theme's agentDisplayName: shown as the agent's claim, never as ours


@dataclass(frozen=True)
class UpdateComponents:
    surface_id: str
    version: Version
    components: tuple[Component, ...]


@dataclass(frozen=True)
class UpdateData:
    surface_id: str
    version: Version
    path: str = "/"
    value: Any = None
    remove: bool = False  # v0.9: no value removes the key at path


@dataclass(frozen=True)
class DeleteSurface:
    surface_id: str
    version: Version


Operation = CreateSurface | UpdateComponents | UpdateData | DeleteSurface


@dataclass
class Surface:
    surface_id: str
    version: Version
    mime_type: str = MIME_TYPE
    catalog_id: str | None = None
    root: str = "root"
    components: dict[str, Component] = field(default_factory=dict)
    data: Any = field(default_factory=dict)
    send_data_model: bool = False
    agent_name: str | None = None
    ready: bool = True  # v0.8 draws a surface once beginRendering says which component is its root
    notices: list[str] = field(default_factory=list)  # what was cut or could not be read
    revision: int = 0  # bumped on every change: a renderer redraws when it moved
    inline_data: bool = False  # the agent sent its data parts as one message each, not as a list (v0.3's wire)
    wrapped_list: bool = False  # the agent sent its list as {"value": [...]} (the SDK's v0.3 shape): answer so

    @property
    def is_v08(self) -> bool:
        return self.version == "v0.8"

    def note(self, text: str) -> None:
        if text not in self.notices and len(self.notices) < 20:
            self.notices.append(text)


Kind = Literal["create", "components", "data", "delete"]
