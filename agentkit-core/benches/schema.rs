//! JSON Schema validation: agentkit's [`JsonSchema`] against the `jsonschema` crate, on the
//! same schemas and instances, in one run. Both read the schemas as JSON Schema says
//! (agentkit with [`JsonSchemaOptions::standard`]), both assert `format`.
//!
//! Four cases, each with a valid instance and an invalid one:
//!
//! - `flat`: an object of 5 typed properties with `enum` and bounds (the invalid instance has
//!   3 problems);
//! - `tagged_union`: a `oneOf` of 3 object variants tagged by a `type` `const`;
//! - `recursive_refs`: a tree 4 levels deep, through `$ref`s into `$defs` that recur;
//! - `patterns_formats`: `pattern` on strings, `format` `date-time`, `email` and `uuid`.
//!
//! For each, `is_valid_agentkit` against `is_valid_jsonschema` (the boolean verdict), and
//! `all_errors_agentkit` (`JsonSchema::validate`, every problem, its messages rendered with
//! `to_string`) against `all_errors_jsonschema` (`iter_errors`, every error rendered with
//! `to_string`). The names put each pair side by side in divan's output, which is sorted by
//! name. Before anything is timed, both validators are checked to agree on every instance's
//! validity, and on the valid instance with each of the invalid one's faults alone (the run
//! panics otherwise), and the problems each reports are printed.
//!
//! Run with `cargo bench -p agentkit-core --bench schema`.

use std::sync::LazyLock;

use agentkit_core::{JsonSchema, JsonSchemaOptions};
use divan::{Bencher, black_box};
use serde_json::{Value, json};

fn main() {
    for case in CASES.iter() {
        case.check();
    }
    // `AGENTKIT_BENCH_LOOP=<case>:<bench>:<instance>:<calls>` runs one benchmark that many
    // times, untimed, and exits: for counting instructions under callgrind
    // (`schema-callgrind.sh`), which do not move with the machine's load.
    if let Ok(spec) = std::env::var("AGENTKIT_BENCH_LOOP") {
        run_loop(&spec);
        return;
    }
    divan::main();
}

/// The case, benchmark, instance and number of calls of `AGENTKIT_BENCH_LOOP`, run.
fn run_loop(spec: &str) {
    let fields: Vec<&str> = spec.split(':').collect();
    let [case, bench, instance, calls] = fields[..] else {
        panic!("AGENTKIT_BENCH_LOOP is <case>:<bench>:<instance>:<calls>, not {spec:?}");
    };
    let case = CASES
        .iter()
        .find(|c| c.name == case)
        .unwrap_or_else(|| panic!("no case {case:?}"));
    let instance = case.instance(instance == "valid");
    let calls: usize = calls.parse().expect("a number of calls");
    // `validate` takes its value mutably: `all_errors_agentkit` copies the instance each call,
    // and `copy` does only that, for the script to take away.
    for _ in 0..calls {
        match bench {
            "is_valid_agentkit" => _ = black_box(case.agentkit.is_valid(black_box(instance))),
            "is_valid_jsonschema" => _ = black_box(case.jsonschema.is_valid(black_box(instance))),
            "all_errors_agentkit" => {
                let mut copy = instance.clone();
                drop(black_box(agentkit_all_errors(
                    &case.agentkit,
                    black_box(&mut copy),
                )))
            }
            "all_errors_jsonschema" => drop(black_box(jsonschema_all_errors(
                &case.jsonschema,
                black_box(instance),
            ))),
            "copy" => drop(black_box(instance.clone())),
            other => panic!("no benchmark {other:?}"),
        }
    }
}

/// One schema, compiled by both validators, with its two instances.
struct Case {
    name: &'static str,
    agentkit: JsonSchema,
    jsonschema: jsonschema::Validator,
    valid: Value,
    invalid: Value,
}

