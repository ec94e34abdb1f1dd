//! Export of tool schemas as JSON Schema: one exact form for validation, and the forms model
//! providers are sent (see `provider`).

use std::borrow::Cow;

use serde_json::{Map, Value, json};

use super::param::{Param, ToolSchema};
use crate::rules::{Number, ParamType};

impl ToolSchema {
    /// The JSON Schema that accepts exactly the argument objects [`validate`](Self::validate)
    /// accepts: for validating elsewhere, or checking a model's output offline.
    ///
    /// Optional parameters accept `null` too, since [`validate`](Self::validate) treats
    /// `null` as "absent", and integers are bounded to `i64`, as the validator refuses the
    /// rest (a declared [`minimum`](Param::with_minimum) or [`maximum`](Param::with_maximum)
    /// takes their place where it is stricter). Every constraint is a keyword, and an `enum`
    /// of an optional parameter lists `null`. Models are sent a lighter form, without the
    /// 64-bit bounds: see [`provider`](crate::provider).
    ///
    /// ```
    /// use agentkit_core::{Param, ParamType, ToolSchema};
    /// use serde_json::json;
    ///
    /// let schema = ToolSchema::new([
    ///     Param::required("city", ParamType::String).with_description("City name"),
    ///     Param::optional("days", ParamType::Integer).with_default(1),
    /// ])?;
    /// assert_eq!(schema.to_json_schema(), json!({
    ///     "type": "object",
    ///     "properties": {
    ///         "city": {"type": "string", "description": "City name"},
    ///         "days": {
    ///             "type": ["integer", "null"],
    ///             "minimum": i64::MIN,
    ///             "maximum": i64::MAX,
    ///             "default": 1,
    ///         },
    ///     },
    ///     "required": ["city"],
    ///     "additionalProperties": false,
    /// }));
    /// # Ok::<(), agentkit_core::SemanticError>(())
    /// ```
    pub fn to_json_schema(&self) -> Value {
        export(self, Style::Validation)
    }

    /// The JSON Schema for OpenAI's strict function calling: every property is listed in
    /// `required`, optional ones are nullable, and no `default` keyword is given (strict mode
    /// has none); a default is stated in the parameter's description instead ("Defaults to
    /// 5."). The 64-bit integer bounds are left out, as in every schema sent to a model; the
    /// declared constraints are kept as keywords, except string lengths, which strict mode
    /// lacks and the description states ("Between 1 and 85 characters long.").
    ///
    /// A model following it sends `null` for an optional parameter it leaves out, which
    /// [`validate`](Self::validate) treats as absent and replaces by the default.
    ///
    /// ```
    /// use agentkit_core::{Param, ParamType, ToolSchema};
    /// use serde_json::json;
    ///
    /// let schema = ToolSchema::new([
    ///     Param::required("city", ParamType::String).with_description("City name"),
    ///     Param::optional("days", ParamType::Integer).with_default(5),
    /// ])?;
    /// assert_eq!(schema.to_strict_json_schema(), json!({
    ///     "type": "object",
    ///     "properties": {
    ///         "city": {"type": "string", "description": "City name"},
    ///         "days": {"type": ["integer", "null"], "description": "Defaults to 5."},
    ///     },
    ///     "required": ["city", "days"],
    ///     "additionalProperties": false,
    /// }));
    /// # Ok::<(), agentkit_core::SemanticError>(())
    /// ```
    ///
    /// Strict mode also wants every array to say what its items are and every object to list
    /// its properties: give list parameters their [`items`](Param::with_items) and dictionary
    /// parameters their [`fields`](Param::with_fields); a free-form `dictionary` is exported as
    /// `{"type": "object"}`, which strict mode refuses.
    pub fn to_strict_json_schema(&self) -> Value {
        export(self, Style::OpenAiStrict)
    }
}

/// Which JSON Schema to export. The styles differ only where a reader needs something
/// different: a validator must accept exactly what ours accepts; a model needs to know what
/// to send, in as few tokens as the API allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Style {
    /// [`ToolSchema::to_json_schema`]: accepts exactly what the validator accepts (optional
    /// parameters nullable, integers bounded to `i64`, defaults given).
    Validation,
    /// Provider declarations without a strict mode, and Anthropic's strict tool use: optional
    /// parameters are simply not required, defaults are given, integer bounds are left out.
    Declaration,
    /// OpenAI `strict: true`: every property required, optional ones nullable, no `default`
    /// keyword (the default is stated in the description instead), no integer bounds, and
    /// string lengths stated in the description (strict mode has no `minLength` or
    /// `maxLength`).
    OpenAiStrict,
    /// Anthropic's strict tool use: as [`Declaration`](Style::Declaration), but the bounds
    /// strict mode does not take (`minimum`, `maximum`, `minLength`, `maxLength`, `maxItems`,
    /// and `minItems` above 1) are stated in the description instead.
    AnthropicStrict,
}

