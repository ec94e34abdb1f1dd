#!/usr/bin/env bash
# What `#[tool]` costs at compile time: generates throwaway crates with the same 100 tools in
# 10 files (10 a file): `macro`, with `#[tool(...)]` and a `ToolHandler` impl each; `hand`,
# written by hand (`impl Tool`, the spec built once by `ToolSpec::builder` in a `LazyLock`,
# `execute` doing the same work on the JSON map); and with `--peers`, the two peers' ways of
# writing the same typed tool: `rmcp` (rmcp 3.11's `#[tool_router]` and `#[tool]` on methods
# taking `Parameters<Input>` and returning `Json<Output>`, both deriving serde and schemars'
# `JsonSchema`, ten servers of ten tools) and `rig` (rig-core's `Tool` trait, arguments deriving
# `Deserialize` and `JsonSchema`, the schema from `schemars::schema_for!`; rig-core 0.44, the
# newest that builds with rustc 1.95: 0.46 asks for 1.97); and with `--floor`, `floor`: the
# hand-written tools plus, for each, the three types `#[tool]` generates (input, output, the
# enum of `mode`) with only the std derives they promise (`Debug`, `Clone`, `PartialEq`; the
# enum also `Copy`, `Eq`, `Hash`) and none of their conversions: the least a typed API of
# these types costs, whoever writes it. It
# times, in the same run, each crate's
#
#   clean build    `cargo clean -p <crate>` (its own artifacts only, its dependencies stay
#                  built), then `cargo build`;
#   touch rebuild  `touch` one of its 10 files, then `cargo build`;
#
# dev profile, the crates in turn (macro, hand, [rmcp, rig,] macro, hand, ...) so that a machine
# whose speed drifts slows all alike. It prints the median and range of each, the ratio
# macro/hand, the macro's cost per tool, (macro - hand) / 100, and with `--peers` the ratio of
# `#[tool]` to each peer. The machine may be shared and noisy: compare within one run, never
# across runs.
#
#   bash tests/compile-time/run.sh                 # from anywhere in the checkout
#   bash tests/compile-time/run.sh -n 9            # more runs
#   bash tests/compile-time/run.sh --expanded      # also count the lines of the expansion
#   bash tests/compile-time/run.sh --items         # also count the functions each crate compiles
#   bash tests/compile-time/run.sh --peers         # also rmcp's and rig's ways (downloads them)
#   bash tests/compile-time/run.sh --floor         # also the typed types with their derives alone
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
    echo "usage: $0 [-n RUNS] [--dir DIR] [--expanded] [--items] [--peers] [--floor]"
}

runs=5
dir=
expanded=0
items=0
peers=0
floor=0
while (($#)); do
    case $1 in
        -n) runs=${2:?-n needs a number}; shift 2 ;;
        --dir) dir=${2:?--dir needs a directory}; shift 2 ;;
        --expanded) expanded=1; shift ;;
        --items) items=1; shift ;;
        --peers) peers=1; shift ;;
        --floor) floor=1; shift ;;
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

    async fn execute(&self, inputs: &JsonObject, _: &ToolContext<'_>) -> Result<ToolOutput, BoxError> {
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
        Ok(out.into())
    }
}
EOF
}

# The same tool written by hand, beside the types `#[tool]` would generate for it with only
# their promised std derives: what the typed API's types cost before any conversion.
floor_tool() {
    local n=$1 ty=Tool$1
    hand_tool "$n"
    cat <<EOF

/// The validated inputs.
#[derive(Debug, Clone, PartialEq)]
pub struct ${ty}Input {
    /// What to look up.
    pub query: String,
    /// The limit parameter.
    pub limit: i64,
    /// The mode parameter.
    pub mode: ${ty}InputMode,
}

/// The allowed values of mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ${ty}InputMode {
    /// "fast"
    Fast,
    /// "full"
    Full,
}

