//! Validation of argument objects against a [`ToolSchema`]: every problem reported, defaults
//! filled in place, integral floats normalised to integers.

use std::borrow::Cow;
use std::fmt;

use serde_json::Value;

use super::issue::{Issues, ValidationIssue};
use super::literal::{JsonObject, value_kind};
use super::param::{Param, ToolSchema};
use crate::rules::{self, Literal, Measured, ParamType, ValueKind};

impl ToolSchema {
    /// Validates `values` against the schema, the Python original's way: every problem is reported, and
    /// the defaults of absent optional parameters are filled in place.
    ///
    /// Undeclared arguments are refused; use [`validate_with`](Self::validate_with) and
    /// [`UnknownArguments::Ignore`] for the Python original's lenient behaviour.
    ///
    /// ```
    /// use agentkit_core::{IssueKind, Param, ParamType, ToolSchema};
    /// use serde_json::json;
    ///
    /// let schema = ToolSchema::new([
    ///     Param::required("city", ParamType::String),
    ///     Param::optional("units", ParamType::String),
    /// ])?;
    /// let mut args = json!({"units": 5}).as_object().unwrap().clone();
    /// let issues = schema.validate(&mut args);
    /// assert_eq!(issues.len(), 2);
    /// assert_eq!(issues[0].to_string(), "Missing required parameter: 'city'");
    /// assert_eq!(issues[1].to_string(), "Parameter 'units': expected type 'string', got 'integer'");
    /// assert_eq!(issues[1].kind(), IssueKind::WrongType);
    /// # Ok::<(), agentkit_core::SemanticError>(())
    /// ```
    #[must_use = "an empty list means the values are valid"]
    pub fn validate(&self, values: &mut JsonObject) -> Vec<ValidationIssue> {
        self.validate_with(values, UnknownArguments::Reject)
    }

    /// Validates `values`, choosing what to do with arguments the schema does not declare.
    #[must_use = "an empty list means the values are valid"]
    pub fn validate_with(
        &self,
        values: &mut JsonObject,
        unknown: UnknownArguments,
    ) -> Vec<ValidationIssue> {
        self.validate_limited(values, unknown, usize::MAX)
            .into_list()
    }

    /// Validates `values`, keeping at most `max_issues` issues and counting the rest: what the
    /// executor does with untrusted arguments, so that a million bad items cost a count, not a
    /// million messages.
    pub(crate) fn validate_limited(
        &self,
        values: &mut JsonObject,
        unknown: UnknownArguments,
        max_issues: usize,
    ) -> Issues {
        let mut issues = Issues::with_cap(max_issues);
        self.validate_into(values, unknown, &mut issues);
        issues
    }

    /// Validates `values`, adding to `issues` (which may already hold the argument text's).
    /// The single pass's validation of the arguments in `slots` (one per parameter, in
    /// order), as [`validate_object`](Self::validate_object) validates an object that has no
    /// undeclared argument: the same issues, in the same order, with defaults filled.
    pub(crate) fn validate_slots(
        &self,
        slots: &mut [Option<Value>],
        unknown: UnknownArguments,
        issues: &mut Issues,
    ) {
        for (param, slot) in self.parameters.iter().zip(slots.iter_mut()) {
            // `null` means "not given", as in `validate_object`.
            if matches!(slot, Some(Value::Null)) && !param.required {
                *slot = None;
            }
            match slot {
                Some(value) => check_value(param, value, unknown, Path::Root, issues),
                None if param.required => {
                    issues.push(|| ValidationIssue::missing(Path::Root.name_of(param), param.ty));
                }
                None => *slot = param.default.as_ref().map(Literal::to_value),
            }
        }
    }

    pub(crate) fn validate_into(
        &self,
        values: &mut JsonObject,
        unknown: UnknownArguments,
        issues: &mut Issues,
    ) {
        self.validate_object(values, unknown, Path::Root, issues);
    }

