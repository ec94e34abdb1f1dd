//! Credentials: missing ones and failing providers fail the call before the tool runs.

use super::*;

#[test]
fn a_missing_credential_fails_the_call_without_running_the_tool() {
    let (tool, probe) = weather_tool();
    let mut registry = ToolRegistry::new();
    registry.register(tool).unwrap();
    let executor = ToolExecutor::builder(registry)
        .credentials(InMemoryCredentials::new().with("other-key", "x"))
        .build();
    let result = block_on(executor.execute("fetch_weather", obj(json!({"city": "Paris"}))));
    assert_eq!(probe.runs(), 0, "the tool must not run");
    let e = execution_error(&result);
    assert!(e.is_credential());
    assert!(!e.is_panic());
    assert_eq!(result.error().unwrap().kind(), ErrorKind::Credential);
    let cause = e
        .source()
        .unwrap()
        .downcast_ref::<CredentialError>()
        .unwrap();
    assert_eq!(cause.name(), WEATHER_KEY);
    assert_eq!(
        e.to_string(),
        "tool 'fetch_weather' failed: credential 'weather-api-key' is not available, \
         so the tool was not run"
    );
    assert_eq!(
        result.to_model_content(),
        "Error: tool 'fetch_weather' failed unexpectedly."
    );
}

/// A provider whose lookup itself fails.
struct BrokenVault;

#[derive(Debug)]
struct VaultSealed;

impl fmt::Display for VaultSealed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the vault is sealed")
    }
}

impl std::error::Error for VaultSealed {}

impl CredentialProvider for BrokenVault {
    fn resolve(&self, _: &str) -> Result<Option<Secret>, BoxError> {
        Err(Box::new(VaultSealed))
    }
}

#[test]
fn a_failing_credential_provider_fails_the_call_keeping_its_error_for_whoever_asks() {
    let (tool, probe) = weather_tool();
    let mut registry = ToolRegistry::new();
    registry.register(tool).unwrap();
    let executor = ToolExecutor::builder(registry)
        .credentials(BrokenVault)
        .build();
    let result = block_on(executor.execute("fetch_weather", obj(json!({"city": "Paris"}))));
    assert_eq!(probe.runs(), 0);
    let e = execution_error(&result);
    assert!(e.is_credential());
    let credential = e.source().unwrap();
    assert!(
        credential.to_string().contains("could not be resolved"),
        "{credential}"
    );
    // Not chained (its text is the provider's), but there when asked for.
    assert!(credential.source().is_none());
    let credential = e
        .cause()
        .downcast_ref::<agentkit_core::CredentialError>()
        .unwrap();
    assert!(
        credential
            .provider_error()
            .unwrap()
            .downcast_ref::<VaultSealed>()
            .is_some()
    );
}

#[test]
fn without_a_provider_no_credential_resolves() {
    let (tool, probe) = weather_tool();
    let mut registry = ToolRegistry::new();
    registry.register(tool).unwrap();
    let executor = ToolExecutor::new(registry);
    let result = block_on(executor.execute("fetch_weather", obj(json!({"city": "Paris"}))));
    assert!(execution_error(&result).is_credential());
    assert_eq!(probe.runs(), 0);
}
