//! Structured output that is any JSON value (MCP 2026-07-28): a tool declares its output with a
//! JSON Schema of its own (`ToolSpecBuilder::output_json_schema`), returns a list, a string, a
//! number, a boolean, `null` or an object, and the executor validates it against that schema,
//! every problem with its path, secrets scrubbed, the same on a replay.

use agentkit_core::provider::{anthropic, gemini, mcp, openai_chat};
use agentkit_core::{
    BoxError, Content, Direction, Error, ErrorKind, IssueKind, JsonObject, JsonSchema, Param,
    ParamType, Tool, ToolCall, ToolContext, ToolExecutor, ToolOutput, ToolRegistry, ToolSchema,
    ToolSpec, block_on,
};
use proptest::prelude::*;
use serde_json::{Value, json};

use crate::hostile_support::{Harness, KEY, SECRET};

/// A tool that returns `output`, whatever it is asked.
struct Returns {
    spec: ToolSpec,
    output: ToolOutput,
}

impl Tool for Returns {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    async fn execute(&self, _: &JsonObject, _: &ToolContext<'_>) -> Result<ToolOutput, BoxError> {
        Ok(self.output.clone())
    }
}

/// A harness over one tool `answer`, declared with the output schema `schema` (and the
/// credential `KEY`), that returns `output`.
fn answering(schema: Value, output: impl Into<ToolOutput>) -> Harness {
    let spec = ToolSpec::builder("answer")
        .output_json_schema(schema)
        .credential(KEY)
        .build()
        .expect("the schema compiles");
    let mut registry = ToolRegistry::new();
    registry
        .register(Returns {
            spec,
            output: output.into(),
        })
        .expect("registers");
    Harness::new(registry)
}

/// Calls `answer` and returns the output validation failure's issues as `(param, kind,
/// message)`, after checking it is one, that the model is told only that the result was
/// invalid, and that a replay ends the same way.
#[track_caller]
fn output_issues(harness: &Harness) -> Vec<(Option<String>, IssueKind, String)> {
    let call = ToolCall::new("c", "answer", "{}");
    let outcome = harness.call(&call);
    let Error::Validation(error) = outcome.error(ErrorKind::OutputValidation) else {
        panic!("expected a validation error");
    };
    assert_eq!(error.direction(), Direction::Output);
    assert_eq!(
        outcome.model_text(),
        "Error: tool 'answer' failed: it produced an invalid result."
    );
    let issues = error
        .errors()
        .iter()
        .map(|issue| {
            (
                issue.param().map(str::to_owned),
                issue.kind(),
                issue.to_string(),
            )
        })
        .collect();
    let _ = harness.replay(&outcome, &call);
    issues
}

#[test]
fn every_kind_of_json_value_is_structured_output_validated_against_its_schema() {
    let cases = [
        (
            json!({"type": "array", "items": {"type": "string"}}),
            json!(["Ada", "Grace"]),
        ),
        (json!({"type": "string", "minLength": 1}), json!("Ada")),
        (json!({"type": "integer", "minimum": 0}), json!(7)),
        (json!({"type": "number"}), json!(2.5)),
        (json!({"type": "boolean"}), json!(false)),
        (json!({"type": "null"}), Value::Null),
        (
            json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}),
            json!({"n": 1}),
        ),
        // Any schema: a union at the root, a boolean schema.
        (
            json!({"anyOf": [{"type": "array"}, {"type": "null"}]}),
            json!([1, "two", null]),
        ),
        (json!(true), json!({"anything": ["goes"]})),
    ];
    for (schema, value) in cases {
        let harness = answering(schema.clone(), value.clone());
        let call = ToolCall::new("c", "answer", "{}");
        let outcome = harness.call(&call);
        assert_eq!(outcome.output(), &value, "{schema}");
        // The model is sent the value as JSON.
        assert_eq!(outcome.model_text(), value.to_string(), "{schema}");
        // The event and the recording carry it; a replay returns it (checked by `replay`).
        let replayed = harness.replay(&outcome, &call);
        assert_eq!(replayed.output(), &value, "{schema}");
        // Not an object, so not an object.
        assert_eq!(
            outcome.result.output_object().is_some(),
            value.is_object(),
            "{schema}"
        );
    }
}

