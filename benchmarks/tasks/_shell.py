"""The shell strategy: the commands a careful agent with only a shell runs (grep, sed -n, sed -i,
the program with a print added, the project's checker), read by the rules of _reading.py.

Every command really runs in the task's copy of the project; what it prints (stdout and stderr)
is what the model reads. The steps depend on the question and on what earlier commands printed,
never on the task's ground truth.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from . import _reading as rd
from ._model import Attempt, Step, Task
from ._projects import C_FLAGS, NODE_BIN, VENV_BIN, Project

MARK = "@@VALUE"


class Shell:
    def __init__(self, root: Path, attempt: Attempt) -> None:
        self.root = root
        self.attempt = attempt

    def run(self, command: str, timeout: float = 300) -> str:
        start = time.perf_counter()
        proc = subprocess.run(["bash", "-c", command], cwd=self.root, capture_output=True, text=True, timeout=timeout)
        output = proc.stdout + proc.stderr
        self.attempt.steps.append(Step(command, output, time.perf_counter() - start))
        return output


def solve(task: Task, project: Project, root: Path, attempt: Attempt) -> Any:
    sh = Shell(root, attempt)
    return KIND_SOLVERS[task.kind](sh, task, project)


def _dirs(project: Project, task: Task | None = None) -> str:
    """Where to search: the task's path when it names one, else the project's folders."""
    if task is not None and task.args.get("path"):
        return shlex.quote(task.args["path"])
    return " ".join(project.dirs)


def _grep(sh: Shell, project: Project, flags: str, regex: str, task: Task | None = None) -> list[tuple[str, int, str]]:
    out = sh.run(f"grep -rn{flags} {rd.INCLUDE[project.language]} -e {shlex.quote(regex)} {_dirs(project, task)}")
    return rd.parse_hits(out)


def _headers(sh: Shell, project: Project, files: list[str]) -> dict[str, list[tuple[int, int, str, str]]]:
    if not files:
        return {}
    out = sh.run(f"grep -nHE {shlex.quote(rd.HEADERS_GREP)} {' '.join(sorted(set(files)))}")
    return rd.class_headers(out)


def _where(file: str, line: int) -> str:
    return f"{file}:{line}"


# ---- where is X defined ----

def definition(sh: Shell, task: Task, project: Project) -> list[str]:
    name, lang = task.args["name"], project.language
    hits = [(f, n, t) for f, n, t in _grep(sh, project, "E", rd.definition_grep(name, lang))
            if rd.is_definition(rd.code_part(t, lang), name, lang)]
    if len(hits) <= 1:
        return [_where(f, n) for f, n, _ in hits]
    # several: read the use site and what it imports, then keep the candidates it points to
    use_file, use_line = task.args["file"], task.args["line"]
    window = sh.run(f"sed -n '{max(1, use_line - 40)},{use_line}p' {use_file}")
    use_text = window.splitlines()[-1] if window.splitlines() else ""
    receiver = re.search(rf"([\w$]+)\s*(\?)?\.\s*{name}\b", use_text)
    if receiver is None:
        wanted = rf"import.*\b{name}\b|\b{name}\b.*from "
        imports = sh.run(f"grep -nE {shlex.quote(wanted)} {use_file}")
        module = re.search(r"from\s+['\"]?([\w./]+)", imports)
        if module:
            stem = module[1].rsplit("/", 1)[-1].rsplit(".", 1)[-1]
            keep = [h for h in hits if Path(h[0]).stem == stem]
            if keep:
                hits = keep
        else:
            keep = [h for h in hits if h[0] == use_file]
            hits = keep or hits
    else:
        recv = receiver[1]
        headers = _headers(sh, project, [f for f, _, _ in hits])
        if recv in ("self", "this"):
            owner = rd.enclosing_class(headers.get(use_file, []), use_line, rd.indent_of(use_text))
        else:
            # the receiver's type, from an annotation or a constructor call in the window above the use
            m = re.search(rf"\b{recv}\s*:\s*([A-Z]\w*)|\b{recv}\s*=\s*(?:new\s+)?([A-Z]\w*)\(", window)
            owner = (m[1] or m[2]) if m else None
        if owner:
            keep = [h for h in hits if rd.enclosing_class(headers.get(h[0], []), h[1], rd.indent_of(h[2])) == owner]
            hits = keep or hits
    return [_where(f, n) for f, n, _ in hits]


# ---- who calls X ----

def _own_name_classes(hits: list[tuple[str, int, str]], headers: dict[str, Any], name: str, lang: str) -> set[tuple[str, str]]:
    """(file, class) of the classes that define a method `name` of their own."""
    owners = set()
    for f, n, t in hits:
        if rd.is_definition(rd.code_part(t, lang), name, lang):
            cls = rd.enclosing_class(headers.get(f, []), n, rd.indent_of(t))
            if cls:
                owners.add((f, cls))
    return owners


def _uses(sh: Shell, task: Task, project: Project, want_calls: bool, owners: set[str] | None = None) -> list[tuple[str, int, str]]:
    """The hits of the name that are uses of the task's symbol, by the reading rules: code only,
    and for a method, a `self.`/`this.` use inside another class defining the same name is that
    class's own. `owners`, when given, gets the names of the other classes that define it."""
    name, lang = task.args["name"], project.language
    hits = _grep(sh, project, "w", name)
    keep = []
    for f, n, t in hits:
        code = rd.code_part(t, lang)
        if not rd.mentions(code, name):
            continue
        if want_calls and (not rd.calls(code, name) or rd.is_definition(code, name, lang)):
            continue
        keep.append((f, n, t))
    def_text = next((t for f, n, t in hits if f == task.args["file"] and n == task.args["line"]), "")
    if rd.indent_of(def_text) == 0:
        return keep
    headers = _headers(sh, project, [f for f, _, _ in hits])
    target = rd.enclosing_class(headers.get(task.args["file"], []), task.args["line"], rd.indent_of(def_text))
    others = _own_name_classes(hits, headers, name, lang) - {(task.args["file"], target)}
    if owners is not None:
        owners.update(cls for _, cls in others)
    out = []
    for f, n, t in keep:
        cls = rd.enclosing_class(headers.get(f, []), n, rd.indent_of(t))
        if re.search(rf"\b(self|this)\s*\.\s*{name}\b", t) and (f, cls) in others:
            continue
        if rd.is_definition(rd.code_part(t, lang), name, lang) and (f, cls) in others:
            continue
        out.append((f, n, t))
    return out