/// The outputs.
#[derive(Debug, Clone, PartialEq)]
pub struct ${ty}Output {
    /// The text output.
    pub text: String,
    /// The count output.
    pub count: i64,
    /// The mode output.
    pub mode: String,
}
EOF
}

# The input and output types of tool `$1` for the peers: serde and schemars' `JsonSchema`, the
# same three parameters (`limit` and `mode` defaulted, `mode` an enum) and three outputs.
peer_types() {
    local n=$1 ty=Tool$1
    cat <<EOF

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ${ty}Mode {
    Fast,
    Full,
}

fn tool${n}_limit() -> i64 {
    10
}

fn tool${n}_mode() -> ${ty}Mode {
    ${ty}Mode::Fast
}

#[derive(Deserialize, JsonSchema)]
pub struct ${ty}Input {
    /// What to look up.
    pub query: String,
    #[serde(default = "tool${n}_limit")]
    pub limit: i64,
    #[serde(default = "tool${n}_mode")]
    pub mode: ${ty}Mode,
}

#[derive(Serialize, JsonSchema)]
pub struct ${ty}Output {
    pub text: String,
    pub count: i64,
    pub mode: String,
}
EOF
}

# The body both peers run, as an expression: the same work as the other two crates.
peer_body() {
    local n=$1 ty=Tool$1
    cat <<EOF
{
    let mode = match input.mode {
        ${ty}Mode::Fast => "fast",
        ${ty}Mode::Full => "full",
    };
    ${ty}Output {
        text: format!("{} #$n", input.query),
        count: input.limit * $((10#$n + 1)),
        mode: mode.to_owned(),
    }
}
EOF
}

# File $1 of the rmcp crate: its ten tools' types, and one server of ten `#[tool]` methods.
rmcp_file() {
    local f=$1 i n ty
    for i in {0..9}; do peer_types "$f$i"; done
    printf '\n#[derive(Clone)]\npub struct Server%s;\n\n#[tool_router(server_handler, vis = "pub")]\nimpl Server%s {\n' "$f" "$f"
    for i in {0..9}; do
        n=$f$i ty=Tool$f$i
        printf '    #[tool(name = "tool_%s", description = "Tool number %s: looks up a query.")]\n' "$n" "$n"
        printf '    async fn tool_%s(&self, Parameters(input): Parameters<%sInput>) -> Json<%sOutput> {\n' "$n" "$ty" "$ty"
        printf '        Json(%s)\n    }\n\n' "$(peer_body "$n" | sed '2,$s/^/        /')"
    done
    echo "}"
}

# Tool $1 of the rig crate.
rig_tool() {
    local n=$1 ty=Tool$1
    peer_types "$n"
    cat <<EOF

pub struct $ty;

impl Tool for $ty {
    const NAME: &'static str = "tool_$n";
    type Args = ${ty}Input;
    type Output = ${ty}Output;
    type Error = std::convert::Infallible;

    fn description(&self) -> String {
        "Tool number $n: looks up a query.".to_owned()
    }

    fn parameters(&self) -> serde_json::Value {
        serde_json::to_value(schemars::schema_for!(${ty}Input)).expect("a schema is JSON")
    }

    async fn call(&self, _: &mut ToolContext, input: ${ty}Input) -> Result<${ty}Output, Self::Error> {
        Ok($(peer_body "$n" | sed '2,$s/^/        /'))
    }
}
EOF
}

# Crate $1 (macro, hand, rmcp or rig): Cargo.toml, lib.rs registering all 100 tools,
# tools_0.rs..tools_9.rs.

generate() {
    local kind=$1 root=$dir/tools-$1 dependencies imports f i
    case $kind in
        macro)
            dependencies="agentkit-core = { path = \"$repo/agentkit-core\", features = [\"derive\"] }"
            imports='use agentkit_core::{BoxError, ToolContext, ToolHandler, tool};' ;;
        hand | floor)
            dependencies="agentkit-core = { path = \"$repo/agentkit-core\" }"
            imports='use agentkit_core::{BoxError, JsonObject, Param, ParamType, Tool, ToolContext, ToolOutput, ToolSchema, ToolSpec};
use std::sync::LazyLock;' ;;
        rmcp)
            dependencies='rmcp = { version = "=3.11.0", default-features = false, features = ["server", "macros", "schemars"] }
