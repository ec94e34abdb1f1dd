//! One replica of a stateless MCP server, to run several of behind a load balancer: every
//! request carries what it needs, so any replica answers it, and a call that needs approval,
//! deferred by one replica, is resumed by whichever the client reaches next.
//!
//! ```sh
//! mkdir -p /tmp/deferred
//! cargo run --example mcp_replica --features mcp -- --name a --store /tmp/deferred --http 127.0.0.1:8081
//! cargo run --example mcp_replica --features mcp -- --name b --store /tmp/deferred --http 127.0.0.1:8082
//! # then a load balancer in front of both: an nginx `upstream` of the two, with
//! # `proxy_http_version 1.1`, `proxy_buffering off` (server-sent events) and
//! # `proxy_set_header Host $http_host`
//! ```
//!
//! The replica prints `listening on http://ADDRESS/mcp` once it serves (port 0 picks a free
//! port), then one line per event of its executor, such as `a tool.execution.deferred deploy`.
//! Its tools:
//!
//! - `replica`: says which replica answered;
//! - `deploy`: needs a person's approval, and the replica has no approval policy, so every
//!   call is deferred: its result carries an id in `_meta["io.agentkit/deferred"]`, and the
//!   call waits as a file in the `--store` directory the replicas share. Once a decision is
//!   recorded there ([`DirectoryStore::decide`]), a call of `deploy` with
//!   `_meta["io.agentkit/resume"]` set to the id runs it, on whichever replica answers; its
//!   output (`{"service", "replica"}`) names that replica. (The deferred answer has
//!   `isError: true`: it cannot carry the structured content the output schema asks for.)
//! - `greet`: asks the user's name, and greets them from the replica that finished the call.
//!   A client of MCP 2026-07-28 is answered with the question and a sealed `requestState`,
//!   and calls again with the answer: with `--state-key KEY` (the same on every replica, 32
//!   bytes or more), any replica takes that second round; without, only the one that sealed
//!   the state.
//!
//! It accepts loopback `Host` names only (the default): a public deployment sets the names it
//! is reached by with [`McpServer::with_allowed_hosts`], and [authentication](McpServer::with_auth).

use std::path::PathBuf;
use std::sync::Arc;

use agentkit_core::mcp::{DirectoryStore, McpServer};
use agentkit_core::serde_json::json;
use agentkit_core::{
    BoxError, Elicitation, ElicitationRequest, ToolContext, ToolEvent, ToolExecutor, ToolHandler,
    ToolRegistry, tool,
};

/// Say which replica of the server answered.
#[tool(name = "replica", input = [], output = [{ name = "replica", type = string }])]
struct Replica {
    name: Arc<str>,
}

impl ToolHandler for Replica {
    async fn run(&self, _: ReplicaInput, _: &ToolContext<'_>) -> Result<ReplicaOutput, BoxError> {
        Ok(ReplicaOutput {
            replica: self.name.to_string(),
        })
    }
}

/// Deploy a service (each call needs a person's approval).
#[tool(
    name = "deploy",
    requires_approval,
    input = [{ name = "service", type = string }],
    output = [{ name = "service", type = string }, { name = "replica", type = string }]
)]
struct Deploy {
    name: Arc<str>,
}

impl ToolHandler for Deploy {
    async fn run(&self, input: DeployInput, _: &ToolContext<'_>) -> Result<DeployOutput, BoxError> {
        Ok(DeployOutput {
            service: input.service,
            replica: self.name.to_string(),
        })
    }
}

/// Ask the user's name, and greet them.
#[tool(name = "greet", input = [], output = [{ name = "greeting", type = string }, { name = "replica", type = string }])]
struct Greet {
    name: Arc<str>,
}

impl ToolHandler for Greet {
    async fn run(&self, _: GreetInput, ctx: &ToolContext<'_>) -> Result<GreetOutput, BoxError> {
        let form = json!({
            "type": "object",
            "properties": {"name": {"type": "string"}},
            "required": ["name"],
        });
        let answer = ctx
            .elicit(ElicitationRequest::new("What is your name?", form))
            .await?;
        let name = match &answer {
            Elicitation::Accept(content) => content.get("name").and_then(|n| n.as_str()),
            _ => None,
        };
        Ok(GreetOutput {
            greeting: format!("Hello, {}!", name.unwrap_or("stranger")),
            replica: self.name.to_string(),
        })
    }
}

/// The command line: `--name NAME --store DIR --http ADDRESS [--state-key KEY]`.
struct Options {
    name: String,
    store: PathBuf,
    address: String,
    state_key: Option<String>,
}

fn options() -> Result<Options, BoxError> {
    const USAGE: &str =
        "usage: mcp_replica --name NAME --store DIR --http ADDRESS:PORT [--state-key KEY]";
    let (mut name, mut store, mut address, mut state_key) = (None, None, None, None);
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let slot = match flag.as_str() {
            "--name" => &mut name,
            "--store" => &mut store,
            "--http" => &mut address,
            "--state-key" => &mut state_key,
            _ => return Err(USAGE.into()),
        };
        *slot = Some(args.next().ok_or(USAGE)?);
    }
    match (name, store, address) {
        (Some(name), Some(store), Some(address)) => Ok(Options {
            name,
            store: store.into(),
            address,
            state_key,
        }),
        _ => Err(USAGE.into()),
    }
}

#[tokio::main]
async fn main() -> Result<(), BoxError> {
    let options = options()?;
    let name: Arc<str> = options.name.into();
    let mut registry = ToolRegistry::new();
    registry.register(Replica {
        name: Arc::clone(&name),
    })?;
    registry.register(Deploy {
        name: Arc::clone(&name),
    })?;
    registry.register(Greet {
        name: Arc::clone(&name),
    })?;
    let logged = Arc::clone(&name);
    // No approval policy: every call that needs approval is deferred.
    let executor = ToolExecutor::builder(registry)
        .observer(move |event: &ToolEvent<'_>| {
            println!("{logged} {} {}", event.name(), event.tool_name());
        })
        .build();
    let mut server = McpServer::new(Arc::new(executor))
        .with_name("agentkit-replica", env!("CARGO_PKG_VERSION"))
        .stateless()
        .with_deferred_store(DirectoryStore::new(&options.store)?);
    // Shared by the replicas: a call's next round may reach any of them.
    if let Some(key) = &options.state_key {
        server = server.with_request_state_key(key)?;
    }

    let listener = tokio::net::TcpListener::bind(options.address.as_str()).await?;
    // The bound address (port 0 picks one), for whoever started us.
    println!("listening on http://{}/mcp", listener.local_addr()?);
    server.serve_http(listener).await;
    Ok(())
}
