//! Lists with declared items (`"items": "string"`, `items = string`): each item is validated,
//! the JSON Schema carries `items` (OpenAI's strict mode requires it of every array), the
//! Python original's JSON shape round-trips it, and the macro and the run-time path agree.

use agentkit_core::Problem;
use agentkit_core::{
    BoxError, Credentials, FromParam, IssueKind, JsonObject, Param, ParamType, Tool, ToolContext,
    ToolHandler, ToolSchema, ToolSpec, ValueKind, tool,
};
use serde_json::{Value, json};

fn object(value: Value) -> JsonObject {
    value.as_object().cloned().expect("an object")
}

fn schema() -> ToolSchema {
    ToolSchema::new([
        Param::required("ids", ParamType::List).with_items(ParamType::String),
        Param::optional("pages", ParamType::List)
            .with_items(ParamType::Integer)
            .with_default(json!([1, 2])),
        Param::optional("anything", ParamType::List),
    ])
    .expect("valid schema")
}

#[test]
fn every_wrong_item_is_reported_with_its_index() {
    let mut args = object(json!({"ids": ["a", 2, "c", null], "pages": [1, 1.5]}));
    let issues = schema().validate(&mut args);
    let rendered: Vec<String> = issues.iter().map(ToString::to_string).collect();
    assert_eq!(
        rendered,
        [
            "Parameter 'ids[1]': expected type 'string', got 'integer'",
            "Parameter 'ids[3]': expected type 'string', got 'null'",
            "Parameter 'pages[1]': expected type 'integer', got 'float'",
        ]
    );
    assert_eq!(issues[0].param(), Some("ids[1]"));
    assert_eq!(issues[0].kind(), IssueKind::WrongType);
    assert_eq!(issues[0].expected(), Some(ParamType::String));
    assert_eq!(issues[0].got(), Some(ValueKind::Integer));
}

#[test]
fn items_follow_the_scalar_rules() {
    let mut args = object(json!({"ids": [], "pages": [2.0, 9_223_372_036_854_775_808_u64]}));
    let issues = schema().validate(&mut args);
    assert_eq!(
        args["pages"][0],
        json!(2),
        "integral floats are normalised in place"
    );
    assert_eq!(issues.len(), 1, "{issues:?}");
    assert_eq!(issues[0].kind(), IssueKind::OutOfRange);
    assert_eq!(issues[0].param(), Some("pages[1]"));

    // Untyped lists take anything, as in the Python original.
    let mut args = object(json!({"ids": ["x"], "anything": [1, "a", null, {}]}));
    assert!(schema().validate(&mut args).is_empty());
    assert_eq!(args["pages"], json!([1, 2]), "the list default is filled");
}

#[test]
fn the_json_schema_declares_the_item_type() {
    let exported = schema().to_json_schema();
    assert_eq!(
        exported["properties"]["ids"]["items"],
        json!({"type": "string"})
    );
    assert_eq!(
        exported["properties"]["pages"]["items"],
        json!({"type": "integer", "minimum": i64::MIN, "maximum": i64::MAX})
    );
    assert!(exported["properties"]["anything"].get("items").is_none());
    let strict = schema().to_strict_json_schema();
    assert_eq!(
        strict["properties"]["ids"]["items"],
        json!({"type": "string"})
    );
    // Models are not sent the integer bounds, for list items either.
    assert_eq!(
        strict["properties"]["pages"]["items"],
        json!({"type": "integer"})
    );
}

#[test]
fn the_validator_and_the_exported_schema_agree_on_items() {
    let schema = schema();
    let validator = jsonschema::validator_for(&schema.to_json_schema()).expect("valid JSON Schema");
    for input in [
        json!({"ids": ["a"]}),
        json!({"ids": ["a", 1]}),
        json!({"ids": []}),
        json!({"ids": [null]}),
        json!({"ids": ["a"], "pages": [1, 2.0]}),
        json!({"ids": ["a"], "pages": [1.5]}),
        json!({"ids": ["a"], "pages": [true]}),
        json!({"ids": ["a"], "pages": null}),
        json!({"ids": ["a"], "anything": [1, "x", [], {}]}),
    ] {
        let ours = schema.validate(&mut object(input.clone())).is_empty();
        assert_eq!(ours, validator.is_valid(&input), "disagreement on {input}");
    }
}

