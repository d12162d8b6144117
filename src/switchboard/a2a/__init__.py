"""The A2A protocol core: model, wire codecs, discovery, transports (one interface: JSON-RPC, HTTP+JSON, the REST
task API), the follower, turn reducer. Never imports textual."""
