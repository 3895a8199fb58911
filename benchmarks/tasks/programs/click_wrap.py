"""Wraps a help text of several paragraphs with Click's formatter (a value task's program)."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"))

from click.formatting import wrap_text

TEXT = """First paragraph, long enough to be wrapped at least once by the formatter here.

    An indented paragraph: its indent is kept.

\b
keep
  these lines as they are

Last words."""
print(wrap_text(TEXT, width=40, preserve_paragraphs=True))
