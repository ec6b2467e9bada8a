#!/usr/bin/env bash
# mcp-servers.sh: install the reference MCP servers that agent/mcp's
# tests run pair's MCP client against, at the versions they were tested
# with, into DIR (with npm, from the npm registry):
#
#   scripts/mcp-servers.sh /tmp/mcp-servers
#   PAIR_MCP_SERVERS=/tmp/mcp-servers/node_modules go test ./agent/mcp/ -run Reference
#
# Without PAIR_MCP_SERVERS those tests skip; with PAIR_REQUIRE_TOOLS=1
# they fail instead. Needs node and npm.
set -euo pipefail

if [[ $# -ne 1 ]]; then
	echo "usage: $0 DIR" >&2
	exit 2
fi
dir=$1
mkdir -p "$dir"
npm install --prefix "$dir" --no-audit --no-fund --no-save \
	@modelcontextprotocol/server-everything@2026.8.31 \
	@modelcontextprotocol/server-filesystem@2026.8.31 >&2
echo "$(cd "$dir" && pwd)/node_modules"
