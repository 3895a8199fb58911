"""The one build step pyproject.toml cannot declare: the tour's sample project and worker
(examples/sample, examples/workers) go into the wheel as minitools/_examples/, where
`minitools.tour` finds them in an installed package. An editable install reads examples/ in
place, so it copies nothing."""

from __future__ import annotations

import os

from setuptools import setup
from setuptools.command.build_py import build_py

EXAMPLES = ("sample", "workers")
SKIPPED_DIRS = {"__pycache__", "node_modules"}


class BuildWithExamples(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        for name in EXAMPLES:
            source = os.path.join("examples", name)
            for folder, dirs, files in os.walk(source):
                dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and not d.startswith("."))
                target = os.path.join(self.build_lib, "minitools", "_examples", os.path.relpath(folder, "examples"))
                self.mkpath(target)
                for file in sorted(files):
                    if not file.endswith((".pyc", ".pyo")) and not file.startswith("."):
                        self.copy_file(os.path.join(folder, file), os.path.join(target, file))


setup(cmdclass={"build_py": BuildWithExamples})
