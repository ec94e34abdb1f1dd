//! A spec's input examples: how they are kept (JSON objects, or `#[tool(...)]`'s `static`
//! literals made objects once), and how they are checked, by the validator the executor runs
//! on arguments, each problem worded by the shared rules.

use std::fmt;
use std::sync::OnceLock;

use serde_json::Value;

use crate::rules::{self, ExampleIssue, Literal, Problem};
use crate::schema::{IssueKind, JsonObject, SemanticProblem, ToolSchema, ValidationIssue};

/// The input examples of a spec, as written.
pub(super) struct Examples {
    /// `#[tool(...)]`'s examples, each a `static` dictionary literal.
    literals: &'static [Literal],
    /// The examples as JSON objects: given at run time, or made from `literals` when first
    /// read, so that a spec in `static` data costs nothing until they are asked for.
    objects: OnceLock<Vec<JsonObject>>,
    /// Whether the examples have been checked against the input schema: by the compiler, or
    /// by [`ToolSpecBuilder::build`](super::ToolSpecBuilder::build). Not for
    /// `#[tool(input = Type, examples = [...])]`, whose parameters the macro cannot see: the
    /// registry checks those.
    checked: bool,
}

impl Examples {
    /// No example.
    pub(super) const fn none() -> Self {
        Examples::from_static(&[], true)
    }

    /// `#[tool(...)]`'s examples.
    pub(super) const fn from_static(literals: &'static [Literal], checked: bool) -> Self {
        Examples {
            literals,
            objects: OnceLock::new(),
            checked,
        }
    }

    /// Examples given at run time, checked by the caller.
    pub(super) fn from_objects(objects: Vec<JsonObject>) -> Self {
        Examples {
            literals: &[],
            objects: OnceLock::from(objects),
            checked: true,
        }
    }

    /// The examples as JSON objects.
    pub(super) fn get(&self) -> &[JsonObject] {
        if self.literals.is_empty() {
            return self.objects.get().map_or(&[], Vec::as_slice);
        }
        self.objects.get_or_init(|| {
            self.literals
                .iter()
                .filter_map(|literal| match literal.to_value() {
                    Value::Object(object) => Some(object),
                    // The macro writes only dictionaries.
                    _ => None,
                })
                .collect()
        })
    }

    /// Whether the examples still need checking against the input schema.
    pub(super) fn unchecked(&self) -> bool {
        !self.checked
    }
}

impl Clone for Examples {
    fn clone(&self) -> Self {
        Examples {
            literals: self.literals,
            objects: self.objects.clone(),
            checked: self.checked,
        }
    }
}

/// Examples are equal when they are the same objects, however they are kept.
impl PartialEq for Examples {
    fn eq(&self, other: &Self) -> bool {
        self.get() == other.get()
    }
}

impl fmt::Debug for Examples {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.get()).finish()
    }
}

/// Every problem of `examples` against `schema` (`None`: any object is an example): too many,
/// too long, or refused by validation, each worded by the shared rules.
pub(super) fn problems(
    examples: &[JsonObject],
    schema: Option<&ToolSchema>,
    json: Option<&crate::JsonSchema>,
) -> Vec<SemanticProblem> {
    let mut problems = Vec::new();
    let mut push = |problem| problems.push(SemanticProblem::new(String::new(), problem));
    if let Err(problem) = rules::check_example_count(examples.len()) {
        push(problem);
    }
    for (index, example) in examples.iter().enumerate() {
        let bytes = serde_json::to_vec(example).map_or(usize::MAX, |text| text.len());
        if let Err(problem) = rules::check_example_size(index, bytes) {
            push(problem);
            // Too long to send, it is not worth validating too.
            continue;
        }
        // Validated as the executor validates arguments; the example is kept as written,
        // without the defaults validation fills in.
        let issues = match (schema, json) {
            (Some(schema), _) => schema.validate(&mut example.clone()),
            (None, Some(json)) => json.validate(&mut serde_json::Value::Object(example.clone())),
            (None, None) => continue,
        };
        let found: Vec<Problem> = issues
            .iter()
            .filter_map(example_issue)
            .map(|issue| Problem::InvalidExample { index, issue })
            .collect();
        // As the compiler reports them: a parameter left missing by a typo is the typo.
        let implied = rules::implied_by_typos(&found);
        for (problem, implied) in found.into_iter().zip(implied) {
            if !implied {
                push(problem);
            }
        }
    }
    problems
}

