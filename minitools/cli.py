"""`minitools` — the command line: a thin front over the Python API.

Exit codes: 0 success, 1 a tool error (or no match, for ast-grep), 2 usage. A reader that
closes the pipe early (`minitools … | head -1`) ends the command quietly with 0, as ripgrep and
ast-grep do.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from minitools.commands import COMMANDS

__all__ = ["main"]


def _parser(only: str | None = None) -> tuple[argparse.ArgumentParser, dict[str, object]]:
    """The parser; with `only`, just that subcommand's module is imported (fast start-up:
    `minitools ast-grep` should not pay for asyncio and the run machinery)."""
    parser = argparse.ArgumentParser(
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
        child = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.configure(child)
        modules[module.NAME] = module
    return parser, modules


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser, modules = _parser(argv[0] if argv and argv[0] in COMMANDS else None)
    args, extra = parser.parse_known_args(argv)
    if not args.command:
        parser.print_help(sys.stderr)
        return 2
    module = modules[args.command]
    if getattr(module, "INTERMIXED", False):
        # options may come between positionals (`ast-grep P --rewrite T file.py`), which
        # argparse only allows on a parser without subcommands
        standalone = argparse.ArgumentParser(prog=f"minitools {args.command}", description=module.HELP)  # type: ignore[attr-defined]
        module.configure(standalone)  # type: ignore[attr-defined]
        args = standalone.parse_intermixed_args(argv[argv.index(args.command) + 1 :])
        args.command = module.NAME  # type: ignore[attr-defined]
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        code: int = module.main(args)  # type: ignore[attr-defined]
        sys.stdout.flush()  # a closed pipe shows here, not at exit
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        _quiet_stdout()
        return 0
    return code


def _quiet_stdout() -> None:
    """The reader went away: point stdout at /dev/null so the interpreter's own flush at exit
    does not report the broken pipe again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


if __name__ == "__main__":
    sys.exit(main())
