"""The IPython-idiom rewriter: a pure ``str -> str`` function from a notebook-style cell to
plain Python (docs/tools.md, "eval": the IPython idioms typed by instinct are rewritten into plain
calls; docs/reference.md, "Kernels", for how IPython rewrites them).

What it recognises, always at the start of a logical line (indentation kept):

    %name args           -> __minitools__.line_magic('name', 'args')
    x = %name args       -> x = __minitools__.line_magic('name', 'args')
    !cmd                 -> __minitools__.system('cmd')
    x = !cmd, !!cmd      -> __minitools__.getoutput('cmd')
    %%name args (first line of the cell) + body
                         -> __minitools__.cell_magic('name', 'args', 'body')

It works on tokens, not on text: a candidate line is masked with a placeholder name, the
masked cell is tokenized, and the line is rewritten only when the placeholder starts a
logical line. So ``%`` and ``!`` inside strings, inside brackets (``(a\\n % b)``) and in
comments are left alone. `__minitools__` is provided by the kernel worker.
"""

from __future__ import annotations

import io
import re
import tokenize

__all__ = ["rewrite", "PYTHON_BODY_CELL_MAGICS"]

# cell magics whose body is Python, and so is rewritten too (a `%%timeit` body may hold `!ls`)
PYTHON_BODY_CELL_MAGICS = frozenset({"time", "timeit", "capture"})

_PLACEHOLDER = "__mt_magic_line__"
_MAGIC_START = re.compile(r"^([ \t]*)(%|!)")
# `x = %pwd`, `a, b = !cmd`, `self.out = !ls`: a plain target list then `=` then the idiom
_ASSIGN = re.compile(r"^([ \t]*)([A-Za-z_][\w.]*(?:[ \t]*,[ \t]*[A-Za-z_][\w.]*)*)[ \t]*=[ \t]*(%|!)(.*)$", re.S)
_CELL_MAGIC = re.compile(r"^%%([A-Za-z_][\w-]*)[ \t]*(.*)$")
_LINE_MAGIC = re.compile(r"^%([A-Za-z_][\w-]*)[ \t]*(.*)$", re.S)


def rewrite(cell: str) -> str:
    """Rewrite the IPython idioms in `cell` into plain Python; anything else is unchanged.

    Pure: no I/O and no state, so the same cell always gives the same code. Line numbers
    are kept for line idioms, so tracebacks point at the line the user wrote.
    """
    lines = cell.splitlines(keepends=True)
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is not None and lines[first].lstrip().startswith("%%"):
        return _rewrite_cell_magic(lines, first)
    candidates = _candidate_lines(lines)
    if not candidates:
        return cell
    starts = _logical_starts(lines, candidates)
    out: list[str] = []
    i = 0
    while i < len(lines):
        if i in candidates and (starts is None or i in starts):
            # a trailing backslash continues the idiom onto the next physical line
            text, j = lines[i].rstrip("\r\n"), i
            while text.endswith("\\") and j + 1 < len(lines):
                j += 1
                text = text[:-1] + " " + lines[j].strip()
            out.append(_rewrite_line(text) + "\n" * (j - i + 1))
            i = j + 1
            continue
        out.append(lines[i])
        i += 1
    result = "".join(out)
    if not cell.endswith(("\n", "\r")) and result.endswith("\n"):
        result = result[:-1]
    return result


def _candidate_lines(lines: list[str]) -> set[int]:
    return {i for i, line in enumerate(lines) if _MAGIC_START.match(line) or _ASSIGN.match(line.rstrip("\r\n"))}


def _logical_starts(lines: list[str], candidates: set[int]) -> set[int] | None:
    """The candidate lines whose placeholder begins a logical line, or None when the masked
    cell cannot be tokenized (then every candidate counts, as IPython's line rules do)."""
    masked = []
    for i, line in enumerate(lines):
        if i in candidates:
            indent = re.match(r"[ \t]*", line).group(0)  # type: ignore[union-attr]
            masked.append(f"{indent}{_PLACEHOLDER}\n")
        else:
            masked.append(line)
    starts: set[int] = set()
    at_start = True
    depth = 0
    try:
        for tok in tokenize.generate_tokens(io.StringIO("".join(masked)).readline):
            kind = tok.type
            if kind in (tokenize.NEWLINE, tokenize.NL):
                at_start = depth == 0
                continue
            if kind in (tokenize.INDENT, tokenize.DEDENT, tokenize.COMMENT, tokenize.ENCODING):
                continue
            if kind == tokenize.OP and tok.string in "([{":
                depth += 1
            elif kind == tokenize.OP and tok.string in ")]}":
                depth = max(0, depth - 1)
            if at_start and kind == tokenize.NAME and tok.string == _PLACEHOLDER:
                starts.add(tok.start[0] - 1)
            at_start = False
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None
    return starts


def _rewrite_line(text: str) -> str:
    assign = _ASSIGN.match(text)
    if assign:
        indent, target, sigil, rest = assign.groups()
        return f"{indent}{target} = {_idiom(sigil + rest, capture=True)}"
    indent = re.match(r"[ \t]*", text).group(0)  # type: ignore[union-attr]
    return indent + _idiom(text[len(indent):], capture=False)


def _idiom(text: str, *, capture: bool) -> str:
    """The call for one idiom (`text` starts with % or !)."""
    if text.startswith("!!"):
        return f"__minitools__.getoutput({text[2:].strip()!r})"
    if text.startswith("!"):
        fn = "getoutput" if capture else "system"
        return f"__minitools__.{fn}({text[1:].strip()!r})"
    magic = _LINE_MAGIC.match(text)
    if magic is None:
        # `%` followed by something that is not a magic name: let Python report it
        return text
    name, args = magic.groups()
    return f"__minitools__.line_magic({name!r}, {args.strip()!r})"


def _rewrite_cell_magic(lines: list[str], first: int) -> str:
    header = lines[first].strip()
    match = _CELL_MAGIC.match(header)
    if match is None:
        return "".join(lines)
    name, args = match.groups()
    body = "".join(lines[first + 1:])
    if name in PYTHON_BODY_CELL_MAGICS:
        body = rewrite(body)
    return f"__minitools__.cell_magic({name!r}, {args.strip()!r}, {body!r})\n"
