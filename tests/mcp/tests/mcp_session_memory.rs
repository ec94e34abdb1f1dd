//! Memory under a flood of sessions, measured: a server process (`mcp_flood_target`, its cap at
//! the default 1 000) is flooded with three times as many `initialize` requests as it may hold
//! sessions, over 32 keep-alive connections, twice; its resident memory (`VmRSS` in
//! `/proc/PID/status`) is read at the start, at the peak of each flood and once the flooded
//! sessions have expired.
//!
//! Each session holds about 100 KiB, nearly all of it rmcp's: the first blocks of its session's
//! channels (tokio allocates 32 slots of a 360 to 400 byte message at once, whatever the
//! capacity) and the tasks that serve it. agentkit frees all of it when a session expires. How
//! much of it the process gives back to the system is glibc's doing:
//!
//! - By default, glibc keeps memory freed by a thread in that thread's caches (tcache, fast
//!   bins), scattered across the heap, where those chunks keep the free memory around them from
//!   joining the top of the heap, the only part it gives back. The resident memory stays at its
//!   peak once the sessions expire, and a later flood, placed differently in the heap, touches
//!   pages the first left alone: it grows toward the heap's size, about 120 MiB, and no
//!   further. [`flooded_memory_is_bounded`] holds the server to that bound.
//! - With those caches off (`GLIBC_TUNABLES=glibc.malloc.tcache_count=0:glibc.malloc.mxfast=0`
//!   in the server's environment), the memory comes back to within a few MiB of the start, and
//!   a second flood peaks no higher than the first: [`flooded_memory_comes_back`], which fails
//!   if the server holds on to anything (a leak, or a long-lived allocation made late in a
//!   flood, such as a map of sessions grown then, which keeps all the heap below it).

#![cfg(target_os = "linux")]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::process::{Child, Command};
use tokio::sync::Mutex;

/// The cap on live sessions: the default.
const CAP: usize = 1_000;

/// The requests of one flood: three times the cap, so that most are refused.
const FLOOD: usize = 3 * CAP;

/// The connections a flood sends its requests over at once.
const CONNECTIONS: usize = 32;

/// How long a session lives without a request.
const IDLE: Duration = Duration::from_secs(4);

/// The resident memory a live session may cost, in KiB: measured at about 112 KiB once
/// repeated floods have touched the whole heap (debug build), with room to spare.
const SESSION_KIB: u64 = 160;

/// How far above its start the resident memory may stay once the sessions have expired, with
/// glibc's caches off, in KiB: measured at about 5 MiB (the code the first requests ran, paged
/// in, and what glibc keeps at the top of each heap).
const RETURN_KIB: u64 = 8 * 1024;

/// How much higher than the first the second flood may peak, with glibc's caches off, in KiB:
/// measured within 0.5 MiB.
const REUSE_KIB: u64 = 4 * 1024;

/// glibc's settings that give freed memory back: no per-thread cache, no fast bins.
const CACHES_OFF: &str = "glibc.malloc.tcache_count=0:glibc.malloc.mxfast=0";

/// One flood at a time: the two tests' floods would otherwise compete for the CPU.
static FLOODS: Mutex<()> = Mutex::const_new(());

/// The resident memory of a process, in KiB.
#[derive(Debug, Clone, Copy)]
struct Memory {
    /// `VmRSS`: all of it.
    rss: u64,
    /// `RssAnon`: the part that is not mapped from files (the heap, not the code).
    anon: u64,
}

impl Memory {
    /// The resident memory of process `pid` now.
    fn of(pid: u32) -> Memory {
        let status =
            std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc is readable");
        let field = |name: &str| {
            status
                .lines()
                .find_map(|line| line.strip_prefix(name))
                .and_then(|value| value.trim().strip_suffix("kB")?.trim().parse().ok())
                .unwrap_or_else(|| panic!("no {name} in {status}"))
        };
        Memory {
            rss: field("VmRSS:"),
            anon: field("RssAnon:"),
        }
    }
}

impl std::fmt::Display for Memory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} KiB (anon {} KiB)", self.rss, self.anon)
    }
}

