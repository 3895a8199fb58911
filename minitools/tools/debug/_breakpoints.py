"""Breakpoints as the model gives them, kept on their code (docs/tools.md, "debug"): a line, a line
with a `symbol` on it (checked as `lsp` checks a position, tools/_symbol_address.py), or a function by
name (tools/debug/_functions.py finds its first line).

Each entry remembers the text of its line, and the family the file as it read. After the run
writes a file (`resolve` accepting an edit, `lsp_rename`, a host's write told through `written`)
and before a launch, every entry in the file is looked for again through the diff from the file as
it read: it stays with its line when the line moved or was edited in place, else it goes to the
nearest line that reads as its line did (or, for a symbol's, the line that replaced it holding the
symbol), else it is dropped and said to be lost. A function's entry is found again by the parser.
"""

from __future__ import annotations

import difflib
import os
import stat
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from minitools.match import language_for_path
from minitools.tools._symbol_address import Ambiguous, resolve_symbol
from minitools.tools.debug._functions import FunctionSite, NoParser, find_functions, split_name
from minitools.toolspec import ToolError

__all__ = ["Entry", "entries_of", "follow", "read_lines", "source_specs", "function_specs", "entry_text"]

FILE_CAP = 8 << 20  # bytes of a file read to check or follow its breakpoints
LISTED = 5  # lines or functions named in a refusal
OPTIONS = {"condition": "condition", "hit_condition": "hitCondition", "log_message": "logMessage"}


@dataclass
class Entry:
    """One breakpoint of a file: where it is now and what keeps it there."""

    line: int  # 1-based; a function's: the first line of its body (0 when no parser reads the file)
    text: str = ""  # the line's text, stripped ("" for a blank line or one past the end: not followed)
    symbol: str | None = None
    function: str | None = None  # a {"function": name} entry
    options: dict[str, str] = field(default_factory=dict)  # DAP condition, hitCondition, logMessage
    sent: int | None = None  # the line the running program has it on, when it differs (set before an edit)


