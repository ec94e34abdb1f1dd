//! Tool schemas: the Python original's six-type parameter lists, as data.
//!
//! A [`ToolSchema`] is an ordered list of [`Param`]s. It loads from and saves to the Python original's
//! `{"parameters": [...]}` shape, validates argument objects ([`ToolSchema::validate`]) and
//! exports JSON Schema for model providers ([`ToolSchema::to_json_schema`]).

use std::borrow::Cow;
use std::fmt;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::error::{SemanticError, SemanticProblem};
pub use crate::rules::Literal;
use crate::rules::{
    self, Constraints, Measured, NameKind, Number, ParamType, Problem, ValueKind, Violation,
};

/// A JSON object: what a tool receives as inputs and returns as output.
pub type JsonObject = Map<String, Value>;

impl Literal {
    /// Converts to a [`serde_json::Value`].
    pub fn to_value(&self) -> Value {
        match self {
            Literal::Null => Value::Null,
            Literal::Boolean(b) => Value::Bool(*b),
            Literal::Integer(i) => Value::from(*i),
            // A non-finite float has no JSON form; a schema refuses a default holding one, so
            // `null` is never filled in.
            Literal::Float(f) => {
                serde_json::Number::from_f64(*f).map_or(Value::Null, Value::Number)
            }
            // Likewise refused by a schema; converted as closely as JSON allows.
            #[allow(clippy::cast_precision_loss)]
            Literal::OutOfRange(i) => u64::try_from(*i).map_or_else(
                |_| serde_json::Number::from_f64(*i as f64).map_or(Value::Null, Value::Number),
                Value::from,
            ),
            Literal::String(s) => Value::String(s.as_ref().to_owned()),
            Literal::List(items) => Value::Array(items.iter().map(Literal::to_value).collect()),
            Literal::Dictionary(entries) => Value::Object(
                entries
                    .iter()
                    .map(|(k, v)| (k.as_ref().to_owned(), v.to_value()))
                    .collect(),
            ),
        }
    }
}

impl From<Value> for Literal {
    fn from(value: Value) -> Self {
        match value {
            Value::Null => Literal::Null,
            Value::Bool(b) => Literal::Boolean(b),
            // Exactly the number: `2.0` stays a float (a schema makes it an integer where one
            // is declared, as validation does), and an integer beyond `i64` is kept as such so
            // that a schema can refuse it instead of rounding it to a float.
            Value::Number(n) => match (n.as_i64(), n.as_u64()) {
                (Some(i), _) => Literal::Integer(i),
                (None, Some(u)) => Literal::OutOfRange(i128::from(u)),
                (None, None) => Literal::Float(n.as_f64().unwrap_or(f64::NAN)),
            },
            Value::String(s) => Literal::String(Cow::Owned(s)),
            Value::Array(items) => {
                Literal::List(Cow::Owned(items.into_iter().map(Literal::from).collect()))
            }
            Value::Object(map) => Literal::Dictionary(Cow::Owned(
                map.into_iter()
                    .map(|(k, v)| (Cow::Owned(k), Literal::from(v)))
                    .collect(),
            )),
        }
    }
}

impl From<&'static str> for Literal {
    fn from(s: &'static str) -> Self {
        Literal::String(Cow::Borrowed(s))
    }
}

impl From<String> for Literal {
    fn from(s: String) -> Self {
        Literal::String(Cow::Owned(s))
    }
}

impl From<i64> for Literal {
    fn from(i: i64) -> Self {
        Literal::Integer(i)
    }
}

impl From<f64> for Literal {
    fn from(f: f64) -> Self {
        Literal::Float(f)
    }
}

impl From<bool> for Literal {
    fn from(b: bool) -> Self {
        Literal::Boolean(b)
    }
}

impl Serialize for Literal {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_value().serialize(serializer)
    }
}

/// One parameter of a [`ToolSchema`]: the Python original's `name`, `type`, `required`, `default` and
/// `description`, and the constraints the Python original lacks (`enum`, bounds, lengths).
///
/// Build one with [`Param::required`] or [`Param::optional`]; a [`ToolSchema`] checks the
/// whole list when it is built.
///
/// ```
/// use agentkit_core::{Param, ParamType};
///
/// let units = Param::optional("units", ParamType::String)
///     .with_default("imperial")
///     .with_description("'imperial' (Fahrenheit) or 'metric' (Celsius)");
/// assert!(!units.is_required());
/// assert_eq!(units.default_value().unwrap().to_value(), "imperial");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    name: Cow<'static, str>,
    ty: ParamType,
    required: bool,
    default: Option<Literal>,
    description: Cow<'static, str>,
    items: Option<ParamType>,
    fields: Option<ToolSchema>,
    constraints: Constraints,
}

impl Param {
    /// A required parameter (the Python original's default).
    pub fn required(name: impl Into<Cow<'static, str>>, ty: ParamType) -> Self {
        Param {
            name: name.into(),
            ty,
            required: true,
            default: None,
            description: Cow::Borrowed(""),
            items: None,
            fields: None,
            constraints: Constraints::NONE,
        }
    }

    /// An optional parameter (`"required": false`).
    pub fn optional(name: impl Into<Cow<'static, str>>, ty: ParamType) -> Self {
        Param {
            required: false,
            ..Param::required(name, ty)
        }
    }

    /// Sets the default used when the argument is absent or `null`.
    ///
    /// The [`ToolSchema`] built from the parameter checks the default as validation would
    /// check the same value given as the argument, at any depth (items, fields, their
    /// defaults), and keeps it as validation leaves it: `2.0` for an integer becomes `2`, a
    /// dictionary default gets its fields' defaults. NaN, infinities and integers outside the
    /// 64-bit range are refused wherever they are.
    ///
    /// ```
    /// use agentkit_core::{Literal, Param, ParamType, ToolSchema};
    ///
    /// let schema = ToolSchema::new([Param::optional("n", ParamType::Integer).with_default(2.0)])?;
    /// assert_eq!(schema.parameters()[0].default_value(), Some(&Literal::Integer(2)));
    /// assert!(ToolSchema::new([Param::optional("x", ParamType::Float).with_default(f64::NAN)]).is_err());
    /// # Ok::<(), agentkit_core::SemanticError>(())
    /// ```
    #[must_use]
    pub fn with_default(mut self, default: impl Into<Literal>) -> Self {
        self.default = Some(default.into());
        self
    }

