#!/usr/bin/env bash
# `minitools mcp` tests: the official MCP Python SDK (the `mcp` package of the [test] extra; never a
# run-time dependency), and from npm (pinned in package.json, into ./node_modules with
# package-lock.json) the MCP inspector's command line, the TypeScript SDK's v2 client
# (@modelcontextprotocol/client, both protocol generations) and the real hosts the host tests run: the
# Claude Code and Codex CLIs (their native binaries come as npm packages; no login is needed, the
# tests point them at a stand-in model API on loopback). Idempotent: each step checks before it installs.
source "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."

"$PY" -c "import mcp, mcp_types" 2>/dev/null || pip_install "mcp>=2.3"

if [ ! -x node_modules/.bin/mcp-inspector ] || [ ! -x node_modules/.bin/claude ] || [ ! -x node_modules/.bin/codex ] \
        || [ ! -f node_modules/@modelcontextprotocol/client/package.json ]; then
    command -v npm >/dev/null || apt_install nodejs npm
    npm ci --no-audit --no-fund --loglevel=error
fi
