"""Names a package exports but loads on first use (PEP 562): `import minitools` and
`import minitools.match` stay cheap, and a name costs its import only when it is read."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_getattr"]


def lazy_getattr(package: str, table: Mapping[str, str], namespace: dict[str, Any]) -> Callable[[str], Any]:
    """A module `__getattr__` for `package`: a name in `table` (name -> module holding it)
    is imported from its module on first use and kept in `namespace` (the package's
    globals), so later reads are plain lookups."""

    def __getattr__(name: str) -> Any:
        module = table.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    return __getattr__
