"""`minitools mcp`: a Model Context Protocol server over stdio, one Run per process."""

from __future__ import annotations

import argparse
import asyncio
import sys

from minitools.commands._common import add_root, fail_usage
from minitools.registry import Surface

NAME = "mcp"
HELP = "serve the tools to an MCP client (Claude Code, Codex, Cursor, ...) over stdio"


def configure(parser: argparse.ArgumentParser) -> None:
    add_root(parser)
    parser.add_argument("--surface", default="full", choices=[s.value for s in Surface],
                        help="which tools the client sees (plan and readonly: read-tier tools only)")
    parser.add_argument("--approve", choices=["host", "ask", "none"], default="host",
                        help="how write/exec calls are approved: by the host, which gates calls by their annotations "
                        "(default); by a permission card the client shows through elicitation (refused when the client "
                        "cannot elicit); or never")
    parser.add_argument("--vibe", metavar="ROSTER.toml", help="activate vibe mode with this worker roster")
    parser.add_argument("--structured", action="store_true",
                        help="also send output schemas and structured content (off by default: Claude Code and Codex "
                        "show the model the structured content instead of the text, losing eval output and images)")


def main(args: argparse.Namespace) -> int:
    from minitools.mcp import serve_mcp

    try:
        return asyncio.run(serve_mcp(args.root, surface=args.surface, approve=args.approve, vibe=args.vibe,
                                     structured=args.structured))
    except ValueError as exc:
        return fail_usage(str(exc))
    except BrokenPipeError:
        sys.stderr.close()
        return 0
