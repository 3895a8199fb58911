"""How deep a YAML text nests its block collections, measured before the grammar's parser
sees it.

The YAML grammar's scanner keeps a stack of the block collections open around it and copies
it into tree-sitter's 1,024-byte state buffer after every token, 4 bytes an entry past a
10-byte header, without bounding the copy: an entry past the 253rd writes beyond the buffer,
and the process dies (signal 11) inside `Parser.parse`, where no Python code can catch it
(docs/tools.md, "Limits"). So the nesting is measured here, from the text, as an upper bound
on that stack: a line's indentation closes the collections opened further right, and every
indicator that can open one (`-`, `?` or `:` before a blank, a block scalar's `|` or `>`)
opens one where it stands. Quoted text, flow collections and comments open none. The bound
is loose only for text that is no YAML a person writes (hundreds of indicators on a line).
"""

from __future__ import annotations

import re

__all__ = ["YAML_MAX_NESTING", "walk_lines", "yaml_nesting"]

# The scanner's stack holds at most 253 entries safely; a little room is kept below that.
YAML_MAX_NESTING = 250

_BREAK = re.compile(rb"\r\n|\r|\n")
# what the scanner reads as a blank after an indicator: space, tab, a line break, NUL, the end
_OPENER = rb"(?:[-?:]|[|>][-+1-9]{0,2})(?=[ \t\r\n\0]|\Z)"
_OPENERS = re.compile(_OPENER)
# on one line: the openers, and what hides them (a quoted scalar or a flow collection, each where a
# node starts, not inside a plain scalar such as `a{`; a comment)
_TOKEN = re.compile(
    _OPENER + rb"""|(?:(?<=[ \t\[{,])|^)(?:"(?:[^"\\]|\\.)*"?|'(?:[^']|'')*'?)|(?:(?<=[ \t\[{,])|^)[\[{]|[\]}]|(?:(?<=[ \t])|^)\#""")
_INDENT = re.compile(rb"[ \t]*")
_INDENTS = re.compile(rb"[\r\n]([ \t]+)")
# the indicators that open a collection, each at most once at one column: `-`, `?`, `:`, `|`, `>`
_KINDS = 5


def yaml_nesting(source: bytes, limit: int = YAML_MAX_NESTING) -> int:
    """An upper bound on the block collections `source` holds open at once, counted until
    it passes `limit`: the measure the YAML parser is safe under (at most `limit`)."""
    # the lines' walk below holds at most one collection of each kind at each column up to a
    # line's indentation, and one for each opener on the line (two characters each at least):
    # a bound found in a few passes in C, enough for the YAML people write
    first = _INDENT.match(source)
    indent = max(max(map(len, _INDENTS.findall(source)), default=0), first.end() if first else 0)
    widest = max(map(len, source.replace(b"\r", b"\n").split(b"\n")))
    quick = _KINDS * (indent + 1) + (widest + 1) // 2
    if quick <= limit:
        return quick
    openers = len(_OPENERS.findall(source))
    if openers <= limit:  # a collection opens only at an opener
        return openers
    return walk_lines(source, limit)


def walk_lines(source: bytes, limit: int) -> int:
    """The bound by the lines' walk (the module's docstring), counted until it passes `limit`."""
    open_: dict[tuple[int, bytes], None] = {}  # (column, indicator) -> an open collection, in order
    deepest = 0
    for line in _BREAK.split(source):
        indent_match = _INDENT.match(line)
        column = indent_match.end() if indent_match else 0
        if column == len(line):
            continue  # a blank line closes nothing
        for key in [k for k in open_ if k[0] > column]:
            del open_[key]
        segment = column  # where the node after the last indicator starts
        flow = 0
        for token in _TOKEN.finditer(line, column):
            text = token.group()
            if text == b"#":
                break
            if text in (b"[", b"{"):
                flow += 1
            elif text in (b"]", b"}"):
                flow = max(0, flow - 1)
            elif flow or text[:1] in (b'"', b"'"):
                continue
            elif text == b":":
                open_[(segment, b":")] = None  # the mapping this key belongs to
                segment = token.end() + 1
            else:
                open_[(token.start(), text[:1])] = None
                segment = token.end() + 1
        deepest = max(deepest, len(open_))
        if deepest > limit:
            break
    return deepest