WINDOW = 15


def _windows(sh: Shell, name: str, files: list[str]) -> dict[tuple[str, int], list[str]]:
    """The WINDOW lines above each hit of `name`: one command, a `grep -B` per file."""
    names = " ".join(shlex.quote(f) for f in sorted(set(files)))
    text = sh.run(f"for f in {names}; do echo \"@@FILE $f\"; grep -nw -B{WINDOW} {shlex.quote(name)} \"$f\"; done")
    out: dict[tuple[str, int], list[str]] = {}
    for section in re.split(r"^@@FILE ", text, flags=re.M)[1:]:
        file, _, body = section.partition("\n")
        seen = [(int(m[1]), m[2]) for m in re.finditer(r"^(\d+)[:-](.*)$", body, re.M)]
        for number, _ in seen:
            out[(file, number)] = [line for n, line in seen if number - WINDOW <= n < number]
    return out


def _receiver_class(window: list[str], text: str, name: str) -> str | None:
    """The class of `recv` in `recv.name(`, from `recv = Cls(`, `recv = new Cls(` or `recv: Cls`
    in the window above (the nearest)."""
    m = re.search(rf"([\w$]+)\s*\??\.\s*{name}\s*\(", text)
    if m is None or m[1] in ("self", "this", "super"):
        return None
    recv = re.escape(m[1])
    for line in reversed([*window, text]):
        c = re.search(rf"\b{recv}\s*(?::\s*|=\s*(?:new\s+)?(?:[\w$]+\.)?)([A-Z][\w$]*)", line)
        if c:
            return c[1]
    return None


def callers(sh: Shell, task: Task, project: Project) -> list[str]:
    """The calls the reading rules keep; for a method, each call is also read with the lines
    above it: a name in backquotes is prose (a docstring's), a bare `name(` is not a method's
    call, and a call on an object built or
    annotated as a class is this method's only when the class derives from the method's class
    and neither it nor a class between them defines the name again (a `Set`'s `add`, an
    override's callers are not this method's)."""
    owners: set[str] = set()
    uses = _uses(sh, task, project, want_calls=True, owners=owners)
    def_text = sh.run(f"sed -n '{task.args['line']}p' {task.args['file']}")
    if rd.indent_of(def_text) == 0 or not uses:
        return [_where(f, n) for f, n, _ in uses]
    name = task.args["name"]
    windows = _windows(sh, name, [f for f, _, _ in uses])
    headers: dict[str, Any] = {}
    derived: set[str] = set()
    target = ""
    kept = []
    for f, n, text in uses:
        if re.search(rf"`[^`]*\b{name}\b[^`]*`", text):
            continue
        if not re.search(rf"\.\s*{name}\s*\(", rd.code_part(text, project.language)):
            continue  # a method is called through an object: a bare `name(` is another function
        cls = _receiver_class(windows.get((f, n), []), text, name)
        if cls is not None:
            if not derived:
                target = _owner(sh, task, project)
                headers, derived = _derived(sh, project, target)
            if cls not in derived or (_between(headers, cls, target) & owners):
                continue
        kept.append((f, n, text))
    return [_where(f, n) for f, n, _ in kept]


