#!/usr/bin/env bash
# Structural search tests: the reference `ast-grep` CLI for the differential test and benchmark.
source "$(dirname "$0")/lib.sh"
if ! "$VENV/bin/ast-grep" --version 2>/dev/null | grep -q '0.51.1'; then
    pip_install 'ast-grep-cli==0.51.1'
fi
"$PY" -c "import tree_sitter, tree_sitter_language_pack"