#[test]
fn an_output_that_breaks_its_json_schema_lists_every_problem_with_its_path() {
    let schema = json!({
        "type": "array",
        "items": {
            "type": "object",
            "properties": {
                "id": {"type": "integer", "minimum": 1},
                "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 2},
            },
            "required": ["id"],
        },
        "minItems": 1,
    });
    let harness = answering(
        schema.clone(),
        json!([{"id": 1, "tags": ["a"]}, {"id": 0, "tags": ["b", 7, "d"]}, {"tags": []}]),
    );
    let issues = output_issues(&harness);
    let found: Vec<(Option<&str>, IssueKind)> = issues
        .iter()
        .map(|(param, kind, _)| (param.as_deref(), *kind))
        .collect();
    assert_eq!(
        found,
        [
            (Some("[1].id"), IssueKind::BelowMinimum),
            (Some("[1].tags[1]"), IssueKind::WrongType),
            (Some("[1].tags"), IssueKind::TooLong),
            (Some("[2].id"), IssueKind::MissingParameter),
        ],
        "{issues:?}"
    );
    // A value of the wrong kind at the root is a top-level problem.
    let cases = [
        (json!({"type": "integer"}), json!("7"), "integer", "string"),
        (schema, json!({"id": 1}), "array", "object"),
        (json!({"type": "string"}), Value::Null, "string", "null"),
    ];
    for (schema, value, expected, got) in cases {
        let issues = output_issues(&answering(schema, value));
        assert_eq!(issues.len(), 1, "{issues:?}");
        let (param, kind, message) = &issues[0];
        assert_eq!((param.as_deref(), *kind), (None, IssueKind::WrongType));
        assert_eq!(
            message,
            &format!("Top level: expected type '{expected}', got '{got}'")
        );
    }
}

#[test]
fn a_tool_with_a_json_output_schema_must_return_structured_output() {
    // Text alone, or parts alone: the schema asks for a value and there is none.
    for output in [
        ToolOutput::from("just text"),
        ToolOutput::content_only([Content::image(vec![1, 2], "image/png")]),
    ] {
        let issues = output_issues(&answering(json!({"type": "array"}), output));
        assert_eq!(issues.len(), 1, "{issues:?}");
        let (param, kind, message) = &issues[0];
        assert_eq!(
            (param.as_deref(), *kind),
            (None, IssueKind::MissingParameter)
        );
        assert_eq!(
            message,
            "Top level: the tool returned no structured output, which its output schema asks for"
        );
    }
    // With parts beside it, the value is checked and kept, parts and all.
    let schema = json!({"type": "array", "items": {"type": "integer"}});
    let output = ToolOutput::structured_only(json!([3, 4])).with(Content::text("two numbers"));
    let mut registry = ToolRegistry::new();
    registry
        .register(Returns {
            spec: ToolSpec::builder("answer")
                .output_json_schema(schema)
                .build()
                .unwrap(),
            output,
        })
        .unwrap();
    let executor = ToolExecutor::new(registry);
    let result = block_on(executor.dispatch(&ToolCall::new("c", "answer", "{}")));
    assert_eq!(result.output(), Some(&json!([3, 4])));
    assert_eq!(result.content(), [Content::text("two numbers")]);
    assert_eq!(result.to_model_content(), "[3,4]\ntwo numbers");
    let bad = ToolOutput::structured_only(json!([3, "4"])).with(Content::text("two numbers"));
    let issues = output_issues(&answering(
        json!({"type": "array", "items": {"type": "integer"}}),
        bad,
    ));
    assert_eq!(issues[0].0.as_deref(), Some("[1]"), "{issues:?}");
}

