"""`minitools call TOOL JSON`: one tool call, as a model would make it."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any

from minitools.commands._common import add_root, add_surface, fail_usage, print_result

NAME = "call"
HELP = "call one tool with JSON arguments (exit 0 ok, 1 tool error, 2 usage)"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("tool", help="the tool's name (see `minitools tools`)")
    parser.add_argument("arguments", nargs="?", default="{}", help="a JSON object of arguments (default {})")
    add_root(parser)
    add_surface(parser)
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--yes", action="store_true",
                        help="approve write and exec tools without asking (otherwise the terminal asks, "
                        "and with no terminal they are refused)")


def _terminal_port() -> Any:
    """The terminal question port when a person is at a terminal, else None."""
    try:
        from minitools.ask import TerminalPort
    except ImportError:
        return None
    port = TerminalPort()
    return port if port.is_attached() else None


def main(args: argparse.Namespace) -> int:
    from minitools.run import Run

    try:
        arguments = json.loads(args.arguments)
    except json.JSONDecodeError as exc:
        return fail_usage(f"arguments {args.arguments!r} are not JSON ({exc.msg}); pass an object like '{{\"pattern\": \"print($A)\"}}'")
    if not isinstance(arguments, dict):
        return fail_usage(f"arguments {args.arguments!r} must be a JSON object, not {type(arguments).__name__}")
    approve = (lambda spec, a: True) if args.yes else None
    try:
        run = Run(args.root, approve=approve, questions=None if args.yes else _terminal_port())
    except ValueError as exc:
        return fail_usage(str(exc))

    async def go() -> int:
        async with run:
            if run.registry.get(args.tool) is None:
                known = ", ".join(run.registry.names()) or "none"
                print(f"minitools: unknown tool {args.tool!r}; known tools: {known}", file=sys.stderr)
                return 2
            result = await run.call(args.tool, arguments, surface=args.surface)
        print_result(result, as_json=args.json)
        return 0 if result.ok else 1

    return asyncio.run(go())