def _between(headers: dict[str, Any], cls: str, target: str) -> set[str]:
    """`cls` and its bases (transitively, by the names the headers write) short of `target`."""
    bases = {c: rest for rows in headers.values() for _, _, c, rest in rows if c}
    found, todo = set(), [cls]
    while todo:
        c = todo.pop()
        if c == target or c in found:
            continue
        found.add(c)
        todo += [b for b in bases if b != c and re.search(rf"\b{re.escape(b)}\b", bases.get(c, ""))]
    return found


def _owner(sh: Shell, task: Task, project: Project) -> str:
    """The class the task's method is defined in (its file's class headers read)."""
    file, line = task.args["file"], task.args["line"]
    rows = _headers(sh, project, [file]).get(file, [])
    text = sh.run(f"sed -n '{line}p' {file}")
    return rd.enclosing_class(rows, line, rd.indent_of(text)) or ""


# ---- every implementation of a method ----

def _derived(sh: Shell, project: Project, base: str) -> tuple[dict[str, Any], set[str]]:
    """Every class header of the project (one grep), and the classes that derive from `base`
    through the names their headers write (`extends`, `implements`, bases), transitively."""
    out = sh.run(f"grep -rnE {rd.INCLUDE[project.language]} {shlex.quote(rd.HEADERS_GREP)} {_dirs(project)}")
    headers = rd.class_headers(out)
    if project.language == "python":  # a header whose bases go on below: its next two lines too
        open_header = shlex.quote(r"^\s*class\s+\w+\($")
        more = sh.run(f"grep -rnE -A2 {rd.INCLUDE['python']} {open_header} {_dirs(project)}")
        follow = {(m[1], int(m[2])): m[3] for m in re.finditer(r"^(.+?)-(\d+)-(.*)$", more, re.M)}
        for file, rows in headers.items():
            for i, (line, indent, cls, rest) in enumerate(rows):
                if rest.rstrip().endswith("("):
                    rows[i] = (line, indent, cls, rest + " ".join(follow.get((file, line + k), "") for k in (1, 2)))
    derived = {base}
    changed = True
    while changed:
        changed = False
        for rows in headers.values():
            for _, _, cls, rest in rows:
                if cls and cls not in derived and any(re.search(rf"\b{re.escape(b)}\b", rest) for b in derived):
                    derived.add(cls)
                    changed = True
    return headers, derived


def implementations(sh: Shell, task: Task, project: Project) -> list[str]:
    name, base, lang = task.args["name"], task.args["base"], project.language
    hits = [(f, n, t) for f, n, t in _grep(sh, project, "E", rd.definition_grep(name, lang))
            if rd.is_definition(rd.code_part(t, lang), name, lang)]
    headers, derived = _derived(sh, project, base)
    found = []
    for f, n, t in hits:
        cls = rd.enclosing_class(headers.get(f, []), n, rd.indent_of(t))
        if cls in derived and not (cls == base and f == task.args["file"] and task.args.get("base_is_interface")):
            found.append(_where(f, n))
    return found


# ---- the type of a name ----

