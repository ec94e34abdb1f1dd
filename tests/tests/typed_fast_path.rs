//! The typed fast path of `#[tool]` tools (the argument text straight into the input struct,
//! validated on the way) against the full path (parsed to a JSON object, validated, then
//! converted): on the same generated argument texts, the fast path gives an input exactly
//! when the full path finds no issue, and then the same input; and the executor's results
//! are the same whichever path it takes. The same single pass to a JSON object, which
//! hand-written tools take, gives the validator's results too.

use std::sync::{Arc, Mutex};

use agentkit_core::__private::{FromInputs, Parsed, TypedOutput};
use agentkit_core::{
    BoxError, JsonObject, Tool, ToolCall, ToolContext, ToolEvent, ToolExecutor, ToolHandler,
    ToolObserver, ToolOutput, ToolParams, ToolRegistry, ToolSpec, UnknownArguments, block_on, tool,
};
use proptest::prelude::*;
use serde_json::{Value, json};

#[tool(
    name = "plan",
    input = [
        { name = "city", type = string, min_length = 1 },
        { name = "days", type = integer, required = false, default = 3, minimum = 1, maximum = 30 },
        { name = "units", type = string, required = false, enum = ["metric", "imperial"], default = "metric" },
        { name = "budget", type = float, required = false },
        { name = "tags", type = list, items = string, required = false, max_items = 3 },
        { name = "origin", type = dictionary, required = false, fields = [
            { name = "city", type = string },
            { name = "country", type = string, required = false, default = "US" },
        ] },
        { name = "stops", type = list, items = dictionary, required = false, fields = [
            { name = "city", type = string },
            { name = "nights", type = integer, required = false, default = 1 },
        ] },
        { name = "notes", type = dictionary, required = false },
        { name = "flag", type = boolean, required = false },
    ],
    output = [{ name = "echo", type = string }],
)]
#[derive(Clone)]
struct Plan;

impl ToolHandler for Plan {
    async fn run(&self, input: PlanInput, _: &ToolContext<'_>) -> Result<PlanOutput, BoxError> {
        Ok(PlanOutput {
            echo: format!("{input:?}"),
        })
    }
}

#[derive(Debug, PartialEq, ToolParams)]
struct Leg {
    city: String,
    #[param(default = 1)]
    nights: i64,
}

#[derive(Debug, PartialEq, ToolParams)]
struct TripArgs {
    #[param(min_length = 1)]
    city: String,
    #[param(default = 3, minimum = 1, maximum = 30)]
    days: u8,
    legs: Option<Vec<Leg>>,
    tags: Option<Vec<String>>,
}

#[derive(ToolParams)]
struct Echo {
    echo: String,
}

#[tool(name = "trip", input = TripArgs, output = Echo)]
#[derive(Clone)]
struct Trip;

impl ToolHandler for Trip {
    async fn run(&self, input: TripArgs, _: &ToolContext<'_>) -> Result<Echo, BoxError> {
        Ok(Echo {
            echo: format!("{input:?}"),
        })
    }
}

/// `plan` written by hand: its spec, loaded at run time, and the validated arguments echoed
/// back as JSON.
#[derive(Clone)]
struct PlanByHand(ToolSpec);

impl Tool for PlanByHand {
    fn spec(&self) -> &ToolSpec {
        &self.0
    }

    async fn execute(
        &self,
        inputs: &JsonObject,
        _: &ToolContext<'_>,
    ) -> Result<ToolOutput, BoxError> {
        let echo = Value::Object(inputs.clone()).to_string();
        Ok(JsonObject::from_iter([("echo".to_owned(), Value::from(echo))]).into())
    }
}

fn plan_by_hand() -> PlanByHand {
    PlanByHand(Plan.spec().clone())
}

/// What the full path makes of `text`: the validated input, or `None` on any issue.
fn full_path<T: FromInputs>(tool: &impl Tool, text: &str, unknown: UnknownArguments) -> Option<T> {
    let Ok(Value::Object(mut values)) = serde_json::from_str::<Value>(text) else {
        return None;
    };
    let schema = tool.spec().input_schema().unwrap();
    let issues = schema.validate_with(&mut values, unknown);
    issues.is_empty().then(|| T::from_inputs(&values).unwrap())
}

