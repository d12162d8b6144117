"""The inbox: everything that waits for a person (a task's question, a run's step asking), in one list.

The core of it, with no terminal: the item model (item.py), the remembered questions of conversation tasks kept
under the data dir (store.py), the sources that find waiting items (sources.py: local runs from the run index,
runs on a Temporal server, remembered tasks re-read from their agents) and the nudge (nudge.py: the terminal's
notification escapes from sanitized text, a person's notify command with the item in its environment). The TUI
shows it (tui/widgets/inbox_pane.py); the command line (`switchboard inbox`, `switchboard answer`) uses the same.
"""