impl Style {
    /// Whether an optional parameter is declared nullable: the validator reads `null` as
    /// "absent"; the validation schema must say so, and OpenAI's strict mode, where every
    /// property is required, needs it to leave one out.
    fn nullable_optionals(self) -> bool {
        matches!(self, Style::Validation | Style::OpenAiStrict)
    }

    /// Whether a schema of this style can carry the keyword of the constraint `key` with
    /// this value; the others are stated in the description.
    fn expresses(self, key: &str, count: Option<usize>) -> bool {
        match self {
            Style::Validation | Style::Declaration => true,
            Style::OpenAiStrict => !matches!(key, "min_length" | "max_length"),
            Style::AnthropicStrict => match key {
                "enum" => true,
                "min_items" => count.is_some_and(|n| n <= 1),
                _ => false,
            },
        }
    }
}

/// The validator refuses integers outside `i64`; the bounds say so, so that the exported
/// schema accepts exactly what the validator accepts. Models are not sent them: they cost
/// some sixty characters per integer and tell the model nothing it would act on.
fn bound_integers(property: &mut Map<String, Value>, ty: ParamType, style: Style) {
    if ty == ParamType::Integer && style == Style::Validation {
        property.insert("minimum".into(), Value::from(i64::MIN));
        property.insert("maximum".into(), Value::from(i64::MAX));
    }
}

/// `description` followed by "Defaults to <value>.", for schemas that cannot carry a
/// `default` keyword: the model still learns what leaving the parameter out (sending `null`)
/// means.
pub(crate) fn describe_default(description: &str, default: &Value) -> String {
    append_sentence(description, &format!("Defaults to {default}."))
}

/// `description` followed by `sentence`, with a full stop between them where needed.
pub(crate) fn append_sentence(description: &str, sentence: &str) -> String {
    let sentence = sentence.to_owned();
    let description = description.trim_end();
    match description.chars().last() {
        None => sentence,
        Some('.' | '!' | '?') => format!("{description} {sentence}"),
        Some(_) => format!("{description}. {sentence}"),
    }
}

/// "Between 1 and 50." (or "At least 1.", "At most 50."), with a unit when one is given.
pub(crate) fn range_sentence<T: std::fmt::Display>(
    min: Option<T>,
    max: Option<T>,
    unit: Option<(&str, &str)>,
) -> Option<String> {
    let plural = |n: &T| match unit {
        Some((one, _)) if n.to_string() == "1" => format!(" {one}"),
        Some((_, many)) => format!(" {many}"),
        None => String::new(),
    };
    Some(match (min, max) {
        (Some(min), Some(max)) => format!("Between {min} and {max}{}.", plural(&max)),
        (Some(min), None) => format!("At least {min}{}.", plural(&min)),
        (None, Some(max)) => format!("At most {max}{}.", plural(&max)),
        (None, None) => return None,
    })
}

