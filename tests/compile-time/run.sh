#!/usr/bin/env bash
# What `#[tool]` costs at compile time: generates two throwaway crates with the same 100 tools
# in 10 files (10 a file), one with `#[tool(...)]` and a `ToolHandler` impl each, one written by
# hand (`impl Tool`, the spec built once by `ToolSpec::builder` in a `LazyLock`, `execute` doing
# the same work on the JSON map), and times, in the same run, each crate's
#
#   clean build    `cargo clean -p <crate>` (its own artifacts only, its dependencies stay
#                  built), then `cargo build`;
#   touch rebuild  `touch` one of its 10 files, then `cargo build`;
#
# dev profile, the two crates in turn (macro, hand, macro, hand, ...) so that a machine whose
# speed drifts slows both alike. It prints the median and range of each, the ratio macro/hand,
# and the macro's cost per tool, (macro - hand) / 100. The machine may be shared and noisy:
# compare within one run, never across runs.
#
#   bash tests/compile-time/run.sh                 # from anywhere in the checkout
#   bash tests/compile-time/run.sh -n 9            # more runs
#   bash tests/compile-time/run.sh --expanded      # also count the lines of the expansion
#   bash tests/compile-time/run.sh --items         # also count the functions each crate compiles
#
# The crates live in `<target>/compile-time/` (`target/` of this checkout, or
# $CARGO_TARGET_DIR), a workspace of their own with its own target directory, so
# `cargo test --workspace` never builds them; `--dir DIR` puts them elsewhere, and removing
# that directory removes everything the script made. The first run builds agentkit-core and
# its dependencies there (twice: with and without the `derive` feature), about a minute.
#
# `--expanded` then prints the line count of each crate after macro expansion
# (`cargo rustc -- -Zunpretty=expanded`). That flag is nightly-only: the script sets
# RUSTC_BOOTSTRAP=1 for that one command, which a stable toolchain accepts but does not support,
# and which rebuilds the dependencies (about a minute; the next run rebuilds them back before it
# starts timing).
set -euo pipefail

usage() {
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
    echo "usage: $0 [-n RUNS] [--dir DIR] [--expanded] [--items]"
}

runs=5
dir=
expanded=0
items=0
while (($#)); do
    case $1 in
        -n) runs=${2:?-n needs a number}; shift 2 ;;
        --dir) dir=${2:?--dir needs a directory}; shift 2 ;;
        --expanded) expanded=1; shift ;;
        --items) items=1; shift ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; exit 2 ;;
    esac
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "-n: a positive number, not '$runs'" >&2; exit 2; }

repo=$(cd "$(dirname "$0")/../.." && pwd)
dir=${dir:-${CARGO_TARGET_DIR:-$repo/target}/compile-time}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
log=$dir/build.log
: >"$log"

# ---- the crates ------------------------------------------------------------------------------

# Writes stdin to $1 only when it differs, so that a second run of the script starts warm.
put() {
    local tmp
    tmp=$(mktemp "$dir/.put.XXXXXX")
    cat >"$tmp"
    if cmp -s "$tmp" "$1"; then rm -f "$tmp"; else mkdir -p "$(dirname "$1")"; mv "$tmp" "$1"; fi
}

# Tool `$1` (00..99) with `#[tool]`.
macro_tool() {
    local n=$1 ty=Tool$1
    cat <<EOF

#[tool(
    name = "tool_$n",
    description = "Tool number $n: looks up a query.",
    input = [
        { name = "query", type = string, description = "What to look up." },
        { name = "limit", type = integer, required = false, default = 10 },
        { name = "mode", type = string, required = false, enum = ["fast", "full"], default = "fast" },
    ],
    output = [
        { name = "text", type = string },
        { name = "count", type = integer },
        { name = "mode", type = string },
    ],
)]
pub struct $ty;

