#!/usr/bin/env bash
# What the eval family's tests need: real pandas and matplotlib (with tabulate for
# markdown tables) in the project venv, and node for the JavaScript kernel.
source "$(dirname "$0")/lib.sh"
if ! "$PY" -c "import pandas, matplotlib, tabulate" 2>/dev/null; then
    pip_install pandas matplotlib tabulate
fi
command -v node >/dev/null 2>&1 || apt_install nodejs
