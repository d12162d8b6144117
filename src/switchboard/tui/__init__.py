"""The Textual TUI. Everything here renders the core (switchboard.a2a, switchboard.conversation); no
protocol logic lives in widgets."""