/// The flood target on a free loopback port, with `tunables` in its environment (none: glibc's
/// defaults), and its address (`host:port`).
async fn flood_target(tunables: Option<&str>) -> (Child, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_mcp_flood_target"));
    command
        .arg("--max-sessions")
        .arg(CAP.to_string())
        .arg("--idle-ms")
        .arg(IDLE.as_millis().to_string())
        .args(["--http", "127.0.0.1:0"])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true);
    match tunables {
        Some(tunables) => command.env("GLIBC_TUNABLES", tunables),
        None => command.env_remove("GLIBC_TUNABLES"),
    };
    let mut child = command.spawn().expect("the flood target starts");
    let stdout = child.stdout.take().expect("piped stdout");
    let mut line = String::new();
    tokio::time::timeout(
        Duration::from_secs(60),
        BufReader::new(stdout).read_line(&mut line),
    )
    .await
    .expect("the flood target prints its address in time")
    .expect("readable stdout");
    let address = line
        .trim()
        .strip_prefix("listening on http://")
        .and_then(|rest| rest.strip_suffix("/mcp"))
        .unwrap_or_else(|| panic!("unexpected first line: {line:?}"))
        .to_owned();
    (child, address)
}

/// What a flood got back, and how long it took.
#[derive(Debug, Default)]
struct Flood {
    /// Sessions opened: 200 with a session id.
    opened: usize,
    /// Refused past the cap: 503 with `Retry-After`.
    refused: usize,
    /// Anything else.
    other: usize,
    /// From the first request to the last answer.
    took: Duration,
}

impl Flood {
    /// Checks what the cap allows: every request answered 200 or 503, and no more sessions
    /// opened than the cap holds, plus those that could have expired during the flood.
    fn check(&self) {
        assert_eq!(self.other, 0, "only 200 and 503: {self:?}");
        assert_eq!(self.opened + self.refused, FLOOD, "{self:?}");
        let expiries = (self.took.as_secs_f64() / IDLE.as_secs_f64()).floor() as usize;
        assert!(
            self.opened <= CAP * (1 + expiries),
            "at most {CAP} sessions at once: {self:?}"
        );
        assert!(self.refused > 0, "the cap refuses the rest: {self:?}");
    }
}

/// Sends [`FLOOD`] `initialize` requests over [`CONNECTIONS`] keep-alive connections at once.
async fn flood(address: &str) -> Flood {
    let began = Instant::now();
    let next = Arc::new(AtomicUsize::new(0));
    let workers: Vec<_> = (0..CONNECTIONS)
        .map(|_| {
            let (address, next) = (address.to_owned(), Arc::clone(&next));
            tokio::spawn(async move {
                let mut flood = Flood::default();
                let mut connection = None;
                while next.fetch_add(1, Ordering::Relaxed) < FLOOD {
                    let stream = match connection.take() {
                        Some(stream) => stream,
                        None => {
                            BufReader::new(TcpStream::connect(&address).await.expect("connects"))
                        }
                    };
                    let (status, session, stream) = initialize(stream).await;
                    match (status, session) {
                        (200, true) => flood.opened += 1,
                        (503, false) => flood.refused += 1,
                        _ => flood.other += 1,
                    }
                    connection = stream;
                }
                flood
            })
        })
        .collect();
    let mut all = Flood::default();
    for worker in workers {
        let flood = worker.await.expect("the flood's worker does not panic");
        all.opened += flood.opened;
        all.refused += flood.refused;
        all.other += flood.other;
    }
    all.took = began.elapsed();
    all
}

/// One `initialize` request.
const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"flood","version":"0"}}}"#;

/// One `initialize` on `stream`: the status, whether a session id came back, and the
/// connection if it can be used again.
async fn initialize(mut stream: BufReader<TcpStream>) -> (u16, bool, Option<BufReader<TcpStream>>) {
    let request = format!(
        "POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n\
         accept: application/json, text/event-stream\r\ncontent-length: {}\r\n\r\n{INITIALIZE}",
        INITIALIZE.len()
    );
    if stream
        .get_mut()
        .write_all(request.as_bytes())
        .await
        .is_err()
    {
        return (0, false, None);
    }
    let read = async {
        let mut line = String::new();
        stream.read_line(&mut line).await?;
        let status: u16 = line
            .split(' ')
            .nth(1)
            .and_then(|status| status.parse().ok())
            .unwrap_or(0);
        let (mut length, mut chunked, mut close, mut session) = (0, false, false, false);
        loop {
            line.clear();
            stream.read_line(&mut line).await?;
            let header = line.trim_end().to_ascii_lowercase();
            if header.is_empty() {
                break;
            }
            let (name, value) = header.split_once(':').unwrap_or((&header, ""));
            match (name, value.trim()) {
                ("content-length", value) => length = value.parse().unwrap_or(0),
                ("transfer-encoding", "chunked") => chunked = true,
                ("connection", "close") => close = true,
                ("mcp-session-id", _) => session = true,
                _ => {}
            }
        }
        if chunked {
            loop {
                line.clear();
                stream.read_line(&mut line).await?;
                let size = usize::from_str_radix(line.trim(), 16).unwrap_or(0);
                let mut chunk = vec![0; size + 2];
                stream.read_exact(&mut chunk).await?;
                if size == 0 {
                    break;
                }
            }
        } else {
            let mut body = vec![0; length];
            stream.read_exact(&mut body).await?;
        }
        Ok::<_, std::io::Error>((status, session, close))
    };
    match tokio::time::timeout(Duration::from_secs(30), read).await {
        Ok(Ok((status, session, close))) => (status, session, (!close).then_some(stream)),
        Ok(Err(_)) => (0, false, None),
        Err(_) => panic!("no answer to an initialize in 30 s"),
    }
}

