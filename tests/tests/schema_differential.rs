//! Differential test of [`agentkit_core::JsonSchema`] with [`JsonSchemaOptions::standard`]
//! against the `jsonschema` crate, on generated draft 2020-12 schemas and instances.
//!
//! The official test suite (`schema_suite`) checks each keyword on the cases its authors
//! thought of; this checks the keywords *combined*, nested up to three levels, where the
//! interactions live: `unevaluated*` seeing through `allOf`/`anyOf`/`if`/`$ref`, `items` after
//! `prefixItems`, `contains` with its bounds, `additionalProperties` beside
//! `patternProperties`, a recursive `$ref` to the root. For every generated schema that
//! `jsonschema` accepts, agentkit must build it and give the same verdict on every generated
//! instance, and its `validate` must find no issue exactly when `is_valid` says valid.
//!
//! What the generators leave out, and why:
//! - `multipleOf` is a positive integer: with a fractional divisor, float rounding is an
//!   implementation choice (`0.3` and `multipleOf: 0.1`), not a JSON Schema question.
//! - `pattern` and `patternProperties` keys come from a fixed list of simple regexes that
//!   ECMA-262, `regex` and `fancy-regex` all read the same way: the regex dialects differ
//!   elsewhere (`\d` on Unicode digits, lookaround), and that is not what is tested here.
//! - `$ref: "#"` only where it moves to a child of the instance (under `items`,
//!   `properties`, ...): in place (`{"allOf": [{"$ref": "#"}]}`) it is an infinite loop,
//!   which 2020-12 leaves to the implementation. `$defs` entries hold no `$ref` at all, so a
//!   `$ref` to one cannot loop either.
//! - `format`, `$dynamicRef`, `$anchor`, `$id` and content keywords are not generated:
//!   `format` is an annotation in both with the standard options, and the others are covered
//!   by the suite.

use agentkit_core::JsonSchemaOptions;
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::{select, subsequence};
use serde_json::{Map, Value, json};

/// Object keys, in instances and in `properties`, `required`, `dependent*`.
const KEYS: &[&str] = &["a", "b", "c", "ab"];
/// The characters of generated strings: digits for `^[0-9]{2}$`, a two-byte `é` and a
/// four-byte `😀` (two UTF-16 units) so that `minLength`/`maxLength` count code points, not
/// bytes or UTF-16 units.
const CHARS: &[char] = &['a', 'b', '0', '1', 'é', '😀'];
/// Regexes both engines read identically (see the module documentation).
const PATTERNS: &[&str] = &["^a", "b+$", "^[0-9]{2}$", "a", "^$", "^(a|b)*$", "é"];
const TYPES: &[&str] = &[
    "null", "boolean", "integer", "number", "string", "array", "object",
];
/// Where a `$ref` points: the root, or one of the two `$defs` every object root gets.
const REFS: &[&str] = &["#", "#/$defs/d0", "#/$defs/d1"];

fn key() -> impl Strategy<Value = String> {
    select(KEYS).prop_map(str::to_owned)
}

fn string() -> impl Strategy<Value = String> {
    vec(select(CHARS), 0..=3).prop_map(|chars| chars.into_iter().collect())
}

/// Numbers: small integers, and floats with and without a fraction (`1.0` is an integer in
/// 2020-12, and equal to `1` for `enum`, `const` and `uniqueItems`).
fn number() -> impl Strategy<Value = Value> {
    prop_oneof![
        3 => (-3i64..=6).prop_map(Value::from),
        1 => select(&[-1.5, 0.5, 1.0, 2.5, 4.0][..]).prop_map(Value::from),
    ]
}

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        1 => Just(Value::Null),
        1 => any::<bool>().prop_map(Value::Bool),
        3 => number(),
        3 => string().prop_map(Value::String),
    ]
}

/// Instances: scalars, and arrays and objects of up to four members, three levels deep.
fn instance() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            vec(inner.clone(), 0..=4).prop_map(Value::Array),
            vec((key(), inner), 0..=4).prop_map(|members| Value::Object(Map::from_iter(members))),
        ]
    })
}

