"""A YAML loader for rule files, on the bundled tree-sitter YAML grammar (no new run-time
dependency; docs/tools.md, "Rules").

It reads what rule files and their tests write: block and flow mappings and sequences, plain,
quoted and block scalars (`|`, `>`, with chomping and indentation indicators), comments,
several documents (`---`), anchors and aliases, and the core schema's scalars (null, booleans,
integers, floats; everything else is a string). Tags are ignored. A syntax error is a
YamlError naming the line and column.
"""

from __future__ import annotations

import re
from typing import Any

import tree_sitter

__all__ = ["YamlError", "load_documents", "load_one"]


MAX_DEPTH = 200  # nesting levels of collections (the loader reads them recursively)
# values a document holds once its aliases are expanded (ast-grep 0.51.1 stops at 250,000 too):
# an alias shares what its anchor names, but whatever walks the result walks every copy
MAX_VALUES = 250_000
# The grammar's scanner keeps its line number in 16 bits: past this line it misreads the text
# (a 33,000-item list was "a syntax error at line 1, column 1")
MAX_LINES = 32_767


class YamlError(ValueError):
    """The text is not YAML this loader reads; the message names the line and column."""


_INT = re.compile(r"[-+]?(?:0|[1-9][0-9_]*)\Z|0o[0-7]+\Z|0x[0-9a-fA-F]+\Z")
_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9][0-9_]*(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z")
_SPECIAL_FLOATS = {".inf": float("inf"), "+.inf": float("inf"), "-.inf": float("-inf"), ".nan": float("nan")}
_ESCAPES = {
    "0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v", "f": "\f",
    "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85", "_": "\xa0",
    "L": "\u2028", "P": "\u2029",
}
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}


def load_documents(text: str) -> list[Any]:
    """Every document in `text`, in order (an empty document is None)."""
    from minitools.match import UnsafeSource, parse_source

    source = text.encode("utf-8")
    lines = source.count(b"\n") + source.count(b"\r") + 1  # the scanner ends a line at each of them
    if lines > MAX_LINES:
        crlf = " (a \\r\\n line ending counts as two)" if b"\r\n" in source else ""
        raise YamlError(f"the YAML has {lines:,} lines{crlf}; its parser counts lines in 16 bits and cannot read past "
                        f"line {MAX_LINES:,}: split the rules over several files (or write them as JSON)")
    try:
        tree = parse_source("yaml", source)
    except UnsafeSource:  # measured before parsing: the grammar's parser would crash on it
        raise YamlError(f"the YAML nests deeper than {MAX_DEPTH} levels; rule files need far fewer") from None
    _check(tree.root_node, text)
    loader = _Loader(source)
    docs = []
    for doc in tree.root_node.named_children:
        if doc.type != "document":
            continue
        content = [c for c in doc.named_children if c.type not in ("comment", "yaml_directive", "tag_directive", "reserved_directive")]
        docs.append(loader.value(content[0]) if content else None)
    return docs


def load_one(text: str) -> Any:
    """The one document in `text`; YamlError when there are several."""
    docs = [d for d in load_documents(text) if d is not None]
    if len(docs) > 1:
        raise YamlError(f"found {len(docs)} documents separated by `---`; give one")
    return docs[0] if docs else None


def _check(root: tree_sitter.Node, text: str) -> None:
    """YamlError at the narrowest place the parse went wrong: a token the grammar expected
    (MISSING), else the smallest ERROR node."""
    if not root.has_error:
        return
    found: list[tree_sitter.Node] = []
    stack = [root]
    while stack:
        n = stack.pop()
        if n.is_error or n.is_missing:
            found.append(n)
        if n.has_error:
            stack.extend(n.children)
    if not found:
        raise YamlError("YAML syntax error")
    missing = [n for n in found if n.is_missing]
    where = min(missing or found, key=lambda n: (n.end_byte - n.start_byte, -n.start_byte))
    what = f"expected {where.type!r}" if where.is_missing else "syntax error"
    opened: list[tree_sitter.Node] = []
    for child in where.children if where.is_error else ():
        if child.type in ("[", "{"):
            opened.append(child)
        elif child.type in ("]", "}") and opened:
            opened.pop()
    if opened:  # a flow collection never closed: the usual slip
        where = opened[-1]
        what = f"unclosed {where.type!r}"
    row, col = where.start_point
    lines = text.splitlines()
    shown = lines[row].strip() if row < len(lines) else ""
    raise YamlError(f'YAML {what} at line {row + 1}, column {col + 1}: "{shown}"')


