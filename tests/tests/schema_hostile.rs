//! Hostile schemas and values: whoever serves a tool chooses its schema, and a model its
//! arguments. Each ends with a clear error or a correct verdict, on a small stack, without
//! hanging: a quadratic or exponential path here would not finish (the timings are in the
//! `schema` benchmark, not asserted).

use agentkit_core::{IssueKind, JsonSchema, SchemaLimits};
use serde_json::{Map, Value, json};

/// Runs `f` on a thread with a 1 MiB stack (half a default test thread's): what it does must
/// not need the call stack in proportion to the schema or the value.
fn on_small_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(1 << 20)
            .spawn_scoped(s, f)
            .expect("a thread")
            .join()
            .expect("no stack overflow, no panic")
    })
}

/// Runs `f` where a value nested 10,000 deep can be built and dropped (serde_json drops one
/// recursively, which is the caller's stack, not the validator's).
fn with_room<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn_scoped(s, f)
            .expect("a thread")
            .join()
            .expect("no panic")
    })
}

fn nested(depth: usize, wrap: impl Fn(Value) -> Value) -> Value {
    let mut value = json!({});
    for _ in 0..depth {
        value = wrap(value);
    }
    value
}

#[test]
fn a_schema_nested_ten_thousand_deep_is_refused() {
    with_room(|| {
        // `json!` copies what it is given: built by moving, each level costs one.
        let deep = nested(10_000, |inner| {
            let properties = Map::from_iter([("a".to_owned(), inner)]);
            Value::Object(Map::from_iter([(
                "properties".to_owned(),
                Value::Object(properties),
            )]))
        });
        let error = on_small_stack(|| JsonSchema::new(deep).unwrap_err());
        assert!(
            error
                .to_string()
                .contains("nested more than 128 levels deep"),
            "{error}"
        );
    });
}

#[test]
fn a_value_nested_ten_thousand_deep_stops_at_the_evaluation_depth() {
    with_room(|| {
        let schema = JsonSchema::new(json!({"type": "array", "items": {"$ref": "#"}})).unwrap();
        let mut value = json!([]);
        for _ in 0..10_000 {
            value = Value::Array(vec![value]);
        }
        let issues = on_small_stack(|| schema.validate(&mut value));
        assert_eq!(issues.len(), 1, "{issues:?}");
        assert_eq!(issues[0].kind(), IssueKind::TooComplex);
        // Within the limit, the same schema is a correct verdict.
        let mut shallow = json!([[[[]]], [[]]]);
        assert!(schema.validate(&mut shallow).is_empty());
    });
}

#[test]
fn a_cycle_of_references_that_never_reaches_the_value_is_refused() {
    for schema in [
        json!({"$ref": "#"}),
        json!({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"allOf": [{"$ref": "#/$defs/a"}]}}, "$ref": "#/$defs/a"}),
        json!({"$defs": {"a": {"not": {"anyOf": [{"$ref": "#/$defs/a"}]}}}, "properties": {"x": {"$ref": "#/$defs/a"}}}),
    ] {
        let error = JsonSchema::new(schema.clone()).unwrap_err();
        assert!(
            error.to_string().contains("would never end"),
            "{schema}: {error}"
        );
    }
    // Recursion through a part of the value is a tree, not a cycle.
    let tree = JsonSchema::new(json!({
        "type": "object",
        "properties": {"value": {"type": "integer"}, "children": {"type": "array", "items": {"$ref": "#"}}},
    }))
    .unwrap();
    assert!(tree.is_valid(&json!({"value": 1, "children": [{"value": 2, "children": []}]})));
    assert!(!tree.is_valid(&json!({"value": 1, "children": [{"value": "2"}]})));
}

#[test]
fn a_long_chain_of_references_compiles_without_recursion() {
    let mut defs = Map::new();
    for i in 0..20_000 {
        defs.insert(
            format!("d{i}"),
            json!({"$ref": format!("#/$defs/d{}", i + 1)}),
        );
    }
    defs.insert("d20000".into(), json!({"type": "string"}));
    let schema = json!({"$defs": defs, "properties": {"p": {"$ref": "#/$defs/d0"}}});
    let schema = on_small_stack(|| JsonSchema::new(schema).unwrap());
    // Validation follows it to the evaluation depth, and says so.
    let mut value = json!({"p": "x"});
    let issues = on_small_stack(|| schema.validate(&mut value));
    assert_eq!(issues[0].kind(), IssueKind::TooComplex);
}

#[test]
fn a_hundred_thousand_properties_compile_and_validate() {
    let mut properties = Map::new();
    for i in 0..100_000 {
        properties.insert(format!("p{i}"), json!({"type": "integer"}));
    }
    let schema = JsonSchema::new(json!({"type": "object", "properties": properties})).unwrap();
    assert!(schema.is_valid(&json!({"p99999": 1, "p0": 2})));
    let mut value = json!({"p5": "x", "p77777": 1, "q": 1});
    let issues = schema.validate(&mut value);
    assert_eq!(issues.len(), 2, "{issues:?}");
    assert_eq!(
        issues[0].to_string(),
        "Parameter 'p5': expected type 'integer', got 'string'"
    );
    assert_eq!(issues[1].kind(), IssueKind::UnknownParameter);
    // Past the limit, a clear refusal.
    let few = SchemaLimits::default().with_max_subschemas(1_000);
    let error = JsonSchema::options()
        .limits(few)
        .build(schema.as_value().clone())
        .unwrap_err();
    assert!(
        error.to_string().contains("more than 1000 subschemas"),
        "{error}"
    );
}

