"""A2UI: agent-driven surfaces (forms, cards) carried in A2A data parts, read as untrusted data.

The core of the renderer, with no terminal: reading A2UI messages of v0.8 and v0.9/v0.9.1 into one model
(`messages`, `v08`), bounded (`bounds`); the surfaces a conversation holds as the stream creates, updates, re-binds
and deletes them (`surfaces`); data binding and the basic catalog's functions and checks (`binding`, `functions`);
the tree a renderer walks (`tree`); the action event the client sends back and what it announces (`actions`,
`negotiation`); a surface as readable text for the command line (`text`), and answering one from it (`answer`).
The Textual widgets live in `switchboard.tui.widgets.a2ui`.
"""