    /// The declared parameter whose name is closest to the undeclared `key`, if one is close.
    fn suggestion(&self, key: &str) -> Option<Cow<'static, str>> {
        // A key much longer than any valid name is no typo of one: skip the quadratic search.
        if key.len() > 2 * rules::MAX_NAME_LEN {
            return None;
        }
        let name = rules::suggest(key, self.parameters.iter().map(Param::name))?;
        self.parameter(name).map(|p| p.name.clone())
    }

    /// Validates the object at `at` (the arguments, or a nested dictionary).
    fn validate_object(
        &self,
        values: &mut JsonObject,
        unknown: UnknownArguments,
        at: Path<'_>,
        issues: &mut Issues,
    ) {
        // How many declared parameters `values` holds once defaults are filled: when that is
        // all it holds, there is no undeclared argument and no need to scan the keys.
        let mut declared = 0;
        for param in self.parameters.iter() {
            let present = match values.get_mut(param.name()) {
                // `null` means "not given": models in strict mode send it for optional
                // parameters they leave out.
                Some(Value::Null) if !param.required => {
                    values.remove(param.name());
                    false
                }
                Some(value) => {
                    check_value(param, value, unknown, at, issues);
                    true
                }
                None => false,
            };
            if present {
                declared += 1;
            } else if param.required {
                issues.push(|| ValidationIssue::missing(at.name_of(param), param.ty));
            } else if let Some(default) = &param.default {
                values.insert(param.name().to_owned(), default.to_value());
                declared += 1;
            }
        }
        if unknown == UnknownArguments::Reject && values.len() > declared {
            for key in values.keys() {
                if self.parameter(key).is_none() {
                    issues.push(|| ValidationIssue::unknown(at.key(key), self.suggestion(key)));
                }
            }
        }
    }
}

/// What validation does with an argument the schema does not declare.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum UnknownArguments {
    /// Report it as a [`IssueKind::UnknownParameter`](crate::IssueKind::UnknownParameter) issue (the default).
    ///
    /// A model that invents a parameter has misunderstood the tool; telling it so lets it
    /// correct the call, where silently dropping the argument hides the mistake.
    #[default]
    Reject,
    /// Leave it in place and report nothing, as the Python original does.
    Ignore,
}

/// Where a value sits in the arguments, for the names in issues; rendered only when an issue
/// is reported, so that validating valid arguments allocates nothing.
#[derive(Clone, Copy)]
enum Path<'a> {
    /// The arguments object.
    Root,
    /// A field of the object at the parent path.
    Field(&'a Path<'a>, &'a str),
    /// An item of the list at the parent path.
    Item(&'a Path<'a>, usize),
}

impl Path<'_> {
    /// The name of `param`, a member of the object at this path.
    fn name_of(self, param: &Param) -> Cow<'static, str> {
        match self {
            Path::Root => param.name.clone(),
            _ => Cow::Owned(format!("{self}.{}", param.name)),
        }
    }

    /// The name of an undeclared `key` of the object at this path.
    fn key(self, key: &str) -> Cow<'static, str> {
        // The key is the model's: keep a bounded copy of it, however long it is.
        let key = crate::model_text::capture(key);
        match self {
            Path::Root => Cow::Owned(key),
            _ => Cow::Owned(format!("{self}.{key}")),
        }
    }

    /// The name of the value at this path.
    fn name(self, param: &Param) -> Cow<'static, str> {
        match self {
            Path::Field(Path::Root, _) => param.name.clone(),
            _ => Cow::Owned(self.to_string()),
        }
    }
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Path::Root => Ok(()),
            Path::Field(Path::Root, name) => f.write_str(name),
            Path::Field(parent, name) => write!(f, "{parent}.{name}"),
            Path::Item(parent, index) => write!(f, "{parent}[{index}]"),
        }
    }
}

