//! The sentences a lowered schema's descriptions carry for the keywords its target cannot
//! take ("At least 3 characters long.", "Matches the regular expression `^[a-z]+$`."), in the
//! words the six-type export already uses for defaults and bounds.

use serde_json::{Map, Value};

use crate::schema::json_schema::{append_sentence, range_sentence};

/// The most characters of a JSON value (a pattern, a schema, an enum value) quoted in a
/// sentence: a description stays short whatever the schema holds.
const QUOTED: usize = 160;

/// The most values of an `enum` listed in a sentence.
const LISTED: usize = 24;

/// `description` followed by `sentence`, with a full stop between them where needed.
pub(super) fn append(description: &str, sentence: &str) -> String {
    append_sentence(description, sentence)
}

/// `value` as compact JSON, cut to [`QUOTED`] characters (with "…").
pub(super) fn literal(value: &Value) -> String {
    let text = value.to_string();
    bounded(&text)
}

/// `text` cut to [`QUOTED`] characters (with "…").
fn bounded(text: &str) -> String {
    match text.char_indices().nth(QUOTED) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

/// "One of: "a", "b"." for an `enum` a target cannot take as a keyword.
pub(super) fn one_of(values: &[Value]) -> String {
    let mut listed: Vec<String> = values.iter().take(LISTED).map(literal).collect();
    if values.len() > LISTED {
        listed.push(format!("and {} more", values.len() - LISTED));
    }
    format!("One of: {}.", listed.join(", "))
}

fn number(value: Option<&Value>) -> Option<String> {
    value.filter(|v| v.is_number()).map(Value::to_string)
}

fn count(value: Option<&Value>) -> Option<u64> {
    value.and_then(Value::as_u64)
}

/// The sentences stating the keywords of `schema` named in `dropped`, in a fixed order: the
/// bounds of a kind together ("Between 1 and 5 items."), then each other keyword.
pub(super) fn state(schema: &Map<String, Value>, dropped: &[&str]) -> Vec<String> {
    let has = |key: &str| dropped.contains(&key);
    let get = |key: &str| if has(key) { schema.get(key) } else { None };
    let mut sentences = Vec::new();
    let (min, max) = (number(get("minimum")), number(get("maximum")));
    sentences.extend(range_sentence(min, max, None));
    if let Some(n) = number(get("exclusiveMinimum")) {
        sentences.push(format!("Greater than {n}."));
    }
    if let Some(n) = number(get("exclusiveMaximum")) {
        sentences.push(format!("Less than {n}."));
    }
    if let Some(n) = number(get("multipleOf")) {
        sentences.push(format!("A multiple of {n}."));
    }
    let units = [
        (
            "minLength",
            "maxLength",
            ("character long", "characters long"),
        ),
        ("minItems", "maxItems", ("item", "items")),
        ("minProperties", "maxProperties", ("key", "keys")),
    ];
    for (min_key, max_key, (one, many)) in units {
        match (count(get(min_key)), count(get(max_key))) {
            (Some(min), Some(max)) if min == max => {
                let unit = if min == 1 { one } else { many };
                sentences.push(format!("Exactly {min} {unit}."));
            }
            (min, max) => sentences.extend(range_sentence(min, max, Some((one, many)))),
        }
    }
    if let Some(Value::String(pattern)) = get("pattern") {
        sentences.push(format!(
            "Matches the regular expression `{}`.",
            bounded(pattern)
        ));
    }
    if let Some(Value::String(format)) = get("format") {
        sentences.push(format!("Format: {}.", bounded(format)));
    }
    if get("uniqueItems") == Some(&Value::Bool(true)) {
        sentences.push("The items are all different.".to_owned());
    }
    if let Some(Value::Array(values)) = get("enum") {
        sentences.push(one_of(values));
    }
    if let Some(value) = get("const") {
        sentences.push(format!("Always {}.", literal(value)));
    }
    if let Some(Value::Object(rules)) = get("dependentRequired") {
        for (key, names) in rules {
            sentences.push(format!(
                "When '{}' is given, so are {}.",
                bounded(key),
                literal(names)
            ));
        }
    }
    if let Some(value) = get("not") {
        sentences.push(format!("Must not match {}.", literal(value)));
    }
    if let Some(value) = get("if") {
        let mut sentence = format!("If it matches {}", literal(value));
        if let Some(then) = schema.get("then") {
            sentence.push_str(&format!(", it must match {}", literal(then)));
        }
        if let Some(otherwise) = schema.get("else") {
            sentence.push_str(&format!("; otherwise it must match {}", literal(otherwise)));
        }
        sentence.push('.');
        sentences.push(sentence);
    }
    if let Some(value) = get("patternProperties") {
        sentences.push(format!("Keys matching a pattern take: {}.", literal(value)));
    }
    if let Some(value) = get("additionalProperties") {
        match value {
            Value::Bool(true) => sentences.push("Other keys are allowed.".to_owned()),
            other => sentences.push(format!("Other keys take: {}.", literal(other))),
        }
    }
    for key in [
        "propertyNames",
        "contains",
        "minContains",
        "maxContains",
        "dependentSchemas",
        "dependencies",
        "unevaluatedProperties",
        "unevaluatedItems",
        "additionalItems",
    ] {
        if let Some(value) = get(key) {
            sentences.push(format!("Also `{key}`: {}.", literal(value)));
        }
    }
    sentences
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn bounds_of_a_kind_read_together() {
        let schema = json!({"minLength": 1, "maxLength": 5, "minimum": 0, "pattern": "^a$",
                            "format": "email", "enum": [1, 2]});
        let schema = schema.as_object().unwrap();
        assert_eq!(
            state(
                schema,
                &[
                    "minLength",
                    "maxLength",
                    "minimum",
                    "pattern",
                    "format",
                    "enum"
                ]
            ),
            [
                "At least 0.",
                "Between 1 and 5 characters long.",
                "Matches the regular expression `^a$`.",
                "Format: email.",
                "One of: 1, 2.",
            ]
        );
        assert!(state(schema, &[]).is_empty());
    }

    #[test]
    fn quoted_values_are_bounded() {
        let long = Value::from("x".repeat(10_000));
        assert!(literal(&long).chars().count() <= QUOTED + 1);
        let many: Vec<Value> = (0..1000).map(Value::from).collect();
        assert!(one_of(&many).ends_with("and 976 more."));
    }
}
