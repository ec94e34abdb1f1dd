//! Outputs say what inputs say: `#[tool(output = Type)]` with a `ToolParams` type only JSON
//! Schema can describe (an enum with data, a struct with a map, a tuple, any value, a
//! recursive type), and `output = [...]` with the literal forms (union, map, any, tuple,
//! nullable, const, defs). For each: the spec's output JSON Schema, exactly; the handler's
//! typed value as structured output, validated by the executor (every problem with its
//! path); derive and literal saying the same (here for a whole report, and form by form in
//! `derive_json_outputs_same`); and MCP's `outputSchema`.

use std::collections::HashMap;

use agentkit_core::provider::mcp;
use agentkit_core::{
    BoxError, Direction, Error, ErrorKind, IssueKind, JsonObject, Tool, ToolCall, ToolContext,
    ToolExecutor, ToolHandler, ToolOutput, ToolParams, ToolRegistry, ToolResult, ToolSpec,
    block_on, tool,
};
use serde_json::{Value, json};

/// Calls the tool `t` once with `arguments` through a registry and an executor; returns the
/// result and the registry (for MCP's view of it).
fn call<T: Tool>(tool: T, arguments: Value) -> (ToolResult, ToolRegistry) {
    let mut registry = ToolRegistry::new();
    registry.register(tool).expect("registers");
    let call = ToolCall::new("c1", "t", arguments.to_string());
    let result = block_on(ToolExecutor::new(registry.clone()).dispatch(&call));
    (result, registry)
}

/// The structured output of a successful call.
#[track_caller]
fn output<T: Tool>(tool: T, arguments: Value) -> Value {
    let (result, _) = call(tool, arguments);
    assert!(result.is_success(), "{}", result.to_model_content());
    result.output().expect("structured output").clone()
}

/// The issues of a call whose output failed validation, as `(path, kind)`.
#[track_caller]
fn output_issues<T: Tool>(tool: T, arguments: Value) -> Vec<(Option<String>, IssueKind)> {
    let (result, _) = call(tool, arguments);
    assert_eq!(result.error_kind(), Some(ErrorKind::OutputValidation));
    let Some(Error::Validation(error)) = result.error() else {
        panic!("expected an output validation error: {result:?}");
    };
    assert_eq!(error.direction(), Direction::Output);
    assert_eq!(
        result.to_model_content(),
        "Error: tool 't' failed: it produced an invalid result."
    );
    error
        .errors()
        .iter()
        .map(|issue| (issue.param().map(str::to_owned), issue.kind()))
        .collect()
}

/// What a search found.
#[derive(Debug, Clone, PartialEq, ToolParams)]
pub(crate) enum Outcome {
    /// Found it.
    Found {
        #[param(minimum = 1)]
        id: i64,
        title: String,
    },
    Missing {
        reason: String,
    },
    Pending,
}

/// The tagged union `Outcome` writes, variant by variant.
fn outcome_schema() -> Value {
    json!({
        "type": "object",
        "oneOf": [
            {
                "type": "object",
                "description": "Found it.",
                "properties": {
                    "type": {"const": "found"},
                    "id": {"type": "integer", "minimum": 1},
                    "title": {"type": "string"},
                },
                "required": ["type", "id", "title"],
                "additionalProperties": false,
            },
            {
                "type": "object",
                "properties": {"type": {"const": "missing"}, "reason": {"type": "string"}},
                "required": ["type", "reason"],
                "additionalProperties": false,
            },
            {
                "type": "object",
                "properties": {"type": {"const": "pending"}},
                "required": ["type"],
                "additionalProperties": false,
            },
        ],
    })
}

#[tool(name = "t", input = [{ name = "which", type = string }], output = Outcome)]
struct Search;

impl ToolHandler for Search {
    async fn run(&self, input: SearchInput, _: &ToolContext<'_>) -> Result<Outcome, BoxError> {
        Ok(match input.which.as_str() {
            "found" => Outcome::Found {
                id: 7,
                title: "Dune".into(),
            },
            "missing" => Outcome::Missing {
                reason: "no such book".into(),
            },
            // An id below the minimum the type declares: the executor refuses it.
            "bad" => Outcome::Found {
                id: 0,
                title: "Dune".into(),
            },
            _ => Outcome::Pending,
        })
    }
}

#[test]
fn an_enum_with_data_is_a_declared_output_schema() {
    let spec = Search.spec();
    assert_eq!(spec.output_json_schema(), Some(outcome_schema()));
    assert_eq!(Outcome::json_schema(), outcome_schema());
    // Declared as JSON Schema, compiled as an output's (exact JSON Schema), with no
    // parameter list.
    assert!(spec.output_schema().is_none());
    assert!(spec.has_output_schema());
    let built = ToolSpec::builder("t")
        .output_json_schema(outcome_schema())
        .build()
        .unwrap();
    assert_eq!(spec.output_json(), built.output_json());
    // Saved and loaded, it is the same spec.
    assert_eq!(&ToolSpec::from_value(spec.to_value()).unwrap(), spec);
}

