"""`minitools` — the command line: a thin front over the Python API.

Exit codes: 0 success, 1 a tool error (or no match, for ast-grep), 2 usage. A reader that
closes the pipe early (`minitools … | head -1`) ends the command quietly with 0, as ripgrep and
ast-grep do.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from minitools.commands import COMMANDS, Formatter, leave, run_command, standalone_parser

__all__ = ["main"]


def _parser(only: str | None = None) -> tuple[argparse.ArgumentParser, dict[str, object]]:
    """The parser; with `only`, just that subcommand's module is imported (fast start-up:
    `minitools ast-grep` should not pay for asyncio and the run machinery)."""
    parser = argparse.ArgumentParser(
        formatter_class=Formatter,
        prog="minitools",
        description="Server-bound agent tools: language servers, structural search and rewrite, "
        "debuggers, persistent kernels, questions and background workers.",
    )
    from minitools import __version__

    parser.add_argument("--version", "-V", action="version", version=f"minitools {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    modules: dict[str, object] = {}
    for name in COMMANDS if only is None else [only]:
        module = importlib.import_module(f"minitools.commands.{name.replace('-', '_')}")
        child = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP, formatter_class=Formatter)
        module.configure(child)
        modules[module.NAME] = module
    return parser, modules


def main(argv: Sequence[str] | None = None) -> int:
    if argv is None:
        code = main(sys.argv[1:])
        if sys.argv[1:2] == ["ast-grep"]:
            # a process that only searched: leave without the interpreter's teardown (a few
            # ms of a cold start), as the search's forked children do; output flushed first
            leave(code)
        return code
    argv = list(argv)
    if len(argv) > 1 and argv[0] == "ast-grep" and argv[1] == "run":
        argv = ["ast-grep", *argv[2:]]  # ast-grep's name for the pattern search, the default
    if len(argv) > 1 and argv[0] == "ast-grep" and argv[1] in ("scan", "test"):
        # ast-grep's own subcommands: rule files, and their tests
        argv = [f"ast-grep-{argv[1]}", *argv[2:]]
        module = importlib.import_module(f"minitools.commands.{argv[0].replace('-', '_')}")
        return run_command(module.main, standalone_parser(module).parse_intermixed_args(argv[1:]))
    if argv and argv[0] in COMMANDS:
        module = importlib.import_module(f"minitools.commands.{argv[0].replace('-', '_')}")
        if getattr(module, "INTERMIXED", False):
            # options may come between positionals (`ast-grep P --rewrite T file.py`), which
            # argparse only allows on a parser without subcommands
            return run_command(module.main, standalone_parser(module).parse_intermixed_args(argv[1:]))
    parser, modules = _parser(argv[0] if argv and argv[0] in COMMANDS else None)
    args, extra = parser.parse_known_args(argv)
    if not args.command:
        parser.print_help(sys.stderr)
        return 2
    if extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    return run_command(modules[args.command].main, args)  # type: ignore[attr-defined]


if __name__ == "__main__":
    sys.exit(main())