/// Waits until the flooded sessions have expired: the idle time, and the sweeper's period
/// (a quarter of it), with a margin.
async fn expiry() {
    tokio::time::sleep(IDLE + IDLE / 4 + Duration::from_millis(500)).await;
}

/// With glibc's defaults, two floods: the cap holds, and the resident memory stays within
/// [`SESSION_KIB`] per session of its start, at both peaks and after.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn flooded_memory_is_bounded() {
    let _alone = FLOODS.lock().await;
    let began = Instant::now();
    let (child, address) = flood_target(None).await;
    let pid = child.id().expect("a pid");
    let start = Memory::of(pid);
    let bound = start.rss + CAP as u64 * SESSION_KIB;
    let mut report = format!("glibc defaults: start {start}");
    for round in 1..=2 {
        let flood = flood(&address).await;
        let peak = Memory::of(pid);
        flood.check();
        expiry().await;
        let after = Memory::of(pid);
        report += &format!(
            "\n  flood {round}: {} opened, {} refused in {:.1} s; peak {peak}; after expiry {after}",
            flood.opened,
            flood.refused,
            flood.took.as_secs_f64(),
        );
        assert!(
            peak.rss <= bound && after.rss <= bound,
            "at most {SESSION_KIB} KiB per session over the start, {bound} KiB:\n{report}"
        );
    }
    eprintln!("{report}\n  in {:.1} s", began.elapsed().as_secs_f64());
}

/// With glibc's caches off, two floods: the resident memory comes back to within
/// [`RETURN_KIB`] of its start once the sessions have expired, and the second flood peaks
/// within [`REUSE_KIB`] of the first.
#[cfg(target_env = "gnu")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn flooded_memory_comes_back() {
    let _alone = FLOODS.lock().await;
    let began = Instant::now();
    let (child, address) = flood_target(Some(CACHES_OFF)).await;
    let pid = child.id().expect("a pid");
    let start = Memory::of(pid);
    let mut report = format!("{CACHES_OFF}: start {start}");
    let mut first_peak = None;
    for round in 1..=2 {
        let flood = flood(&address).await;
        let peak = Memory::of(pid);
        flood.check();
        expiry().await;
        // The last sessions' memory is given back as their workers end: a moment more.
        let mut after = Memory::of(pid);
        let deadline = Instant::now() + Duration::from_secs(3);
        while after.rss > start.rss + RETURN_KIB && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(100)).await;
            after = Memory::of(pid);
        }
        report += &format!(
            "\n  flood {round}: {} opened, {} refused in {:.1} s; peak {peak}; after expiry {after}",
            flood.opened,
            flood.refused,
            flood.took.as_secs_f64(),
        );
        assert!(
            peak.rss <= start.rss + CAP as u64 * SESSION_KIB,
            "at most {SESSION_KIB} KiB per session over the start:\n{report}"
        );
        assert!(
            after.rss <= start.rss + RETURN_KIB,
            "back within {RETURN_KIB} KiB of the start once the sessions expired:\n{report}"
        );
        let first_peak = *first_peak.get_or_insert(peak.rss);
        assert!(
            peak.rss <= first_peak + REUSE_KIB,
            "a flood reuses the memory of the one before, within {REUSE_KIB} KiB:\n{report}"
        );
    }
    eprintln!("{report}\n  in {:.1} s", began.elapsed().as_secs_f64());
}
