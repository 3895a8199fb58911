"""Search works from vendored_grammars/ alone, with tree_sitter_language_pack unimportable."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BLOCKED_SEARCH = r'''
import importlib.abc, sys
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "tree_sitter_language_pack" or name.startswith("tree_sitter_language_pack."):
            raise ImportError("blocked for this test: " + name)
        return None
sys.meta_path.insert(0, Block())
import json
from pathlib import Path
from minitools.match import Searcher, compile_pattern, grammar_source
root = Path(sys.argv[1])
out = {}
for lang, pat in (("dart", "if ($X != null) $X.dispose()"), ("python", "$A.total($$$)")):
    res = Searcher(root).search(compile_pattern(pat, lang))
    out[lang] = {"origin": grammar_source(lang).origin, "hits": [(m.path, m.start[0]) for m in res.matches]}
try:
    compile_pattern("free($P)", "c")
    out["c"] = "loaded"
except Exception as exc:
    out["c"] = type(exc).__name__
out["pack_imported"] = "tree_sitter_language_pack" in sys.modules
print(json.dumps(out))
'''


def test_search_from_vendored_grammars_with_the_pack_blocked(repo_root: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", BLOCKED_SEARCH, str(repo_root / "examples" / "sample")],
        capture_output=True, text=True, timeout=60, cwd=repo_root,
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["dart"] == {"origin": "vendored", "hits": [["lib/controller.dart", 11]]}
    assert out["python"]["origin"] == "vendored" and out["python"]["hits"]
    assert out["c"] == "GrammarError"  # not vendored, and the pack is unavailable: a clear error
    assert out["pack_imported"] is False
