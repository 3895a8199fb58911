"""`minitools` — the command line: a thin front over the Python API.

Exit codes: 0 success, 1 a tool error (or no match, for ast-grep), 2 usage.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from minitools.commands import COMMANDS

__all__ = ["main"]


def _parser() -> tuple[argparse.ArgumentParser, dict[str, object]]:
    parser = argparse.ArgumentParser(
        prog="minitools",
        description="Server-bound agent tools: language servers, structural search and rewrite, "
        "debuggers, persistent kernels, questions and background workers.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    modules: dict[str, object] = {}
    for name in COMMANDS:
        module = importlib.import_module(f"minitools.commands.{name.replace('-', '_')}")
        child = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.configure(child)
        modules[module.NAME] = module
    return parser, modules


def main(argv: Sequence[str] | None = None) -> int:
    parser, modules = _parser()
    args, extra = parser.parse_known_args(argv)
    if not args.command:
        parser.print_help(sys.stderr)
        return 2
    module = modules[args.command]
    if getattr(module, "INTERMIXED", False):
        # options may come between positionals (`ast-grep P --rewrite T file.py`), which
        # argparse only allows on a parser without subcommands
        argv = list(sys.argv[1:] if argv is None else argv)
        standalone = argparse.ArgumentParser(prog=f"minitools {args.command}", description=module.HELP)  # type: ignore[attr-defined]
        module.configure(standalone)  # type: ignore[attr-defined]
        args = standalone.parse_intermixed_args(argv[argv.index(args.command) + 1 :])
        args.command = module.NAME  # type: ignore[attr-defined]
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        code: int = module.main(args)  # type: ignore[attr-defined]
    except KeyboardInterrupt:
        return 130
    return code


if __name__ == "__main__":
    sys.exit(main())