def read_lines(path: str) -> list[str]:
    """The lines of `path` as a debugger numbers them (split at newlines only), from its first
    FILE_CAP bytes; ToolError when it cannot be read or is no regular file (a FIFO is not
    waited on: it is opened without blocking)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise ToolError(f"{path} cannot be read ({exc.strerror or exc}); give a readable source file.") from None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ToolError(f"{path} is not a regular file; breakpoints go in a source file.")
        data = handle.read(FILE_CAP)
    return [line.rstrip("\r") for line in data.decode("utf-8", "replace").split("\n")]


def entries_of(items: Sequence[Any], path: str, rel: str, lines: list[str]) -> list[Entry]:
    """The `lines` items of a breakpoints call as entries; ToolError, with nothing set, for a
    symbol that is not on its line or a function the file does not define."""
    entries = []
    for item in items:
        if isinstance(item, int):
            entries.append(Entry(item, _text_at(lines, item)))
            continue
        options = {dap: item[key] for key, dap in OPTIONS.items() if item.get(key)}
        if item.get("function") is not None:
            if item.get("line") is not None or item.get("symbol") is not None:
                raise ToolError(f"a breakpoint names a line or a function, not both: {item!r}; nothing was set in {rel}. "
                                'Give {"function": "name"} alone, or {"line": N, "symbol": "text"}.')
            entries.append(_function_entry(str(item["function"]), path, rel, lines, options))
            continue
        if item.get("line") is None:
            raise ToolError(f"a breakpoint needs a line or a function: {item!r}; nothing was set in {rel}. "
                            'Give {"line": N, "symbol": "text on that line"} or {"function": "name"}.')
        line, symbol = int(item["line"]), item.get("symbol")
        if symbol is not None:
            _check_symbol(lines, line, str(symbol), path, rel)
        entries.append(Entry(line, _text_at(lines, line), symbol, None, options))
    return entries


def _text_at(lines: list[str], line: int) -> str:
    return lines[line - 1].strip() if 1 <= line <= len(lines) else ""


def _has_symbol(body: str, symbol: str, path: str, rel: str, line: int) -> bool:
    try:
        resolve_symbol(body, symbol, language_for_path(path), rel, line)
    except Ambiguous:
        return True  # several occurrences: the breakpoint is the line's all the same
    except ToolError:
        return False
    return True


def _check_symbol(lines: list[str], line: int, symbol: str, path: str, rel: str) -> None:
    if not 1 <= line <= len(lines):
        raise ToolError(f"line {line} is past the end of {rel} ({len(lines)} lines); nothing was set in {rel}. "
                        "Give a line of the file with text of that line as its symbol.")
    body = lines[line - 1]
    try:
        resolve_symbol(body, symbol, language_for_path(path), rel, line)
    except Ambiguous:
        return
    except ToolError as exc:
        near = sorted((i for i, text in enumerate(lines, 1) if symbol in text and i != line), key=lambda i: abs(i - line))
        where = (f' "{symbol}" is on line{"s" if len(near) > 1 else ""} {", ".join(map(str, near[:LISTED]))}.'
                 if near else f' "{symbol}" is nowhere in {rel}.')
        raise ToolError(f"{exc}{where} Nothing was set in {rel}.") from None


def _function_entry(name: str, path: str, rel: str, lines: list[str], options: dict[str, str]) -> Entry:
    if not split_name(name):
        raise ToolError(f"function {name!r} names no function; give its name as the code writes it (total, Cart.total).")
    try:
        sites = find_functions(path, "\n".join(lines).encode("utf-8"), name)
    except NoParser:
        return Entry(0, "", None, name, options)  # only the adapter can find it
    if not sites:
        defined = [s.name for s in find_functions(path, "\n".join(lines).encode("utf-8"))]
        shown = ", ".join(defined[:20]) + (f" and {len(defined) - 20} more" if len(defined) > 20 else "")
        raise ToolError(f"{rel} defines no function {name!r}; nothing was set in {rel}. "
                        + (f"Its functions: {shown}." if defined else "It defines no function the parser sees.")
                        + " Give one of them (a method as Class.method), or the file that defines it.")
    if len(sites) > 1:
        listed = "; ".join(f"{s.name} (line {s.line})" for s in sites[:LISTED])
        raise ToolError(f"{rel} defines {len(sites)} functions named {name!r}: {listed}; nothing was set. "
                        "Qualify the name (Class.method), or give a line and symbol.")
    site = sites[0]
    return Entry(site.first_line, _text_at(lines, site.first_line), None, site.name, options)


def source_specs(entries: Sequence[Entry], by_name: bool) -> list[dict[str, Any]]:
    """DAP SourceBreakpoints of a file's entries, one per line (the last entry for a line wins),
    in line order; a function's entry is one only when the adapter does not take it by name."""
    by_line: dict[int, dict[str, Any]] = {}
    for entry in entries:
        if entry.function is not None and (by_name or entry.line < 1):
            continue
        by_line[entry.line] = {"line": entry.line, **entry.options}
    return [by_line[line] for line in sorted(by_line)]


def function_specs(book: Mapping[str, Sequence[Entry]]) -> list[dict[str, Any]]:
    """DAP FunctionBreakpoints of every function entry (the adapter's name: the last part,
    as the program's frames name it)."""
    specs = {}
    for entries in book.values():
        for entry in entries:
            if entry.function is not None:
                name = split_name(entry.function)[-1]
                specs[name] = {"name": name, **{k: v for k, v in entry.options.items() if k != "logMessage"}}
    return list(specs.values())


def entry_text(entry: Entry, rel: str) -> str:
    """`prog.py:7 (total)  | acc += x`, `function total (prog.py)`."""
    extra = "".join(f" {word} {entry.options[key]!r}" for key, word in
                    (("condition", "if"), ("hitCondition", "on hit"), ("logMessage", "logs")) if entry.options.get(key))
    if entry.function is not None:
        return f"function {entry.function} ({rel}{f':{entry.line}' if entry.line else ''}){extra}"
    symbol = f" ({entry.symbol})" if entry.symbol else ""
    return f"{rel}:{entry.line}{symbol}{extra}" + (f"  | {entry.text}" if entry.text else "")


