//! A spec's execution policy in its JSON shape: `timeout`, `blocking`, `sequential`,
//! `requires_approval` and `retries` load, write back, and are refused with every other
//! problem of the spec when they are wrong.

use std::time::Duration;

use agentkit_core::Problem;
use agentkit_core::{SemanticError, ToolSpec};
use serde_json::{Value, json};

fn spec_err(value: Value) -> SemanticError {
    match ToolSpec::from_value(value) {
        Ok(spec) => panic!("expected a SemanticError, got {spec:?}"),
        Err(err) => err,
    }
}

fn problems(err: &SemanticError) -> Vec<Problem> {
    err.problems().iter().map(|p| p.problem().clone()).collect()
}

#[test]
fn every_key_loads() {
    let spec = ToolSpec::from_value(json!({
        "name": "send_report",
        "timeout": "90s",
        "blocking": true,
        "sequential": true,
        "requires_approval": true,
        "retries": 2,
    }))
    .unwrap();
    assert_eq!(spec.timeout(), Some(Duration::from_secs(90)));
    assert!(spec.is_blocking());
    assert!(spec.is_sequential());
    assert!(spec.requires_approval());
    assert_eq!(spec.retries(), Some(2));
}

#[test]
fn absent_or_false_keys_are_the_defaults() {
    let absent = ToolSpec::from_value(json!({"name": "echo"})).unwrap();
    let written = ToolSpec::from_value(json!({
        "name": "echo",
        "blocking": false,
        "sequential": false,
        "requires_approval": false,
    }))
    .unwrap();
    assert_eq!(absent, written);
    assert_eq!(absent.timeout(), None);
    assert!(!absent.is_blocking() && !absent.is_sequential() && !absent.requires_approval());
    assert_eq!(absent.retries(), None);
    // `false` is the default, so it is not written back.
    assert_eq!(
        written.to_value(),
        json!({
            "name": "echo",
            "description": "",
            "version": "1.0.0",
            "tags": {},
            "credential_names": [],
        })
    );
}

#[test]
fn every_unit_loads_and_is_written_in_the_largest_exact_one() {
    for (written, duration, back) in [
        ("250ms", Duration::from_millis(250), "250ms"),
        ("1000ms", Duration::from_secs(1), "1s"),
        ("90s", Duration::from_secs(90), "90s"),
        ("120s", Duration::from_secs(120), "2m"),
        ("5m", Duration::from_secs(300), "5m"),
        ("24h", Duration::from_secs(24 * 3600), "24h"),
    ] {
        let spec = ToolSpec::from_value(json!({"name": "t", "timeout": written})).unwrap();
        assert_eq!(spec.timeout(), Some(duration), "{written}");
        assert_eq!(spec.to_value()["timeout"], json!(back), "{written}");
        assert_eq!(ToolSpec::from_value(spec.to_value()).unwrap(), spec);
    }
}

#[test]
fn a_malformed_timeout_says_why() {
    for (written, reason) in [
        ("10", "it has no unit"),
        ("s", "it does not start with a number"),
        ("-1s", "it does not start with a number"),
        ("10 s", "the unit is not recognised"),
        ("1.5s", "the unit is not recognised"),
        ("2d", "the unit is not recognised"),
        ("0s", "a timeout of zero would fail every call"),
        ("25h", "it is longer than a day"),
        ("99999999999999999999ms", "it is longer than a day"),
    ] {
        let err = spec_err(json!({"name": "t", "timeout": written}));
        assert_eq!(
            problems(&err),
            [Problem::InvalidTimeout {
                found: written.into(),
                reason,
            }],
            "{written}"
        );
        let message = err.to_string();
        assert!(message.contains("such as \"10s\""), "{message}");
    }
}

#[test]
fn wrongly_typed_values_are_refused_per_key() {
    let err = spec_err(json!({
        "name": "t",
        "timeout": 10,
        "blocking": "yes",
        "sequential": 1,
        "requires_approval": null,
        "retries": -1,
    }));
    let mut keys: Vec<&str> = err
        .problems()
        .iter()
        .filter_map(|p| match p.problem() {
            Problem::InvalidKeyValue { key, .. } => Some(*key),
            _ => None,
        })
        .collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "blocking",
            "requires_approval",
            "retries",
            "sequential",
            "timeout"
        ],
        "{err}"
    );
}

#[test]
fn retries_must_be_a_whole_number_that_fits_a_u32() {
    for retries in [json!(-1), json!(1.5), json!("2"), json!(4_294_967_296_u64)] {
        let err = spec_err(json!({"name": "t", "retries": retries}));
        assert_eq!(
            problems(&err),
            [Problem::InvalidKeyValue {
                key: "retries",
                expected: "a whole number",
            }],
            "{retries}"
        );
    }
    let max = ToolSpec::from_value(json!({"name": "t", "retries": u32::MAX})).unwrap();
    assert_eq!(max.retries(), Some(u32::MAX));
    let zero = ToolSpec::from_value(json!({"name": "t", "retries": 0})).unwrap();
    assert_eq!(zero.retries(), Some(0));
}