schemars = "1"
serde = { version = "1", features = ["derive"] }'
            imports='use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::{tool, tool_router};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};' ;;
        rig)
            dependencies='rig-core = { version = "=0.44.0", default-features = false }
schemars = "1"
serde = { version = "1", features = ["derive"] }
serde_json = "1"'
            imports='use rig_core::tool::{Tool, ToolContext};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};' ;;
    esac
    put "$root/Cargo.toml" <<EOF
[package]
name = "tools-$kind"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
$dependencies
EOF
    {
        echo "//! 100 tools, $kind."
        for f in {0..9}; do echo "pub mod tools_$f;"; done
        echo
        case $kind in
            macro | hand | floor)
                echo "/// Every tool, registered: what makes the compiler build each one's \`Tool\` impl."
                echo "pub fn registry() -> agentkit_core::ToolRegistry {"
                echo "    let mut registry = agentkit_core::ToolRegistry::new();"
                for i in {0..99}; do
                    printf '    registry.register(tools_%d::Tool%02d).expect("distinct names");\n' $((i / 10)) "$i"
                done
                echo "    registry"
                echo "}" ;;
            rmcp)
                echo "/// Every server's router: what makes the compiler build each tool's handler."
                echo "pub fn routers() -> usize {"
                echo "    let mut tools = 0;"
                for f in {0..9}; do
                    echo "    tools += tools_$f::Server$f::tool_router().list_all().len();"
                done
                echo "    tools"
                echo "}" ;;
            rig)
                echo "/// Every tool, erased for dispatch: what makes the compiler build each one's handler."
                echo "pub fn handlers() -> Vec<rig_core::serve::ErasedHandler> {"
                echo "    vec!["
                for i in {0..99}; do
                    printf '        rig_core::serve::ErasedHandler::new(rig_core::serve::adapters::ToolAdapter::new(tools_%d::Tool%02d)),\n' $((i / 10)) "$i"
                done
                echo "    ]"
                echo "}" ;;
        esac
    } | put "$root/src/lib.rs"
    for f in {0..9}; do
        {
            echo "//! Tools ${f}0 to ${f}9."
            echo
            echo "$imports"
            case $kind in
                rmcp) rmcp_file "$f" ;;
                *) for i in {0..9}; do "${kind}_tool" "$f$i"; done ;;
            esac
        } | put "$root/src/tools_$f.rs"
    done
}


crates=(macro hand)
((peers)) && crates+=(rmcp rig)
((floor)) && crates+=(floor)
members=$(printf '"tools-%s", ' "${crates[@]}")
put "$dir/Cargo.toml" <<EOF
# Generated by tests/compile-time/run.sh: a workspace of its own, outside agentkit's.
[workspace]
resolver = "3"
members = [${members%, }]
EOF
# The versions agentkit itself is tested with (the peers' own are added to it).
[[ -f $dir/Cargo.lock ]] || cp "$repo/Cargo.lock" "$dir/Cargo.lock"
for crate in "${crates[@]}"; do generate "$crate"; done

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
for crate in "${crates[@]}"; do cargo_in "$crate" build; done

declare -A clean rebuild
for crate in "${crates[@]}"; do clean[$crate]=; rebuild[$crate]=; done
for ((run = 1; run <= runs; run++)); do
    echo "run $run of $runs ..." >&2
    for crate in "${crates[@]}"; do
        cargo_in "$crate" clean
        clean[$crate]+=" $(timed_build "$crate")"
    done
    for crate in "${crates[@]}"; do
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

