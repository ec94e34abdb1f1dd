//! A tool's output as the executor carries it: a JSON value (an object, or any value for a
//! tool that declares such an output), the typed output of a `#[tool]` tool, made JSON only
//! when something asks for it, or content parts.
//!
//! A `#[tool]` output struct whose types guarantee its schema (it implements the hidden
//! `TypedOutput`) needs no validation, so on the executor's fast path nothing needs it as JSON
//! until the caller reads [`ToolResult::output`](crate::ToolResult::output) or the model text:
//! building the map (a node and a key per field) is left until then, and skipped when nobody
//! asks.

use std::sync::OnceLock;

use serde_json::Value;

use crate::content::{Content, ToolOutput};
use crate::schema::JsonObject;

mod finite;
mod typed;

pub use typed::{Lazy, OutputFields, OutputValue, TypedOutput};

/// What a tool returned. Not public API.
#[doc(hidden)]
pub enum Returned {
    /// A JSON value (an object, unless the tool declares another output), to validate against
    /// the output schema where one is declared.
    Json(Value),
    /// A typed output that fits the schema by construction, made JSON on first use.
    Typed(Box<Lazy<dyn TypedOutput>>),
    /// Content parts, with structured output or without: the rare case, kept out of line.
    Output(Box<ToolOutput>),
}

impl Returned {
    /// The structured output (made JSON now, for a typed one); `None` for content parts
    /// alone.
    pub fn structured(&self) -> Option<&Value> {
        match self {
            Returned::Json(json) => Some(json),
            Returned::Typed(typed) => Some(typed.as_json()),
            Returned::Output(output) => output.structured(),
        }
    }

    /// The content parts (none for structured output alone).
    pub fn content(&self) -> &[Content] {
        match self {
            Returned::Output(output) => output.content(),
            Returned::Json(_) | Returned::Typed(_) => &[],
        }
    }

    /// The parts for the application alone (see [`ToolOutput::with_app_part`]).
    pub fn app_content(&self) -> &[Content] {
        match self {
            Returned::Output(output) => output.app_content(),
            Returned::Json(_) | Returned::Typed(_) => &[],
        }
    }

    /// The structured output as JSON text. A typed output is written straight from its
    /// fields, which `#[tool]` serializes in key order, as the object's map keeps them; where
    /// the map keeps insertion order instead (serde_json's `preserve_order`), from the object.
    pub(crate) fn to_json_text(&self) -> Option<String> {
        let direct = match self {
            Returned::Typed(typed) if map_keys_are_sorted() => typed.write_json(),
            _ => None,
        };
        direct.or_else(|| {
            let json = self.structured()?;
            Some(serde_json::to_string(json).unwrap_or_else(|_| "null".to_owned()))
        })
    }

    /// The output, taking it.
    pub fn into_output(self) -> ToolOutput {
        match self {
            Returned::Json(json) => ToolOutput::structured_only(json),
            Returned::Typed(mut typed) => ToolOutput::structured_only(typed.take_json()),
            Returned::Output(output) => *output,
        }
    }
}

impl From<ToolOutput> for Returned {
    fn from(mut output: ToolOutput) -> Self {
        // Structured output alone travels as it always has.
        if output.is_structured_only()
            && let Some(structured) = output.take_structured()
        {
            return Returned::Json(structured);
        }
        Returned::Output(Box::new(output))
    }
}

/// Whether [`JsonObject`] iterates its keys in order (a `BTreeMap`), as it does unless a crate
/// in the build turns on serde_json's `preserve_order`.
fn map_keys_are_sorted() -> bool {
    static SORTED: OnceLock<bool> = OnceLock::new();
    *SORTED.get_or_init(|| {
        let mut probe = JsonObject::new();
        probe.insert("b".into(), serde_json::Value::Null);
        probe.insert("a".into(), serde_json::Value::Null);
        probe.keys().next().map(String::as_str) == Some("a")
    })
}
