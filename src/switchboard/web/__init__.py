"""`switchboard web`: the TUI in a browser through textual-serve, which runs a copy of `switchboard` per browser
tab and relays its screen over a websocket. textual-serve itself has no authentication and lets any page open
its websocket; server.py adds a secret link, an Origin check, a session cap, and serves every asset locally.
session.py is the session's side: it tells a browser why a session could not start.
"""
