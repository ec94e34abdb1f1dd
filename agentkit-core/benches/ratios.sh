#!/usr/bin/env bash
# Runs the dispatch benchmark once and prints, per argument case, each path's median time and
# allocations, and its ratio to the three baselines measured in the same run (the machine may
# be shared and noisy: compare within one run, never across runs).
#
#   bash agentkit-core/benches/ratios.sh            # from the workspace root
#   bash agentkit-core/benches/ratios.sh --sample-count 5000
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo bench -q -p agentkit-core --bench dispatch --features derive -- "$@" 2>/dev/null |
awk '
function ns(value, unit) {
    if (unit == "ps") return value / 1000
    if (unit == "ns") return value
    if (unit == "µs" || unit == "us") return value * 1000
    if (unit == "ms") return value * 1000000
    return value * 1000000000
}
# A group: "├─ name   │ ..." with no numbers.
/^(├|╰)─ / { group = $2; next }
# A case: "│  ├─ {args}   fastest │ slowest │ median │ mean │ samples │ iters".
/^│  (├|╰)─ / {
    line = $0
    sub(/^│  (├|╰)─ /, "", line)
    n = split(line, cols, "│")
    # cols[1] is "{args}  fastest"; the median is cols[3].
    args = cols[1]; sub(/ +[0-9.]+ [^ ]+ *$/, "", args)
    split(cols[3], median, " ")
    current = group SUBSEP args
    time[current] = ns(median[1], median[2])
    cases[args] = 1; groups[group] = 1
    want_alloc = 0
    next
}
/^│  .* alloc:/ && $0 !~ /max alloc/ { want_alloc = 1; next }
want_alloc == 1 {
    line = $0; gsub(/[│ ]+/, " ", line); split(line, f, " ")
    allocs[current] = f[1]; want_alloc = 0; next
}
END {
    nb = split("baseline_parse_check_fill minimal_executor serde_only", bases, " ")
    np = split("dispatch dispatch_typed minimal_executor serde_only dispatch_typed_text serde_only_text", paths, " ")
    for (args in cases) {
        printf "\n%s\n", args
        printf "  %-26s %10s %7s %10s %10s %10s\n", "path", "median", "allocs", "/baseline", "/minimal", "/serde"
        for (i = 1; i <= nb; i++) {
            k = bases[i] SUBSEP args
            if (bases[i] != "baseline_parse_check_fill") continue
            printf "  %-26s %8.1f ns %7s\n", bases[i], time[k], allocs[k]
        }
        for (i = 1; i <= np; i++) {
            k = paths[i] SUBSEP args
            # The `_text` rows also make the model text: compared with serde-only doing so too.
            serde = paths[i] ~ /_text$/ ? "serde_only_text" : "serde_only"
            printf "  %-26s %8.1f ns %7s %9.2fx %9.2fx %9.2fx\n", paths[i], time[k], allocs[k],
                time[k] / time["baseline_parse_check_fill" SUBSEP args],
                time[k] / time["minimal_executor" SUBSEP args],
                time[k] / time[serde SUBSEP args]
        }
    }
}'
