#!/usr/bin/env bash
# Instructions and instruction-cache misses per call of each path of the dispatch benchmark,
# counted by callgrind: unlike the wall clock, they do not move with the machine's load.
#
#   bash agentkit-core/benches/callgrind.sh             # instructions per call, cases a, b, c
#   bash agentkit-core/benches/callgrind.sh --cache     # also L1i misses and hot lines, case a
#
# Each path runs in the benchmark binary (`AGENTKIT_BENCH_LOOP`, release build) for 0 and for
# 2000 calls; the difference, divided by 2000, is one call's, without the setup. `--cache`
# simulates this machine's caches (`--cache-sim=yes`) and counts the distinct 64-byte lines of
# code a call runs (its hot footprint: what must fit the L1 instruction cache; needs python3).
# Needs valgrind (`apt-get install valgrind`).
set -euo pipefail
cd "$(dirname "$0")/../.."
cache=0
[[ ${1:-} == --cache ]] && cache=1
command -v valgrind >/dev/null || { echo "callgrind.sh needs valgrind: apt-get install valgrind" >&2; exit 2; }
bin=$(cargo bench -q -p agentkit-core --bench dispatch --features derive --no-run --message-format=json 2>/dev/null |
    sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -n 1)
[[ -x $bin ]] || { echo "the dispatch benchmark did not build" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
paths="baseline_parse_check_fill minimal_executor serde_only dispatch dispatch_typed serde_only_text dispatch_typed_text"

# The total of event $2 (Ir, I1mr) in callgrind file $1.
total() {
    callgrind_annotate --show="$2" "$1" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }'
}

# Runs path $1, case $2, $3 calls, with extra valgrind flags $4..; writes $out/$1.$2.$3.
run() {
    local path=$1 case=$2 calls=$3
    shift 3
    AGENTKIT_BENCH_LOOP="$path:$case:$calls" valgrind --tool=callgrind "$@" \
        --callgrind-out-file="$out/$path.$case.$calls" "$bin" >/dev/null 2>&1
}

if ((!cache)); then
    printf '%-28s %8s %8s %8s\n' "instructions per call" a b c
    for path in $paths; do
        row=$(printf '%-28s' "$path")
        for case in 0 1 2; do
            run "$path" "$case" 0
            run "$path" "$case" 2000
            per=$(( ($(total "$out/$path.$case.2000" Ir) - $(total "$out/$path.$case.0" Ir)) / 2000 ))
            row+=$(printf ' %8d' "$per")
        done
        echo "$row"
    done
    exit 0
fi

command -v python3 >/dev/null || { echo "--cache needs python3" >&2; exit 2; }
printf '%-28s %12s %14s %10s\n' "case a, per call" instructions "L1i misses" "hot lines"
for path in $paths; do
    for calls in 0 2000; do
        run "$path" 0 "$calls" --cache-sim=yes --dump-instr=yes --compress-pos=no --compress-strings=no
    done
    ir=$(( ($(total "$out/$path.0.2000" Ir) - $(total "$out/$path.0.0" Ir)) / 2000 ))
    miss=$(( ($(total "$out/$path.0.2000" I1mr) - $(total "$out/$path.0.0" I1mr)) / 2000 ))
    # A line of code is hot if the 2000 calls ran it at least 2000 times more than setup alone.
    lines=$(python3 - "$out/$path.0.2000" "$out/$path.0.0" <<'PY'
import collections, re, sys

def runs(path):
    # Executions of each 64-byte line: the Ir of its instructions, as callgrind lists them
    # ("address line Ir ..." after a `fn=`), leaving out the inclusive cost of calls.
    counts, skip = collections.Counter(), False
    for row in open(path):
        if row.startswith("calls="):
            skip = True
            continue
        match = re.match(r"^(0x[0-9a-f]+) \d+ (\d+)", row)
        if match:
            if not skip:
                counts[int(match.group(1), 16) >> 6] += int(match.group(2))
            skip = False
    return counts

loop, setup = runs(sys.argv[1]), runs(sys.argv[2])
print(sum(1 for line, n in loop.items() if n - setup.get(line, 0) >= 2000))
PY
)
    printf '%-28s %12d %14d %10d\n' "$path" "$ir" "$miss" "$lines"
done