def follow(entries: list[Entry], path: str, rel: str, before: list[str] | None, lines: list[str], live: bool) -> list[str]:
    """Look for each entry of `path` again in its `lines` (the file as it was when last read:
    `before`, None when unknown): moved entries take their new line, lost ones are removed; what
    happened, one note each ([] when nothing moved)."""
    notes = []
    for entry in list(entries):
        old, symbol = entry.line, entry.symbol
        if entry.function is not None:
            found = _find_function_again(entry, path, lines)
            if found is None:
                entries.remove(entry)
                notes.append(f"breakpoint on function {entry.function} in {rel} is lost: the file no longer defines "
                             "it; set it again.")
                continue
            entry.line, entry.text = found.first_line, _text_at(lines, found.first_line)
        elif entry.text:
            moved = _find_text_again(entry, path, rel, before, lines)
            if moved is None:
                entries.remove(entry)
                notes.append(f"breakpoint {rel}:{entry.line} is lost: no line reads {entry.text!r}"
                             + (f" with {entry.symbol!r}" if entry.symbol else "") + " any more; it was removed. Set it again.")
                continue
            entry.line = moved
        if entry.line != old:
            if live and entry.sent is None:
                entry.sent = old
            notes.append(f"breakpoint {entry_text(entry, rel)} moved from line {old} with its code")
        if symbol is not None and entry.symbol is None:
            notes.append(f"breakpoint {entry_text(entry, rel)} stays on its line, edited in place; its symbol "
                         f"{symbol!r} is no longer on it, so it follows the line's text from now on")
    return notes


def _find_text_again(entry: Entry, path: str, rel: str, before: list[str] | None, lines: list[str]) -> int | None:
    """The entry's line now: where the diff from `before` takes it when it reads the same or was
    edited in place (a run of lines replaced by as many), else the nearest line that reads as it
    did, else its expected line when that holds the entry's symbol; None when it is lost."""
    expected, in_place, run = _mapped(before, lines, entry.line) if before is not None else (entry.line, False, range(0))
    current = lines[expected - 1] if 1 <= expected <= len(lines) else None
    if current is not None and (current.strip() == entry.text or (in_place and current.strip())):
        entry.text = current.strip()
        if entry.symbol and not _has_symbol(current, entry.symbol, path, rel, expected):
            entry.symbol = None  # renamed away: the line is still its line (follow says so)
        return expected
    same = [i for i, text in enumerate(lines, 1) if text.strip() == entry.text
            and (not entry.symbol or _has_symbol(text, entry.symbol, path, rel, i))]
    if same:  # the nearest; at equal distance the later one
        return min(same, key=lambda i: (abs(i - expected), -i))
    # its line was edited: the line now holding its symbol, where it was or in what replaced it
    held = [i for i in sorted({expected, *run}, key=lambda i: abs(i - expected)) if 1 <= i <= len(lines)
            and entry.symbol and _has_symbol(lines[i - 1], entry.symbol, path, rel, i)]
    if held:
        entry.text = lines[held[0] - 1].strip()
        return held[0]
    return None


DIFF_LINES = 20_000  # lines of a file diffed to follow its breakpoints (longer: the nearest same text)


def _mapped(before: list[str], after: list[str], line: int) -> tuple[int, bool, range]:
    """Where line `line` of `before` is in `after`, through the diff of the two; whether it was
    edited in place there (its run of lines replaced by as many: a rename, a changed argument);
    and the lines that replaced its run. A line of a replaced run maps to the same offset in
    what replaced it."""
    if max(len(before), len(after)) > DIFF_LINES:
        return line, False, range(0)
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes():
        if i1 <= line - 1 < i2:
            if tag == "equal":
                return j1 + (line - 1 - i1) + 1, False, range(0)
            return (j1 + min(line - 1 - i1, max(j2 - j1 - 1, 0)) + 1, tag == "replace" and i2 - i1 == j2 - j1,
                    range(j1 + 1, j2 + 1))
    return line, False, range(0)


def _find_function_again(entry: Entry, path: str, lines: list[str]) -> FunctionSite | None:
    try:
        sites = find_functions(path, "\n".join(lines).encode("utf-8"), entry.function)
    except NoParser:
        return FunctionSite(entry.function or "", entry.line, entry.line)
    return min(sites, key=lambda s: abs(s.first_line - entry.line)) if sites else None
