"""`switchboard conformance`'s logic: probe an agent with the scenarios a client relies on, over every binding and
version its card offers, and report per scenario (probe.py). A command's logic on top of the client (a2a/), not
part of the protocol; the command line renders its Report (cli/conformance.py).
"""
