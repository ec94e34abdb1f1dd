//! Enums with data as tool inputs: `#[derive(ToolParams)]` writes a tagged union (a `oneOf` of
//! closed objects, each naming its tag), the executor reports the problems of the variant the
//! tag chose, and the handler gets the Rust value.

use agentkit_core::{
    BoxError, JsonObject, JsonSchema, Tool, ToolContext, ToolHandler, ToolParams, tool,
};
use proptest::prelude::*;
use serde_json::{Value, json};

use super::derive_json_forms::{dispatch, executor};

/// What to do in the browser.
#[derive(Debug, Clone, PartialEq, ToolParams)]
pub(crate) enum Action {
    /// Click at a point.
    Click {
        /// Pixels from the left.
        x: u32,
        /// Pixels from the top.
        y: u32,
    },
    /// Type a text.
    Type { text: String },
    /// Scroll the page.
    Scroll(Scroll),
    /// Wait for the page.
    Wait,
}

#[derive(Debug, Clone, PartialEq, ToolParams)]
pub(crate) struct Scroll {
    /// Pixels down (negative: up).
    dy: i64,
    #[param(default = 1, minimum = 1)]
    times: i64,
}

#[derive(Debug, Clone, PartialEq, ToolParams)]
pub(crate) struct ActArgs {
    /// What to do.
    action: Action,
    /// Why.
    note: Option<String>,
}

#[tool(name = "act", description = "Act in the browser.", input = ActArgs)]
struct Act;

impl ToolHandler for Act {
    async fn run(&self, input: ActArgs, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        let mut output = JsonObject::new();
        output.insert("did".into(), format!("{:?}", input.action).into());
        Ok(output)
    }
}

#[test]
fn a_tagged_union_is_one_of_closed_objects_each_naming_its_tag() {
    let click = json!({
        "type": "object",
        "description": "Click at a point.",
        "properties": {
            "type": {"const": "click"},
            "x": {"type": "integer", "minimum": 0, "maximum": 4294967295u32, "description": "Pixels from the left."},
            "y": {"type": "integer", "minimum": 0, "maximum": 4294967295u32, "description": "Pixels from the top."},
        },
        "required": ["type", "x", "y"],
        "additionalProperties": false,
    });
    let schema = json!({
        "type": "object",
        "properties": {
            "action": {
                "type": "object",
                "description": "What to do.",
                "oneOf": [
                    click,
                    {
                        "type": "object",
                        "description": "Type a text.",
                        "properties": {"type": {"const": "type"}, "text": {"type": "string"}},
                        "required": ["type", "text"],
                        "additionalProperties": false,
                    },
                    {
                        "type": "object",
                        "description": "Scroll the page.",
                        "properties": {
                            "type": {"const": "scroll"},
                            "dy": {"type": "integer", "description": "Pixels down (negative: up)."},
                            "times": {"type": "integer", "minimum": 1, "default": 1},
                        },
                        "required": ["type", "dy"],
                        "additionalProperties": false,
                    },
                    {
                        "type": "object",
                        "description": "Wait for the page.",
                        "properties": {"type": {"const": "wait"}},
                        "required": ["type"],
                        "additionalProperties": false,
                    },
                ],
            },
            "note": {"type": "string", "description": "Why."},
        },
        "required": ["action"],
        "additionalProperties": false,
    });
    assert_eq!(ActArgs::json_schema(), schema);
    // The spec declares it, compiled, and no six-type parameter list.
    let spec = Act.spec();
    assert_eq!(spec.input_json_schema(), schema);
    assert!(spec.input_schema().is_none());
    assert_eq!(spec.input_json().unwrap().as_value(), &schema);
    // An enum is a tool's input as well: the union is the whole argument object.
    assert_eq!(
        Action::json_schema()["oneOf"][0],
        schema["properties"]["action"]["oneOf"][0]
    );
}

#[test]
fn the_executor_reports_the_problems_of_the_variant_the_tag_chose() {
    let executor = executor(Act);
    let refused = |arguments: Value| {
        let (ok, text) = dispatch(&executor, "act", arguments.clone());
        assert!(!ok, "{arguments} ran: {text}");
        text.strip_prefix("Error: invalid arguments for tool 'act':\n")
            .unwrap_or(&text)
            .to_owned()
    };
    // One line per problem of the chosen variant, with its path; none for the others.
    assert_eq!(
        refused(json!({"action": {"type": "click", "x": -1}})),
        "- Parameter 'action.x': must be at least 0, got -1\n- Missing required parameter: 'action.y'"
    );
    assert_eq!(
        refused(json!({"action": {"type": "scroll", "dy": "up", "times": 0}})),
        "- Parameter 'action.dy': expected type 'integer', got 'string'\n\
         - Parameter 'action.times': must be at least 1, got 0"
    );
    // Closed: a key of another variant is refused, with the tag it would need.
    assert!(
        refused(json!({"action": {"type": "type", "text": "hi", "x": 1}})).contains("'action.x'")
    );
    // An unknown tag names the tags there are.
    assert_eq!(
        refused(json!({"action": {"type": "fly"}})),
        "- Parameter 'action.type': expected one of 'click', 'type', 'scroll', 'wait', got 'fly'"
    );
    // Valid calls reach the handler as the Rust value, defaults filled.
    for (arguments, did) in [
        (
            json!({"action": {"type": "click", "x": 3, "y": 4}}),
            "Click { x: 3, y: 4 }",
        ),
        (
            json!({"action": {"type": "type", "text": "hi"}, "note": null}),
            "Type { text: \"hi\" }",
        ),
        (
            json!({"action": {"type": "scroll", "dy": -2}}),
            "Scroll(Scroll { dy: -2, times: 1 })",
        ),
        (json!({"action": {"type": "wait"}}), "Wait"),
    ] {
        let (ok, text) = dispatch(&executor, "act", arguments);
        assert!(ok, "{text}");
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap()["did"], did);
    }
}

