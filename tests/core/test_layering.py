"""The dependency direction of docs/architecture.md ("Layering"), enforced on the imports in the source.

protocol → transport → lsp, dap, kernel → tools → registry/run; match sits beside and
imports only itself, rules (ast-grep's rule language) builds on match alone, and edits (staged
edits, their all-or-none write) on both; only tools/ (and the run's call edge) build ToolResults; only
registry/run know surfaces and approval. Inside tools/ a family imports the frame (tools/_*.py) and
libraries, never another family; the CLI's commands take library code, never the tools'.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "minitools"

# what each part may import from minitools (its own part is always allowed)
ALLOWED: dict[str, set[str]] = {
    "exports": set(),  # the lazy-export helper every package __init__ may use
    "text": set(),  # plural and page notes: the words of a count, for any part that writes a sentence
    "protocol": set(),
    "tracing": set(),
    "toolspec": set(),
    "progress": set(),  # what a call is doing while it runs, asked by whoever reports it
    "config": set(),  # the configuration file's keys, checked (docs/reference.md, "Configuration")
    "states": set(),  # a state table's named states and allowed moves (lsp, dap and vibe each have one)
    "schema": {"toolspec"},
    "transport": {"protocol", "tracing"},
    "lsp": {"protocol", "transport", "tracing", "schema", "states"},  # schema: the shapes of what a server sends
    "dap": {"protocol", "transport", "tracing", "schema", "states"},  # schema: the adapter's bodies are checked where they arrive
    "kernel": {"protocol", "transport", "tracing", "states"},
    "inspector": {"protocol", "transport", "tracing"},  # node's V8 inspector (CDP over a WebSocket)
    "match": set(),
    "rules": {"match"},
    "edits": {"match", "rules"},  # staged edits, their diff and their all-or-none write; a rule's fixes
    "ask": {"transport", "protocol"},
    "vibe": {"transport", "protocol", "tracing", "states"},
    "tools": {"protocol", "transport", "lsp", "dap", "kernel", "match", "rules", "edits", "ask", "vibe", "toolspec", "schema", "tracing",
              "progress"},
    "registry": {"toolspec", "schema", "ask"},
    "run": {"registry", "tools", "toolspec", "schema", "ask", "tracing", "config", "progress"},
}
for _imports_of in ALLOWED.values():
    _imports_of |= {"exports", "text"}
# fronts over the API may import anything
FRONTS = {"__init__", "__main__", "cli", "commands", "serve", "mcp", "tour"}
PROTOCOL_FORBIDDEN = {"asyncio", "subprocess", "os", "threading", "socket", "selectors"}


def _part(path: Path) -> str:
    rel = path.relative_to(PACKAGE)
    return rel.parts[0] if len(rel.parts) > 1 else rel.stem


def _imports(path: Path) -> list[tuple[int, str]]:
    """The modules `path` imports, with `minitools.X` for `from minitools import X` and
    `minitools.x._y` for `from minitools.x import _y` (a private name is a module's own)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
            found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names
                      if node.module == "minitools" or _private(alias.name)]
    return found


def _sources() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def test_every_part_is_known():
    unknown = {_part(p) for p in _sources()} - set(ALLOWED) - FRONTS
    assert not unknown, f"add these parts to the layering table: {sorted(unknown)}"


def test_dependency_direction():
    violations = []
    for path in _sources():
        part = _part(path)
        if part in FRONTS:
            continue
        for line, module in _imports(path):
            if not module.startswith("minitools.") or module == "minitools":
                continue
            target = module.split(".")[1]
            if target != part and target not in ALLOWED[part]:
                violations.append(f"{path.relative_to(PACKAGE.parent)}:{line} ({part}) imports {module}")
    assert not violations, "layering violations:\n" + "\n".join(violations)


def _private_imports(path: Path) -> list[tuple[int, str]]:
    """The modules `path` takes from a private module (a name starting with _), including
    `from minitools.x import _y`."""
    return [(line, module) for line, module in _imports(path)
            if module.startswith("minitools.") and any(_private(seg) for seg in module.split(".")[1:])]