    /// Sets the natural-language description sent to the model.
    #[must_use]
    pub fn with_description(mut self, description: impl Into<Cow<'static, str>>) -> Self {
        self.description = description.into();
        self
    }

    /// Declares the type of every item of a list parameter (the Python original's lists are untyped).
    ///
    /// Validation then checks each item, and the JSON Schema says `"items": {"type": ...}`,
    /// which OpenAI's strict mode requires of every array.
    ///
    /// ```
    /// use agentkit_core::{Param, ParamType, ToolSchema};
    /// use serde_json::json;
    ///
    /// let schema = ToolSchema::new([
    ///     Param::required("tags", ParamType::List).with_items(ParamType::String),
    /// ])?;
    /// let mut args = json!({"tags": ["a", 2]}).as_object().cloned().unwrap();
    /// let issues = schema.validate(&mut args);
    /// assert_eq!(issues[0].to_string(), "Parameter 'tags[1]': expected type 'string', got 'integer'");
    /// # Ok::<(), agentkit_core::SemanticError>(())
    /// ```
    #[must_use]
    pub const fn with_items(mut self, items: ParamType) -> Self {
        self.items = Some(items);
        self
    }

    /// Declares the fields of a dictionary parameter, or of every item of a list parameter
    /// whose items are dictionaries: a nested schema, where the Python original gives up.
    ///
    /// Validation then checks each field (reporting `address.city`, `stops[1].city`), fills
    /// their defaults, and the JSON Schema describes the nested object, as OpenAI's strict mode
    /// requires of every object.
    ///
    /// ```
    /// use agentkit_core::{Param, ParamType, ToolSchema};
    /// use serde_json::json;
    ///
    /// let address = ToolSchema::new([
    ///     Param::required("city", ParamType::String),
    ///     Param::optional("country", ParamType::String).with_default("US"),
    /// ])?;
    /// let schema = ToolSchema::new([
    ///     Param::required("address", ParamType::Dictionary).with_fields(address),
    /// ])?;
    /// let mut args = json!({"address": {"city": 5}}).as_object().cloned().unwrap();
    /// let issues = schema.validate(&mut args);
    /// assert_eq!(issues[0].to_string(), "Parameter 'address.city': expected type 'string', got 'integer'");
    /// assert_eq!(args["address"]["country"], "US");
    /// # Ok::<(), agentkit_core::SemanticError>(())
    /// ```
    #[must_use]
    pub fn with_fields(mut self, fields: ToolSchema) -> Self {
        self.fields = Some(fields);
        self
    }

    /// Allows only these values (JSON Schema's `enum`), for a string or integer parameter.
    ///
    /// Validation refuses any other value, the JSON Schema lists them, and a default must be
    /// one of them. An empty list, a value of another type or the same value twice is refused
    /// when the [`ToolSchema`] is built.
    ///
    /// ```
    /// use agentkit_core::{Param, ParamType, ToolSchema};
    /// use serde_json::json;
    ///
    /// let schema = ToolSchema::new([Param::optional("units", ParamType::String)
    ///     .with_enum(["metric", "imperial"])
    ///     .with_default("metric")])?;
    /// let mut args = json!({"units": "kelvin"}).as_object().cloned().unwrap();
    /// let issues = schema.validate(&mut args);
    /// assert_eq!(
    ///     issues[0].to_string(),
    ///     "Parameter 'units': expected one of 'metric', 'imperial', got 'kelvin'"
    /// );
    /// # Ok::<(), agentkit_core::SemanticError>(())
    /// ```
    #[must_use]
    pub fn with_enum<T: Into<Literal>>(mut self, values: impl IntoIterator<Item = T>) -> Self {
        self.constraints.enum_values =
            Some(Cow::Owned(values.into_iter().map(Into::into).collect()));
        self
    }

    /// Sets the smallest value allowed (inclusive), for an integer or float parameter.
    ///
    /// ```
    /// use agentkit_core::{Param, ParamType, ToolSchema};
    /// use serde_json::json;
    ///
    /// let schema = ToolSchema::new([Param::required("limit", ParamType::Integer)
    ///     .with_minimum(1)
    ///     .with_maximum(50)])?;
    /// let mut args = json!({"limit": 80}).as_object().cloned().unwrap();
    /// let issues = schema.validate(&mut args);
    /// assert_eq!(issues[0].to_string(), "Parameter 'limit': must be at most 50, got 80");
    /// # Ok::<(), agentkit_core::SemanticError>(())
    /// ```
    #[must_use]
    pub fn with_minimum(mut self, minimum: impl Into<Number>) -> Self {
        self.constraints.minimum = Some(minimum.into());
        self
    }

    /// Sets the largest value allowed (inclusive), for an integer or float parameter.
    #[must_use]
    pub fn with_maximum(mut self, maximum: impl Into<Number>) -> Self {
        self.constraints.maximum = Some(maximum.into());
        self
    }

    /// Sets the fewest characters (Unicode scalar values, as JSON Schema counts them) a
    /// string parameter may have.
    ///
    /// ```
    /// use agentkit_core::{Param, ParamType, ToolSchema};
    /// use serde_json::json;
    ///
    /// let schema = ToolSchema::new([Param::required("query", ParamType::String).with_min_length(1)])?;
    /// let mut args = json!({"query": ""}).as_object().cloned().unwrap();
    /// let issues = schema.validate(&mut args);
    /// assert_eq!(
    ///     issues[0].to_string(),
    ///     "Parameter 'query': must be at least 1 character long, got 0"
    /// );
    /// # Ok::<(), agentkit_core::SemanticError>(())
    /// ```
    #[must_use]
    pub const fn with_min_length(mut self, min_length: usize) -> Self {
        self.constraints.min_length = Some(min_length);
        self
    }

    /// Sets the most characters a string parameter may have.
    #[must_use]
    pub const fn with_max_length(mut self, max_length: usize) -> Self {
        self.constraints.max_length = Some(max_length);
        self
    }