/// Checks a present argument: its type, then its items and fields, where declared.
fn check_value(
    param: &Param,
    value: &mut Value,
    unknown: UnknownArguments,
    at: Path<'_>,
    issues: &mut Issues,
) {
    let here = Path::Field(&at, param.name());
    match check_type(param.ty, value) {
        Ok(()) => {}
        Err(Mismatch::WrongType(got)) => {
            issues.push(|| ValidationIssue::wrong_type(here.name(param), param.ty, got));
            return;
        }
        Err(Mismatch::OutOfRange) => {
            issues.push(|| ValidationIssue::out_of_range(here.name(param)));
            return;
        }
    }
    if !param.constraints.is_empty() {
        check_constraints(param, value, here, issues);
    }
    match value {
        Value::Array(values) => {
            let Some(items) = param.items else { return };
            for (index, item) in values.iter_mut().enumerate() {
                let path = Path::Item(&here, index);
                match check_type(items, item) {
                    Ok(()) => {
                        if let (Some(fields), Value::Object(object)) = (&param.fields, item) {
                            fields.validate_object(object, unknown, path, issues);
                        }
                    }
                    Err(Mismatch::WrongType(got)) => {
                        issues.push(|| {
                            ValidationIssue::wrong_type(Cow::Owned(path.to_string()), items, got)
                        });
                    }
                    Err(Mismatch::OutOfRange) => {
                        issues.push(|| ValidationIssue::out_of_range(Cow::Owned(path.to_string())));
                    }
                }
            }
        }
        Value::Object(object) => {
            if let Some(fields) = &param.fields {
                fields.validate_object(object, unknown, here, issues);
            }
        }
        _ => {}
    }
}

/// Reports every constraint of `param` the (well-typed) `value` breaks.
fn check_constraints(param: &Param, value: &Value, here: Path<'_>, issues: &mut Issues) {
    let measured = match value {
        Value::String(s) => Measured::String(s),
        Value::Number(n) => match n.as_i64() {
            Some(i) => Measured::Integer(i),
            None => Measured::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::Array(items) => Measured::List(items.len()),
        _ => return,
    };
    for violation in param.constraints.violations(measured) {
        issues.push(|| {
            let allowed = param.constraints.enum_values.as_ref();
            ValidationIssue::constraint(here.name(param), param.ty, allowed, violation, value)
        });
    }
}

enum Mismatch {
    WrongType(ValueKind),
    OutOfRange,
}

/// Checks `value` against `ty`, normalising an integral float to an integer in place.
fn check_type(ty: ParamType, value: &mut Value) -> Result<(), Mismatch> {
    if ty == ParamType::Integer
        && let Value::Number(n) = value
    {
        if n.is_i64() {
            return Ok(());
        }
        if n.is_u64() {
            return Err(Mismatch::OutOfRange);
        }
        // `1.0` is an integer in JSON (and JSON Schema); normalise it in place so tool code
        // can read it with `as_i64`. `1.5` stays a float and is refused below.
        let f = n.as_f64().unwrap_or(f64::NAN);
        if f.fract() == 0.0 {
            // The 64-bit range as a double: -2^63 (exactly i64::MIN) up to, not including,
            // 2^63 (i64::MAX rounds up to it). The same range as the exported schema's
            // `minimum` and `maximum`, and as a default's: a JSON Schema validator compares
            // numbers by value, so `-9223372036854775808.0` is i64::MIN to it too. (An
            // integer written below i64::MIN is read by serde_json as the nearest double,
            // as any validator without arbitrary precision reads it: one that rounds to
            // -2^63 is i64::MIN here as there.)
            #[allow(clippy::cast_precision_loss, clippy::cast_possible_truncation)]
            if f >= i64::MIN as f64 && f < i64::MAX as f64 {
                *value = Value::from(f as i64);
                return Ok(());
            }
            return Err(Mismatch::OutOfRange);
        }
    }
    let got = value_kind(value);
    if ty.accepts(got) {
        Ok(())
    } else {
        Err(Mismatch::WrongType(got))
    }
}
