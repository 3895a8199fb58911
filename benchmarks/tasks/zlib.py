"""Tasks on zlib."""

from __future__ import annotations

from ._model import Task

TASKS: list[Task] = []
