"""An agent's card in detail: overview, skills (choose an example to start talking), security, interfaces,
lint warnings and the raw JSON. Dismisses with the chosen example, or None."""

from __future__ import annotations

import json
import os

from rich.syntax import Syntax
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, Header, OptionList, Static, TabbedContent, TabPane
from textual.widgets.option_list import Option

from ...a2a.auth.credentials import DEFAULT_API_KEY_ENV, DEFAULT_BASIC_PASSWORD_ENV, DEFAULT_BEARER_ENV, describe_scheme
from ...a2a.cards import BINDING_FLAGS, BINDING_NAMES, choose_endpoint
from ...a2a.errors import SwitchboardError
from ...a2a.extensions import extension_marks
from ...a2a.model import AgentCard, SecurityScheme
from ...agent_status import AgentStatus
from ...safe_text import strip_controls


def field(label: str, value: object) -> Content:
    return Content.assemble((f"{label:<14}", "bold $text-muted"), strip_controls(str(value)))


class CardScreen(Screen[str | None]):
    BINDINGS = [
        Binding("escape", "back", "Back", id="card.back"),
        Binding("t", "talk", "Talk", id="card.talk"),
    ]

    def __init__(self, status: AgentStatus) -> None:
        super().__init__()
        self.status = status
        self._examples: list[str] = []  # option id ex:N -> the example text (ids must be unique; examples need not)

    def compose(self) -> ComposeResult:
        yield Header(icon="☎")
        status, card = self.status, self.status.card
        if card is None:
            problem = status.error.message if status.error else "the card has not been fetched yet"
            yield Static(Content(f"{status.entry.name} — {status.entry.url}\n\n{problem}"), classes="card-missing")
            yield Footer()
            return
        with TabbedContent(id="card-tabs"):
            with TabPane("Overview", id="overview"), VerticalScroll():
                yield Static(self._overview(card), classes="card-section")
            with TabPane(f"Skills ({len(card.skills)})", id="skills"):
                yield OptionList(*self._skill_options(card), id="skill-list")
            with TabPane("Security", id="security"), VerticalScroll():
                yield Static(self._security(card), classes="card-section")
            with TabPane("Interfaces", id="interfaces"), VerticalScroll():
                yield Static(self._interfaces(card), classes="card-section")
            with TabPane(f"Lint ({len(status.lint)})", id="lint"), VerticalScroll():
                yield Static(self._lint(), classes="card-section")
            with TabPane("Raw JSON", id="raw"), VerticalScroll():
                raw = json.dumps(card.raw, indent=2, ensure_ascii=False)
                yield Static(Syntax(strip_controls(raw), "json", word_wrap=True, background_color="default"))
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = strip_controls(self.status.card.name if self.status.card else self.status.entry.name)

    def _overview(self, card: AgentCard) -> Content:
        caps = card.capabilities
        lines = [
            Content.styled(strip_controls(card.name), "bold $primary"),
            Content(strip_controls(card.description or "(no description)")),
            Content(""),
            field("Version", card.version or "—"),
            field("Provider", f"{card.provider.organization} {card.provider.url or ''}" if card.provider else "—"),
            field("Card URL", self.status.card_url or self.status.entry.url),
            self._signature(),
            field("Protocol", self.status.protocol),
            field("Streaming", "yes" if caps.streaming else "no"),
            field("Push", "yes" if caps.push_notifications else "no"),
            field("Extended card", "yes" if caps.extended_card else "no"),
            field("Input modes", ", ".join(card.default_input_modes) or "—"),
            field("Output modes", ", ".join(card.default_output_modes) or "—"),
        ]
        if card.documentation_url:
            lines.append(field("Docs", card.documentation_url))
        activated = self.status.entry.extensions  # the agents file's `extensions:`
        for ext in caps.extensions or []:
            lines.append(field("Extension", ext.uri + extension_marks(ext.uri, ext.required, activated)))
        return Content("\n").join(lines)

    def _signature(self) -> Content:
        """verified (green), unverifiable with why (red), unsigned (muted): see a2a/auth/trust/card_signature.py."""
        trust = self.status.trust
        if trust is None:
            return field("Signature", "not checked")
        style = {"verified": "$success", "unverifiable": "$error"}.get(trust.status, "$text-muted")
        return Content.assemble(
            ("Signature     ", "bold $text-muted"),
            (trust.status, style),
            strip_controls(f" ({trust.detail})" if trust.detail else ""),
        )

    def _skill_options(self, card: AgentCard) -> list[Option]:
        options: list[Option] = []
        for skill in card.skills:
            heading = Content.assemble(
                (strip_controls(skill.name), "bold"), ("  " + strip_controls(", ".join(skill.tags)), "$text-muted")
            )
            options.append(
                Option(Content("\n").join([heading, Content(strip_controls(skill.description))]), disabled=True)
            )
            for example in skill.examples:
                options.append(
                    Option(
                        Content.assemble(("   ▸ ", "$accent"), strip_controls(example)), id=f"ex:{len(self._examples)}"
                    )
                )
                self._examples.append(example)
        if not options:
            options.append(Option("This agent lists no skills.", disabled=True))
        return options

    def _security(self, card: AgentCard) -> Content:
        if not card.security_schemes:
            return Content("The card declares no security scheme: requests go without credentials.")
        lines = []
        for name, scheme in card.security_schemes.items():
            lines.append(Content.styled(strip_controls(describe_scheme(name, scheme)), "bold"))
            lines.append(self._what_is_given(scheme))
        required = " or ".join(" + ".join(req) for req in card.security) or "none required"
        lines.append(field("Required", required))
        return Content("\n").join(lines)

    def _what_is_given(self, scheme: SecurityScheme) -> Content:
        """Whether what the scheme needs is configured: the variable (set or not), the user, the certificate."""
        entry = self.status.entry
        if scheme.type == "mutualTLS":
            cert = entry.tls.cert if entry.tls else None
            return Content.assemble(
                "   client certificate: ",
                (strip_controls(cert), "$success") if cert else ("none (tls: in the agents file)", "$error"),
            )
        basic = scheme.type == "http" and (scheme.scheme or "").lower() == "basic"
        if basic:
            variable = entry.basic_env or DEFAULT_BASIC_PASSWORD_ENV
        else:
            env = entry.api_key_env if scheme.type == "apiKey" else entry.bearer_env
            fallback = DEFAULT_API_KEY_ENV if scheme.type == "apiKey" else DEFAULT_BEARER_ENV
            variable = env or fallback
        is_set = bool(os.environ.get(variable))
        who = f"user {entry.basic_user}, password in " if basic and entry.basic_user else ""
        return Content.assemble(
            f"   {strip_controls(who)}environment variable {variable}: ",
            ("set" if is_set else "not set", "$success" if is_set else "$error"),
        )

    def _interfaces(self, card: AgentCard) -> Content:
        try:
            chosen = choose_endpoint(card, binding=BINDING_FLAGS.get(self.status.entry.binding or ""))
            talking = f"{chosen.url} ({BINDING_NAMES[chosen.binding]}, protocol {chosen.version})"
            lines = [field("Talking to", talking), Content("")]
        except SwitchboardError as exc:
            lines = [Content.styled(f"No usable interface: {exc.message}", "$error"), Content("")]
        for iface in card.interfaces:
            lines.append(Content(strip_controls(f"{iface.binding:<10} {iface.protocol_version:<6} {iface.url}")))
        return Content("\n").join(lines)

    def _lint(self) -> Content:
        warnings = self.status.lint + self.status.notes
        if not warnings:
            return Content.styled("The card has everything it should.", "$success")
        return Content("\n").join(Content.assemble(("⚠ ", "$warning"), strip_controls(w)) for w in warnings)

    @on(OptionList.OptionSelected, "#skill-list")
    def _example(self, event: OptionList.OptionSelected) -> None:
        if event.option.id and event.option.id.startswith("ex:"):
            self.dismiss(self._examples[int(event.option.id[3:])])

    def action_talk(self) -> None:
        self.dismiss("")

    def action_back(self) -> None:
        self.dismiss(None)