#[test]
fn a_tagged_value_converts_both_ways() {
    use agentkit_core::{FromParam, IntoParam};
    for (action, value) in [
        (
            Action::Click { x: 1, y: 2 },
            json!({"type": "click", "x": 1, "y": 2}),
        ),
        (
            Action::Type { text: "a".into() },
            json!({"type": "type", "text": "a"}),
        ),
        (
            Action::Scroll(Scroll { dy: 5, times: 2 }),
            json!({"type": "scroll", "dy": 5, "times": 2}),
        ),
        (Action::Wait, json!({"type": "wait"})),
    ] {
        assert_eq!(action.clone().into_value(), Some(value.clone()));
        assert_eq!(Action::from_value(Some(&value)), Some(action));
    }
    // What does not fit is no value (a typed error for a tool's input), never a panic.
    for bad in [
        json!({"type": "fly"}),
        json!({"x": 1, "y": 2}),
        json!({"type": 1}),
        json!({"type": "click", "x": 1}),
        json!({"type": "click", "x": -1, "y": 0}),
        json!("click"),
    ] {
        assert_eq!(Action::from_value(Some(&bad)), None, "{bad}");
    }
    let error = <Action as agentkit_core::__private::FromInputs>::from_inputs(
        json!({"type": "fly"}).as_object().unwrap(),
    )
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "parameter 'type' is not a valid dictionary"
    );
}

/// The tag and the values renamed, unit variants as objects.
#[derive(Debug, Clone, PartialEq, ToolParams)]
#[param(tag = "kind")]
enum Shape {
    #[param(rename = "circle")]
    Round {
        radius: f64,
    },
    Square {
        side: f64,
    },
    #[param(rename = "dot")]
    Point,
}

#[test]
fn the_tag_key_and_variant_values_can_be_renamed() {
    use agentkit_core::{FromParam, IntoParam};
    let schema = Shape::json_schema();
    let tags: Vec<&Value> = schema["oneOf"]
        .as_array()
        .unwrap()
        .iter()
        .map(|variant| &variant["properties"]["kind"]["const"])
        .collect();
    assert_eq!(tags, [&json!("circle"), &json!("square"), &json!("dot")]);
    assert_eq!(
        schema["oneOf"][2],
        json!({"type": "object", "properties": {"kind": {"const": "dot"}}, "required": ["kind"], "additionalProperties": false})
    );
    assert_eq!(Shape::Point.into_value(), Some(json!({"kind": "dot"})));
    assert_eq!(
        Shape::from_value(Some(&json!({"kind": "circle", "radius": 2.5}))),
        Some(Shape::Round { radius: 2.5 })
    );
    // A fieldless enum with a tag is a union of tag-only objects, not a string.
    #[derive(Debug, PartialEq, ToolParams)]
    #[param(tag = "op")]
    enum Toggle {
        On,
        Off,
    }
    assert_eq!(Toggle::Off.into_value(), Some(json!({"op": "off"})));
    assert_eq!(Toggle::json_schema()["oneOf"][0]["required"], json!(["op"]));
}

/// A tool whose whole input is a tagged union.
#[tool(name = "draw", description = "Draw a shape.", input = Shape)]
struct Draw;

impl ToolHandler for Draw {
    async fn run(&self, input: Shape, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        let area = match input {
            Shape::Round { radius } => std::f64::consts::PI * radius * radius,
            Shape::Square { side } => side * side,
            Shape::Point => 0.0,
        };
        let mut output = JsonObject::new();
        output.insert("area".into(), area.into());
        Ok(output)
    }
}

#[test]
fn an_enum_is_a_tool_input_whole() {
    let executor = executor(Draw);
    assert_eq!(Draw.spec().input_json_schema(), Shape::json_schema());
    assert_eq!(
        dispatch(&executor, "draw", json!({"kind": "square", "side": 3})),
        (true, r#"{"area":9.0}"#.to_owned())
    );
    assert_eq!(
        dispatch(&executor, "draw", json!({"kind": "square"})),
        (
            false,
            "Error: invalid arguments for tool 'draw':\n- Missing required parameter: 'side'"
                .into()
        )
    );
}

fn actions() -> impl Strategy<Value = Action> {
    prop_oneof![
        (any::<u32>(), any::<u32>()).prop_map(|(x, y)| Action::Click { x, y }),
        ".{0,8}".prop_map(|text| Action::Type { text }),
        (any::<i64>(), 1..100i64).prop_map(|(dy, times)| Action::Scroll(Scroll { dy, times })),
        Just(Action::Wait),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Every Rust value converts to JSON its schema accepts (ours and the `jsonschema`
    /// crate's reading of it), and back to itself.
    #[test]
    fn tagged_values_round_trip_through_their_schema(action in actions()) {
        use agentkit_core::{FromParam, IntoParam};
        let schema = Action::json_schema();
        let value = action.clone().into_value().unwrap();
        prop_assert!(JsonSchema::new(schema.clone()).unwrap().is_valid(&value), "{}", value);
        prop_assert!(jsonschema::validator_for(&schema).unwrap().is_valid(&value), "{}", value);
        prop_assert_eq!(Action::from_value(Some(&value)), Some(action));
    }
}
