"""How the shell strategy reads what its commands print: the rules a careful agent applies to a
grep hit, written down once and the same for every task (benchmarks/tasks/_shell.py runs the
commands and applies them).

- A hit line is read as code with its string literals and its comment removed (`code_part`); a
  line that is a comment line as a whole (`#`, `//`, `*`, `/*` first) has no code. A name found
  only in strings or comments is not a use. (A docstring's line is read as code: one line alone
  does not say it is inside a docstring.)
- A definition is a line that starts one, by the language's keywords (`definition_grep`,
  `is_definition`): Python `def`/`class`; TypeScript `function`, `class`, `interface`, `type`,
  `const`/`let`, or a method head (the name first, then `(`, not a call statement ending in `);`);
  C a line starting in column 1 with the name before `(`, not ending in `;` (a prototype), or
  `#define`.
- A call is the name followed by `(` in the code part, not on a definition line.
- A hit belongs to the nearest class header above it that is indented less (`enclosing_class`);
  a top-level function or constant ends the class above it. The headers come from one grep
  (`HEADERS_GREP`); a class derives from the names its header line writes after its own.
- Among several definitions, the use site decides: the module its file imports the name from,
  else its own file; for `obj.name`, the class of `self`/`this`, or the class `obj` is annotated
  with or built from in the 40 lines above.
- For a method's callers, each call is read with the 15 lines above it (one `grep -B15` per file,
  in one command): a name in backquotes is prose; a bare `name(` is another function; a call on an
  object built or annotated as a class in those lines is the method's only when that class
  derives from the method's class and neither it nor a class between them defines the name again.
- A name assigned on an indented line (`x = ...`, `const x = ...`) is a local: it is renamed within
  its function only, the function read first (its head the nearest function head above indented
  less, its end where the indentation comes back).
- A type is read from the nearest line above (40 lines) that annotates or assigns the name: an
  annotation or declaration is the type; a constructor call its class; a call of a function the
  return type its definition declares (Python `-> T`, TypeScript `): T {`, C the words before
  the name).
"""

from __future__ import annotations

import re

STRINGS = {
    "python": re.compile(r"""[rbfuRBFU]{0,2}("([^"\\]|\\.)*"|'([^'\\]|\\.)*')"""),
    "typescript": re.compile(r""""([^"\\]|\\.)*"|'([^'\\]|\\.)*'|`([^`\\]|\\.)*`"""),
    "c": re.compile(r""""([^"\\]|\\.)*"|'([^'\\]|\\.)*'"""),
}
COMMENT_TAIL = {"python": re.compile(r"#.*$"), "typescript": re.compile(r"//.*$|/\*.*?(\*/|$)"),
                "c": re.compile(r"//.*$|/\*.*?(\*/|$)")}
COMMENT_LINE = {"python": re.compile(r"^\s*#"), "typescript": re.compile(r"^\s*(//|\*|/\*)"),
                "c": re.compile(r"^\s*(//|\*|/\*)")}
INCLUDE = {"python": "--include='*.py'", "typescript": "--include='*.ts'", "c": "--include='*.c' --include='*.h'"}
TS_MODIFIERS = r"((public|private|protected|static|readonly|abstract|async|override|export|declare|get|set)\s+)*"


def code_part(line: str, language: str) -> str:
    """The line without its strings and comment; empty for a comment line."""
    if COMMENT_LINE[language].match(line):
        return ""
    return COMMENT_TAIL[language].sub("", STRINGS[language].sub('""', line))


def definition_grep(name: str, language: str) -> str:
    """The extended regex a careful agent greps for the definition of `name`."""
    if language == "python":
        return rf"^\s*(async\s+)?(def|class)\s+{name}\b"
    if language == "typescript":
        return (rf"(function\*?\s+{name}\b|class\s+{name}\b|interface\s+{name}\b|type\s+{name}\b|(const|let|var)\s+{name}\b"
                rf"|^\s*{TS_MODIFIERS}{name}\s*(<.*>)?\()")
    return rf"^[A-Za-z_].*\b{name}\s*\(|#\s*define\s+{name}\b"


def is_definition(code: str, name: str, language: str) -> bool:
    """Does the code part of a hit line define `name` (rather than call or mention it)?"""
    if language == "python":
        return re.match(rf"\s*(async\s+)?(def|class)\s+{name}\b", code) is not None
    if language == "typescript":
        if re.search(rf"(function\*?\s+|class\s+|interface\s+|type\s+){name}\b", code):
            return True
        head = re.match(rf"\s*{TS_MODIFIERS}{name}\s*(<.*>)?\((.*)$", code)
        # a method head: it ends in `{` or, in an interface or an overload, `;` after a return type
        return (head is not None and not re.search(r"\)\s*;\s*$", code.rstrip())) or (
            head is not None and re.search(r"\)\s*:\s*[^=]+;\s*$", code) is not None)
    if re.match(r"\s*#\s*define\s+" + name + r"\b", code):
        return True
    return re.match(rf"[A-Za-z_].*\b{name}\s*\(", code) is not None and not code.rstrip().endswith(";")


def calls(code: str, name: str) -> bool:
    return re.search(rf"(?<![\w$]){name}\s*\(", code) is not None


def mentions(code: str, name: str) -> bool:
    return re.search(rf"(?<![\w$]){name}(?![\w$])", code) is not None


def parse_hits(output: str) -> list[tuple[str, int, str]]:
    """`grep -rn` lines as (file, line, text); `./` dropped from the path."""
    hits = []
    for row in output.splitlines():
        m = re.match(r"^(.+?):(\d+):(.*)$", row)
        if m:
            hits.append((m[1].removeprefix("./"), int(m[2]), m[3]))
    return hits


HEADERS_GREP = r"^\s*(export\s+)?(default\s+)?(abstract\s+)?(class|interface)\s|^(export\s+)?(async\s+)?(def|function|const)\s"


def class_headers(output: str) -> dict[str, list[tuple[int, int, str, str]]]:
    """From a grep of HEADERS_GREP: per file, (line, indent, class name, the rest of the header:
    its bases); a top-level function or constant is a header named "" (it ends the class above)."""
    found: dict[str, list[tuple[int, int, str, str]]] = {}
    for file, line, text in parse_hits(output):
        m = re.match(r"^(\s*)(?:export\s+)?(?:default\s+)?(?:abstract\s+)?(?:class|interface)\s+(\w+)(.*)$", text)
        if m:
            found.setdefault(file, []).append((line, len(m[1]), m[2], m[3]))
        elif text[:1].strip():
            found.setdefault(file, []).append((line, 0, "", ""))
    return found


def enclosing_class(headers: list[tuple[int, int, str, str]], line: int, indent: int) -> str | None:
    """The nearest class header above `line` indented less than the hit (Python and TypeScript
    alike: a member sits deeper than its class)."""
    best = None
    for hline, hindent, name, _ in headers:
        if hline < line and hindent < indent:
            best = name
    return best or None


def indent_of(text: str) -> int:
    return len(text) - len(text.lstrip())
