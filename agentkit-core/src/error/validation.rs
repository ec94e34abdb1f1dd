//! [`ToolValidationError`]: inputs or an output that broke a tool's schema, and which side
//! ([`Direction`]) was wrong.

use std::borrow::Cow;
use std::fmt;

use crate::model_text::{Escaped, OPERATOR_ECHO};
use crate::schema::{Issues, ValidationIssue};

/// Which side of a tool call broke the schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// The arguments (the model's side) broke the input schema.
    Input,
    /// The tool's output (the tool's own side) broke the output schema.
    Output,
}

impl Direction {
    /// `"input"` or `"output"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Direction::Input => "input",
            Direction::Output => "output",
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Inputs or outputs that broke a tool's schema: the Python original's `ToolValidationError`.
///
/// [`direction`](Self::direction) tells who was wrong: [`Direction::Input`] means the model
/// produced bad arguments, [`Direction::Output`] that the tool's own logic is wrong.
///
/// The executor keeps at most [`TextLimits::max_issues`](crate::TextLimits::max_issues)
/// issues and counts the rest in [`omitted`](Self::omitted), so that hostile arguments with a
/// million mistakes cost a count, not a million messages.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{}", DisplayValidation(self))]
pub struct ToolValidationError {
    pub(super) tool_name: Cow<'static, str>,
    direction: Direction,
    errors: Vec<ValidationIssue>,
    omitted: usize,
}

struct DisplayValidation<'a>(&'a ToolValidationError);

impl fmt::Display for DisplayValidation<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = self.0;
        write!(
            f,
            "{} validation failed for tool '{}'",
            e.direction,
            Escaped(&e.tool_name, OPERATOR_ECHO)
        )?;
        e.write_issues(f, "\n  - ", usize::MAX, OPERATOR_ECHO)
    }
}

impl ToolValidationError {
    /// Builds the error; `errors` should not be empty.
    pub fn new(
        tool_name: impl Into<Cow<'static, str>>,
        direction: Direction,
        errors: Vec<ValidationIssue>,
    ) -> Self {
        ToolValidationError {
            tool_name: tool_name.into(),
            direction,
            errors,
            omitted: 0,
        }
    }

    pub(crate) fn from_issues(
        tool_name: Cow<'static, str>,
        direction: Direction,
        issues: Issues,
    ) -> Self {
        let (errors, omitted) = issues.into_parts();
        ToolValidationError {
            tool_name,
            direction,
            errors,
            omitted,
        }
    }

    pub(crate) fn with_omitted(mut self, omitted: usize) -> Self {
        self.omitted = omitted;
        self
    }

    /// The tool whose schema was broken.
    pub fn tool_name(&self) -> &str {
        &self.tool_name
    }

    /// Input (the model was wrong) or output (the tool was wrong).
    pub fn direction(&self) -> Direction {
        self.direction
    }

    /// The problems found: every one, or the first
    /// [`max_issues`](crate::TextLimits::max_issues) when the executor found more.
    pub fn errors(&self) -> &[ValidationIssue] {
        &self.errors
    }

    /// How many problems were found beyond those in [`errors`](Self::errors).
    pub fn omitted(&self) -> usize {
        self.omitted
    }

    /// Writes at most `max` issues, each after `separator`, then how many more there were.
    pub(super) fn write_issues(
        &self,
        f: &mut dyn fmt::Write,
        separator: &str,
        max: usize,
        echo: usize,
    ) -> fmt::Result {
        for issue in self.errors.iter().take(max) {
            f.write_str(separator)?;
            issue.write_message(f, echo)?;
        }
        let more = self.errors.len().saturating_sub(max) + self.omitted;
        if more > 0 {
            write!(f, "{separator}... and {more} more")?;
        }
        Ok(())
    }
}
