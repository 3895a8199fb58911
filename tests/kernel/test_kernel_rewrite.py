"""The IPython-idiom rewriter is a pure str -> str function working on tokens."""

from __future__ import annotations

import pytest

from minitools.kernel import rewrite

CASES = [
    ("%pip install -q rich", "__minitools__.line_magic('pip', 'install -q rich')"),
    ("!ls -la", "__minitools__.system('ls -la')"),
    ("files = !ls", "files = __minitools__.getoutput('ls')"),
    ("x = %pwd", "x = __minitools__.line_magic('pwd', '')"),
    ("!!date", "__minitools__.getoutput('date')"),
    ("if True:\n    !echo hi\n", "if True:\n    __minitools__.system('echo hi')\n"),
    ("s = '%pip install x'\n", "s = '%pip install x'\n"),
    ("s = '''\n!not a command\n'''\n", "s = '''\n!not a command\n'''\n"),
    ("y = (10\n     % 3)\n", "y = (10\n     % 3)\n"),
    ("# !comment\nx = 1\n", "# !comment\nx = 1\n"),
    ("x = a % b", "x = a % b"),
    ("%%bash\necho $HOME\n", "__minitools__.cell_magic('bash', '', 'echo $HOME\\n')\n"),
    ("%%timeit -n 3\n!true\n", "__minitools__.cell_magic('timeit', '-n 3', \"__minitools__.system('true')\\n\")\n"),
]


@pytest.mark.parametrize(("cell", "expected"), CASES)
def test_rewrite(cell: str, expected: str) -> None:
    assert rewrite(cell) == expected


def test_plain_python_is_untouched() -> None:
    cell = "import os\nprint(os.getcwd() != '')\nz = {'a': 1 % 2}\n"
    assert rewrite(cell) == cell