class _Loader:
    def __init__(self, source: bytes) -> None:
        self.depth = 0  # collections open around the node being read
        self.anchors: dict[str, Any] = {}
        self.sizes: dict[str, int] = {}  # anchor -> values its value holds, aliases expanded
        self.values = 0  # values read so far, aliases expanded
        self.source = source
        self.lines = source.decode("utf-8").split("\n")

    def value(self, node: tree_sitter.Node) -> Any:
        kind = node.type
        if kind in ("block_node", "flow_node"):
            anchor = None
            inner = None
            for c in node.named_children:
                if c.type == "anchor":
                    anchor = _text(c)[1:]
                elif c.type in ("tag", "comment"):
                    continue
                else:
                    inner = c
            before = self.values
            result = None if inner is None else self.value(inner)
            if anchor is not None:
                self.anchors[anchor] = result
                self.sizes[anchor] = self.values - before
            return result
        if kind == "alias":
            name = _text(node)[1:]
            if name not in self.anchors:
                raise YamlError(f'alias "*{name}" at line {node.start_point[0] + 1} names no anchor')
            self.values += self.sizes[name]
            if self.values > MAX_VALUES:
                raise YamlError(f'alias "*{name}" at line {node.start_point[0] + 1}: with its aliases expanded the YAML '
                                f"holds more than {MAX_VALUES:,} values; rule files need far fewer (name a repeated "
                                "rule once, as a utility, and use matches)")
            return self.anchors[name]
        self.values += 1
        if kind in ("block_mapping", "flow_mapping", "block_sequence", "flow_sequence"):
            self.depth += 1
            try:
                if self.depth > MAX_DEPTH:
                    raise YamlError(f"the YAML nests deeper than {MAX_DEPTH} levels; rule files need far fewer")
                return self.mapping(node) if kind.endswith("mapping") else self.sequence(node)
            finally:
                self.depth -= 1
        if kind == "plain_scalar":
            return _plain(node)
        if kind == "double_quote_scalar":
            return _double(_text(node)[1:-1])
        if kind == "single_quote_scalar":
            return _fold(_text(node)[1:-1]).replace("''", "'")
        if kind == "block_scalar":
            return _block(node, self.lines, self._blank_tail(node.end_byte))
        raise YamlError(f"unsupported YAML at line {node.start_point[0] + 1}: {kind}")

    def sequence(self, node: tree_sitter.Node) -> list[Any]:
        out = []
        for item in node.named_children:
            if item.type == "comment":
                continue
            if item.type == "block_sequence_item":
                parts = [c for c in item.named_children if c.type != "comment"]
                out.append(self.value(parts[0]) if parts else None)
            elif item.type == "flow_pair":
                out.append(self.mapping_of([item]))
            else:
                out.append(self.value(item))
        return out

    def _blank_tail(self, end: int) -> str:
        """The blank text after a block scalar's node, which ends at its last non-blank
        character: the spaces after it and the blank lines below it are the scalar's."""
        tail = re.match(rb"[ \t\r\n]*", self.source[end:])
        text = tail.group(0) if tail else b""
        if end + len(text) < len(self.source) and b"\n" in text:
            text = text[: text.rindex(b"\n") + 1]  # the next line's indentation is not
        elif end + len(text) == len(self.source) and not text.endswith(b"\n"):
            # the end of the input ends the scalar's last line, as ast-grep's YAML reader
            # takes it (`|` at the end of a file with no final newline keeps one): a rule test's
            # last snippet is then the snippet its snapshot was written for
            text += b"\n"
        return text.decode("utf-8").replace("\r\n", "\n")

    def mapping(self, node: tree_sitter.Node) -> dict[Any, Any]:
        pairs = [c for c in node.named_children if c.type in ("block_mapping_pair", "flow_pair", "flow_node")]
        return self.mapping_of(pairs)

    def mapping_of(self, pairs: list[tree_sitter.Node]) -> dict[Any, Any]:
        out: dict[Any, Any] = {}
        for pair in pairs:
            key_node = pair if pair.type == "flow_node" else pair.child_by_field_name("key")  # `{a}`: no value
            value_node = None if pair.type == "flow_node" else pair.child_by_field_name("value")
            key = None if key_node is None else self.value(key_node)
            if isinstance(key, (list, dict)):  # `{{ x }}`, a template's placeholder, read as YAML
                row = pair.start_point[0]
                raise YamlError(f'a mapping key at line {row + 1} is not a scalar: "{self.lines[row].strip()}"; '
                                "quote text that holds braces or brackets")
            if key in out:
                raise YamlError(f'duplicate key "{key}" at line {pair.start_point[0] + 1}')
            out[key] = None if value_node is None else self.value(value_node)
        return out


