"""Push notifications, received: the local webhook an agent POSTs a task's updates to (receiver.py) on its own
bounded HTTP/1.1 server (server.py). It sits on the protocol (the model, the codecs, the redactor) beside the link;
the commands that follow a task by push (`send --push`, `task watch`) and the TUI use it. The push-config calls
themselves are A2A operations, in a2a/transports/push_configs.py.
"""
