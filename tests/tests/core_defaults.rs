//! Defaults are exact: a schema checks each default against the parameter's whole declaration
//! (typed items, declared fields, lists of dictionaries, at any depth) by validation's rules,
//! refuses NaN, infinities and integers outside the 64-bit range wherever they are, and stores
//! the default as validation leaves it, so that filling an absent argument gives exactly what
//! validating the same default given explicitly gives.

use agentkit_core::__private::rules::OUT_OF_RANGE;
use agentkit_core::{IssueKind, JsonObject, Literal, Param, ParamType, SemanticError, ToolSchema};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

fn object(value: Value) -> JsonObject {
    value.as_object().cloned().expect("an object")
}

fn messages(err: &SemanticError) -> Vec<String> {
    err.problems()
        .iter()
        .map(|p| p.problem().to_string())
        .collect()
}

fn schema(params: impl IntoIterator<Item = Param>) -> ToolSchema {
    ToolSchema::new(params).expect("a valid schema")
}

/// `{"city": string, "country": string = "US", "tags": [string]?}`
fn place() -> ToolSchema {
    schema([
        Param::required("city", ParamType::String),
        Param::optional("country", ParamType::String).with_default("US"),
        Param::optional("tags", ParamType::List).with_items(ParamType::String),
    ])
}

/// A dictionary whose `stops` are a list of places, three levels deep.
fn trip() -> ToolSchema {
    schema([
        Param::required("name", ParamType::String),
        Param::optional("stops", ParamType::List)
            .with_items(ParamType::Dictionary)
            .with_fields(place()),
        Param::optional("days", ParamType::Integer).with_default(1),
    ])
}

#[test]
fn a_default_is_checked_at_any_depth() {
    let err = ToolSchema::new([Param::optional("trip", ParamType::Dictionary)
        .with_fields(trip())
        .with_default(json!({
            "name": "tour",
            "stops": [
                {"city": "Lyon", "tags": ["old", null]},
                {"country": "FR", "zip": 1},
                {"city": "Nice", "tags": [18_446_744_073_709_551_615_u64]},
            ],
            "days": 1.5,
        }))])
    .unwrap_err();
    assert_eq!(
        messages(&err),
        [
            "parameter 'trip': default value 'trip.stops[0].tags[1]' of type 'null' does not fit the declared type 'string'",
            "parameter 'trip': default value 'trip.stops[1]' has no 'city', a required field",
            "parameter 'trip': default value 'trip.stops[1]' has a field 'zip' that is not declared",
            "parameter 'trip': default value 'trip.stops[2].tags[0]' is an integer outside the 64-bit range",
            "parameter 'trip': default value 'trip.days' of type 'float' does not fit the declared type 'integer'",
        ]
    );
    assert!(
        err.problems()
            .iter()
            .all(|p| p.location() == "parameters[0] ('trip')")
    );
}

#[test]
fn the_loader_checks_nested_defaults_too() {
    let err = ToolSchema::from_value(json!({"parameters": [
        {"name": "stops", "type": "list", "items": "dictionary", "required": false,
         "default": [{"city": "Lyon", "nights": "two"}],
         "fields": [
            {"name": "city", "type": "string"},
            {"name": "nights", "type": "integer", "required": false, "default": 1},
         ]},
    ]}))
    .unwrap_err();
    assert_eq!(
        messages(&err),
        [
            "parameter 'stops': default value 'stops[0].nights' of type 'string' does not fit the declared type 'integer'"
        ]
    );
}

#[test]
fn non_finite_floats_are_refused_wherever_a_literal_is_built() {
    for (param, at) in [
        (
            Param::optional("x", ParamType::Float).with_default(f64::NAN),
            "default",
        ),
        (
            Param::optional("x", ParamType::Float).with_default(f64::INFINITY),
            "default",
        ),
        (
            Param::optional("x", ParamType::List).with_default(Literal::List(
                vec![Literal::Integer(1), Literal::Float(f64::NEG_INFINITY)].into(),
            )),
            "default value 'x[1]'",
        ),
    ] {
        let err = ToolSchema::new([param]).unwrap_err();
        assert_eq!(
            messages(&err),
            [format!(
                "parameter 'x': {at} is not a finite number; JSON has no NaN or infinity"
            )]
        );
    }
}

