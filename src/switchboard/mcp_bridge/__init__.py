"""The MCP bridge (`switchboard mcp`): every agent of the agents file and every workflow as a tool for MCP hosts.

An agent's status updates become progress notifications, its artifacts the tool's result; its questions go to the
host's user by elicitation where the host can ask, else back to the host with the tool that answers them; no call
is held open past a bound. Credentials stay in this process: the host sees none. Built on the official `mcp` SDK
(the `mcp` extra), imported only by `switchboard mcp`.
"""
