//! Approval: allow, deny and defer before credentials, and resuming a deferred call.

use super::retries::{answers, mode};
use super::*;

/// A transfer tool that needs approval and a credential; counts its runs.
struct Transfer {
    spec: ToolSpec,
    runs: Arc<AtomicUsize>,
}

impl Tool for Transfer {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    async fn execute(
        &self,
        inputs: &JsonObject,
        ctx: &ToolContext<'_>,
    ) -> Result<ToolOutput, BoxError> {
        ctx.credential("bank-token")?;
        self.runs.fetch_add(1, Ordering::SeqCst);
        Ok(object(json!({"sent": inputs["amount"]})).into())
    }
}

/// Counts lookups: a denied or deferred call must resolve no credential.
#[derive(Clone, Default)]
struct CountingCredentials(Arc<AtomicUsize>);

impl CredentialProvider for CountingCredentials {
    fn resolve(&self, _: &str) -> Result<Option<Secret>, BoxError> {
        self.0.fetch_add(1, Ordering::SeqCst);
        Ok(Some(Secret::new("tok-123")))
    }
}

struct Bank {
    registry: ToolRegistry,
    runs: Arc<AtomicUsize>,
    lookups: CountingCredentials,
}

fn bank() -> Bank {
    let runs = Arc::new(AtomicUsize::new(0));
    let input = agentkit_core::ToolSchema::new([agentkit_core::Param::required(
        "amount",
        agentkit_core::ParamType::Float,
    )])
    .unwrap();
    let mut registry = ToolRegistry::new();
    registry
        .register(Transfer {
            spec: ToolSpec::builder("transfer")
                .input(input)
                .credential("bank-token")
                .requires_approval()
                .build()
                .unwrap(),
            runs: Arc::clone(&runs),
        })
        .unwrap();
    Bank {
        registry,
        runs,
        lookups: CountingCredentials::default(),
    }
}

fn by_amount(request: &ApprovalRequest<'_>) -> Approval {
    match request.inputs()["amount"].as_f64() {
        Some(amount) if amount <= 100.0 => Approval::Allow,
        Some(amount) if amount >= 10_000.0 => {
            Approval::deny("transfers over 10000 are not allowed")
        }
        _ => Approval::Defer,
    }
}

fn transfer(id: &str, amount: f64) -> ToolCall {
    ToolCall::new(id, "transfer", json!({ "amount": amount }))
}

#[test]
fn the_policy_allows_denies_and_defers_before_credentials_are_resolved() {
    let bank = bank();
    let log = Log::default();
    let recorder = ExecutionRecorder::new();
    let executor = ToolExecutor::builder(bank.registry)
        .credentials(bank.lookups.clone())
        .approval(by_amount)
        .observer(log.observer())
        .observer(recorder.clone())
        .build();

    let denied = block_on(executor.dispatch(&transfer("c1", 50_000.0)));
    assert_eq!(denied.error_kind(), Some(ErrorKind::Denied));
    assert_eq!(
        denied.to_model_content(),
        "Error: the call to tool 'transfer' was denied: transfers over 10000 are not allowed"
    );
    let deferred = block_on(executor.dispatch(&transfer("c2", 500.0)));
    assert_eq!(deferred.status(), ToolStatus::Deferred);
    assert!(!deferred.is_success() && !deferred.is_retryable());
    assert_eq!(deferred.error_kind(), Some(ErrorKind::AwaitingApproval));
    assert_eq!(
        deferred.to_model_content(),
        "The call to tool 'transfer' awaits approval; its result will follow."
    );
    // Neither ran the tool nor touched a credential.
    assert_eq!(bank.runs.load(Ordering::SeqCst), 0);
    assert_eq!(bank.lookups.0.load(Ordering::SeqCst), 0);

    let allowed = block_on(executor.dispatch(&transfer("c3", 20.0)));
    assert!(allowed.is_success(), "{allowed:?}");
    assert_eq!(bank.runs.load(Ordering::SeqCst), 1);

    let names: Vec<String> = log
        .all()
        .into_iter()
        .filter(|(n, _, _)| n != "tool.execution.started")
        .map(|(n, id, detail)| format!("{id} {n} {detail}"))
        .collect();
    assert_eq!(
        names,
        [
            "c1 tool.execution.failed denied",
            "c2 tool.execution.deferred ",
            "c3 tool.execution.completed ",
        ]
    );
    let outcomes: Vec<String> = recorder
        .recordings()
        .iter()
        .map(|r| match &r.outcome {
            RecordedOutcome::Error(e) => e.kind.to_string(),
            RecordedOutcome::Deferred => "deferred".to_owned(),
            RecordedOutcome::Output(_) => "output".to_owned(),
            _ => "other".to_owned(),
        })
        .collect();
    assert_eq!(outcomes, ["denied", "deferred", "output"]);
}

