"""The A2A protocol core: model, wire codecs, discovery, client, turn reducer. Never imports textual."""
