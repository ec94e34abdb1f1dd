//! The execution-policy keys of `#[tool(...)]` (`timeout`, `blocking`, `sequential`,
//! `requires_approval`, `retries`, `task_support`) end up in the tool's spec: the same spec the builder
//! makes, the same JSON shape, and the defaults when they are not written.

use std::time::Duration;

use agentkit_core::{
    BoxError, JsonObject, TaskSupport, Tool, ToolContext, ToolHandler, ToolSpec, tool,
};
use serde_json::json;

#[tool(
    name = "send_report",
    description = "Send the monthly report.",
    timeout = "1500ms",
    blocking,
    sequential,
    requires_approval,
    retries = 3,
    task_support = "optional"
)]
struct SendReport;

impl ToolHandler for SendReport {
    async fn run(&self, input: JsonObject, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        Ok(input)
    }
}

/// The flags written out, one of them off; the longest timeout, and no retry at all.
#[tool(
    name = "archive",
    timeout = "24h",
    blocking = true,
    sequential = false,
    requires_approval = true,
    retries = 0,
    task_support = "required"
)]
struct Archive;

impl ToolHandler for Archive {
    async fn run(&self, input: JsonObject, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        Ok(input)
    }
}

/// One key alone: the rest keep their defaults.
#[tool(name = "lookup", timeout = "2m")]
struct Lookup;

impl ToolHandler for Lookup {
    async fn run(&self, input: JsonObject, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        Ok(input)
    }
}

#[tool(name = "echo")]
struct Echo;

impl ToolHandler for Echo {
    async fn run(&self, input: JsonObject, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        Ok(input)
    }
}

#[test]
fn every_key_is_in_the_spec() {
    let spec = SendReport.spec();
    assert_eq!(spec.timeout(), Some(Duration::from_millis(1500)));
    assert!(spec.is_blocking());
    assert!(spec.is_sequential());
    assert!(spec.requires_approval());
    assert_eq!(spec.retries(), Some(3));
    assert_eq!(spec.task_support(), TaskSupport::Optional);
}

#[test]
fn flags_written_with_a_value_mean_that_value() {
    let spec = Archive.spec();
    assert_eq!(spec.timeout(), Some(Duration::from_secs(24 * 60 * 60)));
    assert!(spec.is_blocking());
    assert!(!spec.is_sequential());
    assert!(spec.requires_approval());
    assert_eq!(
        spec.retries(),
        Some(0),
        "`retries = 0` is not the executor's default"
    );
    assert_eq!(spec.task_support(), TaskSupport::Required);
}

#[test]
fn a_tool_without_the_keys_has_the_defaults() {
    for spec in [Echo.spec(), Lookup.spec()] {
        assert!(!spec.is_blocking(), "{}", spec.name());
        assert!(!spec.is_sequential(), "{}", spec.name());
        assert!(!spec.requires_approval(), "{}", spec.name());
        assert_eq!(spec.retries(), None, "{}", spec.name());
        assert_eq!(spec.task_support(), TaskSupport::Forbidden);
    }
    assert_eq!(Echo.spec().timeout(), None);
    assert_eq!(Lookup.spec().timeout(), Some(Duration::from_secs(120)));
    let value = Echo.spec().to_value();
    for key in [
        "timeout",
        "blocking",
        "sequential",
        "requires_approval",
        "retries",
        "task_support",
    ] {
        assert!(value.get(key).is_none(), "{key} in {value}");
    }
}

#[test]
fn the_spec_equals_the_builders() {
    let built = ToolSpec::builder("send_report")
        .description("Send the monthly report.")
        .timeout(Duration::from_millis(1500))
        .blocking()
        .sequential()
        .requires_approval()
        .retries(3)
        .task_support(TaskSupport::Optional)
        .build()
        .unwrap();
    assert_eq!(SendReport.spec(), &built);
    let plain = ToolSpec::builder("echo").build().unwrap();
    assert_eq!(Echo.spec(), &plain);
}

#[test]
fn the_json_shape_round_trips() {
    let value = SendReport.spec().to_value();
    assert_eq!(value["timeout"], json!("1500ms"));
    assert_eq!(value["blocking"], json!(true));
    assert_eq!(value["sequential"], json!(true));
    assert_eq!(value["requires_approval"], json!(true));
    assert_eq!(value["retries"], json!(3));
    assert_eq!(value["task_support"], json!("optional"));
    assert_eq!(Archive.spec().to_value()["task_support"], json!("required"));
    for spec in [
        SendReport.spec(),
        Archive.spec(),
        Lookup.spec(),
        Echo.spec(),
    ] {
        let loaded = ToolSpec::from_value(spec.to_value()).unwrap();
        assert_eq!(&loaded, spec, "{}", spec.name());
    }
    assert_eq!(Archive.spec().to_value()["timeout"], json!("24h"));
    assert_eq!(Lookup.spec().to_value()["timeout"], json!("2m"));
}

#[test]
fn a_task_support_not_named_is_refused_when_loaded() {
    let mut value = Echo.spec().to_value();
    value["task_support"] = json!("sometimes");
    let error = ToolSpec::from_value(value).unwrap_err().to_string();
    assert!(error.contains("task_support"), "{error}");
    assert!(error.contains(r#""optional""#), "{error}");
}