/// One wording for an integer outside `i64`, whether it is an argument or a default, and in a
/// default wherever it is: no longer called a "float".
#[test]
fn integers_outside_i64_are_refused_in_one_wording() {
    let big = json!(18_446_744_073_709_551_615_u64);
    let err = ToolSchema::from_value(json!({"parameters": [
        {"name": "n", "type": "integer", "required": false, "default": big},
        {"name": "f", "type": "float", "required": false, "default": big},
        {"name": "l", "type": "list", "required": false, "default": [1, {"deep": big}]},
    ]}))
    .unwrap_err();
    assert_eq!(
        messages(&err),
        [
            format!("parameter 'n': default is {OUT_OF_RANGE}"),
            format!("parameter 'f': default is {OUT_OF_RANGE}"),
            format!("parameter 'l': default value 'l[1].deep' is {OUT_OF_RANGE}"),
        ]
    );
    // `Literal::from` keeps the number, so code gets the same answer as the loader.
    assert_eq!(Literal::from(big.clone()).to_value(), big);
    assert!(
        ToolSchema::new([Param::optional("n", ParamType::Float).with_default(big.clone())])
            .is_err()
    );
    // An integral float out of range where an integer is declared: the same words.
    let err =
        ToolSchema::new([Param::optional("n", ParamType::Integer).with_default(1e19)]).unwrap_err();
    assert_eq!(
        messages(&err),
        [format!("parameter 'n': default is {OUT_OF_RANGE}")]
    );
    // And the validator, for the same value given as the argument.
    let plain = schema([Param::optional("n", ParamType::Integer)]);
    let issues = plain.validate(&mut object(json!({"n": big})));
    assert_eq!(issues[0].kind(), IssueKind::OutOfRange);
    assert!(
        issues[0].to_string().ends_with(OUT_OF_RANGE),
        "{}",
        issues[0]
    );
}

/// The cases the one-level check got wrong: each filled default equals the validated explicit
/// value.
#[test]
fn filling_a_default_gives_what_validating_it_gives() {
    let cases = [
        // Nested defaults inside the default are filled.
        (
            Param::optional("trip", ParamType::Dictionary).with_fields(trip()),
            json!({"name": "tour", "stops": [{"city": "Lyon"}]}),
            json!({"name": "tour", "stops": [{"city": "Lyon", "country": "US"}], "days": 1}),
        ),
        // `null` for an optional field is removed (and its default filled), as when given.
        (
            Param::optional("at", ParamType::Dictionary).with_fields(place()),
            json!({"city": "Rome", "country": null, "tags": null}),
            json!({"city": "Rome", "country": "US"}),
        ),
        // `2.0` is the integer 2 where one is declared...
        (
            Param::optional("n", ParamType::List).with_items(ParamType::Integer),
            json!([2.0, -3.0]),
            json!([2, -3]),
        ),
        // ... and stays a float where nothing is declared.
        (
            Param::optional("raw", ParamType::List),
            json!([2.0, null, {"k": 1.0}]),
            json!([2.0, null, {"k": 1.0}]),
        ),
    ];
    for (param, default, expected) in cases {
        let name = param.name().to_owned();
        let bare = schema([param.clone()]);
        let with_default = schema([param.with_default(default.clone())]);
        let mut explicit = object(json!({ name.clone(): default }));
        assert!(bare.validate(&mut explicit).is_empty(), "{explicit:?}");
        let mut filled = JsonObject::new();
        assert!(with_default.validate(&mut filled).is_empty());
        assert_eq!(filled, explicit, "{name}");
        assert_eq!(filled[&name], expected, "{name}");
        // The stored default is the normalised one, and what JSON Schema advertises.
        let stored = with_default.parameters()[0]
            .default_value()
            .map(Literal::to_value);
        assert_eq!(stored.as_ref(), Some(&expected));
        assert_eq!(
            with_default.to_json_schema()["properties"][&name]["default"],
            expected
        );
    }
}

#[test]
fn an_integral_float_default_is_stored_as_the_integer() {
    let schema = schema([Param::optional("n", ParamType::Integer).with_default(2.0)]);
    assert_eq!(
        schema.parameters()[0].default_value(),
        Some(&Literal::Integer(2))
    );
    // Saved and loaded again, the schema is the same.
    assert_eq!(ToolSchema::from_value(schema.to_value()).unwrap(), schema);
}

