//! [`SchemaError`]: why a JSON Schema was refused, every problem with where it is.

use std::fmt;

/// A JSON Schema that agentkit will not validate against, with every problem found in it: a
/// keyword whose value JSON Schema does not allow, a `pattern` that does not compile, a `$ref`
/// to nothing or to a document that was not given, a limit of [`SchemaLimits`] passed.
///
/// A tool is never registered with a schema the validator cannot take: its spec does not
/// build, and an MCP server's tool with such a schema is refused with this as the reason.
///
/// ```
/// use agentkit_core::JsonSchema;
/// use serde_json::json;
///
/// let error = JsonSchema::new(json!({
///     "type": "object",
///     "properties": {"code": {"type": "strnig", "pattern": "(unclosed"}},
/// }))
/// .unwrap_err();
/// assert_eq!(error.problems().len(), 2);
/// assert_eq!(error.problems()[0].location(), "/properties/code/pattern");
/// ```
///
/// [`SchemaLimits`]: crate::SchemaLimits
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct SchemaError {
    problems: Vec<SchemaProblem>,
}

/// One problem of a [`SchemaError`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaProblem {
    location: String,
    message: String,
}

impl SchemaProblem {
    /// Where the problem is: a JSON pointer into the schema (`""` for its root).
    pub fn location(&self) -> &str {
        &self.location
    }

    /// What is wrong there.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for SchemaProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let location = if self.location.is_empty() {
            "the root"
        } else {
            &self.location
        };
        write!(
            f,
            "at '{}': {}",
            crate::model_text::EscapedText(location, 200),
            crate::model_text::EscapedText(&self.message, 1000)
        )
    }
}

impl SchemaError {
    /// Every problem found, in the order of the schema.
    pub fn problems(&self) -> &[SchemaProblem] {
        &self.problems
    }

    /// A schema given as text that is not JSON.
    pub(crate) fn not_json(error: &serde_json::Error) -> SchemaError {
        SchemaError {
            problems: vec![SchemaProblem {
                location: String::new(),
                message: format!("the schema is not JSON: {error}"),
            }],
        }
    }
}

/// How many problems [`SchemaError`]'s `Display` lists.
const SHOWN: usize = 5;

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid JSON Schema")?;
        for (i, problem) in self.problems.iter().take(SHOWN).enumerate() {
            f.write_str(if i == 0 { ": " } else { "; " })?;
            write!(f, "{problem}")?;
        }
        if self.problems.len() > SHOWN {
            write!(f, "; and {} more", self.problems.len() - SHOWN)?;
        }
        Ok(())
    }
}

/// The problems found while a schema is compiled.
#[derive(Debug, Default)]
pub(super) struct Problems(Vec<SchemaProblem>);

/// More problems than anyone reads: a hostile schema with a million bad keywords costs a
/// count, not a million messages.
const MAX_PROBLEMS: usize = 100;

impl Problems {
    pub(super) fn push(&mut self, location: String, message: String) {
        if self.0.len() < MAX_PROBLEMS {
            self.0.push(SchemaProblem { location, message });
        }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub(super) fn into_error(mut self) -> SchemaError {
        // The compiler's work list visits the schema in no particular order.
        self.0.sort_by(|a, b| a.location.cmp(&b.location));
        self.0.dedup();
        SchemaError { problems: self.0 }
    }
}
