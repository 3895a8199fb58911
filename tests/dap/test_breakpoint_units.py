"""The parts of debug's breakpoints that need no adapter: where the parser finds a function's first
line, and how a breakpoint follows its line through an edit."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from minitools.tools.debug._breakpoints import Entry, follow, read_lines
from minitools.tools.debug._functions import find_functions
from minitools.toolspec import ToolError

FUNCTIONS = [
    ("a.py", "class Cart:\n    def total(self):\n        '''Sum.'''\n        # c\n        return 1\n", "Cart.total", 5),
    ("a.py", "def total(items):\n    acc = 0\n    return acc\n", "total", 2),
    ("a.go", "package main\n\nfunc (c *Cart) Total() int {\n\treturn 1\n}\n", "Cart.Total", 4),
    ("a.c", "static int *total(int x) {\n    int y = x;\n    return 0;\n}\n", "total", 2),
    ("a.rs", "impl Cart {\n    fn total(&self) -> i32 {\n        let y = 1;\n        y\n    }\n}\n", "Cart.total", 3),
    ("a.js", "const total = (xs) => {\n  return xs.length;\n};\n", "total", 2),
    ("a.js", "class Cart {\n  total() {\n    return 1;\n  }\n}\n", "Cart.total", 3),
    ("a.dart", "class Cart {\n  int total() {\n    return 1;\n  }\n}\n", "Cart.total", 3),
]


@pytest.mark.parametrize(("path", "source", "name", "first_line"), FUNCTIONS)
def test_the_parser_finds_the_first_line_of_a_function(path: str, source: str, name: str, first_line: int) -> None:
    sites = find_functions(path, source.encode(), name)
    assert [(s.name, s.first_line) for s in sites] == [(name, first_line)], find_functions(path, source.encode())


def test_a_method_is_found_by_its_last_name_and_told_apart_by_its_class() -> None:
    source = b"class A:\n    def run(self):\n        pass\n\nclass B:\n    def run(self):\n        pass\n"
    assert [s.name for s in find_functions("a.py", source, "run")] == ["A.run", "B.run"]
    assert [s.line for s in find_functions("a.py", source, "B.run")] == [6]


BEFORE = ["def f(xs):", "    acc = 0", "    for x in xs:", "        acc += x", "    return acc"]


def _followed(entry: Entry, after: list[str]) -> tuple[list[Entry], list[str]]:
    entries = [entry]
    notes = follow(entries, "/p/a.py", "a.py", BEFORE, after, live=False)
    return entries, notes


def test_a_breakpoint_keeps_its_own_line_when_a_line_like_it_is_added_nearer() -> None:
    after = ["def f(xs):", "    acc = 0", "    acc += x", "    for x in xs:", "        acc += x", "    return acc"]
    entries, notes = _followed(Entry(4, "acc += x"), after)
    assert entries[0].line == 5 and notes == ["breakpoint a.py:5  | acc += x moved from line 4 with its code"]


def test_a_breakpoint_whose_line_was_edited_in_place_stays_on_it() -> None:
    after = ["def f(xs):", "    acc = 0", "    for x in xs:", "        acc += x * 2", "    return acc"]
    entries, notes = _followed(Entry(4, "acc += x"), after)
    assert (entries[0].line, entries[0].text, notes) == (4, "acc += x * 2", [])


def test_a_breakpoint_whose_line_was_replaced_stays_while_the_line_holds_its_symbol() -> None:
    after = ["def f(xs):", "    acc = 0", "    for x in xs:", "        if x:", "            acc = acc + x", "    return acc"]
    entries, notes = _followed(Entry(4, "acc += x", "acc"), after)
    assert (entries[0].line, entries[0].text) == (5, "acc = acc + x"), entries
    assert notes == ["breakpoint a.py:5 (acc)  | acc = acc + x moved from line 4 with its code"]


def test_a_breakpoint_whose_line_is_gone_is_lost() -> None:
    after = ["def f(xs):", "    acc = 0", "    for x in xs:", "        pass", "        pass", "    return acc"]
    entries, notes = _followed(Entry(4, "acc += x"), after)
    assert entries == [] and notes == ["breakpoint a.py:4 is lost: no line reads 'acc += x' any more; it was removed. "
                                       "Set it again."]


def test_a_function_breakpoint_follows_its_function() -> None:
    after = ["import os", "", *BEFORE]
    entries, notes = _followed(Entry(2, "acc = 0", function="f"), after)
    assert entries[0].line == 4 and notes == ["breakpoint function f (a.py:4) moved from line 2 with its code"]


def test_a_fifo_is_refused_not_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "prog.py"
    os.mkfifo(fifo)
    with pytest.raises(ToolError, match="is not a regular file; breakpoints go in a source file"):
        read_lines(str(fifo))