    /// Sets the fewest items a list parameter may have.
    ///
    /// ```
    /// use agentkit_core::{Param, ParamType, ToolSchema};
    /// use serde_json::json;
    ///
    /// let schema = ToolSchema::new([Param::required("tags", ParamType::List)
    ///     .with_items(ParamType::String)
    ///     .with_min_items(1)])?;
    /// let mut args = json!({"tags": []}).as_object().cloned().unwrap();
    /// let issues = schema.validate(&mut args);
    /// assert_eq!(issues[0].to_string(), "Parameter 'tags': must have at least 1 item, got 0");
    /// # Ok::<(), agentkit_core::SemanticError>(())
    /// ```
    #[must_use]
    pub const fn with_min_items(mut self, min_items: usize) -> Self {
        self.constraints.min_items = Some(min_items);
        self
    }

    /// Sets the most items a list parameter may have.
    #[must_use]
    pub const fn with_max_items(mut self, max_items: usize) -> Self {
        self.constraints.max_items = Some(max_items);
        self
    }

    /// Builds a parameter in a `const` context; used by `#[tool(...)]`, which has already
    /// checked every rule at compile time.
    #[doc(hidden)]
    pub const fn from_static(
        name: &'static str,
        ty: ParamType,
        required: bool,
        default: Option<Literal>,
        description: &'static str,
    ) -> Self {
        Param {
            name: Cow::Borrowed(name),
            ty,
            required,
            default,
            description: Cow::Borrowed(description),
            items: None,
            fields: None,
            constraints: Constraints::NONE,
        }
    }

    /// Like [`from_static`](Self::from_static), for a dictionary (or a list of dictionaries)
    /// with declared `fields`; used by `#[tool(...)]`.
    #[doc(hidden)]
    pub const fn from_static_with_fields(
        name: &'static str,
        ty: ParamType,
        required: bool,
        default: Option<Literal>,
        description: &'static str,
        fields: &'static [Param],
    ) -> Self {
        // Not `..Param::from_static(..)`: that would drop the temporary's `fields: None`, and
        // a `const fn` cannot run a destructor.
        Param {
            name: Cow::Borrowed(name),
            ty,
            required,
            default,
            description: Cow::Borrowed(description),
            items: None,
            fields: Some(ToolSchema::from_static(fields)),
            constraints: Constraints::NONE,
        }
    }

    /// Sets every constraint in a `const` context; used by `#[tool(...)]`, which has already
    /// checked them at compile time.
    #[doc(hidden)]
    #[must_use]
    #[allow(clippy::too_many_arguments)]
    pub const fn with_static_constraints(
        mut self,
        enum_values: Option<&'static [Literal]>,
        minimum: Option<Number>,
        maximum: Option<Number>,
        min_length: Option<usize>,
        max_length: Option<usize>,
        min_items: Option<usize>,
        max_items: Option<usize>,
    ) -> Self {
        let enum_values = match enum_values {
            Some(values) => Some(Cow::Borrowed(values)),
            None => None,
        };
        // A `const fn` cannot run a destructor, so the replaced value (always `None` here,
        // which owns nothing) is forgotten rather than dropped.
        std::mem::forget(std::mem::replace(
            &mut self.constraints.enum_values,
            enum_values,
        ));
        self.constraints.minimum = minimum;
        self.constraints.maximum = maximum;
        self.constraints.min_length = min_length;
        self.constraints.max_length = max_length;
        self.constraints.min_items = min_items;
        self.constraints.max_items = max_items;
        self
    }

    /// The parameter's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The parameter's type.
    pub fn param_type(&self) -> ParamType {
        self.ty
    }

    /// Whether the argument must be present.
    pub fn is_required(&self) -> bool {
        self.required
    }

    /// The default, if any.
    pub fn default_value(&self) -> Option<&Literal> {
        self.default.as_ref()
    }

    /// The type of a list's items, when declared.
    pub fn items(&self) -> Option<ParamType> {
        self.items
    }

    /// The declared fields of a dictionary (or of a list's dictionary items), when declared.
    pub fn fields(&self) -> Option<&ToolSchema> {
        self.fields.as_ref()
    }

    /// The description (empty when none was given).
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The allowed values, when an `enum` is declared.
    pub fn enum_values(&self) -> Option<&[Literal]> {
        self.constraints.enum_values.as_deref()
    }

    /// The smallest value allowed, when declared.
    pub fn minimum(&self) -> Option<Number> {
        self.constraints.minimum
    }

    /// The largest value allowed, when declared.
    pub fn maximum(&self) -> Option<Number> {
        self.constraints.maximum
    }

    /// The fewest characters allowed, when declared.
    pub fn min_length(&self) -> Option<usize> {
        self.constraints.min_length
    }

    /// The most characters allowed, when declared.
    pub fn max_length(&self) -> Option<usize> {
        self.constraints.max_length
    }

    /// The fewest items allowed, when declared.
    pub fn min_items(&self) -> Option<usize> {
        self.constraints.min_items
    }

    /// The most items allowed, when declared.
    pub fn max_items(&self) -> Option<usize> {
        self.constraints.max_items
    }

    pub(crate) fn constraints(&self) -> &Constraints {
        &self.constraints
    }

    pub(crate) fn name_cow(&self) -> &Cow<'static, str> {
        &self.name
    }

    /// The declaration as the default rules read it, with its fields at any depth.
    fn decl(&self) -> rules::Decl<'_> {
        rules::Decl {
            name: &self.name,
            ty: self.ty,
            required: self.required,
            items: self.items,
            fields: self
                .fields
                .as_ref()
                .map(|fields| fields.parameters().iter().map(Param::decl).collect()),
            default: self.default.as_ref(),
            constraints: &self.constraints,
        }
    }

    /// Every rule problem of the parameter (its name, `items`, `fields` and default; not the
    /// parameters within its `fields`, which their own schema checked), and its default as
    /// validation would leave it.
    fn check(&self) -> (Vec<Problem>, Option<Literal>) {
        let mut problems = Vec::new();
        if let Err(p) = rules::check_name(NameKind::Parameter, &self.name) {
            problems.push(p);
        }
        problems.extend(self.shape_problems());
        let constraints = rules::check_constraints(&self.name, self.ty, &self.constraints);
        let constrained = constraints.is_empty();
        problems.extend(constraints.into_iter().map(|p| p.problem));
        if !constrained {
            // A default is not checked against constraints that are themselves wrong.
            let decl = rules::Decl {
                constraints: &Constraints::NONE,
                ..self.decl()
            };
            let default = rules::check_default(&decl);
            problems.extend(default.problems.into_iter().map(|p| p.problem));
            return (problems, default.value);
        }
        let default = rules::check_default(&self.decl());
        problems.extend(default.problems.into_iter().map(|p| p.problem));
        (problems, default.value)
    }

    /// `items` only on a list, `fields` only on a dictionary or a list of dictionaries.
    fn shape_problems(&self) -> Vec<Problem> {
        let mut problems = Vec::new();
        if let Err(p) = rules::check_items(&self.name, self.ty, self.items) {
            problems.push(p);
        }
        if self.fields.is_some() {
            if let Err(p) = rules::check_fields_place(&self.name, self.ty, self.items) {
                problems.push(p);
            }
        }
        problems
    }
}