#[test]
fn the_output_is_checked_exactly_as_json_schema_says_without_the_policies_for_models() {
    let schema = json!({
        "type": "object",
        "properties": {
            "unit": {"type": "string", "default": "metric"},
            "when": {"type": "string", "format": "date"},
            "note": {"type": "string"},
        },
    });
    // Extra keys (the schema says nothing of them), a `null` where a string is declared, a
    // `format` that does not match (an annotation), no default filled in.
    let given = json!({"when": "tomorrow", "extra": 1});
    let harness = answering(schema.clone(), given.clone());
    let outcome = harness.call(&ToolCall::new("c", "answer", "{}"));
    assert_eq!(outcome.output(), &given, "kept as the tool returned it");
    let issues = output_issues(&answering(schema, json!({"note": null})));
    assert_eq!(
        issues
            .iter()
            .map(|(p, k, _)| (p.as_deref(), *k))
            .collect::<Vec<_>>(),
        [(Some("note"), IssueKind::WrongType)],
        "`null` is not read as absent in an output"
    );
    // Options of your own: compiled with agentkit's defaults, `format` is asserted.
    let asserted = JsonSchema::new(json!({"type": "string", "format": "date"})).unwrap();
    let spec = ToolSpec::builder("answer")
        .output_json(asserted)
        .build()
        .unwrap();
    let mut registry = ToolRegistry::new();
    registry
        .register(Returns {
            spec,
            output: ToolOutput::from(json!("tomorrow")),
        })
        .unwrap();
    let issues = output_issues(&Harness::new(registry));
    assert_eq!(issues[0].1, IssueKind::InvalidFormat, "{issues:?}");
}

#[test]
fn a_secret_in_an_output_is_not_echoed_by_its_issues() {
    // A key, and a value outside an `enum`, and a string a `const` refuses: each the
    // credential the tool was handed.
    let schema = json!({
        "type": "array",
        "prefixItems": [
            {"type": "object", "additionalProperties": false},
            {"enum": ["a", "b"]},
            {"const": "c"},
        ],
    });
    let harness = answering(schema, json!([{SECRET: 1}, SECRET, SECRET]));
    let issues = output_issues(&harness);
    assert_eq!(issues.len(), 3, "{issues:?}");
    for (param, _, message) in &issues {
        assert!(
            !message.contains(SECRET) && !param.as_deref().unwrap_or("").contains(SECRET),
            "{message}"
        );
    }
    assert!(
        issues[0].0.as_deref().unwrap_or("").contains("[redacted]"),
        "{issues:?}"
    );
}

#[test]
fn a_parameter_list_output_refuses_a_value_that_is_not_an_object() {
    let spec = ToolSpec::builder("answer")
        .output(ToolSchema::new([Param::optional("n", ParamType::Integer)]).unwrap())
        .build()
        .unwrap();
    for (value, got) in [
        (json!([1]), "list"),
        (json!("n"), "string"),
        (Value::Null, "null"),
    ] {
        let mut registry = ToolRegistry::new();
        registry
            .register(Returns {
                spec: spec.clone(),
                output: ToolOutput::from(value),
            })
            .unwrap();
        let issues = output_issues(&Harness::new(registry));
        assert_eq!(
            issues,
            [(
                None,
                IssueKind::WrongType,
                format!("Top level: expected type 'dictionary', got '{got}'")
            )]
        );
    }
}

#[test]
fn a_tool_without_an_output_schema_returns_any_value_unchecked() {
    for value in [
        json!([1, {"a": null}]),
        json!("text"),
        json!(3),
        Value::Null,
    ] {
        let mut registry = ToolRegistry::new();
        registry
            .register(Returns {
                spec: ToolSpec::builder("answer").build().unwrap(),
                output: ToolOutput::from(value.clone()),
            })
            .unwrap();
        let executor = ToolExecutor::new(registry);
        let result = block_on(executor.dispatch(&ToolCall::new("c", "answer", "{}")));
        assert_eq!(result.output(), Some(&value));
    }
}

#[test]
fn an_output_schema_the_validator_cannot_take_fails_the_build_saying_where() {
    let error = ToolSpec::builder("answer")
        .output_json_schema(json!({"type": "array", "items": {"$ref": "#/$defs/missing"}}))
        .build()
        .unwrap_err();
    let text = error.to_string();
    assert!(text.contains("output_schema"), "{text}");
    assert!(text.contains("/items"), "{text}");
    let error = ToolSpec::builder("answer")
        .output_json_schema(json!({"type": "string", "pattern": "(unclosed"}))
        .build()
        .unwrap_err();
    assert!(error.to_string().contains("output_schema"), "{error}");
    // A later `output` replaces it, and the other way round: one output schema at a time.
    let list = ToolSchema::new([Param::optional("n", ParamType::Integer)]).unwrap();
    let spec = ToolSpec::builder("answer")
        .output_json_schema(json!({"type": "array"}))
        .output(list.clone())
        .build()
        .unwrap();
    assert_eq!(
        (spec.output_schema(), spec.output_json()),
        (Some(&list), None)
    );
    let spec = ToolSpec::builder("answer")
        .output(list)
        .output_json_schema(json!({"type": "array"}))
        .build()
        .unwrap();
    assert!(spec.output_schema().is_none());
    assert_eq!(spec.output_json_schema(), Some(json!({"type": "array"})));
    assert!(spec.has_output_schema());
}