if ((peers)); then
    read -r cr cr_lo cr_hi < <(stats ${clean[rmcp]})
    read -r cg cg_lo cg_hi < <(stats ${clean[rig]})
    read -r tr tr_lo tr_hi < <(stats ${rebuild[rmcp]})
    read -r tg tg_lo tg_hi < <(stats ${rebuild[rig]})
    echo
    echo "The peers, the same 100 tools, in the same run (macro/peer: #[tool] over the peer):"
    echo
    awk -v cm="$cm" -v tm="$tm" -v cr="$cr" -v tr="$tr" -v cg="$cg" -v tg="$tg" \
        -v cr_lo="$cr_lo" -v cr_hi="$cr_hi" -v tr_lo="$tr_lo" -v tr_hi="$tr_hi" \
        -v cg_lo="$cg_lo" -v cg_hi="$cg_hi" -v tg_lo="$tg_lo" -v tg_hi="$tg_hi" '
    function cell(median, lo, hi) { return sprintf("%.2f (%.2f-%.2f)", median, lo, hi) }
    BEGIN {
        fmt = "| %-13s | %-19s | %-19s | %-10s | %-9s |\n"
        printf fmt, "", "rmcp", "rig", "macro/rmcp", "macro/rig"
        printf fmt, "---", "---", "---", "---", "---"
        printf fmt, "clean build", cell(cr, cr_lo, cr_hi), cell(cg, cg_lo, cg_hi),
            sprintf("%.2fx", cm / cr), sprintf("%.2fx", cm / cg)
        printf fmt, "touch rebuild", cell(tr, tr_lo, tr_hi), cell(tg, tg_lo, tg_hi),
            sprintf("%.2fx", tm / tr), sprintf("%.2fx", tm / tg)
    }'
fi

if ((floor)); then
    read -r cf cf_lo cf_hi < <(stats ${clean[floor]})
    read -r tf tf_lo tf_hi < <(stats ${rebuild[floor]})
    echo
    echo "The floor, in the same run: the hand-written tools beside the types #[tool] generates,"
    echo "with only their promised std derives (floor/hand: what those types cost alone):"
    echo
    awk -v cf="$cf" -v tf="$tf" -v ch="$ch" -v th="$th" -v cm="$cm" -v tm="$tm" \
        -v cf_lo="$cf_lo" -v cf_hi="$cf_hi" -v tf_lo="$tf_lo" -v tf_hi="$tf_hi" '
    function cell(median, lo, hi) { return sprintf("%.2f (%.2f-%.2f)", median, lo, hi) }
    BEGIN {
        fmt = "| %-13s | %-19s | %-10s | %-11s |\n"
        printf fmt, "", "floor", "floor/hand", "macro/floor"
        printf fmt, "---", "---", "---", "---"
        printf fmt, "clean build", cell(cf, cf_lo, cf_hi), sprintf("%.2fx", cf / ch),
            sprintf("%.2fx", cm / cf)
        printf fmt, "touch rebuild", cell(tf, tf_lo, tf_hi), sprintf("%.2fx", tf / th),
            sprintf("%.2fx", tm / tf)
    }'
fi

if ((expanded)); then
    echo
    for crate in "${crates[@]}"; do
        # Printed by rustc in place of building, so the next run rebuilds this crate once more.
        lines=$(cd "$dir" && RUSTC_BOOTSTRAP=1 cargo rustc -q -p "tools-$crate" --lib \
            --target-dir "$dir/target" -- -Zunpretty=expanded 2>>"$log" | wc -l) ||
            { echo "the expansion of tools-$crate failed; the end of $log:" >&2; tail -n 40 "$log" >&2; exit 1; }
        echo "lines after expansion, $crate: $lines"
    done
fi

if ((items)); then
    echo
    for crate in "${crates[@]}"; do
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