/// Values for `const` and `enum`: scalars and flat arrays and objects, so that generated
/// instances match them now and then.
fn literal() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(1, 4, 2, |inner| {
        prop_oneof![
            vec(inner.clone(), 0..=2).prop_map(Value::Array),
            vec((key(), inner), 0..=2).prop_map(|members| Value::Object(Map::from_iter(members))),
        ]
    })
}

fn small() -> impl Strategy<Value = Value> {
    (0u64..=3).prop_map(Value::from)
}

fn keys() -> impl Strategy<Value = Value> {
    subsequence(KEYS, 0..=3).prop_map(|keys| json!(keys))
}

type Keywords = Vec<(String, Value)>;

fn one(name: &str, value: impl Strategy<Value = Value>) -> impl Strategy<Value = Keywords> {
    let name = name.to_owned();
    value.prop_map(move |value| vec![(name.clone(), value)])
}

/// Keywords without subschemas.
fn assertion() -> BoxedStrategy<Keywords> {
    let bound = || number();
    prop_oneof![
        3 => one(
            "type",
            prop_oneof![
                select(TYPES).prop_map(Value::from),
                subsequence(TYPES, 1..=3).prop_map(|types| json!(types)),
            ]
        ),
        1 => one("enum", vec(literal(), 1..=3).prop_map(Value::Array)),
        1 => one("const", literal()),
        1 => one("minimum", bound()),
        1 => one("maximum", bound()),
        1 => one("exclusiveMinimum", bound()),
        1 => one("exclusiveMaximum", bound()),
        1 => one("multipleOf", (1u64..=4).prop_map(Value::from)),
        1 => one("minLength", small()),
        1 => one("maxLength", small()),
        1 => one("pattern", select(PATTERNS).prop_map(Value::from)),
        1 => one("minItems", small()),
        1 => one("maxItems", small()),
        1 => one("uniqueItems", any::<bool>().prop_map(Value::Bool)),
        // Without `contains` these are ignored, with it they bound its matches.
        1 => one("minContains", small()),
        1 => one("maxContains", small()),
        1 => one("required", keys()),
        1 => one("minProperties", small()),
        1 => one("maxProperties", small()),
        1 => one(
            "dependentRequired",
            vec((key(), keys()), 1..=2).prop_map(|deps| Value::Object(Map::from_iter(deps)))
        ),
    ]
    .boxed()
}

/// Keywords with subschemas, from `inner`.
fn applicator(inner: BoxedStrategy<Value>) -> BoxedStrategy<Keywords> {
    let s = || inner.clone();
    let list = || vec(inner.clone(), 1..=3).prop_map(Value::Array);
    let map = |names: BoxedStrategy<String>| {
        vec((names, inner.clone()), 1..=3).prop_map(|m| Value::Object(Map::from_iter(m)))
    };
    let patterns = || select(PATTERNS).prop_map(str::to_owned).boxed();
    prop_oneof![
        2 => one("items", prop_oneof![4 => s(), 1 => Just(json!(false))]),
        2 => (list(), prop::option::of(s())).prop_map(|(prefix, items)| {
            let mut kws = vec![("prefixItems".to_owned(), prefix)];
            kws.extend(items.map(|items| ("items".to_owned(), items)));
            kws
        }),
        2 => (s(), prop::option::of(small()), prop::option::of(small())).prop_map(
            |(contains, min, max)| {
                let mut kws = vec![("contains".to_owned(), contains)];
                kws.extend(min.map(|n| ("minContains".to_owned(), n)));
                kws.extend(max.map(|n| ("maxContains".to_owned(), n)));
                kws
            }
        ),
        3 => (map(key().boxed()), prop::option::of(keys())).prop_map(|(properties, required)| {
            let mut kws = vec![("properties".to_owned(), properties)];
            kws.extend(required.map(|r| ("required".to_owned(), r)));
            kws
        }),
        2 => one("additionalProperties", s()),
        2 => one("patternProperties", map(patterns())),
        1 => one("propertyNames", s()),
        1 => one("dependentSchemas", map(key().boxed())),
        2 => one("allOf", list()),
        2 => one("anyOf", list()),
        2 => one("oneOf", list()),
        1 => one("not", s()),
        3 => (s(), prop::option::of(s()), prop::option::of(s())).prop_map(|(i, t, e)| {
            let mut kws = vec![("if".to_owned(), i)];
            kws.extend(t.map(|t| ("then".to_owned(), t)));
            kws.extend(e.map(|e| ("else".to_owned(), e)));
            kws
        }),
        // Alone, without `if`, they are ignored.
        1 => one("then", s()),
        1 => one("else", s()),
        2 => one("unevaluatedProperties", s()),
        2 => one("unevaluatedItems", s()),
        1 => one("$ref", select(REFS).prop_map(Value::from)),
    ]
    .boxed()
}

