//! Retry with feedback, failed and denied calls (`ToolError`), and their budgets.

use super::*;

/// A tool that answers each call as its `mode` argument says.
struct Answers(ToolSpec);

impl Tool for Answers {
    fn spec(&self) -> &ToolSpec {
        &self.0
    }

    async fn execute(
        &self,
        inputs: &JsonObject,
        _: &ToolContext<'_>,
    ) -> Result<ToolOutput, BoxError> {
        match inputs.get("mode").and_then(|m| m.as_str()) {
            Some("retry") => {
                Err(ToolError::retry("`city` must be a real city, such as \"Paris\"").into())
            }
            Some("failed") => Err(ToolError::failed("db: connection refused at 10.0.0.7:5432")
                .with_model_message("The database is unavailable; try again later.")
                .into()),
            Some("plain") => Err("db: connection refused at 10.0.0.7:5432".into()),
            Some("denied") => Err(ToolError::denied("only admins may delete projects").into()),
            _ => Ok(JsonObject::new().into()),
        }
    }
}

pub(super) fn answers(retries: Option<u32>) -> ToolRegistry {
    let mut spec = ToolSpec::builder("lookup");
    if let Some(retries) = retries {
        spec = spec.retries(retries);
    }
    let mut registry = ToolRegistry::new();
    registry.register(Answers(spec.build().unwrap())).unwrap();
    registry
}

pub(super) fn mode(id: &str, mode: &str) -> ToolCall {
    ToolCall::new(id, "lookup", json!({ "mode": mode }))
}

#[test]
fn a_retry_request_is_retryable_until_the_tools_budget_for_the_turn_is_spent() {
    let executor = ToolExecutor::new(answers(Some(2)));
    let turn = executor.turn();
    let first = block_on(turn.dispatch(&mode("c1", "retry")));
    let second = block_on(turn.dispatch(&mode("c2", "retry")));
    let third = block_on(turn.dispatch(&mode("c3", "retry")));
    for result in [&first, &second] {
        assert_eq!(result.error_kind(), Some(ErrorKind::Retry));
        assert!(result.is_retryable());
        assert_eq!(
            result.to_model_content(),
            "Error: tool 'lookup' asks you to correct the call and try again: `city` must be a real city, such as \"Paris\""
        );
    }
    assert_eq!(third.error_kind(), Some(ErrorKind::RetriesExhausted));
    assert!(!third.is_retryable());
    assert_eq!(
        third.to_model_content(),
        "Error: tool 'lookup' failed, and it cannot be retried in this turn: `city` must be a real city, such as \"Paris\""
    );
    assert_eq!(turn.retries_used("lookup"), 3);

    // A new turn starts with the whole budget.
    let next = executor.turn();
    let again = block_on(next.dispatch(&mode("c4", "retry")));
    assert_eq!(again.error_kind(), Some(ErrorKind::Retry));
}

#[test]
fn the_executors_default_budget_applies_to_tools_that_declare_none() {
    let executor = ToolExecutor::builder(answers(None))
        .default_retries(0)
        .build();
    let result = block_on(executor.dispatch(&mode("c1", "retry")));
    assert_eq!(result.error_kind(), Some(ErrorKind::RetriesExhausted));

    // The built-in default is one retry per turn.
    let executor = ToolExecutor::new(answers(None));
    let turn = executor.turn();
    let kinds: Vec<Option<ErrorKind>> = (0..2)
        .map(|i| block_on(turn.dispatch(&mode(&format!("c{i}"), "retry"))).error_kind())
        .collect();
    assert_eq!(
        kinds,
        [Some(ErrorKind::Retry), Some(ErrorKind::RetriesExhausted)]
    );
}

#[test]
fn retries_are_counted_across_one_turns_calls_run_together() {
    let executor = ToolExecutor::new(answers(Some(1)));
    let results = block_on(executor.dispatch_all(&[mode("c1", "retry"), mode("c2", "retry")]));
    let mut kinds: Vec<ErrorKind> = results.iter().filter_map(|r| r.error_kind()).collect();
    kinds.sort_by_key(|k| k.as_str());
    assert_eq!(kinds, [ErrorKind::RetriesExhausted, ErrorKind::Retry]);
}

#[test]
fn a_failure_tells_the_model_only_what_the_tool_meant_for_it() {
    let executor = ToolExecutor::new(answers(None));
    let failed = block_on(executor.dispatch(&mode("c1", "failed")));
    assert_eq!(failed.error_kind(), Some(ErrorKind::Execution));
    assert!(!failed.is_retryable());
    assert_eq!(
        failed.to_model_content(),
        "Error: tool 'lookup' failed: The database is unavailable; try again later."
    );
    // The operator sees the cause.
    let error = failed.error().unwrap();
    assert!(error.to_string().contains("10.0.0.7"), "{error}");

    // A plain error: its text is the operator's only.
    let plain = block_on(executor.dispatch(&mode("c2", "plain")));
    assert_eq!(plain.to_model_content(), "Error: tool 'lookup' failed.");
    assert!(plain.error().unwrap().to_string().contains("10.0.0.7"));
}

#[test]
fn a_tool_can_deny_a_call() {
    let executor = ToolExecutor::new(answers(None));
    let denied = block_on(executor.dispatch(&mode("c1", "denied")));
    assert_eq!(denied.error_kind(), Some(ErrorKind::Denied));
    assert!(!denied.is_retryable());
    assert_eq!(
        denied.to_model_content(),
        "Error: the call to tool 'lookup' was denied: only admins may delete projects"
    );
}

#[test]
fn strict_mode_returns_the_new_kinds_as_errors() {
    let executor = ToolExecutor::new(answers(Some(3)));
    for (m, kind) in [
        ("retry", ErrorKind::Retry),
        ("failed", ErrorKind::Execution),
        ("denied", ErrorKind::Denied),
    ] {
        let error = block_on(executor.try_dispatch(&mode("c", m))).unwrap_err();
        assert_eq!(error.kind(), kind);
        assert_eq!(error.is_retryable(), kind == ErrorKind::Retry);
    }
}

#[test]
fn retry_and_denial_outcomes_replay_exactly() {
    let recorder = ExecutionRecorder::new();
    let registry = answers(Some(1));
    let executor = ToolExecutor::builder(registry.clone())
        .observer(recorder.clone())
        .build();
    let turn = executor.turn();
    let calls = [
        mode("c1", "retry"),
        mode("c2", "retry"),
        mode("c3", "denied"),
        mode("c4", "failed"),
    ];
    let live: Vec<String> = calls
        .iter()
        .map(|c| block_on(turn.dispatch(c)).to_model_content())
        .collect();
    let replay = recorder.replay();
    let replayer = ToolExecutor::new(replay.registry_for(&registry));
    let turn = replayer.turn();
    let replayed: Vec<String> = calls
        .iter()
        .map(|c| block_on(turn.dispatch(c)).to_model_content())
        .collect();
    assert_eq!(live, replayed);
    assert_eq!(replay.remaining(), 0);
}
