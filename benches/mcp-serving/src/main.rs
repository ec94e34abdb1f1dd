//! The MCP serving benchmark: agentkit's `McpServer::serve_http` beside plain rmcp servers of
//! the same tool, on axum and on bare hyper, measured from outside over loopback.
//!
//! `mcp-serving serve KIND` runs one server (see `servers.rs`) on a free loopback port and
//! prints its address. `mcp-serving bench` starts each server that way, as its own process
//! pinned to one core (`taskset -c 0`, so that its tokio runtime has one worker thread), and
//! drives them from this process (to be pinned to the other core) on a current-thread
//! runtime: for 1, 8 and 64 sessions, valid and invalid calls, every server in turn, round
//! after round, the order rotating, so that a change in the machine's pace falls on all of
//! them alike. It prints the medians over the rounds and, per round, agentkit's ratios to the
//! plain servers. `run.sh` builds it and runs it with the pinning.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

mod load;
mod report;
mod servers;
mod session;

use load::{Sample, measure};
use session::{Calls, Error};

/// The servers of the table, in the order of the first round.
const MEASURED: [&str; 3] = ["agentkit", "axum", "hyper"];

struct Options {
    rounds: usize,
    /// Calls per measurement, shared among its sessions.
    calls: usize,
    sessions: Vec<usize>,
    /// The cores for the servers (`taskset -c`), or none to leave them unpinned.
    server_cpus: Option<String>,
    servers: Vec<String>,
    kinds: Vec<Calls>,
    /// Whether to show, once, what a call costs without `TCP_NODELAY`.
    nagle: bool,
    /// A command the servers run under (a profiler), before the server's own.
    wrap: Vec<String>,
    /// Whether the servers serve without sessions (`McpServer::stateless`, rmcp's
    /// `legacy_session_mode` off and JSON responses), and the clients call without one.
    stateless: bool,
}

fn main() -> Result<(), Error> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("serve") if args.len() == 2 => serve(&args[1], false),
        Some("serve") if args.len() == 3 && args[2] == "--stateless" => serve(&args[1], true),
        Some("bench") => {
            let options = parse(&args[1..])?;
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()?
                .block_on(bench(options))
        }
        _ => Err(USAGE.into()),
    }
}

const USAGE: &str = "usage: mcp-serving serve KIND
       mcp-serving bench [--rounds N] [--calls N] [--sessions 1,8,64]
                         [--server-cpus LIST | --no-pin] [--servers agentkit,axum,hyper]
                         [--calls-kinds valid,invalid] [--no-nagle] [--stateless]
                         [--wrap 'valgrind --tool=callgrind']

--stateless: every server serves without sessions (agentkit's McpServer::stateless, rmcp's
legacy_session_mode off with JSON responses, as agentkit sets it), and each call is a request
of its own: no initialize, no Mcp-Session-Id, no DELETE.";

fn parse(args: &[String]) -> Result<Options, Error> {
    let mut options = Options {
        rounds: 10,
        calls: 4_000,
        sessions: vec![1, 8, 64],
        server_cpus: Some("0".to_owned()),
        servers: MEASURED.iter().map(|s| (*s).to_owned()).collect(),
        kinds: vec![Calls::Valid, Calls::Invalid],
        nagle: true,
        wrap: Vec::new(),
        stateless: false,
    };
    let mut args = args.iter();
    while let Some(flag) = args.next() {
        let mut value = || {
            args.next()
                .ok_or_else(|| format!("{flag} needs a value\n{USAGE}"))
        };
        match flag.as_str() {
            "--rounds" => options.rounds = value()?.parse()?,
            "--calls" => options.calls = value()?.parse()?,
            "--sessions" => {
                options.sessions = value()?
                    .split(',')
                    .map(str::parse)
                    .collect::<Result<_, _>>()?
            }
            "--server-cpus" => options.server_cpus = Some(value()?.clone()),
            "--no-pin" => options.server_cpus = None,
            "--servers" => options.servers = value()?.split(',').map(str::to_owned).collect(),
            "--calls-kinds" => {
                options.kinds = value()?
                    .split(',')
                    .map(|kind| match kind {
                        "valid" => Ok(Calls::Valid),
                        "invalid" => Ok(Calls::Invalid),
                        _ => Err(format!("unknown kind of calls {kind:?}")),
                    })
                    .collect::<Result<_, _>>()?
            }
            "--no-nagle" => options.nagle = false,
            "--stateless" => options.stateless = true,
            "--help" | "-h" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            "--wrap" => options.wrap = value()?.split_whitespace().map(str::to_owned).collect(),
            _ => return Err(format!("unknown argument {flag:?}\n{USAGE}").into()),
        }
    }
    Ok(options)
}