fn object(groups: Vec<Keywords>) -> Value {
    Value::Object(groups.into_iter().flatten().collect())
}

/// Schemas nested up to three levels.
fn schema() -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        1 => Just(json!(true)),
        1 => Just(json!(false)),
        1 => Just(json!({})),
        2 => select(REFS).prop_map(|r| json!({"$ref": r})),
        8 => vec(assertion(), 1..=2).prop_map(object),
    ];
    leaf.prop_recursive(3, 32, 3, |inner| {
        let inner = inner.boxed();
        vec(prop_oneof![1 => assertion(), 2 => applicator(inner)], 1..=3).prop_map(object)
    })
    .boxed()
}

/// A root schema: its `$ref`s made safe (see [`guard`]), and, if it is an object, two
/// `$defs` for `#/$defs/d0` and `#/$defs/d1` to name.
fn root() -> impl Strategy<Value = Value> {
    (schema(), schema(), schema()).prop_map(|(mut root, mut d0, mut d1)| {
        guard(&mut root, false, true);
        if let Value::Object(map) = &mut root {
            guard(&mut d0, false, false);
            guard(&mut d1, false, false);
            map.insert("$defs".to_owned(), json!({"d0": d0, "d1": d1}));
        }
        root
    })
}

/// Removes the `$ref`s that could loop: every one in a `$defs` entry (`refs` false), and a
/// `$ref: "#"` that applies to the same instance location as the root (`below` false: not
/// under a keyword that moves to a child).
fn guard(schema: &mut Value, below: bool, refs: bool) {
    let Value::Object(map) = schema else { return };
    let looping = match map.get("$ref") {
        Some(Value::String(target)) => !refs || (target == "#" && !below),
        _ => false,
    };
    if looping {
        map.remove("$ref");
    }
    for (name, value) in map.iter_mut() {
        let child = match name.as_str() {
            "items"
            | "contains"
            | "additionalProperties"
            | "propertyNames"
            | "unevaluatedItems"
            | "unevaluatedProperties"
            | "prefixItems"
            | "properties"
            | "patternProperties" => true,
            "not" | "if" | "then" | "else" | "allOf" | "anyOf" | "oneOf" | "dependentSchemas" => {
                below
            }
            _ => continue,
        };
        match (name.as_str(), value) {
            ("prefixItems" | "allOf" | "anyOf" | "oneOf", Value::Array(list)) => {
                for s in list {
                    guard(s, child, refs);
                }
            }
            ("properties" | "patternProperties" | "dependentSchemas", Value::Object(m)) => {
                for s in m.values_mut() {
                    guard(s, child, refs);
                }
            }
            (_, s) => guard(s, child, refs),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn agentkit_agrees_with_jsonschema(schema in root(), instances in vec(instance(), 1..=8)) {
        // A schema `jsonschema` refuses is not a question of verdicts.
        let Ok(theirs) = jsonschema::draft202012::new(&schema) else {
            return Ok(());
        };
        let ours = JsonSchemaOptions::standard()
            .build(schema.clone())
            .map_err(|e| TestCaseError::fail(format!("agentkit refuses {schema}: {e}")))?;
        for instance in &instances {
            let verdict = ours.is_valid(instance);
            prop_assert_eq!(
                verdict,
                theirs.is_valid(instance),
                "schema {}\ninstance {}\nagentkit says {}",
                schema,
                instance,
                if verdict { "valid" } else { "invalid" },
            );
            let issues = ours.validate(&mut instance.clone());
            prop_assert_eq!(
                issues.is_empty(),
                verdict,
                "schema {}\ninstance {}\nvalidate: {:?}",
                schema,
                instance,
                issues,
            );
        }
    }
}