fn fast_path<T: 'static>(tool: &impl Tool, text: &str, unknown: UnknownArguments) -> Option<T> {
    match tool.parse_typed(text, unknown, 20) {
        Parsed::Input(input) => Some(*input.downcast::<T>().expect("the tool's input type")),
        Parsed::Invalid(_) | Parsed::Unparsed | Parsed::Object(_) => None,
    }
}

/// Whether the fast path found issues itself (rather than leaving the text to the full path).
fn fast_path_invalid(tool: &impl Tool, text: &str) -> bool {
    matches!(
        tool.parse_typed(text, UnknownArguments::Reject, 20),
        Parsed::Invalid(_)
    )
}

/// An observer, keeping the arguments each call's terminal event shows: the executor then
/// makes the arguments a JSON object, valid or not, to show it.
#[derive(Clone, Default)]
struct Watch(Arc<Mutex<Vec<Option<JsonObject>>>>);

impl Watch {
    fn take(&self) -> Vec<Option<JsonObject>> {
        std::mem::take(&mut self.0.lock().unwrap())
    }
}

impl ToolObserver for Watch {
    fn on_event(&self, event: &ToolEvent<'_>) {
        let inputs = match event {
            ToolEvent::Completed { inputs, .. } => Some(*inputs),
            ToolEvent::Failed { inputs, .. } => *inputs,
            _ => return,
        };
        self.0.lock().unwrap().push(inputs.cloned());
    }
}

fn executors(tool: impl Tool + Clone) -> (ToolExecutor, ToolExecutor, Watch) {
    let registry = |tool| {
        let mut registry = ToolRegistry::new();
        registry.register(tool).unwrap();
        registry
    };
    let watch = Watch::default();
    let fast = ToolExecutor::new(registry(tool.clone()));
    let full = ToolExecutor::builder(registry(tool))
        .observer(watch.clone())
        .build();
    (fast, full, watch)
}

/// Argument values near the schema: right and wrong types, bounds, enum values, nesting.
fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (-5i64..40).prop_map(Value::from),
        prop_oneof![Just(2.0), Just(2.5), Just(-1.0)].prop_map(Value::from),
        prop_oneof![
            Just(""),
            Just("Nice"),
            Just("metric"),
            Just("kelvin"),
            Just("x")
        ]
        .prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 12, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::from),
            prop::collection::btree_map(
                prop_oneof![Just("city"), Just("country"), Just("nights"), Just("zip")],
                inner,
                0..3
            )
            .prop_map(|m| Value::Object(m.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())),
        ]
    })
}

/// The optional parameters of `plan` and of `trip`, together.
const OPTIONAL: [&str; 9] = [
    "days", "units", "budget", "tags", "origin", "stops", "notes", "flag", "legs",
];

/// An argument that fits `plan`, `trip` or both, or `null` for an optional one.
fn fitting_entry() -> impl Strategy<Value = (&'static str, Value)> {
    let key = prop::sample::select(&OPTIONAL[..]);
    let fitting = |key: &str| match key {
        "days" => (1i64..=30).prop_map(Value::from).boxed(),
        "units" => prop_oneof![Just(json!("metric")), Just(json!("imperial"))].boxed(),
        "budget" => prop_oneof![Just(json!(2.5)), Just(json!(10))].boxed(),
        "tags" => prop::collection::vec(prop_oneof![Just("a"), Just("b")], 0..3)
            .prop_map(|tags| json!(tags))
            .boxed(),
        "origin" => prop_oneof![
            Just(json!({"city": "Arles"})),
            Just(json!({"city": "Arles", "country": "FR"})),
        ]
        .boxed(),
        "stops" | "legs" => prop_oneof![
            Just(json!([{"city": "Aix"}])),
            Just(json!([{"city": "Aix", "nights": 2}, {"city": "Arles", "nights": null}])),
        ]
        .boxed(),
        "notes" => Just(json!({"any": [1, {"thing": null}]})).boxed(),
        _ => any::<bool>().prop_map(Value::from).boxed(),
    };
    key.prop_flat_map(move |key| {
        prop_oneof![4 => fitting(key), 1 => Just(Value::Null)].prop_map(move |value| (key, value))
    })
}

