"""How a subcommand runs: its parser on its own (`python -m minitools.commands.NAME` and the
subcommands that take options between positionals), its exit code (^C and a closed pipe), and
a quick exit. `minitools.cli` and each subcommand's `__main__` use them."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import Any

__all__ = ["Formatter", "standalone_parser", "run_command", "leave"]


class Formatter(argparse.HelpFormatter):
    """argparse's help formatter, the terminal's width found as `shutil.get_terminal_size`
    finds it, without importing shutil: argparse makes a formatter for every option it adds,
    and that import is a few ms of every command's start."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None) -> None:
        if width is None:
            width = _columns() - 2
        super().__init__(prog, indent_increment, max_help_position, width)


def _columns() -> int:
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns if columns > 0 else 80


def standalone_parser(module: Any) -> argparse.ArgumentParser:
    """One subcommand's parser on its own (`python -m minitools.commands.NAME` uses it too)."""
    parser = argparse.ArgumentParser(prog=f"minitools {module.NAME}", usage=getattr(module, "USAGE", None),
                                     description=module.HELP, formatter_class=Formatter)
    module.configure(parser)
    return parser


def run_command(command: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    """A subcommand's exit code; 130 on ^C, and 0, quietly, when stdout's reader went away."""
    try:
        code = command(args)
        sys.stdout.flush()  # a closed pipe shows here, not at exit
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        _quiet_stdout()
        return 0
    return code


def leave(code: int) -> None:
    """Exit now with `code`, output flushed, skipping the interpreter's teardown."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:
        _quiet_stdout()
        code = 0
    os._exit(code)


def _quiet_stdout() -> None:
    """The reader went away: point stdout at /dev/null so the interpreter's own flush at exit
    does not report the broken pipe again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
