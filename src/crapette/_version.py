"""The package version and the behaviour version."""

__version__ = "0.1.0"

BEHAVIOUR_VERSION = 2
"""Bumped whenever the rules engine's behaviour changes (legal moves, their order, the deal
from a seed, scoring). Stored in game records and regression files: a record made under
another behaviour version may not replay identically."""