/// Argument texts: objects of known and unknown keys, with some repeated keys and some texts
/// that are not objects at all.
fn arguments() -> impl Strategy<Value = String> {
    // Each of the eleven keys alike: `city`, the optional ones, and one neither tool has.
    let key = prop_oneof![
        1 => Just("city"),
        9 => prop::sample::select(&OPTIONAL[..]),
        1 => Just("extra"),
    ];
    let entries = prop::collection::vec((key, value()), 0..6);
    // Written by hand, so a key can repeat.
    let text = |entries: Vec<(&str, Value)>| {
        let body: Vec<String> = entries
            .iter()
            .map(|(k, v)| format!("{}:{}", json!(k), v))
            .collect();
        format!("{{{}}}", body.join(","))
    };
    prop_oneof![
        8 => entries.prop_map(text),
        // Arguments that are valid, for one tool or both, more often than not.
        4 => prop::collection::vec(fitting_entry(), 0..5).prop_map(move |mut entries| {
            entries.insert(0, ("city", json!("Nice")));
            text(entries)
        }),
        1 => Just(String::new()),
        1 => prop_oneof![Just("[1]"), Just("{\"city\":"), Just("null"), Just("  ")].prop_map(str::to_owned),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn the_fast_path_agrees_with_the_full_path(text in arguments()) {
        for unknown in [UnknownArguments::Reject, UnknownArguments::Ignore] {
            let full = full_path::<PlanInput>(&Plan, &text, unknown);
            let fast = fast_path::<PlanInput>(&Plan, &text, unknown);
            // Undeclared arguments the executor ignores, and repeated keys, are left to the
            // full path: there the fast path may give nothing; never a different input.
            if let Some(fast) = &fast {
                prop_assert_eq!(Some(fast), full.as_ref(), "{}", text);
            } else if unknown == UnknownArguments::Reject && !text.contains("\"extra\"") {
                prop_assert!(full.is_none() || has_repeated_key(&text), "{}", text);
            }
            let full = full_path::<TripArgs>(&Trip, &text, unknown);
            let fast = fast_path::<TripArgs>(&Trip, &text, unknown);
            if let Some(fast) = &fast {
                prop_assert_eq!(Some(fast), full.as_ref(), "{}", text);
            } else if unknown == UnknownArguments::Reject && !text.contains("\"extra\"") {
                prop_assert!(full.is_none() || has_repeated_key(&text), "{}", text);
            }
        }
    }

    #[test]
    fn the_executor_gives_the_same_results_on_either_path(text in arguments()) {
        // The arguments already parsed, where the text is one object that repeats no key:
        // those the executor checks with the validator, never in the single pass.
        let parsed = match serde_json::from_str::<Value>(&text) {
            Ok(value @ Value::Object(_)) if !has_repeated_key(&text) => Some(value),
            _ => None,
        };
        for (name, (fast, full, watch)) in [
            ("plan", executors(Plan)),
            ("trip", executors(Trip)),
            ("plan", executors(plan_by_hand())),
        ] {
            let call = ToolCall::new("c1", name, text.clone());
            let a = block_on(fast.dispatch(&call));
            let mut others = vec![block_on(full.dispatch(&call))];
            if let Some(value) = &parsed {
                others.push(block_on(full.dispatch(&ToolCall::new("c1", name, value.clone()))));
                // The arguments the observer saw, valid or not, are the validator's.
                let shown = watch.take();
                prop_assert_eq!(&shown[0], &shown[1], "{}", text);
            }
            for b in others {
                prop_assert_eq!(a.to_model_content(), b.to_model_content(), "{}", text);
                prop_assert_eq!(a.output(), b.output(), "{}", text);
                // Every issue, with what each expected.
                prop_assert_eq!(format!("{:?}", a.error()), format!("{:?}", b.error()), "{}", text);
            }
        }
    }
}

/// Whether some object in `text` repeats a key (which the full path reports).
fn has_repeated_key(text: &str) -> bool {
    // The generated texts repeat keys only at the top level, written by hand.
    let Ok(Value::Object(parsed)) = serde_json::from_str::<Value>(text) else {
        return false;
    };
    let written = text.matches("\":").count();
    let nested: usize = parsed.values().map(count_keys).sum();
    written > parsed.len() + nested
}

fn count_keys(value: &Value) -> usize {
    match value {
        Value::Object(map) => map.len() + map.values().map(count_keys).sum::<usize>(),
        Value::Array(items) => items.iter().map(count_keys).sum(),
        _ => 0,
    }
}

#[test]
fn valid_arguments_take_the_fast_path_with_defaults_filled() {
    let input = fast_path::<PlanInput>(
        &Plan,
        r#"{"city":"Nice","stops":[{"city":"Arles"}]}"#,
        UnknownArguments::Reject,
    )
    .expect("valid arguments take the fast path");
    assert_eq!(input.days, 3);
    assert_eq!(input.units, PlanInputUnits::Metric);
    assert_eq!(input.stops.unwrap()[0].nights, 1);
    let trip = fast_path::<TripArgs>(
        &Trip,
        r#"{"city":"Nice","legs":[{"city":"Arles"}]}"#,
        UnknownArguments::Reject,
    )
    .expect("valid arguments take the fast path");
    assert_eq!(trip.days, 3);
    assert_eq!(
        trip.legs.unwrap()[0],
        Leg {
            city: "Arles".into(),
            nights: 1
        }
    );
    // An empty text is `{}`, as on the full path.
    assert!(fast_path::<TripArgs>(&Trip, "", UnknownArguments::Reject).is_none());
    assert!(full_path::<TripArgs>(&Trip, "{}", UnknownArguments::Reject).is_none());
}

#[test]
fn anything_the_full_path_would_report_falls_back_to_it() {
    for text in [
        r#"{"city":"Nice","city":"Nice"}"#,
        r#"{"city":"Nice","origin":{"city":"A","city":"B"}}"#,
        r#"{"city":"Nice","extra":1}"#,
        r#"{"city":""}"#,
        r#"{"city":"Nice","days":31}"#,
        r#"{"city":"Nice","units":"kelvin"}"#,
        r#"{"city":"Nice"} trailing"#,
        r#"[]"#,
    ] {
        assert!(
            fast_path::<PlanInput>(&Plan, text, UnknownArguments::Reject).is_none(),
            "{text}"
        );
    }
    // Wrong values in a text it could read, it reports itself, in the full path's words.
    for text in [
        r#"{"days":0}"#,
        r#"{"city":5,"units":"kelvin"}"#,
        r#"{"city":"x","stops":[{}]}"#,
    ] {
        assert!(fast_path_invalid(&Plan, text), "{text}");
        let (fast, full, _) = executors(Plan);
        let call = ToolCall::new("c1", "plan", text);
        let (a, b) = (
            block_on(fast.dispatch(&call)),
            block_on(full.dispatch(&call)),
        );
        assert_eq!(a.to_model_content(), b.to_model_content());
    }
    // What it cannot read, it leaves to the full path.
    assert!(!fast_path_invalid(
        &Plan,
        r#"{"city":"Nice","city":"Nice","days":40}"#
    ));
    let (fast, full, _) = executors(Plan);
    let call = ToolCall::new("c1", "plan", r#"{"city":"Nice","city":"Nice","days":40}"#);
    let (a, b) = (
        block_on(fast.dispatch(&call)),
        block_on(full.dispatch(&call)),
    );
    assert_eq!(a.to_model_content(), b.to_model_content());
    assert!(
        a.to_model_content().contains("'city'"),
        "{}",
        a.to_model_content()
    );
}

// Its input is declared, so it takes the fast path, and its output stays typed.
#[tool(
    name = "report",
    input = [{ name = "score", type = float, required = false }],
    output = [
        { name = "title", type = string },
        { name = "mode", type = string, enum = ["draft", "final"] },
        { name = "score", type = float },
        { name = "tags", type = list, items = string },
        { name = "author", type = dictionary, fields = [
            { name = "name", type = string },
            { name = "age", type = integer, required = false },
        ] },
        { name = "note", type = string, required = false },
    ],
)]
#[derive(Clone)]
struct Report;

