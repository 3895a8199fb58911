"""The records tool families share with the Run: the rows of lsp results (JSON, so
`TypedDict`s) and the write-time diagnostics reports (`Baseline`, `Written`), which
`run.py`, `ast_edit`'s accept and `lsp_rename` read by attribute, not by key."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypedDict

from minitools.toolspec import ToolResult

__all__ = ["Baseline", "DiagnosticRow", "FileCheck", "LocationRow", "Unavailable", "Written", "NO_SUPERVISOR"]

NO_SUPERVISOR = "no language-server supervisor"


class LocationRow(TypedDict):
    """A place in a file as the model reads it: the path relative to the root, 1-based
    line and column, and the line's text."""

    file: str
    line: int
    column: int
    text: str


class DiagnosticRow(LocationRow):
    severity: str  # error, warning, information, hint
    code: str | None
    message: str
    source: str | None


class FileCheck(TypedDict, total=False):
    """One file of a write-time check (or of a baseline): whether it was checked, by which
    server, and what is new. `unavailable` or `reason` say why it was not."""

    file: str
    server: str
    checked: bool
    new: list[DiagnosticRow]
    new_minor: int  # new hints and information, counted, not listed
    total: int
    baseline: bool  # a baseline existed (check) / was taken (before_write)
    unavailable: str
    reason: str


class Unavailable(TypedDict):
    file: str
    reason: str


@dataclass(frozen=True)
class Baseline:
    """What `before_write` did for each file about to be written (each entry also says where
    its baseline came from, under the key "from": an earlier check, a new file, the server)."""

    text: str
    files: list[dict[str, Any]] = field(default_factory=list)
    reason: str = ""  # set when no baseline could be taken at all
    others: list[dict[str, Any]] = field(default_factory=list)  # the files that may depend on them
    notes: list[str] = field(default_factory=list)  # what finding those left out, or why not

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"files": self.files}
        if self.others or self.notes:
            out["others"] = {"files": self.others, "notes": self.notes}
        if self.reason:
            out["reason"] = self.reason
        return out

    def to_result(self) -> ToolResult:
        return ToolResult(ok=True, text=self.text, data=self.to_json())


@dataclass(frozen=True)
class Written:
    """The diagnostics a write introduced, per written file (`Run.written`), and in the files
    that depend on them (`others`, `others_new`; `others_notes` says what was left out)."""

    text: str
    files: list[FileCheck] = field(default_factory=list)
    new: list[DiagnosticRow] = field(default_factory=list)
    unavailable: list[Unavailable] = field(default_factory=list)
    checked: bool = False
    no_baseline: list[str] = field(default_factory=list)
    reason: str = ""  # set when nothing could be checked at all
    others: list[FileCheck] = field(default_factory=list)
    others_new: list[DiagnosticRow] = field(default_factory=list)
    others_notes: list[str] = field(default_factory=list)

    @property
    def worth_showing(self) -> bool:
        """New diagnostics here or in another file, or the honest "diagnostics unavailable"
        (never silently clean)."""
        return bool(self.new or self.unavailable or self.others_new)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"files": self.files, "new": self.new, "unavailable": self.unavailable,
                               "checked": self.checked, "no_baseline": self.no_baseline,
                               "others": {"files": self.others, "new": self.others_new, "notes": self.others_notes}}
        if self.reason:
            out["reason"] = self.reason
        return out

    def to_result(self) -> ToolResult:
        return ToolResult(ok=True, text=self.text, data=self.to_json())
