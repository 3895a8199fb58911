"""Tasks on Click 8.5.1 (Python). Lines are the sdist's; every list was checked by hand against
the sources (reading each place), and the call lists also with Python's own `ast` module
(tests/bench/test_bench_tasks.py does that again)."""

from __future__ import annotations

from ._model import Task

P = "click"
CORE, TYPES, FMT, PARSER = "src/click/core.py", "src/click/types.py", "src/click/formatting.py", "src/click/parser.py"


def _t(id: str, kind: str, question: str, args: dict, truth: object, trivial: bool = False) -> Task:
    return Task(f"click/{id}", P, kind, question, args, truth, trivial)


TASKS = [
    # ---- where is X defined ----
    _t("def-get_default", "definition", "where is the get_default called on line 895 of core.py defined?",
       {"name": "get_default", "file": CORE, "line": 895},
       # Parameter.get_default: two overload signatures and the implementation (not Option's, not a test's)
       [f"{CORE}:2473", f"{CORE}:2478", f"{CORE}:2482"]),
    _t("def-invoke", "definition", "where is the invoke called on line 1414 of core.py defined?",
       {"name": "invoke", "file": CORE, "line": 1414},
       [f"{CORE}:854", f"{CORE}:859", f"{CORE}:861"]),  # Context.invoke (ctx: Context), not Command.invoke
    _t("def-echo", "definition", "where is the echo called on line 104 of core.py defined?",
       {"name": "echo", "file": CORE, "line": 104},
       ["src/click/utils.py:240"]),  # not the test's nested `def echo()`
    _t("def-format_filename", "definition", "where is format_filename (exceptions.py:353) defined?",
       {"name": "format_filename", "file": "src/click/exceptions.py", "line": 353},
       ["src/click/utils.py:430"], trivial=True),
    _t("def-_split_opt", "definition", "where is _split_opt (formatting.py:312) defined?",
       {"name": "_split_opt", "file": FMT, "line": 312}, [f"{PARSER}:111"], trivial=True),
    # ---- who calls X ----
    _t("callers-get_default", "callers", "which lines call Parameter.get_default (core.py:2482)?",
       {"name": "get_default", "file": CORE, "line": 2482},
       # param: Parameter; self in Parameter; super() in Option. Option's own calls go to Option.get_default.
       [f"{CORE}:895", f"{CORE}:2559", f"{CORE}:3244"]),
    _t("callers-_split_opt", "callers", "which lines call _split_opt (parser.py:111)?",
       {"name": "_split_opt", "file": PARSER, "line": 111},
       [f"{PARSER}:123", f"{PARSER}:142", f"{FMT}:312", f"{CORE}:2109", f"{CORE}:3283", f"{CORE}:3296", f"{CORE}:3478"],
       trivial=True),
    _t("callers-measure_table", "callers", "which lines call measure_table (formatting.py:14)?",
       {"name": "measure_table", "file": FMT, "line": 14}, [f"{FMT}:244"], trivial=True),
    # ---- implementations ----
    _t("impl-convert", "implementations", "which methods implement ParamType.convert (types.py:179)?",
       {"name": "convert", "base": "ParamType", "file": TYPES, "line": 179},
       [f"{TYPES}:{n}" for n in (179, 275, 295, 307, 454, 566, 598, 666, 870, 891, 984, 1161, 1289)]
       + ["tests/typing/typing_prompt.py:35"]
       + [f"tests/test_termui.py:{n}" for n in (1725, 1734, 1747, 1760, 1769, 1778, 1787, 1796, 1807)]
       + ["tests/test_defaults.py:280", "tests/test_options.py:2150", "tests/test_types/test_ParamType.py:19",
          "tests/test_utils/test_prompt.py:25"]),  # classes inside test functions
    _t("impl-get_default", "implementations", "which methods implement Parameter.get_default (core.py:2482)?",
       {"name": "get_default", "base": "Parameter", "file": CORE, "line": 2482},
       [f"{CORE}:2473", f"{CORE}:2478", f"{CORE}:2482", f"{CORE}:3222", "tests/test_options.py:1121"]),
    _t("impl-parse_args", "implementations", "which methods implement Command.parse_args (core.py:1367)?",
       {"name": "parse_args", "base": "Command", "file": CORE, "line": 1367},
       # Command's, Group's and a test's Command subclass; not _OptionParser.parse_args (parser.py:298)
       [f"{CORE}:1367", f"{CORE}:2006", "tests/test_commands.py:157"]),
    # ---- the type of a name ----
    _t("type-formatter", "type", "what is the type of formatter on line 1099 of core.py?",
       {"name": "formatter", "file": CORE, "line": 1099}, ["HelpFormatter"]),
    _t("type-raw", "type", "what is the type of raw on line 3244 of core.py?",
       {"name": "raw", "file": CORE, "line": 3244},
       ["t.Any | t.Callable[[], t.Any] | None", "Any | (() -> Any) | None"]),
    # ---- rename ----
    _t("rename-measure_table", "rename", "rename measure_table to measure_columns everywhere",
       {"name": "measure_table", "file": FMT, "line": 14, "new": "measure_columns"},
       {"places": [f"{FMT}:14", f"{FMT}:244"]}, trivial=True),
    _t("rename-rv", "rename", "rename wrap_text's local rv to paragraphs",
       {"name": "rv", "file": FMT, "line": 99, "new": "paragraphs"},
       {"places": [f"{FMT}:{n}" for n in (99, 103, 105, 107)]}),
    # ---- find and replace by shape ----
    _t("find-echo-err", "find_pattern", "every call of echo(...) with err=True in src/",
       {"pattern": "echo($$$A, err=True, $$$B)", "regex": r"\becho\(.*err=True", "path": "src"},
       [f"{CORE}:1411", f"{CORE}:2807", "src/click/exceptions.py:339", "src/click/shell_completion.py:414",
        "src/click/shell_completion.py:422"]),
    _t("find-fail-literal", "find_pattern", "every self.fail(...) whose first argument is a string literal",
       {"pattern": 'self.fail("$M", $$$A)', "regex": r"self\.fail\(\s*[\"']"},
       ["tests/test_termui.py:1727", "tests/test_termui.py:1770"]),
    _t("replace-isinstance-str", "replace", "rewrite isinstance(X, str) as isinstance(X, (str,)) in src/",
       {"pattern": "isinstance($X, str)", "rewrite": "isinstance($X, (str,))", "path": "src",
        "regex": r"isinstance\(([^(),]+), str\)", "sed": r"isinstance(\1, (str,))"},
       {"places": ["src/click/_winconsole.py:200"]
        + [f"{CORE}:{n}" for n in (110, 119, 2203, 2555, 2730, 2881, 3145, 3257, 3437, 3457, 3483)]
        + ["src/click/exceptions.py:20", f"{PARSER}:455", "src/click/termui.py:121", "src/click/termui.py:385",
           "src/click/termui.py:391", "src/click/termui.py:618", "src/click/termui.py:735", "src/click/testing.py:225",
           "src/click/testing.py:677", "src/click/utils.py:307"]}),
    # ---- a value when a loop meets a condition ----
    _t("value-widths", "value", "in measure_table's loop, what is widths when col is '-v'?",
       {"program": ["click_table.py"], "file": FMT, "line": 19, "condition": "col == '-v'", "expr": "widths"},
       "{0: 11, 1: 13}"),
    _t("value-largs", "value", "in _process_args_for_options, what is state.largs when arg is '--'?",
       {"program": ["click_parse.py"], "file": PARSER, "line": 333, "condition": "arg == '--'", "expr": "state.largs"},
       "['a.txt', 'b.txt']"),
    _t("value-indent", "value", "in wrap_text's loop, what is indent when the line starts with 'An'?",
       {"program": ["click_wrap.py"], "file": FMT, "line": 96, "condition": "line.startswith('An')", "expr": "indent"},
       "4"),
    # ---- did this edit break anything ----
    _t("diag-split_opt-arg", "new_diagnostics", "give _split_opt a second parameter: which lines now have new errors?",
       {"file": PARSER, "line": 111, "old": "opt: str)", "new": "opt: str, sep: str)"},
       [f"{PARSER}:123", f"{PARSER}:142", f"{FMT}:312", f"{CORE}:2109", f"{CORE}:3283", f"{CORE}:3296", f"{CORE}:3478"]),
    _t("diag-wrap-return", "new_diagnostics", "make wrap_text return the list: which lines now have new errors?",
       {"file": FMT, "line": 107, "old": 'return "\\n\\n".join(rv)', "new": "return rv"},
       [f"{FMT}:107"]),
]
