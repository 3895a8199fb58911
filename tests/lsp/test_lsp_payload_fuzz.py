"""Fuzz of what a language server sends (workspace edits, notifications, results), near the
protocol's shapes and far from them. The invariant, one sentence: whatever a server sends, the
client uses it or refuses it as the server's fault (EditError, PeerPayloadError, an RPCError
answer, a dropped notification), never anything else (docs/tools.md, "Hostile peers and files")."""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minitools.lsp import (
    CATALOG,
    EditError,
    LSPClient,
    PeerPayloadError,
    check_result,
    path_to_uri,
    plan_workspace_edit,
)
from minitools.tools.lsp._format import diagnostic_row, hover_text, locations, symbol_kind
from minitools.tools.lsp._outline import outline_rows, symbol_tree
from minitools.transport import JSONRPCEndpoint, RPCError

ROOT = Path(tempfile.mkdtemp(prefix="lsp-fuzz-")).resolve()
(ROOT / "a.py").write_text("def helper(x):\n    return x * 2\n\nprint(helper(1))\n", encoding="utf-8")
(ROOT / "b.py").write_text("é = '😀'\r\nz = 1\r\n", encoding="utf-8")
(ROOT / "sub").mkdir()
FUZZ = settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-2**40, 2**40) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=12,
)


