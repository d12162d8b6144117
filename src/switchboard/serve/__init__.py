"""`switchboard serve`: workflows as A2A agents, on the official a2a-sdk server classes.

`card` builds a workflow's agent card, `inputs` reads a caller's message as the workflow's inputs,
`translate` turns a run's events into the served task's, `served_run` hosts one run behind its task (turns,
questions, cancel), `snapshot` rebuilds a served task from its journal, `agent` is one workflow as an agent
(the SDK's request handler around an executor that starts and continues runs), `guard` checks the API key,
the body's size and time, then the request's shape (`request_check`: `json_body`, `proto_check`, `v03_check`,
`send_check`, `content_bounds`; refused the spec's way by `refusal`; the limits in `bounds`), `answer_net`
takes the SDK's internal errors' text off its answers, `slow_clients` bounds connections, `server` serves them
all on one port. Only the command line imports this package.
"""
