//! What a tool's run comes to ([`conclude`](ToolExecutor::conclude)): its output, checked
//! against the tool's output schema unless its types guarantee it, or its failure, with the
//! call's secrets scrubbed from the error.

use serde_json::Value;

use super::blocking::NotStarted;
use super::budget::TurnBudget;
use super::contain::Finished;
use super::dispatch::ToolExecutor;
use super::lifecycle::Outcome;
use super::run::cold;
use crate::content::ToolOutput;
use crate::credentials::Credentials;
use crate::error::{Direction, ToolExecutionError, ToolValidationError};
use crate::output::Returned;
use crate::recorder::ReplayedFailure;
use crate::rules::ParamType;
use crate::schema::{IssueKind, Issues, JsonObject, UnknownArguments, ValidationIssue, value_kind};
use crate::tool::ToolSpec;

impl ToolExecutor {
    /// What a tool's run comes to: its output, checked unless its types guarantee it, or
    /// its failure, with the call's secrets scrubbed from the error and a retry request
    /// counted against the turn's budget.
    pub(super) fn conclude(
        &self,
        spec: &ToolSpec,
        turn: Option<&TurnBudget>,
        finished: Finished,
        credentials: Option<&Credentials>,
    ) -> Outcome {
        let name = || spec.name_cow().clone();
        let secrets = || {
            credentials
                .map(|c| c.secrets().collect::<Vec<&str>>())
                .unwrap_or_default()
        };
        let returned = match finished {
            Finished::Returned(Ok(returned)) => returned,
            Finished::Returned(Err(cause)) => {
                return cold(|| {
                    let error = match cause.downcast::<ReplayedFailure>() {
                        Ok(replayed) => replayed.into_error(name()),
                        Err(cause) => {
                            ToolExecutionError::scrubbed(name(), cause, &secrets()).into()
                        }
                    };
                    Outcome::Failed(self.spend_retry(error, spec, turn))
                });
            }
            Finished::Panicked(panic) => {
                return cold(|| Outcome::Failed(ToolExecutionError::new(name(), panic).into()));
            }
            Finished::NotStarted => {
                return cold(|| {
                    Outcome::Failed(ToolExecutionError::new(name(), NotStarted).into())
                });
            }
        };
        let mut output = match returned {
            // Fits the schema by its types, and its floats are finite: JSON when asked for.
            Returned::Typed(_) => return Outcome::Output(returned),
            Returned::Json(output) => output,
            Returned::Output(output) => {
                return cold(|| self.conclude_content(spec, *output, &secrets()));
            }
        };
        // Anything else is checked: a hand-written tool's output, a generated one its types
        // do not guarantee, or a typed one with a float that was not finite (now `null`).
        if spec.has_output_schema() {
            let mut issues = self.validate_output(spec, Some(&mut output));
            if !issues.is_empty() {
                issues.scrub(&secrets());
                let error = ToolValidationError::from_issues(name(), Direction::Output, issues);
                return Outcome::Failed(error.into());
            }
        }
        Outcome::Output(Returned::Json(output))
    }

    /// [`conclude`](Self::conclude) for an output with content parts: the structured output,
    /// if any, validated as any; the parts settled to the limits (see `ToolOutput::settle`).
    fn conclude_content(
        &self,
        spec: &ToolSpec,
        mut output: ToolOutput,
        secrets: &[&str],
    ) -> Outcome {
        let name = || spec.name_cow().clone();
        let mut structured = output.take_structured();
        // Declared output is what the tool must give, parts or not: for a `ToolSchema`, an
        // object, empty when the tool gave none (valid when every output is optional).
        if spec.output_schema().is_some() && structured.is_none() {
            structured = Some(Value::Object(JsonObject::new()));
        }
        if spec.has_output_schema() {
            let mut issues = self.validate_output(spec, structured.as_mut());
            if !issues.is_empty() {
                issues.scrub(secrets);
                let error = ToolValidationError::from_issues(name(), Direction::Output, issues);
                return Outcome::Failed(error.into());
            }
        }
        if let Some(structured) = structured {
            output = output.with_structured(structured);
        }
        if let Err(too_large) = output.settle(&self.limits, secrets) {
            return Outcome::Failed(ToolExecutionError::new(name(), too_large).into());
        }
        Outcome::Output(Returned::Output(Box::new(output)))
    }

    /// The problems of `output` (`None`: the tool gave no structured output) against the
    /// tool's output schema: a [`ToolSchema`](crate::ToolSchema)'s, which takes an object, or
    /// a JSON Schema's, which takes what it says; undeclared keys refused as the schema says
    /// (a `ToolSchema` refuses them). Defaults are filled in place.
    fn validate_output(&self, spec: &ToolSpec, output: Option<&mut Value>) -> Issues {
        let mut issues = Issues::with_cap(self.limits.max_issues());
        match (spec.output_schema(), output) {
            (Some(schema), Some(Value::Object(object))) => {
                schema.validate_into(object, UnknownArguments::Reject, &mut issues);
            }
            (Some(_), Some(other)) => issues.push(|| {
                ValidationIssue::wrong_type_at(None, ParamType::Dictionary, value_kind(other))
            }),
            (None, Some(value)) => {
                if let Some(schema) = spec.output_json() {
                    schema.validate_into(value, UnknownArguments::Reject, &mut issues);
                }
            }
            (_, None) => {
                if spec.output_json().is_some() {
                    issues.push(|| {
                        ValidationIssue::schema(
                            IssueKind::MissingParameter,
                            None,
                            "outputSchema",
                            None,
                            "the tool returned no structured output, which its output schema \
                             asks for"
                                .to_owned(),
                        )
                    });
                }
            }
        }
        issues
    }
}