/// What a validation issue says of an example, in the words of the shared rules (which
/// `#[tool(...)]` words its compile errors with); `None` for the issues of argument text,
/// which an object never has.
fn example_issue(issue: &ValidationIssue) -> Option<ExampleIssue> {
    let at = issue.param().unwrap_or_default().to_owned();
    // A JSON Schema's issue: its keyword, and its words after the name.
    if issue.keyword().is_some() {
        return Some(schema_issue(issue, at));
    }
    Some(match issue.kind() {
        IssueKind::MissingParameter => ExampleIssue::Missing { at },
        IssueKind::UnknownParameter => ExampleIssue::Unknown {
            at,
            suggestion: issue.suggestion().map(str::to_owned),
        },
        IssueKind::WrongType => ExampleIssue::WrongType {
            at,
            expected: issue.expected()?,
            got: issue.got()?,
        },
        IssueKind::OutOfRange => ExampleIssue::OutOfRange { at },
        IssueKind::DuplicateKey => ExampleIssue::DuplicateKey { at },
        IssueKind::NotInEnum
        | IssueKind::BelowMinimum
        | IssueKind::AboveMaximum
        | IssueKind::TooShort
        | IssueKind::TooLong => {
            let (key, message) = issue.constraint_words()?;
            ExampleIssue::BreaksConstraint { at, key, message }
        }
        IssueKind::InvalidJson | IssueKind::NotAnObject => return None,
        // What only a JSON Schema reports.
        _ => schema_issue(issue, at),
    })
}

