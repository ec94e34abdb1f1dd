//! Hostile calls around the tool itself: outputs that break their schema, arguments that give
//! a key twice, names no tool has, credentials that are missing or fail. Each ends with its
//! own typed error, the model learns only what it can act on, and a replay from the recorded
//! fixture ends the same way (kind, direction, issues) with the same model text.

use agentkit_core::{
    BoxError, CredentialProvider, Direction, Error, ErrorKind, IssueKind, NoCredentials, Param,
    ParamType, Secret, TextLimits, ToolCall, ToolRegistry, ToolSchema, ToolSpec, ValueKind,
};
use serde_json::{Value, json};

use crate::core_fixtures::{FnTool, Probe, obj};
use crate::hostile_support::{Harness, KEY, SECRET, lookup_harness, lookup_tool};

/// A harness over `reply`, whose output schema is `{answer: integer, unit: string,
/// detail: {score: float}}` and which returns `output` whatever it is asked.
fn replying(output: Value) -> (Harness, Probe) {
    let detail = ToolSchema::new([Param::required("score", ParamType::Float)]).unwrap();
    let spec = ToolSpec::builder("reply")
        .output(
            ToolSchema::new([
                Param::required("answer", ParamType::Integer),
                Param::required("unit", ParamType::String),
                Param::optional("detail", ParamType::Dictionary).with_fields(detail),
            ])
            .unwrap(),
        )
        .credential(KEY)
        .build()
        .unwrap();
    let (tool, probe) = FnTool::new(spec, move |_, _| Ok(obj(output.clone())));
    let mut registry = ToolRegistry::new();
    registry.register(tool).unwrap();
    (Harness::new(registry), probe)
}

#[test]
fn outputs_that_break_their_schema_fail_as_output_validation_and_replay_so() {
    let cases: [(Value, IssueKind, &str); 7] = [
        (
            json!({"answer": "42", "unit": "m"}),
            IssueKind::WrongType,
            "answer",
        ),
        (json!({"unit": "m"}), IssueKind::MissingParameter, "answer"),
        (
            json!({"answer": u64::MAX, "unit": "m"}),
            IssueKind::OutOfRange,
            "answer",
        ),
        // serde_json turns a non-finite float into `null`.
        (
            json!({"answer": 1, "unit": "m", "detail": {"score": f64::NAN}}),
            IssueKind::WrongType,
            "detail.score",
        ),
        (
            json!({"answer": 1, "unit": "m", "extra": true}),
            IssueKind::UnknownParameter,
            "extra",
        ),
        (
            json!({"answer": 1, "unit": null}),
            IssueKind::WrongType,
            "unit",
        ),
        (
            json!({"answer": 1.5, "unit": "m", "detail": []}),
            IssueKind::WrongType,
            "answer",
        ),
    ];
    for (output, kind, param) in cases {
        let (harness, probe) = replying(output.clone());
        let call = ToolCall::new("c", "reply", "{}");
        let outcome = harness.call(&call);
        let error = outcome.error(ErrorKind::OutputValidation);
        let Error::Validation(e) = error else {
            panic!("{error:?}")
        };
        assert_eq!(e.direction(), Direction::Output);
        assert_eq!(e.errors()[0].kind(), kind, "{output}");
        assert_eq!(e.errors()[0].param(), Some(param), "{output}");
        assert_eq!(
            outcome.model_text(),
            "Error: tool 'reply' failed: it produced an invalid result."
        );
        assert_eq!(probe.runs(), 1);
        let _ = harness.replay(&outcome, &call);
        assert_eq!(probe.runs(), 1, "the replay does not run the tool");
    }
}

#[test]
fn an_output_key_holding_a_secret_is_not_echoed() {
    // A tool that returns a map keyed by its credential, against a schema that refuses it.
    let (harness, _) = replying(json!({"answer": 1, "unit": "m", SECRET: true}));
    let call = ToolCall::new("c", "reply", "{}");
    let outcome = harness.call(&call);
    let error = outcome.error(ErrorKind::OutputValidation);
    let Error::Validation(e) = error else {
        panic!("{error:?}")
    };
    assert_eq!(e.errors()[0].kind(), IssueKind::UnknownParameter);
    assert_eq!(e.errors()[0].param(), Some("[redacted]"));
    let _ = harness.replay(&outcome, &call);
}

