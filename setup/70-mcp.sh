#!/usr/bin/env bash
# `minitools mcp` tests: the official MCP Python SDK (the `mcp` package of the [test] extra; never a
# run-time dependency) and the MCP inspector's command line from npm (pinned in package.json, into
# ./node_modules with package-lock.json). Idempotent: each step checks before it installs.
source "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."

"$PY" -c "import mcp, mcp_types" 2>/dev/null || pip_install "mcp>=2.3"

if [ ! -x node_modules/.bin/mcp-inspector ]; then
    command -v npm >/dev/null || apt_install nodejs npm
    npm ci --no-audit --no-fund --loglevel=error
fi