/// An issue of a JSON Schema, in the words validation gives it after the name.
fn schema_issue(issue: &ValidationIssue, at: String) -> ExampleIssue {
    let text = issue.to_string();
    let message = text
        .split_once(": ")
        .map_or(text.as_str(), |(_, rest)| rest)
        .to_owned();
    ExampleIssue::BreaksConstraint {
        at,
        key: "schema",
        message,
    }
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use proptest::prelude::*;
    use serde_json::json;

    use super::*;
    use crate::rules::ParamType;
    use crate::schema::Param;

    /// A schema with every shape and constraint an example can meet.
    fn schema() -> ToolSchema {
        let stop = ToolSchema::new([
            Param::required("city", ParamType::String).with_min_length(1),
            Param::optional("nights", ParamType::Integer)
                .with_default(1)
                .with_minimum(1),
        ])
        .unwrap();
        let origin = ToolSchema::new([
            Param::required("city", ParamType::String),
            Param::optional("country", ParamType::String).with_default("US"),
        ])
        .unwrap();
        ToolSchema::new([
            Param::required("city", ParamType::String).with_max_length(8),
            Param::optional("units", ParamType::String).with_enum(["metric", "imperial"]),
            Param::optional("days", ParamType::Integer)
                .with_minimum(1)
                .with_maximum(7),
            Param::optional("scale", ParamType::Float).with_maximum(0.5),
            Param::optional("exact", ParamType::Boolean),
            Param::optional("tags", ParamType::List)
                .with_items(ParamType::String)
                .with_max_items(2),
            Param::optional("origin", ParamType::Dictionary).with_fields(origin),
            Param::optional("stops", ParamType::List)
                .with_items(ParamType::Dictionary)
                .with_fields(stop),
            Param::optional("extra", ParamType::Dictionary),
        ])
        .unwrap()
    }

    /// What the compiler says of `example`, by the shared rules.
    fn at_compile_time(index: usize, example: &JsonObject) -> Vec<Problem> {
        let schema = schema();
        let decls: Vec<_> = schema.parameters().iter().map(Param::decl).collect();
        let Literal::Dictionary(entries) = Literal::from(Value::Object(example.clone())) else {
            unreachable!("an object is a dictionary")
        };
        rules::check_example(index, Some(&decls), &entries)
            .into_iter()
            .map(|p| p.problem)
            .collect()
    }

    /// What a spec built at run time says of `example`, by the validator.
    fn at_run_time(index: usize, example: &JsonObject) -> Vec<Problem> {
        // Good examples before it, so that it is example `index`.
        let good = json!({"city": "Lyon"}).as_object().cloned().unwrap();
        let mut examples = vec![good; index];
        examples.push(example.clone());
        problems(&examples, Some(&schema()), None)
            .into_iter()
            .map(|p| p.problem().clone())
            .collect()
    }

    #[test]
    fn the_rules_and_the_validator_word_an_example_alike() {
        let example = json!({
            "ctiy": "Paris",
            "units": "kelvin",
            "days": 9,
            "scale": 0.75,
            "exact": "yes",
            "tags": ["a", 2, "c"],
            "origin": {"country": 1},
            "stops": [{"city": "", "nights": 0, "pet": true}],
        });
        let example = example.as_object().unwrap();
        let words: Vec<String> = at_run_time(1, example)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            words,
            [
                "input example 1: parameter 'units': the value must be one of 'metric', \
                 'imperial', got 'kelvin'",
                "input example 1: parameter 'days': the value must be at most 7, got 9",
                "input example 1: parameter 'scale': the value must be at most 0.5, got 0.75",
                "input example 1: parameter 'exact': a value of type 'string' does not fit the \
                 declared type 'boolean'",
                "input example 1: parameter 'tags': the value must have at most 2 items, got 3",
                "input example 1: parameter 'tags[1]': a value of type 'integer' does not fit \
                 the declared type 'string'",
                "input example 1: missing required parameter 'origin.city'",
                "input example 1: parameter 'origin.country': a value of type 'integer' does \
                 not fit the declared type 'string'",
                "input example 1: parameter 'stops[0].city': the value must be at least 1 \
                 character long, got 0",
                "input example 1: parameter 'stops[0].nights': the value must be at least 1, \
                 got 0",
                "input example 1: unknown parameter 'stops[0].pet': the tool does not declare it",
                "input example 1: unknown parameter 'ctiy'; did you mean 'city'?",
            ]
        );
        assert_eq!(at_compile_time(1, example), at_run_time(1, example));
    }

    #[test]
    fn examples_are_bounded_and_kept_as_written() {
        let city = json!({"city": "Lyon"}).as_object().cloned().unwrap();
        let many = vec![city.clone(); rules::MAX_EXAMPLES + 1];
        let found = problems(&many, None, None);
        assert_eq!(
            found
                .iter()
                .map(|p| p.problem().clone())
                .collect::<Vec<_>>(),
            [Problem::TooManyExamples { count: 11 }]
        );
        let long = json!({"city": "x".repeat(rules::MAX_EXAMPLE_BYTES)});
        let found = problems(&[long.as_object().cloned().unwrap()], Some(&schema()), None);
        // Too long, and not validated too (its city is longer than `max_length` as well).
        assert_eq!(
            found
                .iter()
                .map(|p| p.problem().clone())
                .collect::<Vec<_>>(),
            [Problem::ExampleTooLarge {
                index: 0,
                bytes: rules::MAX_EXAMPLE_BYTES + 11
            }]
        );
        // `#[tool(...)]`'s literals are the same objects, made once.
        static LITERALS: [Literal; 1] = [Literal::Dictionary(Cow::Borrowed(&[(
            Cow::Borrowed("city"),
            Literal::String(Cow::Borrowed("Lyon")),
        )]))];
        let from_static = Examples::from_static(&LITERALS, true);
        assert_eq!(from_static, Examples::from_objects(vec![city.clone()]));
        assert!(std::ptr::eq(from_static.get(), from_static.get()));
        assert_eq!(format!("{from_static:?}"), format!("[{city:?}]"));
    }

    /// A value of any kind, shallow or nested, but never an integer outside `i64`, which only
    /// the rules refuse (validation takes one where a float or anything is allowed).
    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            (-3_i64..12).prop_map(Value::from),
            prop_oneof![Just(0.25), Just(0.75), Just(2.0), Just(-1.5)].prop_map(Value::from),
            prop_oneof![
                Just(""),
                Just("metric"),
                Just("kelvin"),
                Just("Lyon"),
                Just("Marseille")
            ]
            .prop_map(Value::from),
        ];
        leaf.prop_recursive(3, 16, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::btree_map(key(), inner, 0..4)
                    .prop_map(|map| Value::Object(map.into_iter().collect())),
            ]
        })
    }

    /// The declared names (at any depth), and a few that are not.
    fn key() -> impl Strategy<Value = String> {
        prop::sample::select(vec![
            "city", "units", "days", "scale", "exact", "tags", "origin", "stops", "extra",
            "country", "nights", "ctiy", "pet",
        ])
        .prop_map(str::to_owned)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// The compiler's check of an example (the shared rules) and a spec's check of it
        /// (the validator) find the same problems, in the same order and words.
        #[test]
        fn the_compiler_and_the_run_time_agree(
            example in prop::collection::btree_map(key(), value(), 0..6),
            index in 0_usize..3,
        ) {
            let example: JsonObject = example.into_iter().collect();
            prop_assert_eq!(at_compile_time(index, &example), at_run_time(index, &example));
        }
    }
}