/// A declarative schema for a tool's inputs or outputs: the Python original's `ToolSchema`.
///
/// Construction checks every rule and reports every problem at once in a
/// [`SemanticError`]; a `ToolSchema` that exists is well formed.
///
/// ```
/// use agentkit_core::{Param, ParamType, ToolSchema};
/// use serde_json::json;
///
/// let schema = ToolSchema::new([
///     Param::required("city", ParamType::String),
///     Param::optional("units", ParamType::String).with_default("imperial"),
/// ])?;
///
/// // The Python original's dictionary shape works too.
/// let same = ToolSchema::from_value(json!({"parameters": [
///     {"name": "city", "type": "string"},
///     {"name": "units", "type": "string", "required": false, "default": "imperial"},
/// ]}))?;
/// assert_eq!(schema, same);
///
/// let mut args = json!({"city": "Paris"}).as_object().unwrap().clone();
/// assert!(schema.validate(&mut args).is_empty());
/// assert_eq!(args["units"], "imperial"); // defaults are filled in place
/// # Ok::<(), agentkit_core::SemanticError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ToolSchema {
    parameters: Cow<'static, [Param]>,
}

impl ToolSchema {
    /// Builds a schema, checking every parameter: valid names, no duplicates, `items` and
    /// `fields` in their places, and defaults only on optional parameters, each accepted by
    /// validation at any depth (see [`Param::with_default`]). Every problem is reported.
    pub fn new(parameters: impl IntoIterator<Item = Param>) -> Result<Self, SemanticError> {
        let mut parameters: Vec<Param> = parameters.into_iter().collect();
        let mut problems = Vec::new();
        let mut defaults = Vec::with_capacity(parameters.len());
        for (index, param) in parameters.iter().enumerate() {
            let (found, default) = param.check();
            let location = param_location(index, Some(param.name()));
            problems.extend(
                found
                    .into_iter()
                    .map(|p| SemanticProblem::new(location.clone(), p)),
            );
            defaults.push(default);
        }
        problems.extend(duplicate_problems(parameters.iter().map(Param::name)));
        if !problems.is_empty() {
            return Err(SemanticError::new(problems));
        }
        // Each default is kept as validation leaves it when given as the argument, so that
        // filling it yields exactly that.
        for (param, default) in parameters.iter_mut().zip(defaults) {
            param.default = default;
        }
        Ok(ToolSchema {
            parameters: Cow::Owned(parameters),
        })
    }

    /// A schema without parameters.
    pub const fn empty() -> Self {
        ToolSchema {
            parameters: Cow::Borrowed(&[]),
        }
    }

    /// Builds a schema from `static` parameters without checking them; used by
    /// `#[tool(...)]`, which has already checked every rule at compile time.
    #[doc(hidden)]
    pub const fn from_static(parameters: &'static [Param]) -> Self {
        ToolSchema {
            parameters: Cow::Borrowed(parameters),
        }
    }

    /// Loads a schema from the Python original's `{"parameters": [...]}` shape, reporting every problem.
    pub fn from_value(value: Value) -> Result<Self, SemanticError> {
        crate::schema_serde::schema_from_value(value)
    }

    /// Loads a schema from a JSON string in the Python original's shape.
    pub fn from_json(json: &str) -> Result<Self, SemanticError> {
        let value: Value = serde_json::from_str(json).map_err(|e| {
            SemanticError::new(vec![SemanticProblem::new(
                "schema".to_owned(),
                Problem::InvalidJson {
                    message: e.to_string(),
                },
            )])
        })?;
        Self::from_value(value)
    }

    /// Saves the schema in the Python original's `{"parameters": [...]}` shape.
    pub fn to_value(&self) -> Value {
        crate::schema_serde::schema_to_value(self)
    }

    /// The parameters, in declaration order.
    pub fn parameters(&self) -> &[Param] {
        &self.parameters
    }

    /// The parameter called `name`.
    pub fn parameter(&self, name: &str) -> Option<&Param> {
        self.parameters.iter().find(|p| p.name() == name)
    }

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
                    issues.push(|| ValidationIssue::unknown(at.key(key), key, self));
                }
            }
        }
    }

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
        crate::json_schema::export(self, crate::json_schema::Style::Validation)
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
        crate::json_schema::export(self, crate::json_schema::Style::OpenAiStrict)
    }
}

impl Default for ToolSchema {
    fn default() -> Self {
        ToolSchema::empty()
    }
}

impl Serialize for ToolSchema {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_value().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for ToolSchema {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        ToolSchema::from_value(value).map_err(D::Error::custom)
    }
}

/// Every rule problem of a parameter read whole (not those of its `fields`, checked already).
pub(crate) fn param_problems(param: &Param) -> Vec<Problem> {
    param.check().0
}

/// The parameters named more than once, as problems of the list.
pub(crate) fn duplicate_problems<'a>(names: impl Iterator<Item = &'a str>) -> Vec<SemanticProblem> {
    rules::find_duplicates(names)
        .into_iter()
        .map(|name| {
            SemanticProblem::new(
                "parameters".to_owned(),
                Problem::DuplicateParameter {
                    name: name.to_owned(),
                },
            )
        })
        .collect()
}

