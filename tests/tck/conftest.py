"""tests/tck: the official TCK beside `switchboard conformance`. The TCK itself (vendor/) is run by tck_runner.py in
a pytest of its own; ours never collects it."""

collect_ignore = ["vendor"]
