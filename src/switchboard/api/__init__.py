"""The public Python API: `from switchboard import Agent, Workflow`. See the README's "From Python"."""