/// The rule problems of a parameter the loader could read only in part: the rules run on
/// the parts that are known, so a parameter with several mistakes reports each of them, and
/// none that depends on a part that could not be read.
///
/// `required` is `None` when its value could not be read; `items` and `fields` are `None`
/// when written but unreadable, `Some(None)` when not written; `constraints` is `None` when
/// one of them could not be read.
pub(crate) fn partial_problems(
    name: Option<&str>,
    ty: Option<ParamType>,
    required: Option<bool>,
    items: Option<Option<ParamType>>,
    fields: Option<Option<&ToolSchema>>,
    default: Option<&Literal>,
    constraints: Option<&Constraints>,
) -> Vec<Problem> {
    let mut problems = Vec::new();
    // Every rule speaks of the parameter by name; without one, the missing name is the
    // problem reported.
    let Some(name) = name else {
        return problems;
    };
    if let Err(p) = rules::check_name(NameKind::Parameter, name) {
        problems.push(p);
    }
    let mut constraints_ok = constraints.is_some();
    if let (Some(ty), Some(constraints)) = (ty, constraints) {
        let found = rules::check_constraints(name, ty, constraints);
        constraints_ok = found.is_empty();
        problems.extend(found.into_iter().map(|p| p.problem));
    }
    if default.is_some() && required == Some(true) {
        problems.push(Problem::RequiredWithDefault {
            name: name.to_owned(),
        });
    }
    let (Some(ty), Some(items)) = (ty, items) else {
        return problems;
    };
    let Some(fields) = fields else {
        // The fields could not be read, but they are written: their place is still checked.
        if let Err(p) = rules::check_items(name, ty, items) {
            problems.push(p);
        }
        if let Err(p) = rules::check_fields_place(name, ty, items) {
            problems.push(p);
        }
        return problems;
    };
    let mut param = Param::optional(name.to_owned(), ty);
    param.items = items;
    param.fields = fields.cloned();
    param.default = default.cloned();
    if let (Some(constraints), true) = (constraints, constraints_ok) {
        param.constraints = constraints.clone();
    }
    problems.extend(param.shape_problems());
    let decl = rules::Decl {
        required: false,
        ..param.decl()
    };
    problems.extend(
        rules::check_default(&decl)
            .problems
            .into_iter()
            .map(|p| p.problem),
    );
    problems
}

pub(crate) fn param_location(index: usize, name: Option<&str>) -> String {
    match name {
        Some(name) if !name.is_empty() => format!("parameters[{index}] ('{name}')"),
        _ => format!("parameters[{index}]"),
    }
}

/// The kind of a JSON value.
pub(crate) fn value_kind(value: &Value) -> ValueKind {
    match value {
        Value::Null => ValueKind::Null,
        Value::Bool(_) => ValueKind::Boolean,
        Value::Number(n) if n.is_i64() || n.is_u64() => ValueKind::Integer,
        Value::Number(n) => {
            let f = n.as_f64().unwrap_or(f64::NAN);
            if f.fract() == 0.0 && f.is_finite() {
                ValueKind::Integer
            } else {
                ValueKind::Float
            }
        }
        Value::String(_) => ValueKind::String,
        Value::Array(_) => ValueKind::List,
        Value::Object(_) => ValueKind::Dictionary,
    }
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
        issues.push(|| ValidationIssue::constraint(here.name(param), param, violation, value));
    }
}

enum Mismatch {
    WrongType(ValueKind),
    OutOfRange,
}

/// Checks `value` against `ty`, normalising an integral float to an integer in place.
fn check_type(ty: ParamType, value: &mut Value) -> Result<(), Mismatch> {
    if ty == ParamType::Integer {
        if let Value::Number(n) = value {
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
                // i64::MAX rounds up to 2^63, which is out of range, hence the strict upper
                // bound. The lower bound is strict too: an integer below i64::MIN reaches us
                // as a float, and one just below it rounds to exactly -2^63, which would let
                // `-9223372036854775809` through as i64::MIN. (i64::MIN itself arrives as an
                // integer and is accepted above.)
                #[allow(clippy::cast_precision_loss, clippy::cast_possible_truncation)]
                if f > i64::MIN as f64 && f < i64::MAX as f64 {
                    *value = Value::from(f as i64);
                    return Ok(());
                }
                return Err(Mismatch::OutOfRange);
            }
        }
    }
    let got = value_kind(value);
    if ty.accepts(got) {
        Ok(())
    } else {
        Err(Mismatch::WrongType(got))
    }
}

/// What validation does with an argument the schema does not declare.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum UnknownArguments {
    /// Report it as a [`IssueKind::UnknownParameter`] issue (the default).
    ///
    /// A model that invents a parameter has misunderstood the tool; telling it so lets it
    /// correct the call, where silently dropping the argument hides the mistake.
    #[default]
    Reject,
    /// Leave it in place and report nothing, as the Python original does.
    Ignore,
}

/// What kind of problem a [`ValidationIssue`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum IssueKind {
    /// A required parameter is absent. (`null` for a required parameter is a
    /// [`WrongType`](IssueKind::WrongType) with `got` = `null`.)
    MissingParameter,
    /// A value of the wrong type.
    WrongType,
    /// An integer outside the signed 64-bit range.
    OutOfRange,
    /// An argument the schema does not declare.
    UnknownParameter,
    /// The argument string is not JSON.
    InvalidJson,
    /// The arguments are JSON, but not an object.
    NotAnObject,
    /// A key given twice in one object of the argument text (`{"q": 5, "q": "a"}`): the
    /// model said two things, and taking either would drop the other.
    DuplicateKey,
    /// A value that is not one of the parameter's `enum` values.
    NotInEnum,
    /// A number below the parameter's `minimum`.
    BelowMinimum,
    /// A number above the parameter's `maximum`.
    AboveMaximum,
    /// A string with fewer characters than `min_length`, or a list with fewer items than
    /// `min_items` ([`expected`](ValidationIssue::expected) says which).
    TooShort,
    /// A string with more characters than `max_length`, or a list with more items than
    /// `max_items`.
    TooLong,
}