impl ToolHandler for Report {
    async fn run(&self, input: ReportInput, _: &ToolContext<'_>) -> Result<ReportOutput, BoxError> {
        let score = input.score.unwrap_or(f64::NAN);
        Ok(ReportOutput {
            title: "t".into(),
            mode: ReportOutputMode::Final,
            score,
            tags: vec!["a".into()],
            author: ReportOutputAuthor {
                name: "n".into(),
                age: Some(40),
            },
            note: None,
        })
    }
}

#[tool(name = "bounded", output = [{ name = "n", type = integer, maximum = 5 }])]
struct Bounded;

impl ToolHandler for Bounded {
    async fn run(&self, _: JsonObject, _: &ToolContext<'_>) -> Result<BoundedOutput, BoxError> {
        Ok(BoundedOutput { n: 9 })
    }
}

/// Compiles only for an output struct the executor keeps typed, unvalidated.
fn kept_typed<T: TypedOutput>() {}

#[test]
fn an_output_its_types_guarantee_is_not_validated_again_unless_a_float_became_null() {
    // The macro keeps an output typed only where the types enforce the schema (`Bounded`'s
    // maximum is not: its output is validated, below).
    kept_typed::<ReportOutput>();
    kept_typed::<PlanOutput>();
    let mut registry = ToolRegistry::new();
    registry.register(Report).unwrap();
    registry.register(Bounded).unwrap();
    let executor = ToolExecutor::new(registry);
    // What it returns is what validation would have accepted unchanged.
    let result = block_on(executor.dispatch(&ToolCall::new("c1", "report", r#"{"score":1.5}"#)));
    let output = result.output_object().expect("a valid output").clone();
    let mut validated = output.clone();
    assert!(
        Report
            .spec()
            .output_schema()
            .unwrap()
            .validate(&mut validated)
            .is_empty()
    );
    assert_eq!(validated, output);
    // A NaN becomes `null`, which validation still refuses.
    let result = block_on(executor.dispatch(&ToolCall::new("c2", "report", "{}")));
    assert_eq!(
        result.error().map(|e| e.kind()),
        Some(agentkit_core::ErrorKind::OutputValidation)
    );
    assert!(
        result.error().unwrap().to_string().contains("score"),
        "{}",
        result.error().unwrap()
    );
    // A constraint the type does not enforce is still checked.
    let result = block_on(executor.dispatch(&ToolCall::new("c3", "bounded", "{}")));
    assert!(!result.is_success());
}

// Floats only inside a list and a dictionary: the output is still checked for non-finite
// ones, where an output without any float is not.
#[tool(
    name = "readings",
    input = [{ name = "nested", type = string }],
    output = [
        { name = "values", type = list, items = float },
        { name = "stats", type = dictionary, fields = [{ name = "mean", type = float }] },
    ],
)]
struct Readings;

impl ToolHandler for Readings {
    async fn run(
        &self,
        input: ReadingsInput,
        _: &ToolContext<'_>,
    ) -> Result<ReadingsOutput, BoxError> {
        let (values, mean) = match input.nested.as_str() {
            "list" => (vec![1.0, f64::NAN], 1.0),
            "dictionary" => (vec![1.0], f64::INFINITY),
            _ => (vec![1.0], 2.0),
        };
        Ok(ReadingsOutput {
            values,
            stats: ReadingsOutputStats { mean },
        })
    }
}

#[test]
fn a_non_finite_float_deep_in_a_typed_output_is_refused() {
    let mut registry = ToolRegistry::new();
    registry.register(Readings).unwrap();
    let executor = ToolExecutor::new(registry);
    let run = |nested: &str| {
        let call = ToolCall::new("c1", "readings", json!({ "nested": nested }).to_string());
        block_on(executor.dispatch(&call))
    };
    let fine = run("none");
    assert_eq!(
        fine.output(),
        Some(&json!({"stats": {"mean": 2.0}, "values": [1.0]}))
    );
    for nested in ["list", "dictionary"] {
        let result = run(nested);
        assert_eq!(
            result.error().map(|e| e.kind()),
            Some(agentkit_core::ErrorKind::OutputValidation),
            "{nested}: {result:?}"
        );
    }
}

#[test]
fn the_model_text_of_a_typed_output_is_the_text_of_its_object() {
    let mut registry = ToolRegistry::new();
    registry.register(Report).unwrap();
    let executor = ToolExecutor::new(registry);
    let call = ToolCall::new("c1", "report", r#"{"score":1.5}"#);
    // Written straight from the typed output (the fast path, nothing read before): fields
    // declared out of key order, an enum, a nested struct, a list, an absent optional field.
    let direct = block_on(executor.dispatch(&call)).to_model_content();
    let read_first = block_on(executor.dispatch(&call));
    let object = read_first.output().expect("a valid output").clone();
    assert_eq!(direct, serde_json::to_string(&object).unwrap());
    assert_eq!(read_first.to_model_content(), direct);
    // The object made by reference (`output()`) is the one made by taking the fields.
    let taken = block_on(executor.dispatch(&call))
        .into_result()
        .expect("a valid output");
    assert_eq!(taken, object.into());
    assert_eq!(
        direct,
        r#"{"author":{"age":40,"name":"n"},"mode":"final","score":1.5,"tags":["a"],"title":"t"}"#
    );
}

// Every kind of optional field a typed output lists by itself (a string, an integer, a
// float, a boolean, an enum), present or left out as the input says, beside a required one.
#[tool(
    name = "optionals",
    input = [{ name = "present", type = boolean }],
    output = [
        { name = "z", type = boolean },
        { name = "text", type = string, required = false },
        { name = "count", type = integer, required = false },
        { name = "ratio", type = float, required = false },
        { name = "flag", type = boolean, required = false },
        { name = "level", type = string, required = false, enum = ["low", "high"] },
    ],
)]
struct Optionals;