def _text(node: tree_sitter.Node) -> str:
    return (node.text or b"").decode("utf-8")


def _plain(node: tree_sitter.Node) -> Any:
    text = _fold(_text(node))
    kind = node.named_children[0].type if node.named_children else "string_scalar"
    if kind == "null_scalar" or text in ("", "~", "null", "Null", "NULL"):
        return None
    if kind == "boolean_scalar" or text in ("true", "True", "TRUE", "false", "False", "FALSE"):
        return text.lower() == "true"
    if _INT.match(text):
        if text.startswith(("0o", "0x")):
            return int(text, 0)
        return int(text.replace("_", ""))
    if text.lower() in _SPECIAL_FLOATS:
        return _SPECIAL_FLOATS[text.lower()]
    if _FLOAT.match(text) and any(ch.isdigit() for ch in text):
        return float(text.replace("_", ""))
    return text


def _fold(text: str) -> str:
    """A multi-line flow scalar's lines joined: one line break is a space, each blank line a
    line break; the indentation of continuation lines is not content."""
    if "\n" not in text:
        return text
    lines = [line.strip(" \t") for line in text.split("\n")]
    out = lines[0]
    pending_breaks = 0
    for line in lines[1:]:
        if not line:
            pending_breaks += 1
            continue
        out += ("\n" * pending_breaks) if pending_breaks else " "
        out += line
        pending_breaks = 0
    return out + "\n" * pending_breaks if pending_breaks else out


def _double(body: str) -> str:
    # an escaped line break joins the lines with nothing between them
    body = re.sub(r"\\\r?\n[ \t]*", "\x00JOIN\x00", body)
    body = _fold(body).replace("\x00JOIN\x00", "")
    out = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        esc = body[i + 1 : i + 2]
        if esc in _ESCAPES:
            out.append(_ESCAPES[esc])
            i += 2
        elif esc in _HEX_ESCAPES:
            width = _HEX_ESCAPES[esc]
            digits = body[i + 2 : i + 2 + width]
            try:
                out.append(chr(int(digits, 16)))
            except ValueError:
                raise YamlError(f'bad escape "\\{esc}{digits}" in a double-quoted string') from None
            i += 2 + width
        else:
            raise YamlError(f'unknown escape "\\{esc}" in a double-quoted string "{body}"')
    return "".join(out)


def _block(node: tree_sitter.Node, lines_of_file: list[str], tail: str) -> str:
    """A `|` or `>` scalar: its header's indicators, then the lines indented under it."""
    text = _text(node) + tail
    header, _, rest = text.partition("\n")
    header = header.split("#", 1)[0].strip()
    chomp = "+" if "+" in header else "-" if "-" in header else ""
    digits = [c for c in header if c.isdigit()]
    lines = rest.split("\n")
    if digits:
        # an explicit indentation counts from the indentation of the header's line
        line = lines_of_file[node.start_point[0]]
        indent = int(digits[0]) + len(line) - len(line.lstrip(" "))
    else:
        indent = next((len(line) - len(line.lstrip(" ")) for line in lines if line.strip()), 0)
    body = [line[indent:] for line in lines] if any(line.strip() for line in lines) else [""] * len(lines)
    kept = 0
    while body and not body[-1]:
        body.pop()
        kept += 1
    broken = kept > 0  # the last line of content ends in a line break
    if not body:
        return "\n" if chomp == "+" and kept > 1 else ""
    content = _fold_block(body) if header.startswith(">") else "\n".join(body)
    if chomp == "-":
        return content
    if chomp == "+":
        return content + "\n" * kept
    return content + "\n" if broken else content


def _fold_block(lines: list[str]) -> str:
    """`>`: lines joined by spaces; blank lines, and lines next to a more-indented one, keep
    their breaks."""
    out = ""
    prev: str | None = None
    blanks = 0
    for line in lines:
        if not line:
            blanks += 1
            continue
        if prev is None:
            out = "\n" * blanks + line
        elif line.startswith((" ", "\t")) or prev.startswith((" ", "\t")):
            out += "\n" * (blanks + 1) + line
        else:
            out += ("\n" * blanks if blanks else " ") + line
        prev, blanks = line, 0
    return out
