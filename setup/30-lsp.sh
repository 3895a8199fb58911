#!/usr/bin/env bash
# Language servers the lsp tests use (docs/reference.md, "Language servers"): basedpyright and
# python-lsp-server (+ pyflakes) from PyPI into the venv, jedi-language-server (optional),
# fortls (Fortran) from PyPI, typescript-language-server + typescript@5, intelephense,
# bash-language-server, yaml-language-server, vscode-langservers-extracted (JSON, CSS, HTML),
# dockerfile-language-server-nodejs and svelte-language-server from npm into ./node_modules
# (package-lock.json), clangd (and clangd-16) and Perl::LanguageServer (libperl-languageserver-perl)
# from apt. Idempotent: each step checks before it installs.
source "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."

"$PY" -c "import basedpyright, pylsp, pyflakes" 2>/dev/null \
    || pip_install "basedpyright>=1.20" "python-lsp-server>=1.11" "pyflakes>=3"
"$PY" -c "import fortls" 2>/dev/null || pip_install "fortls>=3.2,<4"
"$PY" -c "import jedi_language_server" 2>/dev/null \
    || pip_install "jedi-language-server>=0.41" || echo "jedi-language-server not installed (optional)" >&2

missing=0
for bin in typescript-language-server intelephense bash-language-server yaml-language-server \
           vscode-json-language-server vscode-css-language-server vscode-html-language-server docker-langserver \
           svelteserver; do
    [ -x "node_modules/.bin/$bin" ] || missing=1
done
if [ "$missing" = 1 ] || [ ! -f node_modules/typescript/lib/tsserver.js ]; then
    command -v npm >/dev/null || apt_install nodejs npm
    npm ci --no-audit --no-fund --loglevel=error
fi

command -v clangd >/dev/null || apt_install clangd
# bash-language-server's diagnostics are shellcheck's
command -v shellcheck >/dev/null || apt_install shellcheck
# clangd 16 answers the type hierarchy (14, the default clangd here, has only its own older extension):
# tests/lsp/test_lsp_hierarchy.py configures it as the clangd server
command -v clangd-16 >/dev/null || apt_install clangd-16
# Perl::LanguageServer is a perl module (the lsp catalog's probe loads it); the debug adapter is the
# same module (setup/40-dap.sh)
perl -MPerl::LanguageServer -e 1 2>/dev/null || apt_install libperl-languageserver-perl
