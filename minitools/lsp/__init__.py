"""The LSP client: a server catalog as data, detection (root marker AND a binary that answers
initialize), a supervisor of one server per (server, root), documents kept in sync with
disk, positions converted between code points and the negotiated encoding, and
WorkspaceEdits applied all-or-nothing."""

from __future__ import annotations

from minitools.lsp._catalog import (
    BUILT_IN,
    CATALOG,
    LANGUAGES,
    ServerCatalog,
    ServerSpec,
    Unconfigured,
    added_server,
    find_binary,
    find_root,
    language_id,
    language_of,
    project_roots,
    servers_for,
)
from minitools.lsp._client import LSPClient, ServerGone, ServerStartError
from minitools.lsp._columns import from_lsp_column, to_lsp_column
from minitools.lsp._documents import (
    MAX_DOCUMENT_BYTES,
    Document,
    DocumentTooLarge,
    NotRegularFile,
    disk_stamp,
    file_kind,
    path_to_uri,
    read_regular,
    split_lines,
    uri_to_path,
)
from minitools.lsp._edits import EditError, FileChange, apply_plan, apply_text_edits, check_plan, plan_workspace_edit
from minitools.lsp._payloads import PeerPayloadError, check_notification, check_result, check_workspace_edit
from minitools.lsp._supervisor import Candidate, CheckerResult, NoServer, Supervisor

__all__ = [
    "disk_stamp",
    "BUILT_IN",
    "ServerCatalog",
    "added_server",
    "CATALOG",
    "LANGUAGES",
    "ServerSpec",
    "Unconfigured",
    "find_binary",
    "find_root",
    "project_roots",
    "language_id",
    "language_of",
    "servers_for",
    "LSPClient",
    "ServerGone",
    "ServerStartError",
    "Document",
    "NotRegularFile",
    "DocumentTooLarge",
    "MAX_DOCUMENT_BYTES",
    "file_kind",
    "read_regular",
    "path_to_uri",
    "uri_to_path",
    "split_lines",
    "EditError",
    "FileChange",
    "apply_plan",
    "apply_text_edits",
    "check_plan",
    "plan_workspace_edit",
    "PeerPayloadError",
    "check_notification",
    "check_result",
    "check_workspace_edit",
    "from_lsp_column",
    "to_lsp_column",
    "Candidate",
    "CheckerResult",
    "NoServer",
    "Supervisor",
]
