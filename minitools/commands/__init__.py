"""CLI subcommands: one module each, with ``NAME``, ``HELP``, ``configure(parser)`` and
``main(args) -> exit code``. `COMMANDS` is the order `minitools --help` lists them in."""

from __future__ import annotations

COMMANDS: tuple[str, ...] = ("tour", "tools", "call", "serve", "mcp", "ast-grep", "grammars")