// ---------------------------------------------------------------- generated schemas

/// A parameter declaration, generated; names are given by position when it is built.
#[derive(Debug, Clone)]
struct Decl {
    ty: ParamType,
    required: bool,
    items: Option<ParamType>,
    fields: Option<Vec<Decl>>,
    default: Option<Value>,
}

const NAMES: [&str; 4] = ["a", "b", "c", "d"];

fn any_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (-5_i64..5).prop_map(|i| json!(i as f64)),
        (-1.0e3_f64..1.0e3).prop_map(|f| json!(f)),
        Just(json!(18_446_744_073_709_551_615_u64)),
        Just(json!(1e19)),
        "[a-z]{0,3}".prop_map(Value::from),
    ];
    leaf.prop_recursive(2, 6, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            prop::collection::btree_map("[a-e]", inner, 0..3)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn decl() -> impl Strategy<Value = Decl> {
    let scalar = prop::sample::select(vec![
        ParamType::String,
        ParamType::Integer,
        ParamType::Float,
        ParamType::Boolean,
    ]);
    let leaf = (
        prop::sample::select(ParamType::ALL.to_vec()),
        any::<bool>(),
        prop::option::of(scalar),
    )
        .prop_map(|(ty, required, items)| Decl {
            ty,
            required,
            items: items.filter(|_| ty == ParamType::List),
            fields: None,
            default: None,
        });
    leaf.prop_recursive(3, 16, 4, |inner| {
        (
            prop::collection::vec(inner, 1..4),
            any::<bool>(),
            any::<bool>(),
        )
            .prop_map(|(fields, required, list)| Decl {
                ty: if list {
                    ParamType::List
                } else {
                    ParamType::Dictionary
                },
                required,
                items: list.then_some(ParamType::Dictionary),
                fields: Some(fields),
                default: None,
            })
    })
}

/// Values that mostly fit `ty` (and its items and fields), sometimes anything at all.
fn fitting(
    ty: ParamType,
    items: Option<ParamType>,
    fields: Option<&[Decl]>,
) -> BoxedStrategy<Value> {
    let fits = match ty {
        ParamType::String => "[a-z]{0,3}".prop_map(Value::from).boxed(),
        ParamType::Integer => prop_oneof![
            any::<i64>().prop_map(Value::from),
            (-5_i64..5).prop_map(|i| json!(i as f64)),
        ]
        .boxed(),
        ParamType::Float => prop_oneof![
            (-1.0e3_f64..1.0e3).prop_map(|f| json!(f)),
            any::<i64>().prop_map(Value::from),
        ]
        .boxed(),
        ParamType::Boolean => any::<bool>().prop_map(Value::from).boxed(),
        ParamType::List => {
            let item = match (items, fields) {
                (Some(ParamType::Dictionary), Some(fields)) => object_for(fields),
                (Some(items), _) => fitting(items, None, None),
                (None, _) => any_value().boxed(),
            };
            prop::collection::vec(item, 0..3)
                .prop_map(Value::Array)
                .boxed()
        }
        ParamType::Dictionary => match fields {
            Some(fields) => object_for(fields),
            None => any_value().boxed(),
        },
        // `ParamType` may grow; a new type gets values of any kind until it has its own.
        _ => any_value().boxed(),
    };
    prop_oneof![6 => fits, 1 => any_value()].boxed()
}

/// Objects over declared `fields`: each absent, `null` or a value, and sometimes an
/// undeclared key.
fn object_for(fields: &[Decl]) -> BoxedStrategy<Value> {
    let parts: Vec<BoxedStrategy<Option<Value>>> = fields
        .iter()
        .map(|field| {
            prop_oneof![
                1 => Just(None),
                1 => Just(Some(Value::Null)),
                4 => fitting(field.ty, field.items, field.fields.as_deref()).prop_map(Some),
            ]
            .boxed()
        })
        .collect();
    (parts, prop::option::weighted(0.1, any_value()))
        .prop_map(|(values, extra)| {
            let mut map: Map<String, Value> = NAMES
                .iter()
                .zip(values)
                .filter_map(|(name, value)| value.map(|v| ((*name).to_owned(), v)))
                .collect();
            if let Some(extra) = extra {
                map.insert("zz".to_owned(), extra);
            }
            Value::Object(map)
        })
        .boxed()
}

/// Gives each declaration in the tree a default (or none), generated from its shape.
fn with_defaults(decl: Decl) -> BoxedStrategy<Decl> {
    let children: Vec<BoxedStrategy<Decl>> = decl
        .fields
        .clone()
        .unwrap_or_default()
        .into_iter()
        .map(with_defaults)
        .collect();
    let default = prop::option::weighted(0.6, fitting(decl.ty, decl.items, decl.fields.as_deref()));
    (children, default)
        .prop_map(move |(children, default)| Decl {
            fields: decl.fields.as_ref().map(|_| children.clone()),
            default,
            ..decl.clone()
        })
        .boxed()
}

/// Builds the parameter; a nested field whose default its schema refuses is built without
/// it, so that every generated schema exists.
fn build(decl: &Decl, name: &str, with_default: bool) -> Param {
    let mut param = if decl.required {
        Param::required(name.to_owned(), decl.ty)
    } else {
        Param::optional(name.to_owned(), decl.ty)
    };
    if let Some(items) = decl.items {
        param = param.with_items(items);
    }
    if let Some(fields) = &decl.fields {
        let fields = fields.iter().zip(NAMES).map(|(field, name)| {
            let with = build(field, name, true);
            if ToolSchema::new([with.clone()]).is_ok() {
                with
            } else {
                build(field, name, false)
            }
        });
        param = param.with_fields(ToolSchema::new(fields).expect("fields are valid"));
    }
    match &decl.default {
        Some(default) if with_default => param.with_default(default.clone()),
        _ => param,
    }
}

fn has_out_of_range(value: &Value) -> bool {
    match value {
        Value::Number(n) => n.as_i64().is_none() && n.as_u64().is_some(),
        Value::Array(items) => items.iter().any(has_out_of_range),
        Value::Object(map) => map.values().any(has_out_of_range),
        _ => false,
    }
}

fn root() -> impl Strategy<Value = (Decl, Value)> {
    decl().prop_flat_map(with_defaults).prop_flat_map(|decl| {
        let default = fitting(decl.ty, decl.items, decl.fields.as_deref());
        (
            Just(Decl {
                required: false,
                ..decl
            }),
            default,
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// `fill(absent) == validate(explicit default)`, the filled object validates again
    /// unchanged, and a schema refuses a default exactly when validation refuses the value
    /// (or the value holds an integer outside `i64`, or is `null`, which validation reads as
    /// "absent").
    #[test]
    fn filling_equals_validating_the_explicit_default((decl, default) in root()) {
        let bare = ToolSchema::new([build(&decl, "p", false)]).expect("a valid schema");
        let mut explicit = JsonObject::new();
        explicit.insert("p".to_owned(), default.clone());
        let issues = bare.validate(&mut explicit);
        let built = ToolSchema::new([build(&decl, "p", false).with_default(default.clone())]);
        match built {
            Ok(schema) => {
                prop_assert!(issues.is_empty(), "accepted {} but validation says {:?}", default, issues);
                let mut filled = JsonObject::new();
                prop_assert!(schema.validate(&mut filled).is_empty());
                prop_assert_eq!(&filled, &explicit);
                let before = filled.clone();
                prop_assert!(schema.validate(&mut filled).is_empty());
                prop_assert_eq!(&filled, &before);
            }
            Err(err) => {
                prop_assert!(
                    !issues.is_empty() || has_out_of_range(&default) || default.is_null(),
                    "refused {} ({}) though validation accepts it", default, err
                );
            }
        }
    }
}

/// Only a hand-built `Literal` can repeat a key; JSON would keep the last, so such a default is
/// refused rather than filled with one of the two.
#[test]
fn a_repeated_key_in_a_default_is_refused() {
    let repeated = Literal::Dictionary(
        vec![
            ("city".into(), Literal::from("Lyon")),
            ("city".into(), Literal::from("Nice")),
        ]
        .into(),
    );
    for param in [
        Param::optional("at", ParamType::Dictionary).with_fields(place()),
        Param::optional("at", ParamType::Dictionary),
    ] {
        let err = ToolSchema::new([param.with_default(repeated.clone())]).unwrap_err();
        assert_eq!(
            messages(&err),
            ["parameter 'at': the default has the field 'city' twice"]
        );
    }
}
