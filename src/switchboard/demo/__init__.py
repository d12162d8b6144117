"""The demo agent fleet: real A2A servers on the official a2a-sdk, served on loopback in one process.

Each agent shows one part of the protocol (see docs/demo-agents.md):

  echo         a direct Message reply, no task
  writer       working updates and a long markdown artifact streamed in many chunks
  interviewer  two input-required turns, then a summary artifact with a data part
  researcher   a long task with progress; cancel, resubscribe, file parts (inline bytes and by URL)
  gatekeeper   an API key on every call, then auth-required for a one-time passcode mid-task
  flaky        failed, rejected, or an executor crash mid-stream, as asked
  legacy       a v0.3-only agent with a legacy-shaped card
  tasks        the simple REST task API (not A2A), with a task that needs input
  notary       a card signed with a key the demo agents file trusts (verified)
  sso          behind OAuth at the demo identity provider (identity.py), signed in with a device code
  booking      an A2UI form (v0.9.1 or v0.8) at input-required, a confirmation card, a booked card

`switchboard.demo.fleet` runs them (`DemoFleet`, `start_in_background`). Importing this package is cheap;
the servers' dependencies load with `fleet`.
"""
