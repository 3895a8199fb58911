from __future__ import annotations

import subprocess
import sys

import minitools


def test_public_surface_is_pinned():
    assert sorted(minitools.__all__) == sorted([
        "Run", "Tier", "Surface", "ToolSpec", "ToolResult", "ToolError", "Tool", "Registry",
        "ApprovalGate", "SchemaError", "JSONValue", "export", "__version__",
    ])
    for name in minitools.__all__:
        assert hasattr(minitools, name), name


def test_tiers_and_surfaces():
    assert [t.value for t in minitools.Tier] == ["read", "write", "exec"]
    assert [s.value for s in minitools.Surface] == ["full", "plan", "readonly"]


def test_import_is_light():
    # Importing the package must not pull in the grammars, asyncio subprocess machinery of
    # the families, or anything beyond the stdlib: embedders import it on their hot path.
    code = ("import sys, minitools; heavy = [m for m in ('tree_sitter', 'tree_sitter_language_pack') if m in sys.modules]; "
            "print(','.join(heavy))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_every_package_exports_what_it_names():
    # A package whose export list is built from its modules' (`__all__ += _card.__all__`) is
    # not checked by the linter: each name must be there, once.
    import importlib
    import pkgutil

    for info in pkgutil.walk_packages(minitools.__path__, "minitools."):
        if not info.ispkg:
            continue
        package = importlib.import_module(info.name)
        names = getattr(package, "__all__", [])
        assert len(names) == len(set(names)), (info.name, sorted(n for n in names if names.count(n) > 1))
        missing = [n for n in names if not hasattr(package, n)]
        assert not missing, (info.name, missing)