#[test]
fn a_deferred_call_resumes_with_the_decision_even_after_a_round_trip_through_json() {
    let bank = bank();
    let executor = ToolExecutor::builder(bank.registry)
        .credentials(bank.lookups.clone())
        .approval(by_amount)
        .build();
    let deferred = block_on(executor.dispatch(&transfer("c1", 500.0)))
        .into_deferred()
        .expect("deferred");
    assert_eq!(deferred.tool_name(), "transfer");
    assert_eq!(deferred.call_id(), "c1");
    assert_eq!(deferred.inputs()["amount"], 500.0);

    // Kept while a person decides.
    let stored = serde_json::to_string(&deferred).unwrap();
    let restored: agentkit_core::DeferredCall = serde_json::from_str(&stored).unwrap();

    let still = block_on(executor.resume(restored.clone(), Approval::Defer));
    assert_eq!(still.status(), ToolStatus::Deferred);
    let denied = block_on(executor.resume(restored.clone(), Approval::deny("the user declined")));
    assert_eq!(
        denied.to_model_content(),
        "Error: the call to tool 'transfer' was denied: the user declined"
    );
    assert_eq!(bank.runs.load(Ordering::SeqCst), 0);
    let approved = block_on(executor.resume(restored, Approval::Allow));
    assert_eq!(approved.call_id(), "c1");
    assert_eq!(approved.output().unwrap()["sent"], 500.0);
    assert_eq!(bank.runs.load(Ordering::SeqCst), 1);
}

#[test]
fn a_resumed_call_is_validated_again() {
    let bank = bank();
    let executor = ToolExecutor::new(bank.registry);
    let deferred = block_on(executor.dispatch(&transfer("c1", 5.0)))
        .into_deferred()
        .expect("no policy: deferred");
    let mut tampered = serde_json::to_value(&deferred).unwrap();
    tampered["inputs"]["amount"] = json!("all of it");
    let tampered: agentkit_core::DeferredCall = serde_json::from_value(tampered).unwrap();
    let result = block_on(executor.resume(tampered, Approval::Allow));
    assert_eq!(result.error_kind(), Some(ErrorKind::InputValidation));
    assert_eq!(bank.runs.load(Ordering::SeqCst), 0);
}

#[test]
fn a_panicking_policy_runs_nothing() {
    let bank = bank();
    let executor = ToolExecutor::builder(bank.registry)
        .credentials(bank.lookups.clone())
        .approval(|_: &ApprovalRequest<'_>| -> Approval { panic!("policy bug") })
        .build();
    let result = block_on(executor.dispatch(&transfer("c1", 1.0)));
    assert_eq!(result.error_kind(), Some(ErrorKind::Execution));
    assert_eq!(result.to_model_content(), "Error: tool 'transfer' failed.");
    assert_eq!(bank.runs.load(Ordering::SeqCst), 0);
    assert_eq!(bank.lookups.0.load(Ordering::SeqCst), 0);
}

#[test]
fn tools_that_need_no_approval_never_ask_the_policy() {
    let asked = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&asked);
    let executor = ToolExecutor::builder(answers(None))
        .approval(move |_: &ApprovalRequest<'_>| {
            counter.fetch_add(1, Ordering::SeqCst);
            Approval::deny("no")
        })
        .build();
    let result = block_on(executor.dispatch(&mode("c1", "ok")));
    assert!(result.is_success());
    assert_eq!(asked.load(Ordering::SeqCst), 0);
}
