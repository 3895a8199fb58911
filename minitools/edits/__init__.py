"""Edits computed but not yet written, and their all-or-none write (docs/tools.md, "ast_edit,
resolve"): a pattern's rewrite or a rule's fixes as staged files, their unified diff, and the
store that holds them until they are accepted or discarded.

    proposal = propose_rewrite(searcher, plan, Template.parse("$X.close()"), [root])
    print(unified_diff(proposal.staged))
    EditStore.commit(StagedEdit("cli", proposal.staged, ""), root)   # every file, or none
"""

from __future__ import annotations

from minitools.edits._diff import diff_preview, file_operation, unified_diff
from minitools.edits._fixes import Fixes, RuleScan, scan_rule, stage_fixes
from minitools.edits._rewrite import (
    BrokenFile,
    FileEdits,
    Proposal,
    Replacement,
    RewriteStopped,
    propose_rewrite,
    read_regular_file,
)
from minitools.edits._staging import EditStore, StagedEdit, StagedFile, StaleEdit, UnknownEdit, UnsafeEdit, WriteFailed

__all__ = [
    "BrokenFile",
    "EditStore",
    "FileEdits",
    "Fixes",
    "Proposal",
    "Replacement",
    "RewriteStopped",
    "RuleScan",
    "StagedEdit",
    "StagedFile",
    "StaleEdit",
    "UnknownEdit",
    "UnsafeEdit",
    "WriteFailed",
    "diff_preview",
    "file_operation",
    "propose_rewrite",
    "read_regular_file",
    "scan_rule",
    "stage_fixes",
    "unified_diff",
]