#[test]
fn providers_send_a_value_that_is_not_an_object_as_they_send_an_object() {
    let harness = answering(
        json!({"type": "array", "items": {"type": "integer"}}),
        json!([1, 2]),
    );
    let mut registry = ToolRegistry::new();
    registry
        .register(Returns {
            spec: ToolSpec::builder("answer")
                .output_json_schema(json!({"type": "array", "items": {"type": "integer"}}))
                .build()
                .unwrap(),
            output: ToolOutput::from(json!([1, 2])),
        })
        .unwrap();
    let outcome = harness.call(&ToolCall::new("c", "answer", "{}"));
    let result = &outcome.result;
    // MCP: `structuredContent` is the list, the text block its JSON; the declaration's
    // `outputSchema` is the schema as written.
    let answer = mcp::result(result, &registry);
    assert_eq!(answer["structuredContent"], json!([1, 2]));
    assert_eq!(answer["content"][0]["text"], "[1,2]");
    assert_eq!(answer["isError"], false);
    let declared = mcp::tools(registry.specs());
    assert_eq!(
        declared[0]["outputSchema"],
        json!({"type": "array", "items": {"type": "integer"}})
    );
    // Gemini's `response.output` is the value; the others send its JSON as text.
    assert_eq!(
        gemini::result(result)["functionResponse"]["response"],
        json!({"output": [1, 2]})
    );
    assert_eq!(openai_chat::result(result)["content"], "[1,2]");
    assert_eq!(anthropic::result(result)["content"], "[1,2]");
}

/// Output schemas of every root kind, for the property below.
fn output_schemas() -> Vec<Value> {
    vec![
        json!({"type": "array", "items": {"type": "integer"}, "maxItems": 3}),
        json!({"type": "string", "minLength": 2, "pattern": "^a"}),
        json!({"type": ["number", "null"], "minimum": 0}),
        json!({"anyOf": [{"type": "boolean"}, {"type": "array", "items": {"type": "string"}}]}),
        json!({"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"],
               "additionalProperties": false}),
        json!({"not": {"type": "object"}}),
        json!({"const": [1, "a"]}),
        json!({"type": "array", "prefixItems": [{"type": "string"}], "items": false}),
        json!({"enum": [null, 1, "x"]}),
        json!({"type": "object", "properties": {"a": {"type": "string", "default": "d"}}}),
    ]
}

/// Any JSON value, small: scalars, lists and objects of them, three levels deep.
fn any_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (-3_i64..5).prop_map(Value::from),
        (-2.0_f64..2.0).prop_map(Value::from),
        "[ax]{0,3}".prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            proptest::collection::btree_map("[ab]", inner, 0..3)
                .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The executor's verdict on a tool's output is JSON Schema's (the `jsonschema` crate's),
    /// for values of every kind, and a valid output reaches the caller unchanged.
    #[test]
    fn the_executor_accepts_exactly_the_outputs_json_schema_accepts(
        index in 0..output_schemas().len(),
        value in any_value(),
    ) {
        let schema = output_schemas().swap_remove(index);
        let theirs = jsonschema::draft202012::new(&schema).expect("a valid schema");
        let mut registry = ToolRegistry::new();
        registry
            .register(Returns {
                spec: ToolSpec::builder("answer")
                    .output_json_schema(schema.clone())
                    .build()
                    .expect("compiles"),
                output: ToolOutput::from(value.clone()),
            })
            .expect("registers");
        let executor = ToolExecutor::new(registry);
        let result = block_on(executor.dispatch(&ToolCall::new("c", "answer", "{}")));
        prop_assert_eq!(result.is_success(), theirs.is_valid(&value), "{} {}", schema, value);
        match result.error() {
            None => prop_assert_eq!(result.output(), Some(&value)),
            Some(Error::Validation(error)) => {
                prop_assert_eq!(error.direction(), Direction::Output);
                prop_assert!(!error.errors().is_empty());
            }
            Some(other) => prop_assert!(false, "{other:?}"),
        }
    }
}
