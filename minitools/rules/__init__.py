"""ast-grep's rule language over the structural matcher: rule objects (atomic, relational,
composite), rule files in YAML or JSON, utilities, constraints, transforms and fixes, run
over each file in one pass (docs/tools.md, "Rules").

    config = read_config({"id": "no-eval", "language": "python", "rule": {"pattern": "eval($X)"}})
    RuleSet([config]).scan_source(b"eval(x)", "python")   # [Finding(...)]
"""

from __future__ import annotations

from minitools.rules._config import RuleConfig, RuleError, read_config
from minitools.rules._project import (
    Project,
    RuleTest,
    load_project,
    load_rule_file,
    load_rule_text,
    load_tests,
    read_documents,
)
from minitools.rules._reader import COMPOSITE_KEYS, RELATIONAL_KEYS, RULE_KEYS, read_rule
from minitools.rules._scan import Finding, RuleSet, unused_config
from minitools.rules._snapshots import read_snapshots, render_snapshots, snapshot_path, write_text_atomic
from minitools.rules._testing import TestOutcome, run_tests
from minitools.rules._transform import Fix
from minitools.rules._yaml import YamlError, load_documents

__all__ = [
    "COMPOSITE_KEYS",
    "RELATIONAL_KEYS",
    "RULE_KEYS",
    "Finding",
    "Fix",
    "Project",
    "RuleConfig",
    "RuleError",
    "RuleSet",
    "unused_config",
    "RuleTest",
    "TestOutcome",
    "YamlError",
    "load_documents",
    "load_project",
    "load_rule_file",
    "load_rule_text",
    "load_tests",
    "read_config",
    "read_documents",
    "read_rule",
    "run_tests",
    "read_snapshots",
    "render_snapshots",
    "snapshot_path",
    "write_text_atomic",
]