#[test]
fn a_key_given_twice_is_a_duplicate_key_issue_at_any_depth() {
    let cases: [(&str, &[&str]); 7] = [
        (r#"{"city": "a", "n": 5, "n": "a"}"#, &["n"]),
        (r#"{"city": "a", "city": "a"}"#, &["city"]),
        (r#"{"city": "a", "c\u0069ty": "b"}"#, &["city"]), // the same key, spelled twice
        (r#"{"city": "a", "n": 1, "n": 2, "n": 3}"#, &["n", "n"]),
        (
            r#"{"city": "a", "stops": [{"city": "b"}, {"city": "c", "city": "d"}]}"#,
            &["stops[1].city"],
        ),
        (
            r#"{"city": "a", "opts": {"k": {"deep": [{"x": 1, "x": 1}]}, "k": 2}}"#,
            &["opts.k.deep[0].x", "opts.k"],
        ),
        (
            r#"{"undeclared": {"q": 1, "q": 2}, "city": "a"}"#,
            &["undeclared.q"],
        ),
    ];
    for (text, keys) in cases {
        let (harness, probe) = lookup_harness();
        let outcome = harness.call(&ToolCall::new("c", "lookup", text));
        let (issues, omitted) = outcome.input_issues();
        assert_eq!(omitted, 0);
        // The repeated keys come first; what validation finds in the rest follows.
        let repeated = issues
            .iter()
            .take_while(|i| i.kind() == IssueKind::DuplicateKey)
            .count();
        let named: Vec<&str> = issues[..repeated]
            .iter()
            .map(|i| i.param().unwrap())
            .collect();
        assert_eq!(named, keys, "{text}");
        assert!(
            issues[repeated..]
                .iter()
                .all(|i| i.kind() != IssueKind::DuplicateKey),
            "{text}"
        );
        assert_eq!(probe.runs(), 0, "{text}");
    }
    // Inside a value that is not an object, still named by its path.
    let (harness, _) = lookup_harness();
    let outcome = harness.call(&ToolCall::new("c", "lookup", r#"[{"a": 1, "a": 2}]"#));
    let (issues, _) = outcome.input_issues();
    assert_eq!(issues[0].kind(), IssueKind::DuplicateKey);
    assert_eq!(issues[0].param(), Some("[0].a"));
}

#[test]
fn a_thousand_repeated_keys_are_counted() {
    let (harness, _) = lookup_harness();
    let text = format!(r#"{{"city": "a"{}}}"#, r#", "n": 1"#.repeat(1001));
    let outcome = harness.call(&ToolCall::new("c", "lookup", text));
    let (issues, omitted) = outcome.input_issues();
    assert_eq!((issues.len(), omitted), (20, 1000 - 20));
    assert!(outcome.model_text().ends_with("\n- ... and 980 more"));
}

#[test]
fn unknown_tools_are_named_with_the_nearest_ones() {
    let (harness, _) = lookup_harness();
    let cases = [
        (
            "lookpu",
            "Error: unknown tool 'lookpu'; did you mean 'lookup'?",
        ),
        (
            "lookup ",
            "Error: unknown tool 'lookup '; did you mean 'lookup'?",
        ),
        (
            "Lookup",
            "Error: unknown tool 'Lookup'; did you mean 'lookup'?",
        ),
        (
            "delete_everything",
            "Error: unknown tool 'delete_everything'",
        ),
    ];
    for (name, expected) in cases {
        let outcome = harness.call(&ToolCall::new("c", name, r#"{"city": "a"}"#));
        let _ = outcome.error(ErrorKind::UnknownTool);
        assert_eq!(outcome.model_text(), expected);
    }
    // A name longer than 128 bytes is no typo, even one that contains a tool's name.
    let long = format!("lookup{}", "_".repeat(123));
    let outcome = harness.call(&ToolCall::new("c", long.as_str(), "{}"));
    let Error::UnknownTool(unknown) = outcome.error(ErrorKind::UnknownTool) else {
        panic!("an unknown tool")
    };
    assert!(unknown.nearest().is_empty(), "{unknown}");
    let short = &long[..128];
    let outcome = harness.call(&ToolCall::new("c", short, "{}"));
    let Error::UnknownTool(unknown) = outcome.error(ErrorKind::UnknownTool) else {
        panic!("an unknown tool")
    };
    assert_eq!(unknown.nearest(), ["lookup"]);

    // No tool at all.
    let harness = Harness::new(ToolRegistry::new());
    let outcome = harness.call(&ToolCall::new("c", "lookup", "{}"));
    let _ = outcome.error(ErrorKind::UnknownTool);
    assert_eq!(outcome.model_text(), "Error: unknown tool 'lookup'");
}

/// Fails every lookup, without quoting any secret.
struct DownProvider;

impl CredentialProvider for DownProvider {
    fn resolve(&self, _: &str) -> Result<Option<Secret>, BoxError> {
        Err("vault unreachable: connection refused".into())
    }
}

#[test]
fn missing_and_failing_credentials_fail_without_running_the_tool() {
    for (provider, display) in [
        (
            Box::new(NoCredentials) as Box<dyn CredentialProvider>,
            "credential 'api-key' is not available, so the tool was not run",
        ),
        (
            Box::new(DownProvider),
            "credential 'api-key' could not be resolved, so the tool was not run",
        ),
    ] {
        let (tool, probe) = lookup_tool();
        let mut registry = ToolRegistry::new();
        registry.register(tool).unwrap();
        let provider: std::sync::Arc<dyn CredentialProvider> = provider.into();
        let harness =
            Harness::configured(registry, TextLimits::DEFAULT, |b| b.credentials(provider));
        let call = ToolCall::new("c", "lookup", r#"{"city": "Oslo"}"#);
        let outcome = harness.call(&call);
        let error = outcome.error(ErrorKind::Credential);
        assert_eq!(probe.runs(), 0);
        assert_eq!(
            outcome.model_text(),
            "Error: tool 'lookup' failed unexpectedly."
        );
        assert!(error.to_string().ends_with(display), "{error}");
        let _ = harness.replay(&outcome, &call);
    }
}

#[test]
fn validation_comes_before_credentials_and_the_tool() {
    // Bad arguments are reported as such even when credentials would fail too.
    let (tool, probe) = lookup_tool();
    let mut registry = ToolRegistry::new();
    registry.register(tool).unwrap();
    let harness = Harness::configured(registry, TextLimits::DEFAULT, |b| {
        b.credentials(DownProvider)
    });
    let outcome = harness.call(&ToolCall::new("c", "lookup", r#"{"city": ["a"]}"#));
    let (issues, _) = outcome.input_issues();
    assert_eq!(issues[0].got(), Some(ValueKind::List));
    assert_eq!(probe.runs(), 0);
}