def _private(name: str) -> bool:
    """`_name`, not a dunder such as `__version__` (public by convention)."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def test_parts_import_each_other_only_through_their_packages():
    # `from minitools.lsp import find_binary`, never `from minitools.lsp._catalog import ...`:
    # a package's private modules are its own to rearrange
    violations = []
    for path in _sources():
        part = _part(path)
        rel = str(path.relative_to(PACKAGE.parent))
        for line, module in _private_imports(path):
            if module.split(".")[1] == part:
                continue
            violations.append(f"{rel}:{line} ({part}) imports {module}")
    assert not violations, "import these through the package's __init__:\n" + "\n".join(violations)


def test_protocol_does_no_io():
    bad = []
    for path in (PACKAGE / "protocol").rglob("*.py"):
        for line, module in _imports(path):
            if module.split(".")[0] in PROTOCOL_FORBIDDEN:
                bad.append(f"{path.name}:{line} imports {module}")
    assert not bad, bad


def test_only_tools_and_the_run_build_results():
    allowed = {"tools", "run", "registry", "toolspec", "schema"} | FRONTS
    bad = []
    for path in _sources():
        if _part(path) in allowed:
            continue
        for line, module in _imports(path):
            if module in ("minitools.toolspec", "minitools.registry"):
                bad.append(f"{path.relative_to(PACKAGE.parent)}:{line} imports {module}")
    assert not bad, "library packages must not know tools, tiers or results:\n" + "\n".join(bad)


def test_server_and_adapter_special_cases_live_in_the_catalogs():
    # adding a server or an adapter is one catalog entry: code elsewhere reads catalog fields,
    # it never compares an entry's id with a literal
    catalogs = {PACKAGE / "lsp" / "_catalog.py", PACKAGE / "dap" / "_catalog.py"}
    bad = []
    for path in _sources():
        if path in catalogs:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare):
                sides = [node.left, *node.comparators]
                if any(isinstance(s, ast.Attribute) and s.attr == "id" for s in sides) and any(
                        isinstance(s, ast.Constant) and isinstance(s.value, str) for s in sides):
                    bad.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")
            elif (isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "adapter_by_id"
                  and any(isinstance(a, ast.Constant) for a in node.args)):
                bad.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")
    assert not bad, "a server or adapter id compared outside its catalog (make it a catalog field):\n" + "\n".join(bad)


def _module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)


def test_no_modules_import_each_other_in_a_circle():
    # a circle (two modules each needing the other, however far round) is one idea in two files, or
    # one file's part that belongs below both; imports inside functions count: a late import only
    # hides the circle. A package's __init__ re-exports its modules and is left out.
    modules = {_module_name(p): p for p in _sources() if p.name != "__init__.py"}
    graph = {name: sorted({m for _, m in _imports(path) if m in modules and m != name}) for name, path in modules.items()}
    circles = []
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done

    def walk(name: str, path: list[str]) -> None:
        state[name] = 1
        for nxt in graph[name]:
            if state.get(nxt) == 1:
                circles.append(" -> ".join(path[path.index(nxt):] + [nxt]))
            elif nxt not in state:
                walk(nxt, [*path, nxt])
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            walk(name, [name])
    assert not circles, "modules importing each other in a circle:\n" + "\n".join(circles)


def _family(path: Path) -> str | None:
    """The tool family `path` belongs to (its module or package under tools/), None for the frame."""
    rel = path.relative_to(PACKAGE / "tools")
    name = rel.parts[0].removesuffix(".py")
    return None if name.startswith("_") else name


def test_no_family_imports_another():
    # a helper two families need belongs in the frame (tools/_*.py) or in a library below tools/
    bad = []
    for path in (PACKAGE / "tools").rglob("*.py"):
        if "__pycache__" in path.parts or (path.parent == PACKAGE / "tools" and path.name == "__init__.py"):
            continue
        own = _family(path)
        for line, module in _imports(path):
            parts = module.split(".")
            if parts[:2] != ["minitools", "tools"] or len(parts) < 3:
                continue
            target = parts[2]
            if not target.startswith("_") and target != own:
                bad.append(f"{path.relative_to(PACKAGE.parent)}:{line} ({own or 'frame'}) imports {module}")
    assert not bad, "a tool family imports another family (move the helper to the frame or a library):\n" + "\n".join(bad)


def test_commands_take_library_code_not_the_tools():
    # the CLI runs tools only through the Run (registry/run); it never imports tool code or ToolError
    bad = []
    for path in (PACKAGE / "commands").rglob("*.py"):
        for line, module in _imports(path):
            if module == "minitools.tools" or module.startswith("minitools.tools."):
                bad.append(f"{path.relative_to(PACKAGE.parent)}:{line} imports {module}")
            elif module == "minitools.toolspec" and "ToolError" in _names_from(path, line, module):
                bad.append(f"{path.relative_to(PACKAGE.parent)}:{line} imports ToolError")
    assert not bad, "commands/ import tool code (take it from a library below the tools):\n" + "\n".join(bad)


def _names_from(path: Path, line: int, module: str) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module == module
            and node.lineno == line for alias in node.names}


def _names_a_language(node: ast.expr) -> bool:
    name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
    return name in ("language", "lang")


def _literal_ids(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    return isinstance(node, (ast.Set, ast.Tuple, ast.List)) and any(
        isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts)


def test_language_special_cases_live_in_the_language_catalog():
    # a language is one row of match/_catalog.py: the matcher, the rules, the edits and the tools
    # read row fields, they never compare a language id with a literal
    catalog = PACKAGE / "match" / "_catalog.py"
    bad = []
    for part in ("match", "rules", "edits", "tools", "commands"):
        for path in sorted((PACKAGE / part).rglob("*.py")):
            if path == catalog or "__pycache__" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Compare):
                    sides = [node.left, *node.comparators]
                    if any(_names_a_language(s) for s in sides) and any(_literal_ids(s) for s in sides):
                        bad.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")
    assert not bad, "a language id compared outside the catalog (make it a row field):\n" + "\n".join(bad)