#[test]
fn a_hundred_thousand_value_enum_is_one_comparison_a_value() {
    let values: Vec<Value> = (0..100_000).map(|i| json!(format!("v{i}"))).collect();
    let schema = JsonSchema::new(json!({"properties": {"e": {"enum": values}}})).unwrap();
    assert!(schema.is_valid(&json!({"e": "v99999"})));
    let mut value = json!({"e": "nope"});
    let message = schema.validate(&mut value)[0].to_string();
    assert!(message.contains("... (99990 more)"), "{message}");
    assert!(message.len() < 400, "{message}");
}

#[test]
fn a_ten_thousand_branch_union_reports_one_bounded_line() {
    let branches: Vec<Value> = (0..10_000).map(|i| json!({"const": i})).collect();
    let schema = JsonSchema::new(json!({"properties": {"u": {"anyOf": branches}}})).unwrap();
    assert!(schema.is_valid(&json!({"u": 9_999})));
    let mut value = json!({"u": -1});
    let issues = schema.validate(&mut value);
    assert_eq!(issues.len(), 1);
    assert_eq!(issues[0].kind(), IssueKind::NoMatchingVariant);
    assert!(issues[0].to_string().len() < 300, "{}", issues[0]);
}

#[test]
fn nested_unions_cannot_make_validation_exponential() {
    // Thirty levels of two variants each, none matching: 2^30 paths without a budget, in a
    // document of thirty definitions.
    let mut defs = Map::new();
    defs.insert("l0".into(), json!({"type": "string"}));
    for i in 1..=30 {
        let below = format!("#/$defs/l{}", i - 1);
        defs.insert(
            format!("l{i}"),
            json!({"anyOf": [{"$ref": below}, {"allOf": [{"$ref": below}, {"minLength": 1}]}]}),
        );
    }
    let schema = json!({"$defs": defs, "$ref": "#/$defs/l30"});
    let schema = JsonSchema::new(schema).unwrap();
    let issues = schema.validate(&mut json!(5));
    assert!(
        issues.iter().any(|i| i.kind() == IssueKind::TooComplex),
        "{issues:?}"
    );
}

#[test]
fn a_pattern_built_to_backtrack_runs_in_linear_time() {
    let schema = JsonSchema::new(json!({"pattern": "^(a+)+$"})).unwrap();
    let text = format!("{}b", "a".repeat(100_000));
    assert!(!schema.is_valid(&json!(text)));
    assert!(schema.is_valid(&json!("a".repeat(100_000))));
}

#[test]
fn a_pattern_the_engine_cannot_take_is_refused() {
    for (pattern, why) in [
        ("(unclosed", "unclosed group"),
        ("(?=lookahead)", "look-around"),
        (r"(a)\1", "backreferences"),
    ] {
        let error = JsonSchema::new(json!({"pattern": pattern})).unwrap_err();
        let text = error.to_string();
        assert!(text.contains("invalid pattern"), "{pattern}: {text}");
        assert!(text.contains(why), "{pattern}: {text}");
    }
    let long = JsonSchema::new(json!({"pattern": "a".repeat(5_000)})).unwrap_err();
    assert!(long.to_string().contains("max_pattern_bytes"), "{long}");
}

#[test]
fn unique_items_over_a_hundred_thousand_items_is_linear() {
    let schema = JsonSchema::new(json!({"uniqueItems": true})).unwrap();
    let mut items: Vec<Value> = (0..100_000)
        .map(|i| json!({"id": i, "tags": [i, "x"]}))
        .collect();
    assert!(schema.is_valid(&Value::Array(items.clone())));
    // `1.0` is `1`: a duplicate of the second item, at the end.
    items.push(json!({"tags": [1.0, "x"], "id": 1}));
    let issues = schema.validate(&mut Value::Array(items));
    assert_eq!(
        issues[0].to_string(),
        "Top level: items 1 and 100000 are equal; every item must be unique"
    );
}

#[test]
fn huge_counts_are_bounds_not_allocations() {
    let schema = JsonSchema::new(json!({
        "minItems": 1_000_000_000_000_000_000u64,
        "maxLength": 1_000_000_000_000_000_000u64,
        "minContains": 1_000_000_000_000_000_000u64,
        "contains": {},
    }))
    .unwrap();
    let issues = schema.validate(&mut json!([1, 2, 3]));
    assert_eq!(issues.len(), 2, "{issues:?}");
    assert!(schema.is_valid(&json!("short")));
}

#[test]
fn a_reference_to_the_network_is_refused_never_fetched() {
    let error = JsonSchema::new(json!({"$ref": "http://127.0.0.1:9/schema.json"})).unwrap_err();
    assert!(error.to_string().contains("never fetches"), "{error}");
}

#[test]
fn a_schema_with_a_million_mistakes_costs_a_bounded_error() {
    let mut properties = Map::new();
    for i in 0..50_000 {
        properties.insert(format!("p{i}"), json!({"type": "strnig"}));
    }
    let error = JsonSchema::new(json!({"properties": properties})).unwrap_err();
    assert_eq!(error.problems().len(), 100);
    assert!(error.to_string().len() < 2_000);
}
