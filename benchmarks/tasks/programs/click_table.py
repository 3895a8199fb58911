"""Lays out a two-column help table with Click's formatter (a value task's program)."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"))

from click.formatting import HelpFormatter

formatter = HelpFormatter(width=60)
formatter.write_dl([("--name TEXT", "Who to greet."), ("-v", "Verbose."), ("--count INTEGER", "How many times.")])
print(formatter.getvalue())