impl ToolHandler for $ty {
    async fn run(&self, input: ${ty}Input, _: &ToolContext<'_>) -> Result<${ty}Output, BoxError> {
        let mode = match input.mode {
            ${ty}InputMode::Fast => "fast",
            ${ty}InputMode::Full => "full",
        };
        Ok(${ty}Output {
            text: format!("{} #$n", input.query),
            count: input.limit * $((10#$n + 1)),
            mode: mode.to_owned(),
        })
    }
}
EOF
}

# The same tool written by hand.
hand_tool() {
    local n=$1 ty=Tool$1
    cat <<EOF

pub struct $ty;

impl Tool for $ty {
    fn spec(&self) -> &ToolSpec {
        static SPEC: LazyLock<ToolSpec> = LazyLock::new(|| {
            let input = ToolSchema::new([
                Param::required("query", ParamType::String).with_description("What to look up."),
                Param::optional("limit", ParamType::Integer).with_default(10),
                Param::optional("mode", ParamType::String)
                    .with_enum(["fast", "full"])
                    .with_default("fast"),
            ])
            .expect("a valid input schema");
            let output = ToolSchema::new([
                Param::required("text", ParamType::String),
                Param::required("count", ParamType::Integer),
                Param::required("mode", ParamType::String),
            ])
            .expect("a valid output schema");
            ToolSpec::builder("tool_$n")
                .description("Tool number $n: looks up a query.")
                .input(input)
                .output(output)
                .build()
                .expect("a valid spec")
        });
        &SPEC
    }

    async fn execute(&self, inputs: &JsonObject, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        let query = inputs["query"].as_str().unwrap_or_default();
        let limit = inputs["limit"].as_i64().unwrap_or_default();
        let mode = match inputs["mode"].as_str() {
            Some("full") => "full",
            _ => "fast",
        };
        let mut out = JsonObject::new();
        out.insert("text".into(), format!("{query} #$n").into());
        out.insert("count".into(), (limit * $((10#$n + 1))).into());
        out.insert("mode".into(), mode.into());
        Ok(out)
    }
}
EOF
}

# Crate $1 (macro or hand): Cargo.toml, lib.rs registering all 100 tools, tools_0.rs..tools_9.rs.
generate() {
    local kind=$1 root=$dir/tools-$1 features= imports f i
    if [[ $kind == macro ]]; then
        features=', features = ["derive"]'
        imports='use agentkit_core::{BoxError, ToolContext, ToolHandler, tool};'
    else
        imports='use agentkit_core::{BoxError, JsonObject, Param, ParamType, Tool, ToolContext, ToolSchema, ToolSpec};
use std::sync::LazyLock;'
    fi
    put "$root/Cargo.toml" <<EOF
[package]
name = "tools-$kind"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
agentkit-core = { path = "$repo/agentkit-core"$features }
EOF
    {
        echo "//! 100 tools, $kind."
        for f in {0..9}; do echo "pub mod tools_$f;"; done
        echo
        echo "/// Every tool, registered: what makes the compiler build each one's \`Tool\` impl."
        echo "pub fn registry() -> agentkit_core::ToolRegistry {"
        echo "    let mut registry = agentkit_core::ToolRegistry::new();"
        for i in {0..99}; do
            printf '    registry.register(tools_%d::Tool%02d).expect("distinct names");\n' $((i / 10)) "$i"
        done
        echo "    registry"
        echo "}"
    } | put "$root/src/lib.rs"
    for f in {0..9}; do
        {
            echo "//! Tools ${f}0 to ${f}9."
            echo
            echo "$imports"
            for i in {0..9}; do "${kind}_tool" "$f$i"; done
        } | put "$root/src/tools_$f.rs"
    done
}

put "$dir/Cargo.toml" <<'EOF'
# Generated by tests/compile-time/run.sh: a workspace of its own, outside agentkit's.
[workspace]
resolver = "3"
members = ["tools-macro", "tools-hand"]
EOF
# The versions agentkit itself is tested with.
[[ -f $dir/Cargo.lock ]] || cp "$repo/Cargo.lock" "$dir/Cargo.lock"
generate macro
generate hand

# ---- the measurements ------------------------------------------------------------------------

cargo_in() {
    local crate=$1
    shift
    if ! (cd "$dir" && cargo "$@" -p "tools-$crate" --target-dir "$dir/target") >>"$log" 2>&1; then
        echo "cargo $* -p tools-$crate failed; the end of $log:" >&2
        tail -n 40 "$log" >&2
        exit 1
    fi
}

# Seconds `cargo build` of crate $1 takes.
timed_build() {
    local t0 t1
    t0=$(date +%s.%N)
    cargo_in "$1" build
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }'
}

# "median min max" of the numbers given.
stats() {
    printf '%s\n' "$@" | sort -g | awk '
        { v[NR] = $1 }
        END {
            m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
            printf "%.3f %.3f %.3f\n", m, v[1], v[NR]
        }'
}

echo "building the dependencies (log: $log) ..." >&2
cargo_in macro build
cargo_in hand build

declare -A clean rebuild
for crate in macro hand; do clean[$crate]=; rebuild[$crate]=; done
for ((run = 1; run <= runs; run++)); do
    echo "run $run of $runs ..." >&2
    for crate in macro hand; do
        cargo_in "$crate" clean
        clean[$crate]+=" $(timed_build "$crate")"
    done
    for crate in macro hand; do
        touch "$dir/tools-$crate/src/tools_5.rs"
        rebuild[$crate]+=" $(timed_build "$crate")"
    done
done

# ---- the table -------------------------------------------------------------------------------

read -r cm cm_lo cm_hi < <(stats ${clean[macro]})
read -r ch ch_lo ch_hi < <(stats ${clean[hand]})
read -r tm tm_lo tm_hi < <(stats ${rebuild[macro]})
read -r th th_lo th_hi < <(stats ${rebuild[hand]})

echo
echo "100 tools in 10 files, $(rustc --version), $(nproc) cores, median (min-max) of $runs runs, seconds:"
echo
awk -v cm="$cm" -v ch="$ch" -v tm="$tm" -v th="$th" \
    -v cm_lo="$cm_lo" -v cm_hi="$cm_hi" -v ch_lo="$ch_lo" -v ch_hi="$ch_hi" \
    -v tm_lo="$tm_lo" -v tm_hi="$tm_hi" -v th_lo="$th_lo" -v th_hi="$th_hi" '
function cell(median, lo, hi) { return sprintf("%.2f (%.2f-%.2f)", median, lo, hi) }
function row(what, m, m_lo, m_hi, h, h_lo, h_hi) {
    printf fmt, what, cell(m, m_lo, m_hi), cell(h, h_lo, h_hi), sprintf("%.2fx", m / h),
        sprintf("%.1f ms", (m - h) * 10)
}
BEGIN {
    fmt = "| %-13s | %-19s | %-19s | %-10s | %-14s |\n"
    printf fmt, "", "#[tool]", "hand-written", "macro/hand", "macro per tool"
    printf fmt, "---", "---", "---", "---", "---"
    row("clean build", cm, cm_lo, cm_hi, ch, ch_lo, ch_hi)
    row("touch rebuild", tm, tm_lo, tm_hi, th, th_lo, th_hi)
}'
echo
echo "clean build: cargo clean -p <crate>, then cargo build; touch rebuild: touch src/tools_5.rs,"
echo "then cargo build (dev profile). Macro per tool: (macro - hand) / 100."

if ((expanded)); then
    echo
    for crate in macro hand; do
        # Printed by rustc in place of building, so the next run rebuilds this crate once more.
        lines=$(cd "$dir" && RUSTC_BOOTSTRAP=1 cargo rustc -q -p "tools-$crate" --lib \
            --target-dir "$dir/target" -- -Zunpretty=expanded 2>>"$log" | wc -l) ||
            { echo "the expansion of tools-$crate failed; the end of $log:" >&2; tail -n 40 "$log" >&2; exit 1; }
        echo "lines after expansion, $crate: $lines"
    done
fi

if ((items)); then
    echo
    for crate in macro hand; do
        # The crate's own items only: touched, so that rustc runs on it and prints them.
        touch "$dir/tools-$crate/src/lib.rs"
        listing=$(cd "$dir" && RUSTC_BOOTSTRAP=1 cargo rustc -q -p "tools-$crate" --lib \
            --target-dir "$dir/target" -- -Zprint-mono-items=yes 2>>"$log") ||
            { echo "listing the items of tools-$crate failed; the end of $log:" >&2; tail -n 40 "$log" >&2; exit 1; }
        all=$(grep -c '^MONO_ITEM' <<<"$listing" || true)
        one=$(grep -c 'Tool00[^0-9]' <<<"$listing" || true)
        echo "compiled items, $crate: $all in all, $one for Tool00"
    done
fi
