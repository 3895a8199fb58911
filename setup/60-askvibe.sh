#!/usr/bin/env bash
# ask_user and vibe_* tests: the standard library only (pty, subprocess), plus the [test] extra.
source "$(dirname "$0")/lib.sh"
"$PY" -c "import pty, termios, minitools.ask"
