"""`make screenshots`: write screenshots/*.svg of the scenes, and one per shipped theme."""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

from scenes import SCENES, SIZE, THEME_SCENE, build_app, scene_links

from switchboard.tui.themes import load_themes


async def shoot(folder: Path, name: str, scene, theme: str = "switchboard") -> Path:
    with tempfile.TemporaryDirectory() as home:
        app = build_app(Path(home), theme=theme, links=scene_links())
        async with app.run_test(size=SIZE) as pilot:
            await scene(pilot)
            path = folder / f"{name}.svg"
            app.save_screenshot(filename=path.name, path=str(folder))
    return path


async def main(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, scene in SCENES.items():
        print(await shoot(folder, name, scene))
    themes, _ = load_themes()
    for theme in themes:
        print(await shoot(folder, f"theme-{theme.name}", THEME_SCENE, theme.name))


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1] if len(sys.argv) > 1 else "screenshots")))