#[test]
fn each_variant_is_structured_output_and_a_wrong_one_is_refused_with_its_path() {
    assert_eq!(
        output(Search, json!({"which": "found"})),
        json!({"type": "found", "id": 7, "title": "Dune"})
    );
    assert_eq!(
        output(Search, json!({"which": "missing"})),
        json!({"type": "missing", "reason": "no such book"})
    );
    assert_eq!(
        output(Search, json!({"which": "later"})),
        json!({"type": "pending"})
    );
    assert_eq!(
        output_issues(Search, json!({"which": "bad"})),
        [(Some("id".to_owned()), IssueKind::BelowMinimum)]
    );
}

/// A hand-written tool that returns `output`, declared with a given spec.
struct Returns {
    spec: ToolSpec,
    output: Value,
}

impl Tool for Returns {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    async fn execute(&self, _: &JsonObject, _: &ToolContext<'_>) -> Result<ToolOutput, BoxError> {
        Ok(ToolOutput::from(self.output.clone()))
    }
}

#[test]
fn a_value_the_type_cannot_make_is_refused_by_the_same_schema() {
    // The derived tool's schema, on a tool that returns what no `Outcome` converts to.
    let returning = |output: Value| Returns {
        spec: ToolSpec::builder("t")
            .output_json(Search.spec().output_json().unwrap().clone())
            .build()
            .unwrap(),
        output,
    };
    assert_eq!(
        output_issues(
            returning(json!({"type": "found", "id": "7", "extra": 1})),
            json!({})
        ),
        [
            (Some("extra".to_owned()), IssueKind::UnknownParameter),
            (Some("id".to_owned()), IssueKind::WrongType),
            (Some("title".to_owned()), IssueKind::MissingParameter),
        ]
    );
    let issues = output_issues(returning(json!({"type": "gone"})), json!({}));
    assert_eq!(issues.len(), 1, "{issues:?}");
    assert_eq!(issues[0].0.as_deref(), Some("type"));
    // Not an object at all: a problem of the whole value.
    let issues = output_issues(returning(json!([1])), json!({}));
    assert_eq!(issues[0], (None, IssueKind::WrongType), "{issues:?}");
    assert!(issues.iter().all(|(path, _)| path.is_none()), "{issues:?}");
}

#[test]
fn mcp_declares_the_output_schema_and_sends_the_value_as_structured_content() {
    let (result, registry) = call(Search, json!({"which": "found"}));
    let declared = mcp::tools(registry.specs());
    assert_eq!(declared[0]["outputSchema"], outcome_schema());
    let answer = mcp::result(&result, &registry);
    assert_eq!(
        answer["structuredContent"],
        json!({"type": "found", "id": 7, "title": "Dune"})
    );
    assert_eq!(answer["isError"], false);
}

#[derive(Debug, Clone, PartialEq, ToolParams)]
struct Node {
    value: i64,
    children: Vec<Node>,
}

/// Every form a derived output can hold, one field each.
#[derive(Debug, Clone, PartialEq, ToolParams)]
struct Report {
    counts: HashMap<String, i64>,
    point: (f64, f64),
    payload: Value,
    tree: Node,
    next: Option<Outcome>,
}

#[tool(name = "t", input = [{ name = "bad", type = boolean }], output = Report)]
struct Reporting;

impl ToolHandler for Reporting {
    async fn run(&self, input: ReportingInput, _: &ToolContext<'_>) -> Result<Report, BoxError> {
        let id = if input.bad { -1 } else { 3 };
        Ok(Report {
            counts: HashMap::from([("a".to_owned(), 1)]),
            point: (1.5, -2.0),
            payload: json!([null, {"k": true}]),
            tree: Node {
                value: 1,
                children: vec![Node {
                    value: 2,
                    children: Vec::new(),
                }],
            },
            next: Some(Outcome::Found {
                id,
                title: "x".into(),
            }),
        })
    }
}

/// The schema of `Report`, and of the literal that says the same.
fn report_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "counts": {"type": "object", "additionalProperties": {"type": "integer"}},
            "point": {
                "type": "array",
                "prefixItems": [{"type": "number"}, {"type": "number"}],
                "items": false,
                "minItems": 2,
            },
            "payload": {},
            "tree": {"$ref": "#/$defs/Node"},
            "next": outcome_schema(),
        },
        "required": ["counts", "point", "payload", "tree"],
        "additionalProperties": false,
        "$defs": {"Node": {
            "type": "object",
            "properties": {
                "value": {"type": "integer"},
                "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
            },
            "required": ["value", "children"],
            "additionalProperties": false,
        }},
    })
}

/// The value both `Reporting` and `LiteralReport` return (`id` inside `next` aside).
fn report_value(id: i64) -> Value {
    json!({
        "counts": {"a": 1},
        "point": [1.5, -2.0],
        "payload": [null, {"k": true}],
        "tree": {"value": 1, "children": [{"value": 2, "children": []}]},
        "next": {"type": "found", "id": id, "title": "x"},
    })
}