#[test]
fn items_round_trip_through_the_seed_shape() {
    let value = json!({"parameters": [
        {"name": "ids", "type": "list", "required": true, "items": "string"},
    ]});
    let schema = ToolSchema::from_value(value.clone()).expect("valid");
    assert_eq!(schema.parameters()[0].items(), Some(ParamType::String));
    assert_eq!(schema.to_value(), value);
}

#[test]
fn misused_items_are_semantic_errors() {
    let err = ToolSchema::from_value(json!({"parameters": [
        {"name": "city", "type": "string", "items": "string"},
        {"name": "ids", "type": "list", "items": "strng"},
        {"name": "pages", "type": "list", "items": "integer", "required": false,
         "default": [1, "two"]},
    ]}))
    .unwrap_err();
    let problems: Vec<&Problem> = err.problems().iter().map(|p| p.problem()).collect();
    assert_eq!(problems.len(), 3, "{err}");
    // In declaration order.
    assert!(matches!(
        problems[0],
        Problem::ItemsOnNonList {
            ty: ParamType::String,
            ..
        }
    ));
    assert!(matches!(
        problems[1],
        Problem::UnknownType {
            suggestion: Some("string"),
            ..
        }
    ));
    assert!(matches!(
        problems[2],
        Problem::DefaultTypeMismatch {
            at,
            expected: ParamType::Integer,
            got: ValueKind::String,
            ..
        } if at == "[1]"
    ));
    assert_eq!(
        problems[2].to_string(),
        "parameter 'pages': default value 'pages[1]' of type 'string' does not fit the declared type 'integer'"
    );
    assert_eq!(
        problems[0].to_string(),
        "parameter 'city': 'items' declares the type of a list's items, but this parameter is a 'string'"
    );
}

#[test]
fn typed_lists_convert_from_validated_inputs() {
    let inputs = object(json!({"ids": ["a", "b"], "pages": [1, 2], "bad": ["a", 1]}));
    assert_eq!(
        Vec::<String>::from_param(&inputs, "ids").unwrap(),
        ["a", "b"]
    );
    assert_eq!(Vec::<i64>::from_param(&inputs, "pages").unwrap(), [1, 2]);
    assert!(Vec::<String>::from_param(&inputs, "bad").is_err());
    assert_eq!(
        Option::<Vec<f64>>::from_param(&inputs, "none").unwrap(),
        None
    );
}

/// Rank documents.
#[tool(
    name = "rank",
    input = [
        { name = "ids", type = list, items = string },
        { name = "pages", type = list, items = integer, required = false, default = [1, 2] },
        { name = "anything", type = list, required = false },
    ],
)]
struct Rank;

impl ToolHandler for Rank {
    async fn run(&self, input: RankInput, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        let mut output = JsonObject::new();
        output.insert("first".into(), input.ids.first().cloned().into());
        output.insert("pages".into(), input.pages.into());
        Ok(output)
    }
}

#[test]
fn the_macro_declares_the_same_items_as_the_run_time_path() {
    let by_hand = ToolSpec::builder("rank")
        .description("Rank documents.")
        .input(schema())
        .build()
        .unwrap();
    assert_eq!(Rank.spec(), &by_hand);
    let output = agentkit_core::block_on(Rank.execute(
        &object(json!({"ids": ["x", "y"], "pages": [3]})),
        &ToolContext::detached("rank", &Credentials::new()),
    ))
    .unwrap();
    assert_eq!(
        output.into_structured(),
        Some(json!({"first": "x", "pages": [3]}))
    );
}
