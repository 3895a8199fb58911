"""Tasks on zlib's example programs (C), as Debian's zlib1g-dev ships them. Every list was
checked by hand against the sources."""

from __future__ import annotations

from ._model import Task

P = "zlib"
J = "gzjoin.c"
# line 142 calls bail in the body of the bget() macro: a call in the source, which a compiler's
# view meets only where the macro is used and a syntax tree reads as the macro's text
BAIL_CALLS = [f"{J}:{n}" for n in (142, 184, 196, 210, 215, 259, 294, 307, 332, 334)]


def _t(id: str, kind: str, question: str, args: dict, truth: object, trivial: bool = False) -> Task:
    return Task(f"zlib/{id}", P, kind, question, args, truth, trivial)


TASKS = [
    _t("def-bail", "definition", "where is bail (gzjoin.c:210) defined?",
       {"name": "bail", "file": J, "line": 210}, [f"{J}:66"], trivial=True),
    _t("def-myalloc", "definition", "where is the myalloc used on line 208 of minigzip.c defined?",
       # minigzip.c's own (its prototype and its definition), not example.c's; both sit in an
       # `#ifdef Z_SOLO` branch that the build's flags leave out, where a compiler's view sees no code
       {"name": "myalloc", "file": "minigzip.c", "line": 208}, ["minigzip.c:152", "minigzip.c:155"]),
    _t("callers-bail", "callers", "which lines call bail (gzjoin.c:66)?",
       {"name": "bail", "file": J, "line": 66}, BAIL_CALLS, trivial=True),
    _t("type-in", "type", "what is the type of in on line 292 of gzjoin.c?",
       {"name": "in", "file": J, "line": 292}, ["bin *"]),
    _t("find-bail-literal", "find_pattern", "every bail(...) call whose first argument is a string literal",
       {"pattern": 'bail("$A", $B)', "regex": r"\bbail\(\""}, [p for p in BAIL_CALLS if p != f"{J}:210"]),
    _t("rename-bclose", "rename", "rename bclose to bin_close",
       {"name": "bclose", "file": J, "line": 87, "new": "bin_close"}, {"places": [f"{J}:87", f"{J}:110", f"{J}:417"]},
       trivial=True),
    _t("replace-bail-empty", "replace", 'rewrite bail(X, "") as bail(X, "(no detail)")',
       {"pattern": 'bail($A, "")', "rewrite": 'bail($A, "(no detail)")', "regex": r'bail\(([^,]+), ""\)',
        "sed": r'bail(\1, "(no detail)")'},
       {"places": [f"{J}:307", f"{J}:332"]}, trivial=True),
    _t("value-got", "value", "in enough's main loop, what is got when n is 10 (enough 20 8 9)?",
       {"program": ["./enough", "20", "8", "9"], "build": "cc -g -O0 -o enough enough.c", "file": "enough.c", "line": 569,
        "condition": "n == 10", "expr": "got"}, "50"),
    _t("value-sum", "value", "in enough's main loop, what is sum when n is 15 (enough 20 8 9)?",
       {"program": ["./enough", "20", "8", "9"], "build": "cc -g -O0 -o enough enough.c", "file": "enough.c", "line": 569,
        "condition": "n == 15", "expr": "sum"}, "951"),
    _t("diag-bclose-arg", "new_diagnostics", "give bclose a second parameter: which lines now have new errors?",
       {"file": J, "line": 87, "old": "bin *in)", "new": "bin *in, int how)"}, [f"{J}:110", f"{J}:417"]),
]
