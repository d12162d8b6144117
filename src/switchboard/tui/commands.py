"""Command palette: open an agent's card, talk to an agent, toggle the wire view. (Themes and quit come
with Textual's own commands.)"""

from __future__ import annotations

from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider


class SwitchboardCommands(Provider):
    def _commands(self):
        from .screens.main import MainScreen

        app = self.app
        screen = app.screen if isinstance(app.screen, MainScreen) else None
        yield "Toggle wire view", "Every request, response and SSE frame", app.action_toggle_wire
        from .exporting import choices, run_export

        for label, export in choices(app, self.screen):
            title = f"Export {label[0].lower()}{label[1:]}"
            yield title, "written under the exports folder, secrets redacted", partial(run_export, app, export)
        if screen is None:
            return
        from .widgets.agents_pane import AgentsPane

        pane = screen.query_one(AgentsPane)
        for status in pane.statuses.values():
            name = status.entry.name
            yield (
                f"New conversation with {name}",
                status.entry.url,
                partial(app.run_worker, partial(screen.open_conversation, status)),
            )
            yield f"Open agent {name}", f"card of {name}", partial(pane.post_message, AgentsPane.ShowCard(status))
        yield "Add an agent", "by URL, saved to the agents file", pane.action_add

    async def discover(self) -> Hits:
        for title, help_text, callback in self._commands():
            yield DiscoveryHit(title, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, callback in self._commands():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), callback, help=help_text)
