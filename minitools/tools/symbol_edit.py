"""symbol_edit — replace a symbol's whole definition, or put code before or after it, addressed
as `lsp` addresses a symbol (file, line, symbol; never a column), staged for `resolve` like
ast_edit's proposals (docs/tools.md, "symbol_edit"). Write tier.

The extent is the language server's (its document symbol's range, `RunContext.symbols`), else
the parser's (tools/_extent.py). Nothing is written here: the edit is staged with the file's
bytes as read, so `resolve` writes it only while the file is unchanged, and reports the
diagnostics it introduced.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from minitools.edits import StagedFile, read_regular_file
from minitools.match import has_grammar, language_for_path, not_unicode, parse_errors
from minitools.schema import parameters_schema
from minitools.tools._context import RunContext
from minitools.tools._extent import NotADefinition, SymbolExtent, parser_extent
from minitools.tools._search_args import shared_searcher
from minitools.tools._staged import stage_proposal
from minitools.tools._symbol_address import address_properties, resolve_symbol
from minitools.toolspec import Tier, Tool, ToolError, ToolResult, ToolSpec

__all__ = ["build", "SYMBOL_EDIT_SPEC"]

ACTIONS = ("replace", "insert_before", "insert_after")
_MAX_GAP = 2  # blank lines put between inserted code and the symbol, at most

SYMBOL_EDIT_SPEC = ToolSpec(
    name="symbol_edit",
    tier=Tier.WRITE,
    description=(
        "Edit code by symbol: replace a symbol's whole definition (a function, method, class, ...) with `code`, "
        "or insert `code` before or after it. The symbol is addressed as lsp addresses it: the file, the 1-based "
        "line where it is defined and text of that line naming it. Its extent comes from the language server "
        "(else the parser). Write `code` at any indentation: it is re-indented to the symbol's. Nothing is "
        "written: the edit is staged and the result shows a diff and an edit_id; call resolve to accept it (only "
        "if the file is unchanged since) or discard it. Code that does not parse there is refused."
    ),
    parameters=parameters_schema({
        **address_properties("File the symbol is defined in, relative to the workspace root.",
                             "1-based line where the symbol is defined (its name).",
                             "Text of that line naming the symbol (as for lsp: "
                             "its identifier, or more of the line when it occurs several times)."),
        "action": {"type": "string", "enum": list(ACTIONS), "description": "replace the whole definition "
                   "(decorators and signature included) with `code`; insert_before or insert_after it."},
        "code": {"type": "string", "minLength": 1, "description": "The new definition (replace) or the code to insert."},
    }, required=["file", "line", "symbol", "action", "code"]),
)


def build(ctx: RunContext) -> list[Tool]:
    if shared_searcher(ctx) is None:  # the parser is the resource (the server's extents are optional)
        return []
    return [Tool(SYMBOL_EDIT_SPEC, SymbolEditFamily(ctx).symbol_edit)]


class SymbolEditFamily:
    """`symbol_edit` stages an edit of one symbol in the Run's edit store."""

    def __init__(self, ctx: RunContext) -> None:
        self.ctx = ctx

    async def symbol_edit(self, args: Mapping[str, Any]) -> ToolResult:
        ctx = self.ctx
        file, line, symbol, action = args["file"], args["line"], args["symbol"], args["action"]
        why = not_unicode(args["code"])
        if why:
            raise ToolError(f"code {why}, so no file could hold it; write the character itself, or, inside a string "
                            "literal, its escape (\\ud800). Nothing was staged.")
        path = ctx.source_file(file, "symbol_edit")
        rel = ctx.relpath(path)
        self._check_size(path, file)
        source = read_regular_file(path)
        if source is None:
            raise ToolError(f'file "{file}" cannot be read as a regular file; nothing was staged.')
        try:
            text = source.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ToolError(f'file "{file}" is not UTF-8 text (byte {exc.start}); symbol_edit edits source text.') from None
        lines = text.split("\n")
        count = len(lines) - 1 if text.endswith("\n") else len(lines)
        if line > count:
            raise ToolError(f"line {line} is past the end of {rel}, which has {count} lines; nothing was staged.")
        body = lines[line - 1].rstrip("\r")
        language = language_for_path(path)
        at = resolve_symbol(body, symbol, language, rel, line)
        extent = await self._extent(path, text, line, at.column, symbol, rel, body)
        new, span = _edited(lines, extent, action, args["code"])
        new_text = "\n".join(new)
        if language is not None and has_grammar(language):
            _check_parses(text, new_text, language, rel)
        staged = StagedFile(path, rel, source, new_text.encode("utf-8"), 1)
        where = f"{rel}:{extent.start[0] + 1}-{extent.end[0] + 1}"
        verb = {"replace": "replaces", "insert_before": "inserts before", "insert_after": "inserts after"}[action]
        note = (f'{verb} {extent.kind} "{extent.name}" ({where}, its extent by {extent.by}); '
                f"the new code is at lines {span[0]}-{span[1]}.")
        if at.note(line):
            note += " " + at.note(line)
        return stage_proposal(ctx.edits, [staged], [note], {
            "file": rel, "action": action, "symbol": extent.name, "kind": extent.kind, "by": extent.by,
            "extent": {"start_line": extent.start[0] + 1, "end_line": extent.end[0] + 1},
            "new_lines": {"start_line": span[0], "end_line": span[1]},
        })

    def _check_size(self, path: Path, file: str) -> None:
        """ToolError for a file larger than the searcher reads: it would be split into lines and
        parsed twice in memory (a 200 MB file took 7 GB and more)."""
        searcher = shared_searcher(self.ctx)
        limit = getattr(searcher, "max_file_bytes", None)
        try:
            size = path.stat().st_size
        except OSError:
            return  # read_regular_file says why
        if isinstance(limit, int) and size > limit:
            raise ToolError(f'file "{file}" is {size:,} bytes, over the {limit:,} a search reads (search.max_file_size_kb); symbol_edit edits '
                            "source files of that size at most. Edit this one another way, or raise the limit. "
                            "Nothing was staged.")

    async def _extent(self, path: Path, text: str, line: int, column: int, symbol: str, rel: str, body: str) -> SymbolExtent:
        """The server's extent of the symbol, else the parser's; refused when none is defined there."""
        try:
            found = await self.ctx.symbols.extent(path, text, line - 1, column)
            if found is None:
                found = parser_extent(path, text, line - 1, column)
        except NotADefinition:
            raise ToolError(f'"{symbol}" on line {line} of {rel} names no definition there (it is used there, or is no '
                            f"symbol); symbol_edit edits a symbol where it is defined. lsp definition with this line and "
                            f"symbol leads to that place. The line is:\n{line}: {body}") from None
        except LookupError as exc:
            raise ToolError(f"no language server answers for {rel} and {exc}; symbol_edit cannot find the symbol's "
                            "extent. Use ast_edit or the host's own edit.") from None
        return found


