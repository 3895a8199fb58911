"""Rewrite: a template with metavariables → edits → new bytes in one pass.

Rules (docs/reference.md, "Rewrite"; docs/tools.md, "ast_edit, resolve"):
- `$NAME`, `$$NAME` and `$$$NAME` in the template are replaced by the captured source text
  (a `$$$` capture is the slice from its first to its last node);
- a multi-line capture is de-indented by the indentation of the line it came from, then
  re-indented to where it lands: the match's line indentation plus the template line's own;
  indentation is taken literally, so tabs work as well as spaces;
- template lines after the first take the match's line indentation;
- the file's newline convention is kept (a CRLF file stays CRLF);
- overlapping matches: the outer edit wins, and the inner ones are counted;
- a capture keeps its comments; one that ends in a comment running to the end of its line
  is followed by a line break (at the match's line indentation) before the template goes on.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from minitools.match._one_file import NodeMatch
from minitools.match._unicode import not_unicode

__all__ = ["Template", "TemplateError", "Edit", "plan_edits", "apply_edits", "render", "newline_of"]

_METAVAR = re.compile(r"\$(\$\$|\$)?([A-Z_][A-Z0-9_]*)")


class TemplateError(ValueError):
    """The rewrite template is not text, or cannot be applied to this pattern's matches."""


@dataclass(frozen=True)
class Template:
    """A parsed rewrite template: literal text and metavariable references, in order."""

    source: str
    parts: tuple[str | tuple[str], ...]  # str: literal text; (name,): a metavariable

    @classmethod
    def parse(cls, source: str) -> Template:
        """The template `source` reads as; TemplateError when it is not Unicode text."""
        why = not_unicode(source)
        if why:
            raise TemplateError(f"rewrite {json.dumps(source[:60])} {why}, so no file could hold it; write the "
                                "character itself, or, inside a string literal, its escape (\\ud800)")
        parts: list[str | tuple[str]] = []
        pos = 0
        for m in _METAVAR.finditer(source):
            if m.start() > pos:
                parts.append(source[pos : m.start()])
            parts.append((m.group(2),))
            pos = m.end()
        if pos < len(source):
            parts.append(source[pos:])
        return cls(source, tuple(parts))

    @property
    def names(self) -> frozenset[str]:
        return frozenset(p[0] for p in self.parts if isinstance(p, tuple))

    def check_bound(self, bound: Iterable[str], pattern_source: str) -> None:
        """Every metavariable the template uses must be one the pattern binds."""
        bound = frozenset(bound)
        unbound = sorted(self.names - bound)
        if unbound:
            shown = ", ".join(f"${n}" for n in unbound)
            binds = ", ".join(f"${n}" for n in sorted(bound)) or "nothing"
            raise TemplateError(
                f'rewrite "{self.source}" uses {shown}, which the pattern "{pattern_source}" does not bind '
                f"(it binds {binds}); use one of those, or add the metavariable to the pattern."
            )


@dataclass(frozen=True)
class Edit:
    """Replace source bytes [start, end) with `replacement`."""

    start: int
    end: int
    replacement: bytes


def newline_of(source: bytes) -> str:
    """The file's newline convention: CRLF when its first line ends so, else LF."""
    first = source.find(b"\n")
    return "\r\n" if first > 0 and source[first - 1 : first] == b"\r" else "\n"


def _line_indent(source: bytes, byte: int) -> str:
    """The leading whitespace of the line that holds `byte`."""
    start = source.rfind(b"\n", 0, byte) + 1
    end = start
    while end < len(source) and source[end : end + 1] in (b" ", b"\t"):
        end += 1
    return source[start:end].decode("utf-8", "replace")


def _reindent(text: str, from_indent: str, to_indent: str) -> list[str]:
    lines = text.replace("\r\n", "\n").split("\n")
    out = [lines[0]]
    for line in lines[1:]:
        if not line.strip():
            out.append("")
            continue
        if line.startswith(from_indent):
            line = line[len(from_indent) :]
        else:  # less indented than where the capture started: drop what whitespace there is
            line = line.lstrip(" \t")
        out.append(to_indent + line)
    return out


def render(template: Template, match: NodeMatch, source: bytes) -> str:
    """The replacement text for one match, with the file's newlines."""
    newline = newline_of(source)
    base = _line_indent(source, match.start_byte)
    lines: list[str] = [""]
    open_line = False  # the last capture ended in a line comment
    for part in template.parts:
        if open_line and not (isinstance(part, str) and part.startswith(("\n", "\r\n"))):
            lines.append(base)
        open_line = False
        if isinstance(part, str):
            pieces = part.replace("\r\n", "\n").split("\n")
            lines[-1] += pieces[0]
            lines.extend(base + piece for piece in pieces[1:])
            continue
        capture = match.metavars[part[0]]
        here = lines[-1]
        landing = here[: len(here) - len(here.lstrip(" \t"))]
        # a capture on a continuation line already carries `base` through the template's lines
        to_indent = landing if len(lines) > 1 else base + landing
        # a capture that ends in a line break (Go's statement_list holds its final newline) would
        # leave a blank line where the template already breaks the line
        text = capture.text.rstrip("\r\n") if "\n" in capture.text else capture.text
        chunk = _reindent(text, _line_indent(source, capture.start_byte), to_indent)
        lines[-1] += chunk[0]
        lines.extend(chunk[1:])
        open_line = capture.open_line
    if open_line and source[match.end_byte : match.end_byte + 1] not in (b"\n", b"\r", b""):
        lines.append(base)  # the rest of the source line would land in the comment
    # a line left holding only indentation (an empty capture, a blank template line) is blank
    return newline.join(line if line.strip() else "" for line in lines)


def plan_edits(
    template: Template, matches: Sequence[NodeMatch], source: bytes
) -> tuple[list[Edit], int]:
    """Edits for the matches of one file, outer first; returns (edits, inner ones left out)."""
    ordered = sorted(matches, key=lambda m: (m.start_byte, -m.end_byte))
    edits: list[Edit] = []
    skipped = 0
    end = -1
    for m in ordered:
        if m.start_byte < end or (edits and m.start_byte == edits[-1].start and m.end_byte <= end):
            skipped += 1  # inside (or overlapping) an edit already planned: the outer one wins
            continue
        edits.append(Edit(m.start_byte, m.end_byte, render(template, m, source).encode("utf-8")))
        end = m.end_byte
    return edits, skipped


def apply_edits(source: bytes, edits: Sequence[Edit]) -> bytes:
    """Apply non-overlapping edits (sorted by start) in one pass."""
    out = bytearray()
    pos = 0
    for edit in edits:
        if edit.start < pos:
            raise ValueError(f"edits overlap at byte {edit.start}")
        out += source[pos : edit.start]
        out += edit.replacement
        pos = edit.end
    out += source[pos:]
    return bytes(out)
