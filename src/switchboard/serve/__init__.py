"""`switchboard serve`: workflows as A2A agents, on the official a2a-sdk server classes.

`card` builds a workflow's agent card, `inputs` reads a caller's message as the workflow's inputs,
`translate` turns a run's events into the served task's, `served_run` hosts one run behind its task (turns,
questions, cancel), `snapshot` rebuilds a served task from its journal, `agent` is one workflow as an agent
(the SDK's request handler around an executor that starts and continues runs), `guard` checks the API key and
request sizes, `server` serves them all on one port. Only the command line imports this package.
"""