/// One problem found by validation: machine-readable fields, and a `Display` that reads like
/// the Python original's messages.
///
/// | kind | `Display` |
/// |---|---|
/// | `MissingParameter` | `Missing required parameter: 'city'` |
/// | `WrongType` | `Parameter 'units': expected type 'string', got 'integer'` |
/// | `OutOfRange` | `Parameter 'n': expected type 'integer', got an integer outside the 64-bit range` |
/// | `UnknownParameter` | `Unknown parameter: 'citty'; did you mean 'city'?` |
/// | `InvalidJson` | `Arguments are not valid JSON: EOF while parsing an object at line 1 column 9` |
/// | `NotAnObject` | `Arguments must be a JSON object, got 'list'` |
/// | `DuplicateKey` | `Duplicate key: 'q'; each key may appear only once` |
/// | `NotInEnum` | `Parameter 'units': expected one of 'metric', 'imperial', got 'kelvin'` |
/// | `BelowMinimum` | `Parameter 'limit': must be at least 1, got 0` |
/// | `AboveMaximum` | `Parameter 'limit': must be at most 50, got 80` |
/// | `TooShort` | `Parameter 'query': must be at least 1 character long, got 0`, `Parameter 'tags': must have at least 1 item, got 0` |
/// | `TooLong` | `Parameter 'query': must be at most 100 characters long, got 250` |
///
/// The message is rendered only when displayed. Names and values that came from the model
/// (undeclared keys, repeated keys, a string outside an `enum`) are kept to a bounded length,
/// and shown escaped: a newline, a quote or a bidirectional override in a key cannot add a
/// line to a message or reorder it. An `enum` of many values lists its first ten.
#[derive(Debug, Clone, PartialEq)]
pub struct ValidationIssue {
    kind: IssueKind,
    param: Option<Cow<'static, str>>,
    expected: Option<ParamType>,
    got: Option<ValueKind>,
    detail: Option<Detail>,
}

#[derive(Debug, Clone)]
enum Detail {
    Suggestion(Cow<'static, str>),
    Json(std::sync::Arc<serde_json::Error>),
    /// A parser message read back from a recording.
    JsonMessage(String),
    /// The allowed values, and the value given (a bounded copy of a string).
    Enum {
        allowed: Cow<'static, [Literal]>,
        got: Literal,
    },
    /// A bound, and the value (or length) given.
    Limit {
        limit: Number,
        got: Number,
    },
}

impl Detail {
    fn json_message(&self) -> Option<String> {
        match self {
            Detail::Json(e) => Some(e.to_string()),
            Detail::JsonMessage(m) => Some(m.clone()),
            Detail::Suggestion(_) | Detail::Enum { .. } | Detail::Limit { .. } => None,
        }
    }
}

impl PartialEq for Detail {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Detail::Suggestion(a), Detail::Suggestion(b)) => a == b,
            (
                Detail::Enum { allowed, got },
                Detail::Enum {
                    allowed: allowed_b,
                    got: got_b,
                },
            ) => allowed == allowed_b && got == got_b,
            (Detail::Limit { limit, got }, Detail::Limit { limit: l, got: g }) => {
                limit == l && got == g
            }
            (a, b) => a.json_message().is_some() && a.json_message() == b.json_message(),
        }
    }
}

/// The issues of one validation: at most a cap of them kept, the rest counted.
#[derive(Debug)]
pub(crate) struct Issues {
    list: Vec<ValidationIssue>,
    cap: usize,
    omitted: usize,
}

impl Issues {
    pub(crate) const fn with_cap(cap: usize) -> Self {
        Issues {
            list: Vec::new(),
            cap,
            omitted: 0,
        }
    }

    /// Adds the issue `make` builds, or only counts it once the cap is reached, so that past
    /// the cap no message, path or suggestion is computed.
    pub(crate) fn push(&mut self, make: impl FnOnce() -> ValidationIssue) {
        if self.list.len() < self.cap {
            self.list.push(make());
        } else {
            self.omitted += 1;
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.list.is_empty() && self.omitted == 0
    }

    #[cfg(test)]
    pub(crate) fn list(&self) -> &[ValidationIssue] {
        &self.list
    }

    #[cfg(test)]
    pub(crate) fn omitted(&self) -> usize {
        self.omitted
    }

    pub(crate) fn into_list(self) -> Vec<ValidationIssue> {
        self.list
    }

    pub(crate) fn into_parts(self) -> (Vec<ValidationIssue>, usize) {
        (self.list, self.omitted)
    }

    /// Replaces every occurrence of `secrets` in the names the issues echo: an output's keys
    /// are the tool's own text, and may hold a credential it was handed.
    pub(crate) fn scrub(&mut self, secrets: &[&str]) {
        for issue in &mut self.list {
            if let Some(param) = &issue.param {
                let scrubbed = crate::model_text::scrub_cut(param.to_string(), secrets);
                if scrubbed != **param {
                    issue.param = Some(Cow::Owned(scrubbed));
                }
            }
            // A string outside an `enum` is the tool's own value too.
            if let Some(Detail::Enum {
                got: Literal::String(got),
                ..
            }) = &mut issue.detail
            {
                let scrubbed = crate::model_text::scrub_cut(got.to_string(), secrets);
                if scrubbed != **got {
                    *got = Cow::Owned(scrubbed);
                }
            }
        }
    }
}

impl ValidationIssue {
    fn missing(param: Cow<'static, str>, expected: ParamType) -> Self {
        ValidationIssue {
            kind: IssueKind::MissingParameter,
            param: Some(param),
            expected: Some(expected),
            got: None,
            detail: None,
        }
    }

    fn wrong_type(param: Cow<'static, str>, expected: ParamType, got: ValueKind) -> Self {
        ValidationIssue {
            kind: IssueKind::WrongType,
            param: Some(param),
            expected: Some(expected),
            got: Some(got),
            detail: None,
        }
    }

    fn out_of_range(param: Cow<'static, str>) -> Self {
        ValidationIssue {
            kind: IssueKind::OutOfRange,
            param: Some(param),
            expected: Some(ParamType::Integer),
            got: Some(ValueKind::Integer),
            detail: None,
        }
    }

    fn unknown(path: Cow<'static, str>, key: &str, schema: &ToolSchema) -> Self {
        // A key much longer than any valid name is no typo of one: skip the quadratic search.
        let suggestion = (key.len() <= 2 * rules::MAX_NAME_LEN)
            .then(|| rules::suggest(key, schema.parameters.iter().map(Param::name)))
            .flatten()
            .and_then(|name| schema.parameter(name))
            .map(|p| Detail::Suggestion(p.name_cow().clone()));
        ValidationIssue {
            kind: IssueKind::UnknownParameter,
            param: Some(path),
            expected: None,
            got: None,
            detail: suggestion,
        }
    }

