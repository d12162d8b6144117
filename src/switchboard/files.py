"""Files the app writes: whole, atomically (a crash leaves the old content or the new, never a mix).

Used by every package that saves what a person keeps: the agents and settings files, exports, downloads,
generated keys. Nothing of switchboard is imported here.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path


def write_atomically(path: Path, content: str | bytes) -> None:
    """Write a file so that a crash leaves either the old or the new content, never a mix.

    A uniquely named temp file in the same directory (so two writers never share one, and os.replace stays
    on one file system) is written and fsync'd, then renamed over the target; the directory is fsync'd so
    the rename itself survives a power cut. On any failure the temp file goes and the old file stands.
    """
    write_blocks_atomically(path, [content.encode("utf-8") if isinstance(content, str) else content])


def write_blocks_atomically(path: Path, blocks: Iterable[str | bytes]) -> None:
    """`write_atomically` for content written block by block (an artifact larger than memory should hold).
    Text is encoded as UTF-8, lone surrogates kept (surrogatepass), so a saved artifact is what was sent."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            for block in blocks:
                handle.write(block.encode("utf-8", "surrogatepass") if isinstance(block, str) else block)
            handle.flush()
            os.fsync(handle.fileno())
        with contextlib.suppress(OSError):  # keep the mode a person gave the file (mkstemp makes 0600)
            os.chmod(temp, stat.S_IMODE(os.stat(path).st_mode))
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    _fsync_dir(path.parent)


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems cannot fsync a directory; the rename is still atomic
    finally:
        os.close(fd)
