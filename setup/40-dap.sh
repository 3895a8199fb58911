#!/usr/bin/env bash
# What the debug family's tests drive: debugpy (PyPI, into the venv), lldb-vscode-16 (apt lldb-16;
# Debian 12 has no lldb-dap name), delve + the Go toolchain (apt), gcc for the C test program, gdb,
# which gives the task benchmark's C values their ground truth (benchmarks/tasks/_judge.py), and
# node for minitools' own node adapter (its TypeScript tests use typescript and ts-node from
# ./node_modules, which setup/30-lsp.sh installs with npm ci), and Perl::LanguageServer, whose
# debug adapter debugs Perl (apt libperl-languageserver-perl).
source "$(dirname "$0")/lib.sh"

# Another set-up script may hold the dpkg lock at the same moment: wait and retry.
apt_install_retry() {
    local try
    for try in 1 2 3 4 5 6 7 8 9 10; do
        apt_install "$@" && return 0
        echo "apt busy (try $try); retrying in 15 s" >&2
        sleep 15
    done
    apt_install "$@"
}

"$PY" -c "import debugpy" 2>/dev/null || pip_install "debugpy>=1.8,<2"
command -v lldb-vscode-16 >/dev/null || command -v lldb-dap >/dev/null || apt_install_retry lldb-16
command -v dlv >/dev/null || apt_install_retry delve
command -v go >/dev/null || apt_install_retry golang-go
command -v gcc >/dev/null || apt_install_retry gcc
command -v gdb >/dev/null || apt_install_retry gdb
command -v node >/dev/null || apt_install_retry nodejs
perl -MPerl::LanguageServer -e 1 2>/dev/null || apt_install_retry libperl-languageserver-perl
