#!/usr/bin/env bash
# The dispatch benchmark's paths timed in turn, round after round, and each path's ratio to
# the baselines taken within each round, the median over the rounds printed. On a machine
# whose speed drifts (shared, throttled), a drift slows the paths of one round alike, so these
# ratios hold still where `ratios.sh`'s, taken between benchmarks run one after another, do not.
#
#   bash agentkit-core/benches/paired.sh            # 300 rounds of 200 calls a path, a case
#   bash agentkit-core/benches/paired.sh 1000       # more rounds
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-300}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "usage: $0 [ROUNDS]" >&2; exit 2; }
bin=$(cargo bench -q -p agentkit-core --bench dispatch --features derive --no-run --message-format=json 2>/dev/null |
    sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -n 1)
[[ -x $bin ]] || { echo "the dispatch benchmark did not build" >&2; exit 1; }
AGENTKIT_BENCH_PAIRED=$rounds "$bin"
