#!/usr/bin/env bash
# Real code the lsp tests query (tests/lsp/test_lsp_real_code.py): zlib's example programs and
# zlib.h from Debian's zlib1g-dev (/usr/share/doc/zlib1g-dev/examples); npm's own lib/ comes with
# npm (setup/30-lsp.sh), pluggy and packaging with pytest in the venv.
source "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."

apt_install zlib1g-dev
