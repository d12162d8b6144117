"""The public Python API: `from switchboard import Agent, Workflow`. See docs/python-api.md."""
