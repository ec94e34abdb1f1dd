//! The tables: medians over the rounds per server, and agentkit's ratios to each plain server,
//! each the median of that round's ratios (both sides measured within moments of each other).

use std::time::Duration;

use crate::Cells;
use crate::load::Sample;

/// agentkit's target beside a plain server: at least its calls per second…
const THROUGHPUT_TARGET: f64 = 1.0;
/// …and at most this multiple of its p99 latency.
const P99_TARGET: f64 = 1.10;

pub fn print(
    servers: &[String],
    results: &Cells,
    rounds: usize,
    per_session: impl Fn(usize) -> usize,
) {
    println!();
    println!("Medians over {rounds} rounds (server CPU: the server process's CPU time per call)");
    println!();
    println!("| sessions | calls | server | calls/s | p50 ms | p99 ms | server CPU µs/call |");
    println!("|---:|---|---|---:|---:|---:|---:|");
    for ((sessions, kind), by_server) in results {
        for server in servers {
            let Some(samples) = by_server.get(server) else {
                continue;
            };
            println!(
                "| {sessions} × {} | {kind} | {server} | {:.0} | {:.3} | {:.3} | {:.1} |",
                per_session(*sessions),
                median(samples.iter().map(|s| s.calls_per_s)),
                median(samples.iter().map(|s| ms(s.p50))),
                median(samples.iter().map(|s| ms(s.p99))),
                median(samples.iter().map(|s| s.cpu_us)),
            );
        }
    }

    let Some(ours) = servers.iter().find(|s| *s == "agentkit") else {
        return;
    };
    for plain in servers.iter().filter(|s| *s != ours) {
        println!();
        println!(
            "agentkit / {plain}, medians of the rounds' ratios (target: calls/s ≥ {THROUGHPUT_TARGET:.2}×, p99 ≤ {P99_TARGET:.2}×)"
        );
        println!();
        println!("| sessions | calls | calls/s | p50 | p99 | server CPU/call | target |");
        println!("|---:|---|---:|---:|---:|---:|---|");
        for ((sessions, kind), by_server) in results {
            let (Some(a), Some(b)) = (by_server.get(ours), by_server.get(plain)) else {
                continue;
            };
            let ratio = |f: fn(&Sample) -> f64| median(a.iter().zip(b).map(|(a, b)| f(a) / f(b)));
            let throughput = ratio(|s| s.calls_per_s);
            let p99 = ratio(|s| ms(s.p99));
            let met = throughput >= THROUGHPUT_TARGET && p99 <= P99_TARGET;
            println!(
                "| {sessions} | {kind} | {throughput:.2}× | {:.2}× | {p99:.2}× | {:.2}× | {} |",
                ratio(|s| ms(s.p50)),
                ratio(|s| s.cpu_us),
                if met { "met" } else { "missed" },
            );
        }
    }
}

fn median(values: impl Iterator<Item = f64>) -> f64 {
    let mut values: Vec<f64> = values.collect();
    if values.is_empty() {
        return f64::NAN;
    }
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    if values.len() % 2 == 1 {
        values[mid]
    } else {
        (values[mid - 1] + values[mid]) / 2.0
    }
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1e3
}