impl ToolHandler for Optionals {
    async fn run(
        &self,
        input: OptionalsInput,
        _: &ToolContext<'_>,
    ) -> Result<OptionalsOutput, BoxError> {
        let some = input.present;
        Ok(OptionalsOutput {
            z: some,
            text: some.then(|| "\"quoted\" é".to_owned()),
            count: some.then_some(-3),
            ratio: some.then_some(0.25),
            flag: some.then_some(false),
            level: some.then_some(OptionalsOutputLevel::High),
        })
    }
}

#[test]
fn a_typed_outputs_optional_fields_are_written_as_its_object_has_them() {
    // Kept typed: its text is written from its fields.
    kept_typed::<OptionalsOutput>();
    let mut registry = ToolRegistry::new();
    registry.register(Optionals).unwrap();
    let executor = ToolExecutor::new(registry);
    for (present, expected) in [
        (
            true,
            r#"{"count":-3,"flag":false,"level":"high","ratio":0.25,"text":"\"quoted\" é","z":true}"#,
        ),
        (false, r#"{"z":false}"#),
    ] {
        let call = ToolCall::new("c1", "optionals", json!({ "present": present }));
        // The text written from the fields, the object made by reference, and the object
        // made by taking the fields all agree.
        let direct = block_on(executor.dispatch(&call)).to_model_content();
        let read_first = block_on(executor.dispatch(&call));
        let object = read_first.output().expect("a valid output").clone();
        assert_eq!(direct, expected);
        assert_eq!(serde_json::to_string(&object).unwrap(), expected);
        let taken = block_on(executor.dispatch(&call))
            .into_result()
            .expect("a valid output");
        assert_eq!(taken, object.into());
    }
}

#[test]
fn a_hand_written_tool_gets_the_validators_arguments_from_the_single_pass() {
    let (fast, full, _) = executors(plan_by_hand());
    for text in [
        r#"{"city":"Nice"}"#,
        r#"{"city":"Nice","days":null,"origin":{"city":"Arles"},"stops":[{"city":"Aix"}]}"#,
        r#"{"city":"Nice","days":7,"units":"imperial","budget":2,"tags":["a"],"flag":true}"#,
        r#"{"city":"Nice","notes":{"any":[1,{"thing":null}]}}"#,
    ] {
        let value: Value = serde_json::from_str(text).unwrap();
        // The arguments as the validator makes them: parsed, then checked and filled.
        let expected = block_on(fast.dispatch(&ToolCall::new("c1", "plan", value)));
        let echo = expected.output().expect("valid arguments")["echo"].clone();
        let filled: Value = serde_json::from_str(echo.as_str().unwrap()).unwrap();
        assert_eq!(
            filled["days"],
            json!(if text.contains("\"days\":7") { 7 } else { 3 })
        );
        assert_eq!(
            filled["units"],
            json!(if text.contains("imperial") {
                "imperial"
            } else {
                "metric"
            })
        );
        for executor in [&fast, &full] {
            let result = block_on(executor.dispatch(&ToolCall::new("c1", "plan", text)));
            assert_eq!(result.output(), expected.output(), "{text}");
        }
    }
}
