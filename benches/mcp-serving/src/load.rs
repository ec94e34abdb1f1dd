//! One measurement: a number of sessions, each making its calls in sequence on its own
//! connection, all at once against one server.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use tokio::task::JoinSet;

use crate::session::{Calls, Error, Session};

/// What one measurement found.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// Calls answered per second of wall clock, from the first call sent to the last answer.
    pub calls_per_s: f64,
    pub p50: Duration,
    pub p99: Duration,
    /// The server process's CPU time (every thread's) per call, in microseconds: what the
    /// server spent, whatever else the machine was doing. `NaN` where Linux's per-thread
    /// scheduler statistics are not available.
    pub cpu_us: f64,
}

/// Opens `sessions` sessions on `addr` (connections only, when `stateless`), then has each
/// make `calls` calls of kind `kind` in sequence, all sessions at once. Opening and closing
/// the sessions is not timed.
pub async fn measure(
    addr: SocketAddr,
    server_pid: Option<u32>,
    sessions: usize,
    calls: usize,
    kind: Calls,
    stateless: bool,
) -> Result<Sample, Error> {
    let mut opened = Vec::with_capacity(sessions);
    for _ in 0..sessions {
        opened.push(Session::open(addr, stateless).await?);
    }
    let cpu_before = server_pid.map(cpu_time);
    let start = Instant::now();
    let mut running = JoinSet::new();
    for mut session in opened {
        running.spawn(async move {
            let mut latencies = Vec::with_capacity(calls);
            for _ in 0..calls {
                latencies.push(session.call(kind).await?);
            }
            Ok::<_, Error>((session, latencies))
        });
    }
    let mut latencies = Vec::with_capacity(sessions * calls);
    let mut done = Vec::with_capacity(sessions);
    while let Some(finished) = running.join_next().await {
        let (session, times) = finished??;
        latencies.extend(times);
        done.push(session);
    }
    let elapsed = start.elapsed();
    let cpu = match (cpu_before, server_pid.map(cpu_time)) {
        (Some(Some(before)), Some(Some(after))) => after.saturating_sub(before) as f64,
        _ => f64::NAN,
    };
    for session in done {
        session.close().await?;
    }
    latencies.sort_unstable();
    let total = latencies.len();
    Ok(Sample {
        calls_per_s: total as f64 / elapsed.as_secs_f64(),
        p50: percentile(&latencies, 0.50),
        p99: percentile(&latencies, 0.99),
        cpu_us: cpu / 1_000.0 / total as f64,
    })
}

/// The value below which a fraction `q` of the sorted `values` lie (nearest rank).
fn percentile(values: &[Duration], q: f64) -> Duration {
    let rank = ((values.len() as f64 * q).ceil() as usize).clamp(1, values.len());
    values[rank - 1]
}

/// The CPU time, in nanoseconds, that every thread of process `pid` has run so far (the first
/// field of each thread's `schedstat`: nanoseconds, unlike `stat`'s clock ticks).
fn cpu_time(pid: u32) -> Option<u64> {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).ok()?;
    let mut total = 0;
    for task in tasks.flatten() {
        let stat = std::fs::read_to_string(task.path().join("schedstat")).ok()?;
        total += stat.split_whitespace().next()?.parse::<u64>().ok()?;
    }
    Some(total)
}