    fn constraint(
        param_name: Cow<'static, str>,
        param: &Param,
        violation: Violation,
        value: &Value,
    ) -> Self {
        let length = |n: usize| Number::Integer(i64::try_from(n).unwrap_or(i64::MAX));
        let (kind, detail) = match violation {
            Violation::NotInEnum => {
                let got = match value {
                    // The value is the model's: keep a bounded copy of it.
                    Value::String(s) => Literal::String(Cow::Owned(crate::model_text::capture(s))),
                    Value::Number(n) => n.as_i64().map_or(Literal::Null, Literal::Integer),
                    _ => Literal::Null,
                };
                let allowed = param
                    .constraints
                    .enum_values
                    .clone()
                    .unwrap_or(Cow::Borrowed(&[]));
                (IssueKind::NotInEnum, Detail::Enum { allowed, got })
            }
            Violation::BelowMinimum { limit, got } => {
                (IssueKind::BelowMinimum, Detail::Limit { limit, got })
            }
            Violation::AboveMaximum { limit, got } => {
                (IssueKind::AboveMaximum, Detail::Limit { limit, got })
            }
            Violation::TooShort { limit, got } => (
                IssueKind::TooShort,
                Detail::Limit {
                    limit: length(limit),
                    got: length(got),
                },
            ),
            Violation::TooLong { limit, got } => (
                IssueKind::TooLong,
                Detail::Limit {
                    limit: length(limit),
                    got: length(got),
                },
            ),
        };
        ValidationIssue {
            kind,
            param: Some(param_name),
            expected: Some(param.ty),
            got: Some(value_kind(value)),
            detail: Some(detail),
        }
    }

    pub(crate) fn invalid_json(error: serde_json::Error) -> Self {
        ValidationIssue {
            kind: IssueKind::InvalidJson,
            param: None,
            expected: None,
            got: None,
            detail: Some(Detail::Json(std::sync::Arc::new(error))),
        }
    }

    pub(crate) fn duplicate_key(path: &str) -> Self {
        ValidationIssue {
            kind: IssueKind::DuplicateKey,
            param: Some(Cow::Owned(crate::model_text::capture(path))),
            expected: None,
            got: None,
            detail: None,
        }
    }

    pub(crate) fn not_an_object(got: &Value) -> Self {
        ValidationIssue {
            kind: IssueKind::NotAnObject,
            param: None,
            expected: Some(ParamType::Dictionary),
            got: Some(value_kind(got)),
            detail: None,
        }
    }

    /// What kind of problem this is.
    pub fn kind(&self) -> IssueKind {
        self.kind
    }

    /// The parameter concerned, with the item's index for an item of a list (`tags[1]`);
    /// `None` for problems with the whole argument string.
    ///
    /// A key the model made up (an unknown or repeated key) is kept to its first 256 bytes,
    /// followed by `…` when it was longer, whatever its length in the arguments.
    pub fn param(&self) -> Option<&str> {
        self.param.as_deref()
    }

    /// The type that was expected, when there is one.
    pub fn expected(&self) -> Option<ParamType> {
        self.expected
    }

    /// The kind of value that was given instead, when there was one.
    pub fn got(&self) -> Option<ValueKind> {
        self.got
    }

    /// For an unknown parameter, the declared parameter whose name is closest.
    pub fn suggestion(&self) -> Option<&str> {
        match &self.detail {
            Some(Detail::Suggestion(s)) => Some(s),
            _ => None,
        }
    }

    /// For a value outside an `enum`, the values allowed.
    pub fn allowed(&self) -> Option<&[Literal]> {
        match &self.detail {
            Some(Detail::Enum { allowed, .. }) => Some(allowed),
            _ => None,
        }
    }

    /// For a broken bound, the bound: the `minimum` or `maximum`, or the least or most
    /// characters or items allowed.
    pub fn limit(&self) -> Option<Number> {
        match &self.detail {
            Some(Detail::Limit { limit, .. }) => Some(*limit),
            _ => None,
        }
    }

    /// For a broken bound, what was given: the number, or the string's characters or the
    /// list's items counted.
    pub fn measured(&self) -> Option<Number> {
        match &self.detail {
            Some(Detail::Limit { got, .. }) => Some(*got),
            _ => None,
        }
    }