impl Case {
    fn new(name: &'static str, schema: Value, valid: Value, invalid: Value) -> Case {
        let agentkit = JsonSchemaOptions::standard()
            .assert_formats(true)
            .build(schema.clone())
            .unwrap_or_else(|e| panic!("{name}: agentkit refuses the schema: {e}"));
        let jsonschema = jsonschema::options()
            .should_validate_formats(true)
            .build(&schema)
            .unwrap_or_else(|e| panic!("{name}: jsonschema refuses the schema: {e}"));
        Case {
            name,
            agentkit,
            jsonschema,
            valid,
            invalid,
        }
    }

    fn instance(&self, valid: bool) -> &Value {
        if valid { &self.valid } else { &self.invalid }
    }

    /// Panics unless both validators agree on both instances, and find the valid one valid
    /// and the invalid one invalid, and agree on every instance with one of the invalid
    /// one's faults alone (so that no fault goes unseen behind the others); prints how many
    /// problems each reports.
    fn check(&self) {
        for (at, probe) in &faults(&self.valid, &self.invalid) {
            let agentkit = self.agentkit.is_valid(probe);
            let jsonschema = self.jsonschema.is_valid(probe);
            assert_eq!(
                agentkit, jsonschema,
                "{}: with only the fault at {at:?}, agentkit says {agentkit}, jsonschema \
                 {jsonschema}: {probe}",
                self.name
            );
        }
        for valid in [true, false] {
            let instance = self.instance(valid);
            let agentkit = self.agentkit.is_valid(instance);
            let jsonschema = self.jsonschema.is_valid(instance);
            let which = if valid { "valid" } else { "invalid" };
            assert_eq!(
                agentkit, jsonschema,
                "{}/{which}: agentkit says {agentkit}, jsonschema {jsonschema}",
                self.name
            );
            assert_eq!(
                agentkit, valid,
                "{}/{which}: both say {agentkit}",
                self.name
            );
            let issues = agentkit_all_errors(&self.agentkit, &mut instance.clone());
            let errors = jsonschema_all_errors(&self.jsonschema, instance);
            assert_eq!(
                issues.is_empty(),
                valid,
                "{}/{which}: {issues:?}",
                self.name
            );
            assert_eq!(
                errors.is_empty(),
                valid,
                "{}/{which}: {errors:?}",
                self.name
            );
            if !valid {
                eprintln!(
                    "{}/{which}: agentkit reports {} problems {issues:?}; jsonschema {} {errors:?}",
                    self.name,
                    issues.len(),
                    errors.len()
                );
            }
        }
    }
}

/// A difference of the invalid instance from the valid one, at its deepest place: the path
/// to it, and what is there instead (nothing: the member is removed).
type Fault = (Vec<String>, Option<Value>);

/// The differences of `invalid` from `valid`, at `at` in both.
fn differences(valid: &Value, invalid: &Value, at: &mut Vec<String>, out: &mut Vec<Fault>) {
    match (valid, invalid) {
        (Value::Object(a), Value::Object(b)) => {
            let keys = a.keys().chain(b.keys().filter(|k| !a.contains_key(*k)));
            for key in keys {
                at.push(key.clone());
                match (a.get(key), b.get(key)) {
                    (Some(x), Some(y)) => differences(x, y, at, out),
                    (_, y) => out.push((at.clone(), y.cloned())),
                }
                at.pop();
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                at.push(i.to_string());
                differences(x, y, at, out);
                at.pop();
            }
        }
        (x, y) if x != y => out.push((at.clone(), Some(y.clone()))),
        _ => {}
    }
}

