"""The A2A protocol, as a client speaks it. Never imports textual.

The protocol itself, bottom up: model.py (the normalized Task, Message, events, card), wire/ (v0.3 and v1.0 JSON
<-> the model), http.py and tap.py (requests with retries, every exchange recorded, redacted), cards.py
(discovery), transports/ (one interface: JSON-RPC, HTTP+JSON, gRPC, the REST task API of tasks_api.py), turn.py
(events folded into a TaskView), follow.py (a turn to its end, reconciling) and client.py (a card to a transport).
Beside it: auth/ (credentials, oauth/, trust/), redact.py (one redactor for everything that writes), origin.py,
call_context.py (what belongs to one call), and the checks on what a person types (user_input.py).
"""