/// Puts the parameter's constraints on `property`: as keywords where `style` takes them,
/// else as sentences returned for its description. The executor validates them either way.
fn constrain(
    property: &mut Map<String, Value>,
    param: &Param,
    style: Style,
    nullable: bool,
) -> Vec<String> {
    let mut sentences = Vec::new();
    if let Some(values) = param.enum_values() {
        let mut values: Vec<Value> = values.iter().map(|v| v.to_value()).collect();
        // `null` is accepted (as "absent") wherever the type says so.
        if nullable {
            values.push(Value::Null);
        }
        property.insert("enum".into(), Value::Array(values));
    }
    let number = |n: Number| n.to_literal().to_value();
    let (min, max) = (param.minimum(), param.maximum());
    if style.expresses("minimum", None) {
        // The validation schema already bounds integers to `i64`: keep the stricter bound.
        let bounded = style == Style::Validation && param.param_type() == ParamType::Integer;
        let (lowest, highest) = (Number::Integer(i64::MIN), Number::Integer(i64::MAX));
        if let Some(min) = min
            && !(bounded && min.compare(lowest) == Some(std::cmp::Ordering::Less))
        {
            property.insert("minimum".into(), number(min));
        }
        if let Some(max) = max
            && !(bounded && max.compare(highest) == Some(std::cmp::Ordering::Greater))
        {
            property.insert("maximum".into(), number(max));
        }
    } else {
        sentences.extend(range_sentence(min, max, None));
    }
    let mut counts =
        |min_key: &str, max_key: &str, min: Option<usize>, max: Option<usize>, unit| {
            let (min_kw, max_kw) = (
                if min_key == "min_length" {
                    "minLength"
                } else {
                    "minItems"
                },
                if max_key == "max_length" {
                    "maxLength"
                } else {
                    "maxItems"
                },
            );
            let min_here = min.filter(|n| style.expresses(min_key, Some(*n)));
            let max_here = max.filter(|n| style.expresses(max_key, Some(*n)));
            if let Some(n) = min_here {
                property.insert(min_kw.into(), Value::from(n));
            }
            if let Some(n) = max_here {
                property.insert(max_kw.into(), Value::from(n));
            }
            let said_min = min.filter(|_| min_here.is_none());
            let said_max = max.filter(|_| max_here.is_none());
            // A sentence states both bounds when either cannot be a keyword, so the model reads
            // the range whole.
            if said_min.is_some() || said_max.is_some() {
                sentences.extend(range_sentence(min, max, Some(unit)));
            }
        };
    counts(
        "min_length",
        "max_length",
        param.min_length(),
        param.max_length(),
        ("character long", "characters long"),
    );
    counts(
        "min_items",
        "max_items",
        param.min_items(),
        param.max_items(),
        ("item", "items"),
    );
    sentences
}

pub(crate) fn export(schema: &ToolSchema, style: Style) -> Value {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for param in schema.parameters() {
        let ty = param.param_type().json_schema_type();
        // A dictionary with declared fields is a nested object schema; the keywords below
        // (type, description, default) go on top of it.
        let mut property = match (param.fields(), param.param_type()) {
            (Some(fields), ParamType::Dictionary) => match export(fields, style) {
                Value::Object(object) => object,
                _ => Map::new(),
            },
            _ => Map::new(),
        };
        // An optional parameter accepts `null`: the validator reads it as "absent". The
        // validation schema must say so, and OpenAI's strict mode, where every property is
        // required, needs it to leave one out. Other declarations just leave it unrequired.
        let nullable = !param.is_required() && style.nullable_optionals();
        let ty = if nullable {
            json!([ty, "null"])
        } else {
            Value::from(ty)
        };
        property.insert("type".into(), ty);
        bound_integers(&mut property, param.param_type(), style);
        if let Some(items) = param.items() {
            let item = match (param.fields(), items) {
                (Some(fields), ParamType::Dictionary) => export(fields, style),
                _ => {
                    let mut item = Map::new();
                    item.insert("type".into(), Value::from(items.json_schema_type()));
                    bound_integers(&mut item, items, style);
                    Value::Object(item)
                }
            };
            property.insert("items".into(), item);
        }
        let sentences = if param.constraints().is_empty() {
            Vec::new()
        } else {
            constrain(&mut property, param, style, nullable)
        };
        let mut description = Cow::Borrowed(param.description());
        for sentence in &sentences {
            description = Cow::Owned(append_sentence(&description, sentence));
        }
        let default = param.default_value().map(|d| d.to_value());
        match (&default, style) {
            (Some(default), Style::OpenAiStrict) => {
                let description = describe_default(&description, default);
                property.insert("description".into(), Value::from(description));
            }
            _ if !description.is_empty() => {
                property.insert("description".into(), Value::from(description.into_owned()));
            }
            _ => {}
        }
        if let (Some(default), Style::Validation | Style::Declaration | Style::AnthropicStrict) =
            (default, style)
        {
            property.insert("default".into(), default);
        }
        if param.is_required() || style == Style::OpenAiStrict {
            required.push(Value::from(param.name()));
        }
        properties.insert(param.name().to_owned(), Value::Object(property));
    }
    json!({
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_appended_as_a_sentence() {
        assert_eq!(describe_default("", &json!(5)), "Defaults to 5.");
        assert_eq!(
            describe_default("Days ahead", &json!(5)),
            "Days ahead. Defaults to 5."
        );
        assert_eq!(
            describe_default("Days ahead. ", &json!("US")),
            "Days ahead. Defaults to \"US\"."
        );
        assert_eq!(
            describe_default("Which units?", &json!(["a"])),
            "Which units? Defaults to [\"a\"]."
        );
    }
}
