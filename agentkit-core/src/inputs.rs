//! The single pass: a call's argument text straight into the slots of its parameters, each
//! value checked by the validator's rules on the way, defaults filled; then into what the tool
//! runs on ([`Inputs`]): its own typed input, or a JSON object. What the pass cannot decide
//! (invalid JSON, a key given twice, an undeclared argument) it leaves to the full path: the
//! argument text parsed to an object (`arguments`) and validated (`schema`).

use serde_json::Value;

use crate::schema::{Issues, JsonObject, Param, ToolSchema, UnknownArguments};

/// How many parameters the typed fast path keeps on the stack; more take one allocation.
const INLINE_SLOTS: usize = 8;

/// A tool's own input struct, its type erased between the parse and the run.
pub(crate) type AnyInput = Box<dyn std::any::Any + Send>;

/// What the single pass made of a call's argument text. Not public API.
#[doc(hidden)]
pub enum Parsed {
    /// The tool's own input, validated, defaults filled.
    Input(AnyInput),
    /// The arguments as the JSON object the full path would make: validated, defaults filled.
    Object(JsonObject),
    /// The issues validation finds in the arguments, as the full path would report them.
    Invalid(InvalidArguments),
    /// Nothing: the full path runs (invalid JSON, a repeated or undeclared key, or a tool
    /// without an input schema).
    Unparsed,
}

/// The issues of [`Parsed::Invalid`]. Not public API.
#[doc(hidden)]
pub struct InvalidArguments(
    pub(crate) Issues,
    /// The arguments as far as they got, where they are wanted as JSON: what the full path
    /// would have, invalid values and filled defaults included.
    pub(crate) Option<JsonObject>,
);

/// The same single pass for any tool with an input schema, to a JSON object rather than a
/// tool's own input: what the executor runs on where the arguments are wanted as JSON (a
/// tool written by hand or loaded at run time, an observer to show them to, an approval
/// request to carry them). Next to parsing the text to an object and validating that, it
/// looks no key up in the object. Arguments it finds invalid it makes an object of only
/// `if invalid_object` (for the observers of the failure).
pub(crate) fn parse_object(
    schema: Option<&ToolSchema>,
    text: &str,
    unknown: UnknownArguments,
    max_issues: usize,
    invalid_object: bool,
) -> Parsed {
    let params = schema.map_or(&[][..], ToolSchema::parameters);
    parse_into(
        schema,
        text,
        unknown,
        max_issues,
        invalid_object,
        &mut |slots| Parsed::Object(object_of(params, slots)),
    )
}

/// The object of the arguments in `slots`, one per parameter of `params`.
fn object_of(params: &[Param], slots: &mut [Option<Value>]) -> JsonObject {
    let mut object = JsonObject::new();
    for (param, slot) in params.iter().zip(slots) {
        if let Some(value) = slot.take() {
            object.insert(param.name().to_owned(), value);
        }
    }
    object
}

/// The work of [`parse_typed`] and [`parse_object`]: parse, validate and fill the slots, then
/// `build` makes what the tool runs on from valid ones. Invalid ones come with their object
/// `if invalid_object`.
pub(crate) fn parse_into(
    schema: Option<&ToolSchema>,
    text: &str,
    unknown: UnknownArguments,
    max_issues: usize,
    invalid_object: bool,
    build: &mut dyn FnMut(&mut [Option<Value>]) -> Parsed,
) -> Parsed {
    let Some(schema) = schema else {
        return Parsed::Unparsed;
    };
    let params = schema.parameters();
    let mut inline: [Option<Value>; INLINE_SLOTS] = Default::default();
    let mut spilled: Vec<Option<Value>>;
    let slots: &mut [Option<Value>] = if params.len() <= INLINE_SLOTS {
        &mut inline[..params.len()]
    } else {
        spilled = vec![None; params.len()];
        &mut spilled
    };
    if !crate::arguments::parse_into_slots(text, params, slots) {
        return Parsed::Unparsed;
    }
    let mut issues = Issues::with_cap(max_issues);
    schema.validate_slots(slots, unknown, &mut issues);
    if !issues.is_empty() {
        let object = invalid_object.then(|| object_of(params, slots));
        return Parsed::Invalid(InvalidArguments(issues, object));
    }
    build(slots)
}

/// What a tool runs on: validated JSON, or the input [`parse_typed`] made. Not public API.
#[doc(hidden)]
pub enum Inputs<'a> {
    /// Validated arguments, as JSON.
    Json(&'a JsonObject),
    /// The tool's own input, from [`parse_typed`].
    Parsed(AnyInput),
}
