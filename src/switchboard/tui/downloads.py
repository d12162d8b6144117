"""Where the TUI saves what an agent sent (ctrl+s for a turn's artifacts, s on a file row), and under which name.

The name is the one the agent gave, made safe to type in a shell: an extension it already has is kept
(`draft.md` stays `draft.md`), one is added from the media type when it has none, and a character other than a
letter, a digit, `-`, `_` or `.` (a space included) becomes `-`. A file already there is never replaced: the
new one is `NAME-2.EXT`, `NAME-3.EXT`, ...
"""

from __future__ import annotations

import base64
import mimetypes
import re
from collections.abc import Iterable
from pathlib import Path, PurePath

import httpx

from ..a2a.model import FilePart
from ..a2a.turn import ArtifactView
from ..files import write_atomically, write_blocks_atomically
from ..paths import data_dir
from ..safe_text import strip_controls

MAX_STEM = 120
# The extension for a media type the standard table may not know (text/markdown before Python 3.13).
_EXTENSIONS = {"text/markdown": ".md", "text/plain": ".txt", "text/csv": ".csv", "application/json": ".json"}
_UNSAFE = re.compile(r"[^\w.-]+")  # \w: letters and digits of any script, and _
_EXTENSION = re.compile(r"\.(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{1,10}$")  # ".md", ".tar.gz"'s ".gz"; not ".0"


def downloads_dir() -> Path:
    return data_dir() / "downloads"


def extension_for(media_type: str | None) -> str:
    """The file extension of `media_type` (its parameters ignored); `.md` for none (text is drawn as Markdown),
    `.txt` for a text type with none of its own, `.bin` for anything else."""
    kind = (media_type or "text/markdown").split(";", 1)[0].strip().lower()
    known = _EXTENSIONS.get(kind) or mimetypes.guess_extension(kind, strict=False)
    return known or (".txt" if kind.startswith("text/") else ".bin")


def file_name(name: str, media_type: str | None) -> str:
    """The file name to save `name` (as an agent gave it) under: safe to type, its own extension kept or one
    added for `media_type`."""
    shown = strip_controls(name).strip()
    own = _EXTENSION.search(shown)
    stem, extension = (shown[: own.start()], own.group()) if own else (shown, extension_for(media_type))
    stem = _UNSAFE.sub("-", stem)
    stem = re.sub(r"-{2,}", "-", stem).strip("-.")[:MAX_STEM].rstrip("-.") or "artifact"
    return stem + extension


def free_path(folder: Path, name: str) -> Path:
    """`folder / name`, or `NAME-2.EXT`, `NAME-3.EXT`, ... when a file of that name is there already."""
    path = folder / name
    stem, suffix = PurePath(name).stem, PurePath(name).suffix
    n = 2
    while path.exists():
        path = folder / f"{stem}-{n}{suffix}"
        n += 1
    return path


def save_artifact_texts(artifacts: Iterable[ArtifactView]) -> list[Path]:
    """Write the text of each artifact that has some to its own file (the whole text, spilled part included)."""
    saved = []
    for artifact in artifacts:
        if artifact.text_length:
            path = free_path(
                downloads_dir(), file_name(artifact.name or artifact.artifact_id, artifact.text_media_type)
            )
            write_blocks_atomically(path, artifact.text_blocks())
            saved.append(path)
    return saved


async def save_file_part(part: FilePart, http: httpx.AsyncClient) -> tuple[Path, int]:
    """Write a file part (its inline bytes, or what its URL serves) to its own file: its path and size. Raises
    ValueError for a part with neither, httpx's errors for a URL that does not serve it."""
    if part.raw is not None:
        content = base64.b64decode(part.raw)
    elif part.url is None:
        raise ValueError("the file part has neither bytes nor a URL")
    else:
        response = await http.get(part.url)
        response.raise_for_status()
        content = response.content
    path = free_path(downloads_dir(), file_name(part.name or "download", part.media_type))
    write_atomically(path, content)
    return path, len(content)