/// `valid` with each of `invalid`'s differences from it alone, and where it is.
fn faults(valid: &Value, invalid: &Value) -> Vec<(String, Value)> {
    let mut found = Vec::new();
    differences(valid, invalid, &mut Vec::new(), &mut found);
    found
        .into_iter()
        .map(|(path, instead)| {
            let mut probe = valid.clone();
            let (last, parents) = path.split_last().expect("the root is an object");
            let mut parent = &mut probe;
            for part in parents {
                parent = match parent {
                    Value::Array(items) => &mut items[part.parse::<usize>().expect("an index")],
                    other => &mut other[part.as_str()],
                };
            }
            match (parent, instead) {
                (Value::Array(items), Some(v)) => {
                    items[last.parse::<usize>().expect("an index")] = v
                }
                (Value::Object(members), Some(v)) => drop(members.insert(last.clone(), v)),
                (Value::Object(members), None) => drop(members.remove(last)),
                _ => unreachable!("a difference is in an object or an array"),
            }
            (format!("/{}", path.join("/")), probe)
        })
        .collect()
}

fn agentkit_all_errors(schema: &JsonSchema, instance: &mut Value) -> Vec<String> {
    schema
        .validate(instance)
        .iter()
        .map(ToString::to_string)
        .collect()
}

fn jsonschema_all_errors(validator: &jsonschema::Validator, instance: &Value) -> Vec<String> {
    validator
        .iter_errors(instance)
        .map(|e| e.to_string())
        .collect()
}

/// The cases, in the order of the modules below.
static CASES: LazyLock<[Case; 4]> =
    LazyLock::new(|| [flat_case(), union_case(), refs_case(), formats_case()]);

fn flat_case() -> Case {
    let schema = json!({
        "type": "object",
        "properties": {
            "city": {"type": "string", "minLength": 1, "maxLength": 64},
            "units": {"type": "string", "enum": ["metric", "imperial", "kelvin"]},
            "days": {"type": "integer", "minimum": 1, "maximum": 14},
            "threshold": {"type": "number", "exclusiveMinimum": -100, "maximum": 100},
            "alerts": {"type": "boolean"}
        },
        "required": ["city", "units", "days"],
        "additionalProperties": false
    });
    let valid = json!({
        "city": "Paris", "units": "metric", "days": 7, "threshold": 21.5, "alerts": true
    });
    // Too short, not in the enum, above the maximum.
    let invalid = json!({
        "city": "", "units": "celsius", "days": 30, "threshold": 21.5, "alerts": true
    });
    Case::new("flat", schema, valid, invalid)
}

fn union_case() -> Case {
    let schema = json!({
        "oneOf": [
            {
                "type": "object",
                "properties": {
                    "type": {"const": "click"},
                    "x": {"type": "integer", "minimum": 0},
                    "y": {"type": "integer", "minimum": 0},
                    "button": {"enum": ["left", "right", "middle"]}
                },
                "required": ["type", "x", "y"],
                "additionalProperties": false
            },
            {
                "type": "object",
                "properties": {
                    "type": {"const": "type"},
                    "text": {"type": "string", "maxLength": 1000}
                },
                "required": ["type", "text"],
                "additionalProperties": false
            },
            {
                "type": "object",
                "properties": {
                    "type": {"const": "scroll"},
                    "dx": {"type": "integer"},
                    "dy": {"type": "integer"}
                },
                "required": ["type", "dy"],
                "additionalProperties": false
            }
        ]
    });
    // The last variant: the first two are tried and fail first.
    let valid = json!({"type": "scroll", "dx": 0, "dy": -120});
    // The first variant, with a negative x, no y and a button it does not know.
    let invalid = json!({"type": "click", "x": -5, "button": "back"});
    Case::new("tagged_union", schema, valid, invalid)
}

/// A tree `depth` levels deep, each node but the leaves with two children: 15 nodes for 4.
fn tree(depth: usize, name: &str) -> Value {
    let mut node = json!({"name": name, "value": depth});
    if depth > 1 {
        node["children"] = (0..2)
            .map(|i| tree(depth - 1, &format!("{name}.{i}")))
            .collect();
    }
    node
}