#[test]
fn policy_problems_are_reported_with_the_others() {
    let err = spec_err(json!({
        "name": "fetch weather",
        "version": "1.0",
        "timeout": "10x",
        "blocking": "yes",
        "retrys": 2,
    }));
    let found = problems(&err);
    assert_eq!(found.len(), 5, "{err}");
    assert!(
        found
            .iter()
            .any(|p| matches!(p, Problem::InvalidName { .. }))
    );
    assert!(
        found
            .iter()
            .any(|p| matches!(p, Problem::InvalidVersion { .. }))
    );
    assert!(
        found
            .iter()
            .any(|p| matches!(p, Problem::InvalidTimeout { .. }))
    );
    assert!(found.contains(&Problem::InvalidKeyValue {
        key: "blocking",
        expected: "true or false",
    }));
    assert!(found.iter().any(|p| matches!(
        p,
        Problem::UnknownKey { found, suggestion: Some("retries"), .. } if found == "retrys"
    )));
}

#[test]
fn the_builder_refuses_a_timeout_outside_a_millisecond_to_a_day() {
    for timeout in [
        Duration::ZERO,
        Duration::from_micros(999),
        Duration::from_secs(24 * 3600 + 1),
    ] {
        let err = ToolSpec::builder("t").timeout(timeout).build().unwrap_err();
        let found = problems(&err);
        assert!(
            matches!(found.as_slice(), [Problem::InvalidTimeout { .. }]),
            "{timeout:?}: {err}"
        );
    }
    for timeout in [Duration::from_millis(1), Duration::from_secs(24 * 3600)] {
        let spec = ToolSpec::builder("t").timeout(timeout).build().unwrap();
        assert_eq!(spec.timeout(), Some(timeout));
    }
}

/// A spec saved with `to_value` loads back equal, whatever its schemas are: a parameter list,
/// a JSON Schema given at run time (input and any-value output), or one a derive wrote.
#[test]
fn specs_with_json_schemas_round_trip_through_their_json_form() {
    use agentkit_core::Tool;

    let given = ToolSpec::builder("pick")
        .input_json_schema(json!({
            "type": "object",
            "$defs": {"n": {"type": "integer", "minimum": 1}},
            "properties": {"n": {"$ref": "#/$defs/n"}, "mode": {"enum": ["a", "b"]}},
            "required": ["n"],
        }))
        .output_json_schema(json!({"type": "array", "items": {"type": "integer"}}))
        .build()
        .unwrap();
    let derived = Act.spec().clone();
    for spec in [given, derived.clone()] {
        let saved = spec.to_value();
        let loaded = ToolSpec::from_value(saved.clone()).unwrap();
        assert_eq!(loaded, spec, "{saved}");
        assert_eq!(loaded.input_json_schema(), spec.input_json_schema());
        assert_eq!(loaded.output_json_schema(), spec.output_json_schema());
        // What loads validates as what was saved.
        let schema = loaded.input_json().expect("a JSON Schema input");
        assert!(!schema.is_valid(&json!({"n": 0, "action": {"type": "click"}})));
    }
    assert!(derived.to_value().get("input_json_schema").is_some());
}

/// What to do.
#[derive(agentkit_core::ToolParams)]
enum Action {
    /// Click at a point.
    Click { x: u32, y: u32 },
    /// Wait.
    Wait,
}

#[derive(agentkit_core::ToolParams)]
struct ActArgs {
    /// What to do.
    action: Action,
}

#[agentkit_core::tool(name = "act", input = ActArgs)]
struct Act;

impl agentkit_core::ToolHandler for Act {
    async fn run(
        &self,
        _: ActArgs,
        _: &agentkit_core::ToolContext<'_>,
    ) -> Result<agentkit_core::JsonObject, agentkit_core::BoxError> {
        Ok(agentkit_core::JsonObject::new())
    }
}

/// A saved JSON Schema that does not compile is refused when loaded, with where it is wrong;
/// it is never loaded unvalidated.
#[test]
fn a_saved_json_schema_that_does_not_compile_is_refused() {
    let error = ToolSpec::from_value(json!({
        "name": "broken",
        "input_json_schema": {"type": "object", "properties": {"n": {"$ref": "#/$defs/missing"}}},
        "output_json_schema": {"type": "strnig"},
    }))
    .unwrap_err();
    let text = error.to_string();
    assert!(
        text.contains("input_schema") && text.contains("/properties/n/$ref"),
        "{text}"
    );
    assert!(
        text.contains("output_schema") && text.contains("/type"),
        "{text}"
    );
}
