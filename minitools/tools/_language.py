"""The `language` argument of the structural tools (ast_grep, ast_edit, a rule's): taken as
callers write it, "TypeScript", "ts", "C++" or "golang" as well as the pack's id."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from minitools.match import language_named

__all__ = ["language_arg"]


def language_arg(args: Mapping[str, Any]) -> str | None:
    """The `language` argument as the pack's id, or None when not given."""
    given = args.get("language")
    return language_named(given) if isinstance(given, str) and given.strip() else None