fn refs_case() -> Case {
    let schema = json!({
        "$ref": "#/$defs/node",
        "$defs": {
            "node": {
                "type": "object",
                "properties": {
                    "name": {"$ref": "#/$defs/name"},
                    "value": {"type": "integer", "minimum": 0},
                    "children": {"type": "array", "items": {"$ref": "#/$defs/node"}, "maxItems": 4}
                },
                "required": ["name"]
            },
            "name": {"type": "string", "minLength": 1, "maxLength": 32}
        }
    });
    let valid = tree(4, "root");
    let mut invalid = valid.clone();
    // Three problems, at the second, third and fourth levels.
    invalid["children"][0]["value"] = json!("one");
    invalid["children"][1]["children"][0]["name"] = json!("");
    let leaf = &mut invalid["children"][1]["children"][1]["children"][1];
    leaf.as_object_mut().expect("a node").remove("name");
    Case::new("recursive_refs", schema, valid, invalid)
}

fn formats_case() -> Case {
    let schema = json!({
        "type": "object",
        "properties": {
            "id": {"type": "string", "format": "uuid"},
            "email": {"type": "string", "format": "email"},
            "created": {"type": "string", "format": "date-time"},
            "sku": {"type": "string", "pattern": "^[A-Z]{3}-[0-9]{4}$"},
            "phone": {"type": "string", "pattern": "^\\+[1-9][0-9]{6,14}$"}
        },
        "required": ["id", "email", "created", "sku"]
    });
    let valid = json!({
        "id": "123e4567-e89b-12d3-a456-426614174000",
        "email": "ada@example.com",
        "created": "2026-12-02T22:31:00Z",
        "sku": "ABC-1234",
        "phone": "+33123456789"
    });
    // Every property wrong.
    let invalid = json!({
        "id": "123e4567-e89b-12d3-a456-42661417400g",
        "email": "ada.example.com",
        "created": "2026-13-02T25:00:00Z",
        "sku": "abc-12",
        "phone": "0123456789"
    });
    Case::new("patterns_formats", schema, valid, invalid)
}

/// The four benchmarks of one case, for its valid and its invalid instance.
macro_rules! benches {
    ($(#[$doc:meta])* $case:ident = $index:literal) => {
        $(#[$doc])*
        mod $case {
            use super::*;

            fn case() -> &'static Case {
                &CASES[$index]
            }

            #[divan::bench(args = ["valid", "invalid"])]
            fn is_valid_agentkit(bencher: Bencher<'_, '_>, instance: &str) {
                let (case, instance) = (case(), case().instance(instance == "valid"));
                bencher.bench(|| case.agentkit.is_valid(black_box(instance)));
            }

            #[divan::bench(args = ["valid", "invalid"])]
            fn is_valid_jsonschema(bencher: Bencher<'_, '_>, instance: &str) {
                let (case, instance) = (case(), case().instance(instance == "valid"));
                bencher.bench(|| case.jsonschema.is_valid(black_box(instance)));
            }

            /// `validate` takes the value mutably (its policies may change it, though the
            /// standard options change nothing): each call gets a copy, made untimed.
            #[divan::bench(args = ["valid", "invalid"])]
            fn all_errors_agentkit(bencher: Bencher<'_, '_>, instance: &str) {
                let (case, instance) = (case(), case().instance(instance == "valid"));
                bencher
                    .with_inputs(|| instance.clone())
                    .bench_local_refs(|value| agentkit_all_errors(&case.agentkit, value));
            }

            #[divan::bench(args = ["valid", "invalid"])]
            fn all_errors_jsonschema(bencher: Bencher<'_, '_>, instance: &str) {
                let (case, instance) = (case(), case().instance(instance == "valid"));
                bencher.bench(|| jsonschema_all_errors(&case.jsonschema, black_box(instance)));
            }
        }
    };
}

benches!(
    /// An object of 5 typed properties with `enum` and bounds.
    flat = 0
);
benches!(
    /// A `oneOf` of 3 object variants tagged by a `type` `const`.
    tagged_union = 1
);
benches!(
    /// A tree 4 levels deep through recursive `$ref`s into `$defs`.
    recursive_refs = 2
);
benches!(
    /// `pattern` and `format` (`date-time`, `email`, `uuid`).
    patterns_formats = 3
);
