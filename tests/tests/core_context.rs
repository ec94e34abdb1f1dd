//! `ToolContext`: what a tool's run sees besides its inputs — the call id and tool name, its
//! credentials, the executor's shared dependencies (by type), and the cancellation signal.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use agentkit_core::{
    BoxError, Cancellation, ErrorKind, InMemoryCredentials, JsonObject, MissingDependency, Tool,
    ToolCall, ToolContext, ToolExecutor, ToolHandler, ToolOutput, ToolRegistry, ToolSpec, block_on,
    tool,
};
use serde_json::json;

/// What a tool saw of its context, by call.
#[derive(Default, Clone)]
struct Seen(Arc<Mutex<Vec<(String, String)>>>);

impl Seen {
    fn all(&self) -> Vec<(String, String)> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

struct Echo {
    spec: ToolSpec,
    seen: Seen,
}

impl Tool for Echo {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    async fn execute(&self, _: &JsonObject, ctx: &ToolContext<'_>) -> Result<ToolOutput, BoxError> {
        self.seen
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push((ctx.call_id().to_owned(), ctx.tool_name().to_owned()));
        let key = ctx.credential("api-key")?.expose().len();
        Ok(json!({"key_len": key})
            .as_object()
            .cloned()
            .unwrap_or_default()
            .into())
    }
}

fn echo_executor(seen: &Seen) -> ToolExecutor {
    let spec = ToolSpec::builder("echo")
        .credential("api-key")
        .build()
        .expect("valid spec");
    let mut registry = ToolRegistry::new();
    registry
        .register(Echo {
            spec,
            seen: seen.clone(),
        })
        .expect("registers");
    ToolExecutor::builder(registry)
        .credentials(InMemoryCredentials::new().with("api-key", "sk-12345"))
        .build()
}

#[test]
fn the_tool_sees_its_call_id_name_and_credentials() {
    let seen = Seen::default();
    let executor = echo_executor(&seen);
    let calls = [
        ToolCall::new("call_a", "echo", "{}"),
        ToolCall::new("call_b", "echo", json!({})),
    ];
    let results = block_on(executor.dispatch_all(&calls));
    for result in &results {
        assert_eq!(result.output().expect("succeeds")["key_len"], 8);
    }
    assert_eq!(
        seen.all(),
        [
            ("call_a".to_owned(), "echo".to_owned()),
            ("call_b".to_owned(), "echo".to_owned())
        ]
    );
    // `execute` without a provider's call has an empty call id.
    let result = block_on(executor.execute("echo", JsonObject::new()));
    assert!(result.is_success());
    assert_eq!(seen.all()[2].0, "");
}

/// A shared client, as an application would register it.
struct Client {
    base_url: String,
    calls: AtomicUsize,
}

/// A second dependency type, never registered in some tests.
struct Cache;

struct Fetch(ToolSpec);

impl Tool for Fetch {
    fn spec(&self) -> &ToolSpec {
        &self.0
    }