/// One server process: a multi-thread runtime as `#[tokio::main]` makes it, so one worker
/// per core the process may run on (one, under `taskset -c 0`). It returns on `SIGTERM`, so
/// that a profiler it runs under writes its profile.
fn serve(kind: &str, stateless: bool) -> Result<(), Error> {
    use tokio::signal::unix::{SignalKind, signal};
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(async {
            let mut terminate = signal(SignalKind::terminate())?;
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
            println!("{}", listener.local_addr()?);
            tokio::select! {
                served = servers::serve(kind, listener, stateless) => served,
                _ = terminate.recv() => Ok(()),
            }
        })
}

/// A server process, killed when dropped.
struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Server {
    fn start(
        kind: &str,
        cpus: Option<&str>,
        wrap: &[String],
        stateless: bool,
    ) -> Result<Server, Error> {
        let exe = std::env::current_exe()?.into_os_string();
        let mut line: Vec<std::ffi::OsString> = Vec::new();
        if let Some(cpus) = cpus {
            line.extend(["taskset".into(), "-c".into(), cpus.into()]);
        }
        line.extend(wrap.iter().map(Into::into));
        line.push(exe);
        let mut child = Command::new(&line[0])
            .args(&line[1..])
            .args(["serve", kind])
            .args(stateless.then_some("--stateless"))
            .stdout(Stdio::piped())
            .spawn()?;
        let mut line = String::new();
        BufReader::new(child.stdout.take().ok_or("no stdout")?).read_line(&mut line)?;
        let addr = line
            .trim()
            .parse()
            .map_err(|_| format!("server {kind} did not start: {line:?}"))?;
        Ok(Server { child, addr })
    }

    fn pid(&self) -> Option<u32> {
        Some(self.child.id())
    }
}

impl Drop for Server {
    /// `SIGTERM` first (a profiler writes its profile), then `SIGKILL` if it is still running
    /// a minute later.
    fn drop(&mut self) {
        let terminated = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        if terminated.is_ok_and(|status| status.success()) {
            for _ in 0..600 {
                if let Ok(Some(_)) = self.child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(100));
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The measurements of one (sessions, calls) cell: per server, one sample a round.
pub type Cells = BTreeMap<(usize, &'static str), BTreeMap<String, Vec<Sample>>>;

async fn bench(options: Options) -> Result<(), Error> {
    let cpus = options.server_cpus.as_deref();
    println!(
        "servers pinned to: {}; client: this process, a current-thread runtime; {}",
        cpus.unwrap_or("(not pinned)"),
        if options.stateless {
            "stateless: no sessions, every call a request of its own"
        } else {
            "a session per connection"
        }
    );
    let stateless = options.stateless;

    // Once: the default without TCP_NODELAY, beside the same server with it.
    let nagle: &[&str] = if options.nagle {
        &["axum-nagle", "axum"]
    } else {
        &[]
    };
    for kind in nagle {
        let server = Server::start(kind, cpus, &options.wrap, stateless)?;
        let sample = measure(server.addr, server.pid(), 1, 20, Calls::Valid, stateless).await?;
        println!(
            "{kind:>10}: 1 session, 20 valid calls: p50 {:.3} ms, {:.0} calls/s",
            ms(sample.p50),
            sample.calls_per_s
        );
    }

    let mut running = Vec::new();
    for kind in &options.servers {
        running.push((
            kind.clone(),
            Server::start(kind, cpus, &options.wrap, stateless)?,
        ));
    }
    let cells: Vec<(usize, Calls)> = options
        .sessions
        .iter()
        .flat_map(|&n| options.kinds.iter().map(move |&kind| (n, kind)))
        .collect();
    let per_session = |sessions: usize| (options.calls / sessions).max(10);

    // A round not counted: connections, allocator and caches warm on every server.
    for &(sessions, kind) in &cells {
        for (_, server) in &running {
            let calls = (per_session(sessions) / 4).max(5);
            measure(server.addr, server.pid(), sessions, calls, kind, stateless).await?;
        }
    }

    let mut results = Cells::new();
    for round in 0..options.rounds {
        for (index, &(sessions, kind)) in cells.iter().enumerate() {
            // Each cell starts with another server than the last, round after round.
            let first = (round + index) % running.len();
            for offset in 0..running.len() {
                let (name, server) = &running[(first + offset) % running.len()];
                let sample = measure(
                    server.addr,
                    server.pid(),
                    sessions,
                    per_session(sessions),
                    kind,
                    stateless,
                )
                .await?;
                results
                    .entry((sessions, kind.name()))
                    .or_default()
                    .entry(name.clone())
                    .or_default()
                    .push(sample);
            }
        }
        eprintln!("round {} of {} done", round + 1, options.rounds);
    }
    report::print(&options.servers, &results, options.rounds, per_session);
    Ok(())
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1e3
}
