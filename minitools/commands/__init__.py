"""CLI subcommands: one module each, with ``NAME``, ``HELP``, ``configure(parser)`` and
``main(args) -> exit code``. `COMMANDS` is the order `minitools --help` lists them in; how one
runs (its parser, its exit code) is `_entry.py`'s."""

from __future__ import annotations

from minitools.commands._entry import Formatter, leave, run_command, standalone_parser

__all__ = ["COMMANDS", "Formatter", "leave", "run_command", "standalone_parser"]

COMMANDS: tuple[str, ...] = ("tour", "tools", "call", "serve", "mcp", "ast-grep", "grammars")
