"""Pieces the CLI subcommands share."""

from __future__ import annotations

import argparse
import json
import re
import sys
from typing import TYPE_CHECKING

from minitools.toolspec import ToolResult

if TYPE_CHECKING:
    from minitools.config import Config
    from minitools.match import Regex

__all__ = ["add_config", "add_root", "add_surface", "print_result", "fail_usage", "id_filter", "read_config"]


def add_root(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--root", default=".", help="the workspace root (default: the current directory)")


def add_surface(parser: argparse.ArgumentParser, default: str | None = "full", help: str | None = None) -> None:
    from minitools.registry import Surface

    parser.add_argument("--surface", default=default, choices=[s.value for s in Surface],
                        help=help or "which tools are seen (plan and readonly: read-tier tools only)")


def add_config(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE", default=None,
                        help="the configuration file (default: minitools.toml at the root, else pyproject.toml's "
                        "[tool.minitools]); options given here win over it")


def read_config(args: argparse.Namespace) -> Config:
    """The configuration a front runs with; ConfigError (a ValueError) for a bad file."""
    from minitools.config import load_config

    return load_config(args.root, args.config)


def fail_usage(message: str) -> int:
    print(f"minitools: {message}", file=sys.stderr)
    return 2


def print_result(result: ToolResult, *, as_json: bool) -> None:
    if as_json:
        json.dump(result.to_json(), sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
        return
    print(result.text)
    for mime, blob in result.images:
        print(f"[image {mime}, {len(blob)} bytes]")


def id_filter(text: str | None) -> Regex | str | None:
    """`--filter REGEX` compiled (searched in linear time, as a rule's regex), None when not
    given, or the message saying why it is not a regular expression or is refused."""
    from minitools.match import Regex, python_regex

    if not text:
        return None
    try:
        compiled = re.compile(python_regex(text))
    except re.error as exc:
        return f"--filter {text!r} is not a regular expression: {exc}"
    try:
        return Regex(compiled)
    except re.error as exc:
        return f"--filter {text!r} is refused: {exc}"
