//! The executor runs a call in one of two ways: the common case (no approval, no deadline, no
//! in-flight limit, not blocking) in a small state machine of its own, every other call on
//! the full path; and a `#[tool]` tool's arguments either straight into its input struct or,
//! when something needs them as JSON (an observer), as a JSON object first. Each scenario here
//! runs the same call on executors that differ only in what decides the way (a timeout of an
//! hour, an in-flight limit, an observer), and checks that the results agree: status, error
//! kind, operator text, model text and output. The scenarios are the guarantees: credentials by name, a missing
//! credential, a provider failing with a secret in its error, a panicking tool, an error
//! quoting a secret, output validation, a typed output with a non-finite float, retry
//! budgets within a turn.

use std::time::Duration;

use agentkit_core::{
    BoxError, CredentialProvider, Credentials, Error, ErrorKind, JsonObject, Secret, ToolCall,
    ToolContext, ToolError, ToolEvent, ToolExecutor, ToolExecutorBuilder, ToolHandler,
    ToolObserver, ToolRegistry, ToolResult, ToolSpec, block_on, tool,
};
use serde_json::json;

use crate::core_fixtures::{FnTool, obj};

const KEY: &str = "api-key";
const SECRET: &str = "sk-live-LANES-0b5e7d";

/// The typed tool: fails the way its argument asks.
#[tool(
    name = "typed",
    credentials = ["api-key"],
    input = [{ name = "mode", type = string }],
    output = [{ name = "value", type = float }],
)]
struct Typed;

impl ToolHandler for Typed {
    async fn run(&self, input: TypedInput, ctx: &ToolContext<'_>) -> Result<TypedOutput, BoxError> {
        let secret = ctx.credentials().require(KEY)?.expose().to_owned();
        match input.mode.as_str() {
            "ok" => Ok(TypedOutput { value: 1.5 }),
            "nan" => Ok(TypedOutput { value: f64::NAN }),
            "panic" => panic!("typed tool panicked holding {secret}"),
            "error" => Err(format!("upstream refused key {secret}").into()),
            "retry" => Err(ToolError::retry("try a smaller city").into()),
            other => Err(format!("unknown mode {other}").into()),
        }
    }
}

/// Resolves [`KEY`]; fails for `flaky-key`, quoting the secret it handed out before.
struct Provider;

impl CredentialProvider for Provider {
    fn resolve(&self, name: &str) -> Result<Option<Secret>, BoxError> {
        match name {
            KEY => Ok(Some(Secret::new(SECRET))),
            "flaky-key" => Err(format!("vault timed out after handing out {SECRET}").into()),
            _ => Ok(None),
        }
    }
}

/// The dynamic tools: `dynamic` fails the way its argument asks; `needs_other` needs a
/// credential nobody has; `needs_flaky` one whose lookup fails.
fn registry() -> ToolRegistry {
    let spec = ToolSpec::builder("dynamic")
        .credential(KEY)
        .input(
            agentkit_core::ToolSchema::from_value(json!({"parameters": [
                {"name": "mode", "type": "string", "required": true},
            ]}))
            .unwrap(),
        )
        .output(
            agentkit_core::ToolSchema::from_value(json!({"parameters": [
                {"name": "value", "type": "integer", "required": true},
            ]}))
            .unwrap(),
        )
        .retries(1)
        .build()
        .unwrap();
    let (dynamic, _) = FnTool::new(spec, |inputs: &JsonObject, creds: &Credentials| {
        let secret = creds.require(KEY)?.expose().to_owned();
        match inputs["mode"].as_str().unwrap_or_default() {
            "ok" => Ok(obj(json!({"value": 7}))),
            "wrong_output" => Ok(obj(json!({"value": format!("not a number: {secret}")}))),
            "panic" => panic!("dynamic tool panicked holding {secret}"),
            "error" => Err(format!("upstream refused key {secret}").into()),
            "retry" => Err(ToolError::retry("try again with a city").into()),
            other => Err(format!("unknown mode {other}").into()),
        }
    });
    let needs_other = ToolSpec::builder("needs_other")
        .credential("other-key")
        .build()
        .unwrap();
    let (needs_other, _) = FnTool::new(needs_other, |_, _| Ok(JsonObject::new()));
    let needs_flaky = ToolSpec::builder("needs_flaky")
        .credential(KEY)
        .credential("flaky-key")
        .build()
        .unwrap();
    let (needs_flaky, _) = FnTool::new(needs_flaky, |_, _| Ok(JsonObject::new()));
    let mut registry = ToolRegistry::new();
    registry.register(dynamic).unwrap();
    registry.register(needs_other).unwrap();
    registry.register(needs_flaky).unwrap();
    registry.register(Typed).unwrap();
    registry
}