    /// The violation a bound issue stands for, to word it as the shared rules do.
    fn violation(&self) -> Option<Violation> {
        let Some(Detail::Limit { limit, got }) = &self.detail else {
            return None;
        };
        let count = |n: Number| match n {
            Number::Integer(i) => usize::try_from(i).unwrap_or(usize::MAX),
            Number::Float(_) => usize::MAX,
        };
        let (limit, got) = (*limit, *got);
        Some(match self.kind {
            IssueKind::BelowMinimum => Violation::BelowMinimum { limit, got },
            IssueKind::AboveMaximum => Violation::AboveMaximum { limit, got },
            IssueKind::TooShort => Violation::TooShort {
                limit: count(limit),
                got: count(got),
            },
            IssueKind::TooLong => Violation::TooLong {
                limit: count(limit),
                got: count(got),
            },
            _ => return None,
        })
    }
}

impl ValidationIssue {
    /// Writes the message, showing at most `echo` characters of each name, escaped.
    pub(crate) fn write_message(&self, f: &mut dyn fmt::Write, echo: usize) -> fmt::Result {
        use crate::model_text::Escaped;
        let param = Escaped(self.param.as_deref().unwrap_or(""), echo);
        let expected = self.expected.map_or("", ParamType::as_str);
        let got = self.got.map_or("", ValueKind::as_str);
        match self.kind {
            IssueKind::MissingParameter => write!(f, "Missing required parameter: '{param}'"),
            IssueKind::WrongType => write!(
                f,
                "Parameter '{param}': expected type '{expected}', got '{got}'"
            ),
            IssueKind::OutOfRange => write!(
                f,
                "Parameter '{param}': expected type 'integer', got {}",
                rules::OUT_OF_RANGE
            ),
            IssueKind::UnknownParameter => {
                write!(f, "Unknown parameter: '{param}'")?;
                match self.suggestion() {
                    Some(s) => write!(f, "; did you mean '{}'?", Escaped(s, echo)),
                    None => f.write_str("; it is not declared by this tool"),
                }
            }
            IssueKind::InvalidJson => match self.detail.as_ref().and_then(Detail::json_message) {
                Some(message) => write!(
                    f,
                    "Arguments are not valid JSON: {}",
                    crate::model_text::EscapedText(&message, 4 * echo)
                ),
                None => f.write_str("Arguments are not valid JSON"),
            },
            IssueKind::NotAnObject => {
                write!(f, "Arguments must be a JSON object, got '{got}'")
            }
            IssueKind::DuplicateKey => {
                write!(f, "Duplicate key: '{param}'; each key may appear only once")
            }
            IssueKind::NotInEnum => {
                write!(f, "Parameter '{param}': expected one of ")?;
                let (allowed, got) = match &self.detail {
                    Some(Detail::Enum { allowed, got }) => (&allowed[..], Some(got)),
                    _ => (&[][..], None),
                };
                for (index, value) in allowed.iter().take(ENUM_SHOWN).enumerate() {
                    if index > 0 {
                        f.write_str(", ")?;
                    }
                    write_value(f, value, echo)?;
                }
                if allowed.len() > ENUM_SHOWN {
                    write!(f, ", ... ({} more)", allowed.len() - ENUM_SHOWN)?;
                }
                f.write_str(", got ")?;
                match got {
                    Some(got) => write_value(f, got, echo),
                    None => f.write_str("another value"),
                }
            }
            IssueKind::BelowMinimum
            | IssueKind::AboveMaximum
            | IssueKind::TooShort
            | IssueKind::TooLong => {
                write!(f, "Parameter '{param}': ")?;
                match (self.violation(), self.expected) {
                    (Some(violation), Some(ty)) => rules::write_bound(f, violation, ty),
                    _ => f.write_str("out of bounds"),
                }
            }
        }
    }
}

/// How many `enum` values a message lists.
const ENUM_SHOWN: usize = 10;

/// A value in a message: a string quoted, escaped and cut; a number as is.
fn write_value(f: &mut dyn fmt::Write, value: &Literal, echo: usize) -> fmt::Result {
    match value {
        Literal::String(s) => write!(f, "'{}'", crate::model_text::Escaped(s, echo)),
        other => rules::write_enum_value(f, other),
    }
}

impl fmt::Display for ValidationIssue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_message(f, crate::model_text::TextLimits::DEFAULT.max_echo_chars())
    }
}

impl Serialize for ValidationIssue {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("ValidationIssue", 6)?;
        s.serialize_field("kind", &self.kind)?;
        s.serialize_field("param", &self.param)?;
        s.serialize_field("expected", &self.expected.map(ParamType::as_str))?;
        s.serialize_field("got", &self.got.map(ValueKind::as_str))?;
        match &self.detail {
            Some(Detail::Suggestion(suggestion)) => {
                s.serialize_field("suggestion", suggestion)?;
            }
            Some(detail @ (Detail::Json(_) | Detail::JsonMessage(_))) => {
                s.serialize_field("parser_message", &detail.json_message())?;
            }
            Some(Detail::Enum { allowed, got }) => {
                s.serialize_field("allowed", allowed)?;
                s.serialize_field("value", got)?;
            }
            Some(Detail::Limit { limit, got }) => {
                s.serialize_field("limit", &limit.to_literal())?;
                s.serialize_field("measured", &got.to_literal())?;
            }
            None => s.skip_field("suggestion")?,
        }
        s.serialize_field("message", &self.to_string())?;
        s.end()
    }
}

/// Reads back what [`Serialize`] wrote (the `message` is derived, and ignored), so that a
/// recorded failure replays with the same issues.
impl<'de> Deserialize<'de> for ValidationIssue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Fields {
            kind: IssueKind,
            #[serde(default)]
            param: Option<String>,
            #[serde(default)]
            expected: Option<String>,
            #[serde(default)]
            got: Option<String>,
            #[serde(default)]
            suggestion: Option<String>,
            #[serde(default)]
            parser_message: Option<String>,
            #[serde(default)]
            allowed: Option<Vec<Value>>,
            #[serde(default)]
            value: Option<Value>,
            #[serde(default)]
            limit: Option<serde_json::Number>,
            #[serde(default)]
            measured: Option<serde_json::Number>,
        }
        let fields = Fields::deserialize(deserializer)?;
        let expected = match fields.expected {
            None => None,
            Some(name) => Some(ParamType::from_name(&name).ok_or_else(|| {
                D::Error::custom(format_args!("unknown parameter type '{name}'"))
            })?),
        };
        let got = match fields.got {
            None => None,
            Some(name) => Some(
                value_kind_named(&name)
                    .ok_or_else(|| D::Error::custom(format_args!("unknown value kind '{name}'")))?,
            ),
        };
        let number = |n: serde_json::Number| match n.as_i64() {
            Some(i) => Number::Integer(i),
            None => Number::Float(n.as_f64().unwrap_or(f64::NAN)),
        };
        let detail = match (fields.suggestion, fields.parser_message) {
            (Some(suggestion), _) => Some(Detail::Suggestion(Cow::Owned(suggestion))),
            (None, Some(message)) => Some(Detail::JsonMessage(message)),
            (None, None) => match (fields.allowed, fields.limit) {
                (Some(allowed), _) => Some(Detail::Enum {
                    allowed: Cow::Owned(allowed.into_iter().map(Literal::from).collect()),
                    got: fields.value.map_or(Literal::Null, Literal::from),
                }),
                (None, Some(limit)) => Some(Detail::Limit {
                    limit: number(limit),
                    got: fields.measured.map_or(Number::Integer(0), number),
                }),
                (None, None) => None,
            },
        };
        Ok(ValidationIssue {
            kind: fields.kind,
            param: fields.param.map(Cow::Owned),
            expected,
            got,
            detail,
        })
    }
}

fn value_kind_named(name: &str) -> Option<ValueKind> {
    [
        ValueKind::Null,
        ValueKind::Boolean,
        ValueKind::Integer,
        ValueKind::Float,
        ValueKind::String,
        ValueKind::List,
        ValueKind::Dictionary,
    ]
    .into_iter()
    .find(|kind| kind.as_str() == name)
}
