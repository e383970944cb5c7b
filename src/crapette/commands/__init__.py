"""Subcommands of the ``crapette`` command line.

Each module defines ``add_parser(subparsers)``, which adds its parser and sets
``run=<function(args) -> int>`` as a default, so ``crapette.cli`` stays a thin dispatcher.
"""