def _edited(lines: list[str], extent: SymbolExtent, action: str, code: str) -> tuple[list[str], tuple[int, int]]:
    """The file's lines after the edit, and the 1-based lines the new code takes."""
    (first, start_col), (last, end_col) = extent.start, extent.end
    eol = "\r" if lines[0].endswith("\r") else ""  # a CRLF file stays CRLF (lines are split at LF)
    head = lines[first]
    indent = head[: len(head) - len(head.lstrip())]
    block = _shaped(code, indent)
    if action == "replace":
        prefix = head[:start_col]
        if prefix.strip():  # the symbol starts after other code on its line: the code follows it
            block[0] = prefix + block[0].lstrip()
        tail = lines[last][min(end_col, len(lines[last].rstrip("\r"))):]  # a comment's extent may take the CR
        block[-1] += tail
        new = lines[:first] + [b + eol for b in block[:-1]] + [block[-1]] + lines[last + 1:]
        return new, (first + 1, first + len(block))
    gap = [eol] * _gap(lines, first, last, indent)
    block = [b + eol for b in block]
    if action == "insert_before":
        top = _above_comments(lines, first)
        return lines[:top] + block + gap + lines[top:], (top + 1, top + len(block))
    rest = lines[last + 1:] or [""]  # a file without a line break at its end gets one
    return lines[: last + 1] + gap + block + rest, (last + 2 + len(gap), last + 1 + len(gap) + len(block))


def _shaped(code: str, indent: str) -> list[str]:
    """`code`'s lines, dedented, without blank lines around, each non-blank one indented by `indent`."""
    rows = textwrap.dedent(code.replace("\r\n", "\n")).split("\n")
    while rows and not rows[0].strip():
        rows.pop(0)
    while rows and not rows[-1].strip():
        rows.pop()
    return [indent + r if r.strip() else "" for r in rows] or [""]


def _gap(lines: list[str], first: int, last: int, indent: str) -> int:
    """Blank lines to put between inserted code and the symbol: as many as separate the symbol
    from the code above it, or else below it, at its indentation or deeper (a sibling, not the
    line that opens or closes the block it is in), else one."""
    for step, edge in ((-1, first), (1, last)):
        i, blank = edge + step, 0
        while 0 <= i < len(lines) and not lines[i].strip():
            i, blank = i + step, blank + 1
        if 0 <= i < len(lines) and len(lines[i]) - len(lines[i].lstrip()) >= len(indent) and blank:
            return min(blank, _MAX_GAP)
    return 1


_COMMENT_STARTS = ("#", "//", "/*", "*", "--", ";")


def _above_comments(lines: list[str], first: int) -> int:
    """The first line of the comment block right above line `first` (no blank line between), else `first`."""
    top = first
    while top > 0 and lines[top - 1].strip().startswith(_COMMENT_STARTS):
        top -= 1
    return top


def _check_parses(before: str, after: str, language: str, rel: str) -> None:
    """Refuse an edit after which the file has parse errors it did not have, naming the first."""
    old = parse_errors(before.encode("utf-8"), language)
    new = parse_errors(after.encode("utf-8"), language)
    if len(new) <= len(old):
        return
    line, column = next((e for e in new if e not in set(old)), new[0])
    shown = after.split("\n")[line - 1].rstrip("\r") if line - 1 < len(after.split("\n")) else ""
    raise ToolError(f"the code does not parse as {language} there: {rel} would have a syntax error at line {line}, "
                    f"column {column}:\n{line}: {shown}\nNothing was staged. Check the code (brackets, indentation; "
                    "replace takes the whole definition, signature included).")