/// An observer that sees nothing it keeps: its presence makes the executor parse every
/// argument text to a JSON object, as observers are shown them.
struct Quiet;

impl ToolObserver for Quiet {
    fn on_event(&self, _: &ToolEvent<'_>) {}
}

/// The executors compared, by name: `plain` runs every call the common case's way, with a
/// `#[tool]` tool's arguments read straight into its input; `timeout` and `in_flight` run
/// them on the full path; `observed` the common case's way, with the arguments as JSON.
fn executors() -> Vec<(&'static str, ToolExecutor)> {
    let make = |configure: fn(ToolExecutorBuilder) -> ToolExecutorBuilder| {
        configure(ToolExecutor::builder(registry()).credentials(Provider)).build()
    };
    vec![
        ("plain", make(|builder| builder)),
        (
            "timeout",
            make(|builder| builder.default_timeout(Duration::from_secs(3600))),
        ),
        ("in_flight", make(|builder| builder.max_in_flight(8))),
        ("observed", make(|builder| builder.observer(Quiet))),
    ]
}

/// What must agree between the two ways: everything a caller can read of a result, but its
/// duration.
fn summary(result: &ToolResult) -> String {
    let error = result.error().map(|error| {
        let mut chain = format!("{error} / {error:?}");
        let mut source = std::error::Error::source(error);
        while let Some(cause) = source {
            chain.push_str(&format!(" <- {cause}"));
            source = cause.source();
        }
        chain
    });
    format!(
        "status {:?}; kind {:?}; retryable {}; output {:?}; error {:?}; model {:?}",
        result.status(),
        result.error_kind(),
        result.is_retryable(),
        result.output(),
        error,
        result.to_model_content(),
    )
}

/// Runs `call` on every executor, checks that they agree and that no rendering holds the
/// secret, and returns the plain executor's result.
fn agree(call: &ToolCall) -> ToolResult {
    let mut results: Vec<(&str, ToolResult)> = executors()
        .into_iter()
        .map(|(name, executor)| (name, block_on(executor.dispatch(call))))
        .collect();
    let (_, plain) = results.remove(0);
    let expected = summary(&plain);
    assert!(
        !expected.contains(SECRET),
        "the secret leaked on the plain path: {expected}"
    );
    for (name, result) in &results {
        assert_eq!(
            summary(result),
            expected,
            "{name} and plain disagree on {call:?}"
        );
    }
    plain
}

fn call(tool: &str, mode: &str) -> ToolCall {
    ToolCall::new("call_1", tool, json!({ "mode": mode }).to_string())
}

fn execution_error(result: &ToolResult) -> &agentkit_core::ToolExecutionError {
    match result.error() {
        Some(Error::Execution(error)) => error,
        other => panic!("expected an execution error, got {other:?}"),
    }
}

#[test]
fn a_successful_call_gives_the_same_output_both_ways() {
    for tool in ["typed", "dynamic"] {
        let result = agree(&call(tool, "ok"));
        assert!(result.is_success(), "{tool}: {result:?}");
    }
    let typed = agree(&call("typed", "ok"));
    assert_eq!(typed.output(), Some(&json!({"value": 1.5})));
    let dynamic = agree(&call("dynamic", "ok"));
    assert_eq!(dynamic.output(), Some(&json!({"value": 7})));
}

#[test]
fn a_panicking_tool_is_contained_and_its_secret_scrubbed_both_ways() {
    for tool in ["typed", "dynamic"] {
        let result = agree(&call(tool, "panic"));
        assert_eq!(result.error_kind(), Some(ErrorKind::Panic), "{tool}");
        let error = execution_error(&result);
        let operator = format!("{error} {error:?}");
        assert!(operator.contains("panicked"), "{tool}: {operator}");
        assert!(!operator.contains(SECRET), "{tool}: {operator}");
    }
}

#[test]
fn an_error_quoting_a_secret_is_scrubbed_both_ways() {
    for tool in ["typed", "dynamic"] {
        let result = agree(&call(tool, "error"));
        let error = execution_error(&result);
        let operator = format!("{error:?}");
        assert!(
            operator.contains("upstream refused key [redacted]"),
            "{tool}: {operator}"
        );
    }
}

#[test]
fn a_missing_credential_fails_before_the_tool_runs_both_ways() {
    let result = agree(&ToolCall::new("call_1", "needs_other", "{}"));
    assert_eq!(result.error_kind(), Some(ErrorKind::Credential));
    let error = execution_error(&result);
    assert!(format!("{error}").contains("other-key"), "{error}");
}

#[test]
fn a_failing_credential_provider_is_reported_scrubbed_both_ways() {
    let result = agree(&ToolCall::new("call_1", "needs_flaky", "{}"));
    assert_eq!(result.error_kind(), Some(ErrorKind::Credential));
    // The provider's text (which quotes a secret) is rendered nowhere; it is kept for an
    // operator who asks for it.
    let error = execution_error(&result);
    let operator = format!("{error:?} {error}");
    assert!(!operator.contains("vault timed out"), "{operator}");
    assert!(operator.contains("flaky-key"), "{operator}");
    let provider = error
        .cause()
        .downcast_ref::<agentkit_core::CredentialError>()
        .and_then(agentkit_core::CredentialError::provider_error)
        .map(ToString::to_string);
    assert_eq!(
        provider.as_deref(),
        Some(format!("vault timed out after handing out {SECRET}").as_str())
    );
}

#[test]
fn an_output_that_breaks_its_schema_is_refused_and_scrubbed_both_ways() {
    let result = agree(&call("dynamic", "wrong_output"));
    match result.error() {
        Some(Error::Validation(error)) => {
            assert_eq!(error.direction(), agentkit_core::Direction::Output);
        }
        other => panic!("expected an output validation error, got {other:?}"),
    }
}

#[test]
fn a_typed_output_with_a_non_finite_float_is_validated_both_ways() {
    let result = agree(&call("typed", "nan"));
    match result.error() {
        Some(Error::Validation(error)) => {
            assert_eq!(error.direction(), agentkit_core::Direction::Output);
            assert_eq!(error.errors().len(), 1, "{error:?}");
        }
        other => panic!("expected an output validation error, got {other:?}"),
    }
}

#[test]
fn retries_count_against_the_turns_budget_both_ways() {
    // `dynamic` allows one retry a turn: the second request exhausts it.
    for (name, executor) in executors() {
        let turn = executor.turn();
        let first = block_on(turn.dispatch(&call("dynamic", "retry")));
        let second = block_on(turn.dispatch(&call("dynamic", "retry")));
        assert_eq!(
            (first.error_kind(), second.error_kind()),
            (Some(ErrorKind::Retry), Some(ErrorKind::RetriesExhausted)),
            "{name}"
        );
        assert_eq!(turn.retries_used("dynamic"), 2, "{name}");
    }
    // Outside a turn, each call is its own: the typed tool has the executor's default budget
    // (`DEFAULT_RETRIES`, at least one), so one request stays a retry.
    let result = agree(&call("typed", "retry"));
    assert_eq!(result.error_kind(), Some(ErrorKind::Retry));
}
