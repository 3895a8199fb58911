"""How the Python kernel shows a value (docs/tools.md, "eval"): its MIME bundle, from
`_repr_mimebundle_` or the `_repr_*_` methods, a pandas frame as a bounded table (markdown
when tabulate is there), and a plain repr cut to a bound.

Loaded by the worker by path (it runs on the workspace's interpreter, without minitools).
"""

from __future__ import annotations

import base64
from typing import Any

__all__ = ["mimebundle"]

_MAX_REPR = 200_000  # characters of one repr; the host caps the whole output again
_TABLE_ROWS = 30
_TABLE_COLS = 20


def _plain(obj: object) -> str:
    try:
        text = repr(obj)
    except Exception as exc:  # noqa: BLE001 - a broken __repr__ is the user's to see
        text = f"<repr of {type(obj).__name__} failed: {exc!r}>"
    if len(text) > _MAX_REPR:
        text = text[: _MAX_REPR // 2] + f"\n... [{len(text) - _MAX_REPR} characters cut] ...\n" + text[-_MAX_REPR // 2:]
    return text


_REPR_METHODS = (
    ("text/html", "_repr_html_"),
    ("text/markdown", "_repr_markdown_"),
    ("image/svg+xml", "_repr_svg_"),
    ("image/png", "_repr_png_"),
    ("image/jpeg", "_repr_jpeg_"),
    ("text/latex", "_repr_latex_"),
    ("application/json", "_repr_json_"),
)


def _is_pandas(obj: object) -> bool:
    module = type(obj).__module__ or ""
    return module.startswith("pandas.") and type(obj).__name__ in ("DataFrame", "Series")


def _pandas_bundle(obj: Any) -> dict:
    import pandas as pd  # already imported: obj is a pandas object

    with pd.option_context(
        "display.max_rows", _TABLE_ROWS, "display.min_rows", _TABLE_ROWS,
        "display.max_columns", _TABLE_COLS, "display.width", 200,
        "display.max_colwidth", 60, "display.show_dimensions", True,
    ):
        data = {"text/plain": repr(obj)}
        try:
            html = obj._repr_html_() if hasattr(obj, "_repr_html_") else None
            if html:
                data["text/html"] = html
        except Exception:  # noqa: BLE001 - html is optional
            pass
    try:
        frame = obj if type(obj).__name__ == "DataFrame" else obj.to_frame()
        rows, cols = frame.shape
        shown = frame.iloc[:_TABLE_ROWS, :_TABLE_COLS]
        markdown = shown.to_markdown()
        if rows > _TABLE_ROWS or cols > _TABLE_COLS:
            markdown += f"\n\n({rows} rows x {cols} columns; first {min(rows, _TABLE_ROWS)} rows and {min(cols, _TABLE_COLS)} columns shown)"
        data["text/markdown"] = markdown
    except Exception:  # noqa: BLE001 - to_markdown needs tabulate; plain text is enough
        pass
    return data


def mimebundle(obj: object) -> tuple[dict, dict]:
    """The MIME bundle for `obj`: `_repr_mimebundle_` wins over the `_repr_*_` methods."""
    if _is_pandas(obj):
        return _pandas_bundle(obj), {}
    data: dict = {}
    metadata: dict = {}
    if not isinstance(obj, type):
        method = getattr(obj, "_repr_mimebundle_", None)
        if callable(method):
            try:
                try:
                    got = method(include=None, exclude=None)
                except TypeError:
                    got = method()
            except Exception as exc:  # noqa: BLE001
                got = {"text/plain": f"<_repr_mimebundle_ failed: {exc!r}>"}
            if isinstance(got, tuple):
                got, metadata = got[0], dict(got[1] or {})
            if got:
                data = dict(got)
        if not data:
            for mime, name in _REPR_METHODS:
                method = getattr(obj, name, None)
                if not callable(method):
                    continue
                try:
                    value = method()
                except Exception:  # noqa: BLE001 - a failing rich repr falls back to the next
                    continue
                if isinstance(value, tuple):
                    value = value[0]
                if value is not None:
                    data[mime] = value
    for mime, value in list(data.items()):
        if isinstance(value, (bytes, bytearray)):
            data[mime] = base64.b64encode(bytes(value)).decode("ascii")
        elif mime.startswith("application/") and mime.endswith("json"):
            data[mime] = value
        elif not isinstance(value, str):
            data[mime] = str(value)
    data.setdefault("text/plain", _plain(obj))
    return data, metadata
