"""a2a-switchboard: a terminal switchboard for A2A agents."""

__version__ = "0.1.0"
