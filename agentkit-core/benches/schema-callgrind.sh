#!/usr/bin/env bash
# Instructions per validation of each case of the JSON Schema benchmark (`schema.rs`), agentkit
# beside the `jsonschema` crate, counted by callgrind: unlike the wall clock, they do not move
# with the machine's load.
#
#   bash agentkit-core/benches/schema-callgrind.sh                 # every case
#   bash agentkit-core/benches/schema-callgrind.sh flat:valid      # one case and instance
#
# Each benchmark runs in the bench binary (`AGENTKIT_BENCH_LOOP`, release build) for 0 and
# for 2000 calls; the difference, divided by 2000, is one call's, without the setup (agentkit's
# `validate` takes its value mutably: the copy each call makes of it is counted and taken away). Needs valgrind.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v valgrind >/dev/null || { echo "needs valgrind: apt-get install valgrind" >&2; exit 2; }
bin=$(cargo bench -q -p agentkit-core --bench schema --no-run --message-format=json 2>/dev/null |
    sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -n 1)
[[ -x $bin ]] || { echo "the schema benchmark did not build" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
calls=2000
total() {
    callgrind_annotate "$1" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }'
}
count() {
    local spec=$1 n=$2
    AGENTKIT_BENCH_LOOP="$spec:$n" valgrind --tool=callgrind \
        --callgrind-out-file="$out/run" "$bin" >/dev/null 2>&1
    total "$out/run"
}
per_call() {
    echo $(( ($(count "$1" "$calls") - $(count "$1" 0)) / calls ))
}
targets=${*:-"flat:valid flat:invalid tagged_union:valid tagged_union:invalid recursive_refs:valid recursive_refs:invalid patterns_formats:valid patterns_formats:invalid"}
printf '%-26s %9s %9s %6s %9s %9s %6s\n' "case" "is_valid" "js" "ratio" "errors" "js" "ratio"
for target in $targets; do
    case=${target%%:*} instance=${target##*:}
    a=$(per_call "$case:is_valid_agentkit:$instance")
    j=$(per_call "$case:is_valid_jsonschema:$instance")
    ae=$(( $(per_call "$case:all_errors_agentkit:$instance") - $(per_call "$case:copy:$instance") ))
    je=$(per_call "$case:all_errors_jsonschema:$instance")
    printf '%-26s %9d %9d %6.2f %9d %9d %6.2f\n' "$case/$instance" "$a" "$j" \
        "$(echo "$j / $a" | bc -l)" "$ae" "$je" "$(echo "$je / $ae" | bc -l)"
done
