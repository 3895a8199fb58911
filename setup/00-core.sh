#!/usr/bin/env bash
# The core test set-up: nothing beyond the package's [test] extra, installed by the Makefile.
source "$(dirname "$0")/lib.sh"
"$PY" -c "import minitools, pytest, hypothesis" 
