#!/usr/bin/env bash
# The dispatch benchmark's paths timed in turn, round after round, and each path's ratio to
# the baselines taken within each round, the median over the rounds printed. On a machine
# whose speed drifts (shared, throttled), a drift slows the paths of one round alike, so these
# ratios hold still where `ratios.sh`'s, taken between benchmarks run one after another, do not.
#
#   bash agentkit-core/benches/paired.sh                  # 300 rounds of 200 calls a path, a case
#   bash agentkit-core/benches/paired.sh 1000             # more rounds
#   bash agentkit-core/benches/paired.sh 2000 --runs 10   # ten such runs: each figure's median
#
# Whole runs still move together when the machine changes pace for longer than a run; with
# `--runs N`, each time and ratio printed is the median of N runs' (the README's table).
set -euo pipefail
cd "$(dirname "$0")/../.."
usage() { echo "usage: $0 [ROUNDS] [--runs N]" >&2; exit 2; }
rounds=300
runs=1
while (($#)); do
    case $1 in
        --runs) runs=${2:-}; shift 2 || usage ;;
        *) rounds=$1; shift ;;
    esac
done
[[ $rounds =~ ^[1-9][0-9]*$ && $runs =~ ^[1-9][0-9]*$ ]] || usage
bin=$(cargo bench -q -p agentkit-core --bench dispatch --features derive --no-run --message-format=json 2>/dev/null |
    sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -n 1)
[[ -x $bin ]] || { echo "the dispatch benchmark did not build" >&2; exit 1; }
if ((runs == 1)); then
    AGENTKIT_BENCH_PAIRED=$rounds "$bin"
    exit 0
fi
for ((run = 1; run <= runs; run++)); do
    echo "run $run of $runs ..." >&2
    AGENTKIT_BENCH_PAIRED=$rounds "$bin"
done | awk -v runs="$runs" '
# A case: its argument string, alone on a line. A path: "name  123.4 ns  1.00x  0.51x  0.73x".
/^\{/ { if (!(($0) in seen)) { seen[$0] = 1; cases[++ncases] = $0 }; current = $0; next }
$3 == "ns" && $4 ~ /x$/ {
    key = current SUBSEP $1
    if (!(key in count)) { paths[current, ++npaths[current]] = $1 }
    n = ++count[key]
    ns[key, n] = $2; base[key, n] = $4 + 0; min[key, n] = $5 + 0; serde[key, n] = $6 + 0
}
function median(values, key, n,    i, j, v, sorted) {
    for (i = 1; i <= n; i++) {
        v = values[key, i]
        for (j = i - 1; j >= 1 && sorted[j] > v; j--) sorted[j + 1] = sorted[j]
        sorted[j + 1] = v
    }
    return n % 2 ? sorted[(n + 1) / 2] : (sorted[n / 2] + sorted[n / 2 + 1]) / 2
}
END {
    printf "median of %d runs\n", runs
    for (c = 1; c <= ncases; c++) {
        printf "\n%s\n  %-28s %10s  %9s  %9s  %9s\n", cases[c], "path", "median", "/baseline", "/minimal", "/serde"
        for (p = 1; p <= npaths[cases[c]]; p++) {
            path = paths[cases[c], p]; key = cases[c] SUBSEP path; n = count[key]
            printf "  %-28s %7.1f ns  %8.2fx  %8.2fx  %8.2fx\n", path, median(ns, key, n),
                median(base, key, n), median(min, key, n), median(serde, key, n)
        }
    }
}'