def type_of(sh: Shell, task: Task, project: Project) -> str | None:
    name, file, line, lang = task.args["name"], task.args["file"], task.args["line"], project.language
    window = sh.run(f"sed -n '{max(1, line - 40)},{line}p' {file}")
    for text in reversed(window.splitlines()):
        code = rd.code_part(text, lang)
        m = re.search(rf"(?<![\w.$]){name}\s*:\s*([^=,)]+?)\s*(=|,|\)|$)", code) if lang != "c" else \
            re.search(rf"^\s*((?:const\s+|unsigned\s+|struct\s+)*\w+\s*\**)\s*{name}\b", code)
        if m:
            return m[1].strip()
        m = re.search(rf"(?<![\w.$]){name}\s*=\s*(?:new\s+)?([\w.]+)\(", code)
        if m:
            callee = m[1].rsplit(".", 1)[-1]
            if callee[:1].isupper():
                return callee
            defs = [h for h in _grep(sh, project, "E", rd.definition_grep(callee, lang))
                    if rd.is_definition(rd.code_part(h[2], lang), callee, lang)]
            if len(defs) != 1:
                return None
            f, n, _ = defs[0]
            head = sh.run(f"sed -n '{n},{n + 12}p' {f}")
            if lang == "c":  # the return type is written before the name, after any storage class
                r = re.match(rf"\s*(?:(?:local|static|extern|inline)\s+)*(.+?)\s*\b{callee}\s*\(", head)
                return r[1].strip() if r else None
            r = re.search(r"->\s*([^:]+):" if lang == "python" else r"\)\s*:\s*([^{]+)\{", head)
            return r[1].strip() if r else None
    return None


# ---- rename ----

FUNCTION_HEAD = {
    "python": r"^\s*(async\s+)?def\s",
    "typescript": rf"^\s*{rd.TS_MODIFIERS}[A-Za-z0-9_$]+\s*(<.*>)?\(|\bfunction\b",  # grep reads \w in brackets as two characters
    "c": r"^[A-Za-z_].*\(",
}


def _local_scope(sh: Shell, file: str, line: int, def_text: str, lang: str) -> tuple[int, int] | None:
    """The lines of the function that a local name assigned on `line` belongs to: its header is
    the nearest function head above indented less; its body ends before the first line indented
    no deeper than the head (Python) or at the `}` at the head's indent (TypeScript, C), read in
    windows of 100 lines."""
    heads = rd.parse_hits(sh.run(f"grep -nHE {shlex.quote(FUNCTION_HEAD[lang])} {file}"))
    above = [(n, rd.indent_of(t)) for _, n, t in heads
             if n < line and rd.indent_of(t) < rd.indent_of(def_text) and not rd.COMMENT_LINE[lang].match(t)]
    if not above:
        return None
    start, indent = above[-1]
    opened, n = False, start
    while True:
        window = sh.run(f"sed -n '{n},{n + 99}p' {file}").splitlines()
        if not window:
            return None
        for text in window:
            body = text.strip()
            if not opened:  # the head's own lines: up to the one that opens the body
                opened = body.endswith(":" if lang == "python" else "{")
            elif body and rd.indent_of(text) <= indent:
                return (start, n - 1) if lang == "python" else (start, n)
            n += 1


def _is_local(code: str, name: str) -> bool:
    """A name assigned on an indented line (not a definition, not an attribute): a local."""
    return rd.indent_of(code) > 0 and re.match(rf"\s*((const|let|var)\s+)?{name}\s*(:[^=]+)?=[^=]", code) is not None


def rename(sh: Shell, task: Task, project: Project) -> str:
    """A local is renamed within its function (the function's lines read first); any other name
    at every use the reading rules keep."""
    name, new = task.args["name"], task.args["new"]
    file, line = task.args["file"], task.args["line"]
    def_text = sh.run(f"sed -n '{line}p' {file}").rstrip("\n")
    if _is_local(rd.code_part(def_text, project.language), name):
        scope = _local_scope(sh, file, line, def_text, project.language)
        if scope:
            sh.run(f"sed -i '{scope[0]},{scope[1]}s/\\b{name}\\b/{new}/g' {file}")
            sh.run(f"grep -nw {name} {file} | head -50")
            return "edited"
    uses = _uses(sh, task, project, want_calls=False)
    by_file: dict[str, list[int]] = {}
    for f, n, _ in uses:
        by_file.setdefault(f, []).append(n)
    script = " && ".join(
        "sed -i " + " ".join(f"-e '{n}s/\\b{name}\\b/{new}/g'" for n in lines) + f" {f}" for f, lines in sorted(by_file.items()))
    if script:
        sh.run(script)
    sh.run(f"grep -rnw {rd.INCLUDE[project.language]} {name} {_dirs(project)} | head -50")
    return "edited"


# ---- find and replace by shape ----

def find_pattern(sh: Shell, task: Task, project: Project) -> list[str]:
    hits = _grep(sh, project, "E", task.args["regex"], task)
    return [_where(f, n) for f, n, t in hits if not rd.COMMENT_LINE[project.language].match(t)]


