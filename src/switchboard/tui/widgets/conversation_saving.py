"""What a conversation saves of what the agent sent: ctrl+s its last turn's artifacts as text, and a file part
when its row's save is pressed, to the downloads folder."""

from __future__ import annotations

from typing import Any

from ...a2a.model import FilePart
from ...safe_text import strip_controls
from ..downloads import downloads_dir, save_artifact_texts, save_file_part
from .transcript import FileRow


class SavingActions:
    """Mixed into ConversationView (which has `conversation`, `notify`, `run_worker` and the app's HTTP client)."""

    def action_save_artifacts(self) -> None:
        host: Any = self
        last = host.conversation.last if host.conversation else None
        if last is None or not last.view.artifacts:
            host.notify("no artifacts to save yet")
            return
        saved = save_artifact_texts(last.view.artifacts.values())
        names = ", ".join(path.name for path in saved) or "nothing (no text)"
        host.notify(f"saved {names} to {downloads_dir()}", markup=False)

    def on_file_row_save_requested(self, event: FileRow.SaveRequested) -> None:
        event.stop()
        host: Any = self
        host.run_worker(self._save_file(event.part), group="files")

    async def _save_file(self, part: FilePart) -> None:
        host: Any = self
        try:
            path, size = await save_file_part(part, host.app.http)
        except Exception as exc:  # no bytes, a URL that does not serve it, a folder that cannot be written
            said = f"could not save {part.name or 'the file'}: {exc}"
            host.notify(strip_controls(said), severity="error", markup=False)
            return
        host.notify(f"saved {path.name} ({size} bytes) to {path.parent}", markup=False)