    async fn execute(&self, _: &JsonObject, ctx: &ToolContext<'_>) -> Result<ToolOutput, BoxError> {
        let client = ctx.dependency::<Client>()?;
        client.calls.fetch_add(1, Ordering::SeqCst);
        let mut out = JsonObject::new();
        out.insert("url".into(), client.base_url.clone().into());
        if ctx.dependency::<Cache>().is_ok() {
            out.insert("cached".into(), true.into());
        }
        Ok(out.into())
    }
}

fn fetch_registry() -> ToolRegistry {
    let mut registry = ToolRegistry::new();
    registry
        .register(Fetch(ToolSpec::builder("fetch").build().expect("valid")))
        .expect("registers");
    registry
}

#[test]
fn dependencies_are_shared_by_type() {
    let executor = ToolExecutor::builder(fetch_registry())
        .dependency(Client {
            base_url: "https://first.example".into(),
            calls: AtomicUsize::new(0),
        })
        // One value per type: the second replaces the first.
        .dependency(Client {
            base_url: "https://api.example".into(),
            calls: AtomicUsize::new(0),
        })
        .dependency(Cache)
        .build();
    for id in ["1", "2"] {
        let result = block_on(executor.dispatch(&ToolCall::new(id, "fetch", "{}")));
        let output = result.output().expect("succeeds");
        assert_eq!(output["url"], "https://api.example");
        assert_eq!(output["cached"], true);
    }
}

#[test]
fn a_missing_dependency_is_an_execution_error_naming_the_type() {
    let executor = ToolExecutor::new(fetch_registry());
    let result = block_on(executor.dispatch(&ToolCall::new("1", "fetch", "{}")));
    let error = result.error().expect("fails");
    assert_eq!(error.kind(), ErrorKind::Execution);
    let agentkit_core::Error::Execution(execution) = error else {
        panic!("an execution error: {error:?}")
    };
    let missing = execution
        .cause()
        .downcast_ref::<MissingDependency>()
        .expect("caused by MissingDependency");
    assert!(
        missing.type_name().ends_with("core_context::Client"),
        "{missing}"
    );
    // A configuration mistake is the operator's: the model is only told the tool failed.
    assert_eq!(result.to_model_content(), "Error: tool 'fetch' failed.");
}

/// A tool that hands its cancellation signal to a thread, then never finishes.
struct Spawner {
    spec: ToolSpec,
    handed_over: mpsc::Sender<Cancellation>,
}

impl Tool for Spawner {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    async fn execute(&self, _: &JsonObject, ctx: &ToolContext<'_>) -> Result<ToolOutput, BoxError> {
        assert!(!ctx.is_cancelled());
        let _ = self.handed_over.send(ctx.cancellation().clone());
        std::future::pending().await
    }
}

fn spawner() -> (ToolExecutor, mpsc::Receiver<Cancellation>) {
    let (sender, receiver) = mpsc::channel();
    let mut registry = ToolRegistry::new();
    registry
        .register(Spawner {
            spec: ToolSpec::builder("spawner").build().expect("valid"),
            handed_over: sender,
        })
        .expect("registers");
    (ToolExecutor::new(registry), receiver)
}

#[tokio::test]
async fn a_deadline_signals_the_work_a_tool_handed_its_cancellation_to() {
    let (executor, handed_over) = spawner();
    let call = ToolCall::new("1", "spawner", "{}");
    let result = executor
        .dispatch_until(&call, tokio::time::sleep(Duration::from_millis(20)))
        .await;
    assert_eq!(result.error().map(|e| e.kind()), Some(ErrorKind::Timeout));
    let signal = handed_over.try_recv().expect("the tool ran");
    assert!(signal.is_cancelled());
    // A task awaiting the signal finishes.
    signal.cancelled().await;
}

#[tokio::test]
async fn dropping_a_call_signals_its_cancellation_too() {
    let (executor, handed_over) = spawner();
    let call = ToolCall::new("1", "spawner", "{}");
    let outcome = tokio::time::timeout(Duration::from_millis(20), executor.dispatch(&call)).await;
    assert!(outcome.is_err(), "the tool never finishes");
    let signal = handed_over.try_recv().expect("the tool ran");
    assert!(signal.is_cancelled());
}

/// A typed tool reads its context the same way.
#[tool(name = "whoami", output = [{ name = "call", type = string }])]
struct WhoAmI;

impl ToolHandler for WhoAmI {
    async fn run(&self, _: JsonObject, ctx: &ToolContext<'_>) -> Result<WhoAmIOutput, BoxError> {
        Ok(WhoAmIOutput {
            call: format!("{}:{}", ctx.tool_name(), ctx.call_id()),
        })
    }
}

#[test]
fn typed_handlers_get_the_context() {
    let mut registry = ToolRegistry::new();
    registry.register(WhoAmI).expect("registers");
    let executor = ToolExecutor::new(registry);
    let result = block_on(executor.dispatch(&ToolCall::new("toolu_9", "whoami", "{}")));
    assert_eq!(result.output().expect("succeeds")["call"], "whoami:toolu_9");
}

#[test]
fn a_detached_context_runs_logic_in_unit_tests() {
    let credentials = agentkit_core::Credentials::new();
    let ctx = ToolContext::detached("whoami", &credentials);
    let output = block_on(WhoAmI.run(JsonObject::new(), &ctx)).expect("runs");
    assert_eq!(output.call, "whoami:");
    assert!(!ctx.is_cancelled());
    assert!(format!("{ctx:?}").contains("whoami"));
}
