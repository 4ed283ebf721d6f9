"""Misbehaving bots used by the tests (each is run as its own process)."""