#[test]
fn a_struct_with_maps_tuples_any_value_and_recursion_is_a_declared_output_schema() {
    assert_eq!(Reporting.spec().output_json_schema(), Some(report_schema()));
    assert!(Reporting.spec().output_schema().is_none());
    assert_eq!(output(Reporting, json!({"bad": false})), report_value(3));
    assert_eq!(
        output_issues(Reporting, json!({"bad": true})),
        [(Some("next.id".to_owned()), IssueKind::BelowMinimum)]
    );
}

#[tool(
    name = "t",
    defs = { Node = [
        { name = "value", type = integer },
        { name = "children", type = list, items = Node },
    ] },
    input = [{ name = "bad", type = boolean }],
    output = [
        { name = "counts", type = map, values = integer },
        { name = "point", type = tuple, items = [float, float] },
        { name = "payload", type = any },
        { name = "tree", type = Node },
        { name = "next", type = union, required = false, variants = [
            { tag = "found", description = "Found it.", fields = [
                { name = "id", type = integer, minimum = 1 },
                { name = "title", type = string },
            ] },
            { tag = "missing", fields = [{ name = "reason", type = string }] },
            { tag = "pending" },
        ] },
    ],
)]
struct LiteralReport;

impl ToolHandler for LiteralReport {
    async fn run(
        &self,
        input: LiteralReportInput,
        _: &ToolContext<'_>,
    ) -> Result<LiteralReportOutput, BoxError> {
        let id = if input.bad { -1 } else { 3 };
        // Each field has the Rust type its form says, as on the input side.
        Ok(LiteralReportOutput {
            counts: HashMap::from([("a".to_owned(), 1)]),
            point: (1.5, -2.0),
            payload: json!([null, {"k": true}]),
            tree: LiteralReportNode {
                value: 1,
                children: vec![LiteralReportNode {
                    value: 2,
                    children: Vec::new(),
                }],
            },
            next: Some(LiteralReportOutputNext::Found {
                id,
                title: "x".into(),
            }),
        })
    }
}

#[test]
fn the_literal_forms_in_an_output_say_what_the_derive_says_and_run_the_same() {
    assert_eq!(
        LiteralReport.spec().output_json_schema(),
        Some(report_schema())
    );
    assert_eq!(
        LiteralReport.spec().output_json(),
        Reporting.spec().output_json()
    );
    assert!(LiteralReport.spec().output_schema().is_none());
    // The input stays six-type data: the `defs` are the output's only.
    assert!(LiteralReport.spec().input_schema().is_some());
    assert!(LiteralReport.spec().input_json().is_none());
    assert_eq!(
        output(LiteralReport, json!({"bad": false})),
        report_value(3)
    );
    assert_eq!(
        output_issues(LiteralReport, json!({"bad": true})),
        [(Some("next.id".to_owned()), IssueKind::BelowMinimum)]
    );
    let (_, registry) = call(LiteralReport, json!({"bad": false}));
    assert_eq!(
        mcp::tools(registry.specs())[0]["outputSchema"],
        report_schema()
    );
}

#[tool(
    name = "t",
    input = [{ name = "version", type = integer }],
    output = [
        { name = "note", type = string, nullable = true },
        { name = "version", type = integer, const = 2 },
        { name = "pages", type = integer, required = false, default = 1 },
    ],
)]
struct Versioned;

impl ToolHandler for Versioned {
    async fn run(
        &self,
        input: VersionedInput,
        _: &ToolContext<'_>,
    ) -> Result<VersionedOutput, BoxError> {
        Ok(VersionedOutput {
            note: None,
            version: input.version,
            pages: None,
        })
    }
}

#[test]
fn a_nullable_output_is_null_and_a_const_one_is_checked() {
    assert_eq!(
        Versioned.spec().output_json_schema(),
        Some(json!({
            "type": "object",
            "properties": {
                "note": {"type": ["string", "null"]},
                "version": {"type": "integer", "const": 2},
                "pages": {"type": "integer", "default": 1},
            },
            "required": ["note", "version"],
            "additionalProperties": false,
        }))
    );
    // `None` for a nullable output is its value, `null`, never left out; for an output with
    // a default, the default, as on a six-type output (the validation, exact JSON Schema,
    // fills none in: the conversion does).
    assert_eq!(
        output(Versioned, json!({"version": 2})),
        json!({"note": null, "version": 2, "pages": 1})
    );
    assert_eq!(
        output_issues(Versioned, json!({"version": 3})),
        [(Some("version".to_owned()), IssueKind::NotInEnum)]
    );
}

/// A six-type output type keeps its parameter list, as before.
#[derive(Debug, Clone, PartialEq, ToolParams)]
struct Plain {
    total: i64,
}

#[tool(name = "t", output = Plain)]
struct Plainly;

impl ToolHandler for Plainly {
    async fn run(&self, _: JsonObject, _: &ToolContext<'_>) -> Result<Plain, BoxError> {
        Ok(Plain { total: 1 })
    }
}

#[test]
fn a_six_type_output_is_still_a_parameter_list() {
    let spec = Plainly.spec();
    assert!(spec.output_schema().is_some());
    assert!(spec.output_json().is_none());
    assert_eq!(output(Plainly, json!({})), json!({"total": 1}));
}