def replace(sh: Shell, task: Task, project: Project) -> str:
    regex, repl = task.args["regex"], task.args["sed"]
    files = sh.run(f"grep -rlE {rd.INCLUDE[project.language]} -e {shlex.quote(regex)} {_dirs(project, task)}").split()
    if files:
        sh.run(f"sed -i -E {shlex.quote(f's/{regex}/{repl}/g')} {' '.join(files)}")
    sh.run(f"grep -rnE {rd.INCLUDE[project.language]} -e {shlex.quote(regex)} {_dirs(project, task)} | head -20")
    return "edited"


# ---- a value, by a print added and a run ----

def value(sh: Shell, task: Task, project: Project) -> str | None:
    """Python: `if COND: print(MARK, repr(EXPR))` before the line, then a run. C: the same as a
    printf of the expression cast to long long (the values asked for are integers), then a
    rebuild and a run. The added line is removed after."""
    file, line, cond, expr = task.args["file"], task.args["line"], task.args["condition"], task.args["expr"]
    text = sh.run(f"sed -n '{line}p' {file}")
    indent = text[: rd.indent_of(text)]
    if project.language == "c":
        probe = f'{indent}if ({cond}) printf("{MARK} %lld\\n", (long long)({expr}));'
    else:
        probe = f'{indent}if {cond}: print("{MARK}", repr({expr}), flush=True)'
    insert = f"{line}i\\" + probe.replace("\\", "\\\\")  # in the text of sed's i command, two backslashes are one
    sh.run(f"sed -i {shlex.quote(insert)} {file}")
    program = " ".join(shlex.quote(a) for a in task.args["program"])
    if project.language == "c":
        command = f"{task.args['build']} && {program} 2>&1 | grep -m1 {MARK}"
    else:
        command = f"{shlex.quote(sys.executable)} {program} 2>&1 | grep -m1 {MARK}"
    out = sh.run(command, timeout=120)
    sh.run(f"sed -i '{line}d' {file}")
    m = re.search(rf"{MARK} (.*)$", out, re.M)
    return m[1].strip() if m else None


# ---- did this edit break anything ----

CHECKER = {
    "python": f"{VENV_BIN / 'basedpyright'}",
    "typescript": f"{NODE_BIN / 'tsc'} --noEmit --pretty false -p tsconfig.json",
    "c": "cc -fsyntax-only " + " ".join(C_FLAGS) + " *.c",
}
FINDING = {
    "python": re.compile(r"^\s*(?P<file>/\S+?\.py):(?P<line>\d+):\d+ - (?:error|warning): (?P<msg>.*)$", re.M),
    "typescript": re.compile(r"^(?P<file>.+?)\((?P<line>\d+),\d+\): (?:error|warning) (?P<msg>.*)$", re.M),
    "c": re.compile(r"^(?P<file>[\w.]+):(?P<line>\d+):\d+: (?:error|warning): (?P<msg>.*)$", re.M),
}


def new_diagnostics(sh: Shell, task: Task, project: Project) -> list[str]:
    lang = project.language
    before = sh.run(CHECKER[lang] + " 2>&1")
    file, line, old, new = task.args["file"], task.args["line"], task.args["old"], task.args["new"]
    substitute = f"{line}s/{_sed_literal(old)}/{_sed_literal(new, replacement=True)}/"
    sh.run(f"sed -i {shlex.quote(substitute)} {file}")
    after = sh.run(CHECKER[lang] + " 2>&1")

    def read(out: str) -> list[tuple[str, int, str]]:
        rows = []
        for m in FINDING[lang].finditer(out):
            path = m["file"]
            rel = str(Path(path).relative_to(sh.root)) if path.startswith("/") else path
            rows.append((rel, int(m["line"]), m["msg"].strip()))
        return rows

    old_keys = Counter((f, msg) for f, _, msg in read(before))
    found = []
    for f, n, msg in read(after):
        if old_keys[(f, msg)] > 0:
            old_keys[(f, msg)] -= 1
        else:
            found.append(_where(f, n))
    return sorted(set(found))


def _sed_literal(text: str, replacement: bool = False) -> str:
    """`text` as sed reads it literally: in a regex, or in a replacement."""
    special = "\\/&" if replacement else "\\/.*[]^$"
    return "".join("\\" + c if c in special else c for c in text)


KIND_SOLVERS = {
    "definition": definition, "callers": callers, "implementations": implementations, "type": type_of,
    "rename": rename, "find_pattern": find_pattern, "replace": replace, "value": value,
    "new_diagnostics": new_diagnostics,
}
