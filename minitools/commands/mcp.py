"""`minitools mcp`: a Model Context Protocol server over stdio, one Run per process."""

from __future__ import annotations

import argparse
import asyncio
import sys

from minitools.commands._common import add_config, add_surface, fail_usage
from minitools.config import load_config

NAME = "mcp"
HELP = "serve the tools to an MCP client (Claude Code, Codex, Cursor, ...) over stdio"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--root", default=None,
                        help="the workspace root (default: the client's first MCP root, else the current directory)")
    add_config(parser)
    add_surface(parser, None, "which tools the client sees (plan and readonly: read-tier tools only)")
    parser.add_argument("--approve", choices=["host", "ask", "none"], default=None,
                        help="how write/exec calls are approved: by the host, which gates calls by their annotations "
                        "(default); by a permission card the client shows through elicitation (refused when the client "
                        "cannot elicit); or never")
    parser.add_argument("--vibe", metavar="ROSTER.toml", help="activate vibe mode with this worker roster")
    parser.add_argument("--structured", action="store_true", default=None,
                        help="also send output schemas and structured content (off by default: Claude Code and Codex "
                        "show the model the structured content instead of the text, losing eval output and images)")


def main(args: argparse.Namespace) -> int:
    from minitools.mcp import serve_mcp

    try:
        config = load_config(args.root or ".", args.config)
        front = config.front
        return asyncio.run(serve_mcp(args.root, surface=args.surface or front.get("surface", "full"),
                                     approve=args.approve or front.get("approve", "host"), vibe=args.vibe,
                                     structured=bool(args.structured or front.get("structured", False)), config=config,
                                     reread_config=args.root is None and args.config is None))
    except ValueError as exc:
        return fail_usage(str(exc))
    except BrokenPipeError:
        sys.stderr.close()
        return 0
