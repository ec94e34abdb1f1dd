#!/usr/bin/env bash
# The MCP serving benchmark: agentkit's `McpServer::serve_http` beside plain rmcp servers of the
# same tool (axum, bare hyper), from outside over loopback. Builds the crate beside this script
# (outside the workspace, with its own Cargo.lock) and runs it: each server its own process on
# core 0, the load generator on core 1. Results: agentkit-core/benches/README.md, "MCP serving".
#
#   bash benches/mcp-serving/run.sh                  # 10 rounds, 4 000 calls a measurement
#   bash benches/mcp-serving/run.sh --rounds 3 --calls 1000 --sessions 1,64
#   bash benches/mcp-serving/run.sh --servers agentkit --sessions 1 --rounds 1 --no-nagle \
#       --wrap 'valgrind --tool=callgrind --callgrind-out-file=target/mcp-serving/cg.out'
#
# Any argument is passed on to `mcp-serving bench` (see `--help` there).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
target="$root/target/mcp-serving"

cargo build --release --locked --manifest-path "$here/Cargo.toml" --target-dir "$target"
bin="$target/release/mcp-serving"

# One core for the servers and one for the client, so that they do not take turns on one
# core; without taskset or a second core, both run wherever the scheduler puts them.
if command -v taskset >/dev/null 2>&1 && [ "$(nproc)" -ge 2 ]; then
    cd "$root" && exec taskset -c 1 "$bin" bench --server-cpus 0 "$@"
fi
echo "warning: no taskset or a single core: servers and client are not pinned" >&2
cd "$root" && exec "$bin" bench --no-pin "$@"