def near(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Mostly `strategy`, sometimes any JSON in its place."""
    return st.one_of(strategy, strategy, strategy, JSON)


URIS = st.sampled_from([path_to_uri(ROOT / n) for n in ("a.py", "b.py", "new.py", "sub/c.py", "sub")]
                       + [path_to_uri(ROOT), "file:///etc/passwd", "file:///tmp/%00x.py", "file:relative.py",
                          "untitled:x", path_to_uri(ROOT) + "/a%2Epy", path_to_uri(ROOT) + "/" + "x" * 300])
TEXT = st.one_of(st.text(max_size=12), st.sampled_from(["\ud800", "a\udfffb", "\n", "\r\n", "😀"]))
POSITION = near(st.fixed_dictionaries({"line": near(st.integers(-3, 8)), "character": near(st.integers(-6, 40))}))
RANGE = near(st.fixed_dictionaries({"start": POSITION, "end": POSITION}))
TEXT_EDIT = near(st.fixed_dictionaries({"range": RANGE, "newText": near(TEXT)}))
OPTIONS = near(st.fixed_dictionaries({}, optional={"overwrite": near(st.booleans()), "ignoreIfExists": near(st.booleans()),
                                                   "ignoreIfNotExists": near(st.booleans())}))
DOCUMENT_EDIT = st.fixed_dictionaries({
    "textDocument": near(st.fixed_dictionaries({"uri": near(URIS)}, optional={"version": near(st.integers(0, 3) | st.none())})),
    "edits": near(st.lists(TEXT_EDIT, max_size=3))})
OPERATION = st.one_of(
    st.fixed_dictionaries({"kind": st.just("create"), "uri": near(URIS)}, optional={"options": OPTIONS}),
    st.fixed_dictionaries({"kind": st.just("rename"), "oldUri": near(URIS), "newUri": near(URIS)}, optional={"options": OPTIONS}),
    st.fixed_dictionaries({"kind": near(st.sampled_from(["delete", "explode"])), "uri": near(URIS)}, optional={"options": OPTIONS}),
)
WORKSPACE_EDIT = near(st.fixed_dictionaries({}, optional={
    "changes": near(st.dictionaries(st.one_of(URIS, st.text(max_size=6)), near(st.lists(TEXT_EDIT, max_size=3)), max_size=3)),
    "documentChanges": near(st.lists(near(st.one_of(DOCUMENT_EDIT, OPERATION)), max_size=4)),
}))


@FUZZ
@given(WORKSPACE_EDIT, st.sampled_from(["utf-16", "utf-8", "utf-32"]))
def test_a_workspace_edit_is_planned_or_refused_as_the_servers_fault(edit: Any, encoding: str) -> None:
    before = {p: p.read_bytes() for p in ROOT.rglob("*") if p.is_file()}
    try:
        plan = plan_workspace_edit(edit, encoding, top=ROOT, versions={path_to_uri(ROOT / "a.py"): 1})
    except EditError:
        return
    for change in plan:
        assert change.path == ROOT or ROOT in change.path.parents
        assert change.after is None or isinstance(change.after, str)
        (change.after or "").encode("utf-8")  # writable as UTF-8
    assert {p: p.read_bytes() for p in ROOT.rglob("*") if p.is_file()} == before  # planning writes nothing


DIAGNOSTIC = near(st.fixed_dictionaries({"range": RANGE, "message": near(TEXT)},
                                        optional={"severity": near(st.integers(0, 5)), "code": near(st.integers() | st.text(max_size=4)),
                                                  "source": near(st.text(max_size=4))}))
NOTIFICATIONS = st.one_of(
    st.tuples(st.just("textDocument/publishDiagnostics"), near(st.fixed_dictionaries(
        {"uri": near(URIS), "diagnostics": near(st.lists(DIAGNOSTIC, max_size=3))}, optional={"version": near(st.integers(-1, 3))}))),
    st.tuples(st.just("$/progress"), near(st.fixed_dictionaries({"token": near(st.text(max_size=3) | st.integers()), "value": near(
        st.fixed_dictionaries({"kind": near(st.sampled_from(["begin", "report", "end"]))},
                              optional={"title": near(TEXT), "message": near(TEXT), "percentage": near(st.integers(-5, 200))}))}))),
)
REQUESTS = st.one_of(
    st.tuples(st.just("workspace/applyEdit"), near(st.fixed_dictionaries({"edit": WORKSPACE_EDIT}))),
    st.tuples(st.sampled_from(["client/registerCapability", "client/unregisterCapability"]), near(st.fixed_dictionaries(
        {"registrations": near(st.lists(near(st.fixed_dictionaries({"id": near(st.text(max_size=3)), "method": near(st.text(max_size=5))})),
                                        max_size=2))}))),
    st.tuples(st.just("workspace/configuration"), near(st.fixed_dictionaries(
        {"items": near(st.lists(near(st.fixed_dictionaries({}, optional={"section": near(st.text(max_size=6))})), max_size=2))}))),
)


def _client() -> LSPClient:
    client = LSPClient(CATALOG[0], ROOT, ["fake"], None)
    client.rpc = JSONRPCEndpoint()
    client._install_handlers()
    return client


@FUZZ
@given(st.lists(st.one_of(NOTIFICATIONS, REQUESTS), min_size=1, max_size=6))
def test_notifications_and_requests_from_a_server_are_used_or_refused(messages: list[tuple[str, Any]]) -> None:
    async def deliver() -> LSPClient:
        client = _client()
        assert client.rpc is not None
        for method, params in messages:
            if method in client.rpc.notifications:
                client.rpc.notifications[method](params)
                continue
            with contextlib.suppress(RPCError):  # a request that does not fit is answered with an error
                client.rpc.requests[method](params)
        return client

    client = asyncio.run(deliver())
    for uri, found in client.diagnostics.items():
        assert isinstance(uri, str) and all(isinstance(d, dict) for d in found)
        for d in found:  # what the tools make of them
            diagnostic_row(client, "a.py", "x = 1\n", d)
    client.progress.describe()


class _Docs:
    """A client's documents and encoding, for the formatters."""

    def __init__(self) -> None:
        self.documents: dict[str, Any] = {}
        self.encoding = "utf-16"


LOCATION = near(st.fixed_dictionaries({"uri": near(URIS), "range": RANGE}))
LINK = near(st.fixed_dictionaries({"targetUri": near(URIS)}, optional={"targetRange": RANGE, "targetSelectionRange": RANGE}))
MARKED = near(st.one_of(TEXT, st.fixed_dictionaries({"kind": near(TEXT), "value": near(TEXT)}),
                        st.fixed_dictionaries({"language": near(TEXT), "value": near(TEXT)})))
SYMBOL = st.deferred(lambda: near(st.fixed_dictionaries(
    {"name": near(TEXT), "kind": near(st.integers(0, 30)), "range": RANGE, "selectionRange": RANGE},
    optional={"children": near(st.lists(SYMBOL, max_size=2))})))
RESULTS = st.one_of(
    st.tuples(st.sampled_from(["textDocument/definition", "textDocument/references"]),
              near(st.one_of(st.none(), LOCATION, st.lists(st.one_of(LOCATION, LINK), max_size=3)))),
    st.tuples(st.just("textDocument/hover"), near(st.one_of(st.none(), st.fixed_dictionaries(
        {"contents": near(st.one_of(MARKED, st.lists(MARKED, max_size=2)))})))),
    st.tuples(st.just("textDocument/documentSymbol"), near(st.lists(SYMBOL, max_size=3))),
    st.tuples(st.just("textDocument/rename"), near(st.one_of(st.none(), WORKSPACE_EDIT))),
)


@FUZZ
@given(RESULTS)
def test_a_result_is_used_or_refused_as_the_servers_fault(answer: tuple[str, Any]) -> None:
    method, result = answer
    try:
        check_result(method, result)
    except PeerPayloadError as exc:
        assert exc.reason
        return
    client: Any = _Docs()
    relpath = lambda p: str(p)  # noqa: E731
    if method == "textDocument/hover":
        hover_text(result).encode("utf-8")
    elif method == "textDocument/documentSymbol":
        nodes = symbol_tree(result or [], path_to_uri(ROOT / "a.py"))
        outline_rows(nodes, 50, lambda uri, rng: {"file": "a.py", "line": 1, "column": 1, "text": ""}, symbol_kind)
    elif method == "textDocument/rename" and result is not None:
        with contextlib.suppress(EditError):
            plan_workspace_edit(result, "utf-16", top=ROOT)
    else:
        for row in locations(client, relpath, result):
            assert row["line"] >= 1 and row["column"] >= 1
