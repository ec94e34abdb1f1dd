//! The parameter model: a [`Param`] (the Python original's `name`, `type`, `required`,
//! `default` and `description`, and the constraints it lacks) and the [`ToolSchema`] that lists
//! them. What a schema does lives beside it: its declaration checks in `semantic`, validation
//! in `validate`, its JSON shapes in `serde` and `json_schema`.

use std::borrow::Cow;

use crate::rules::{Constraints, Literal, Number, ParamType};

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
    pub(super) name: Cow<'static, str>,
    pub(super) ty: ParamType,
    pub(super) required: bool,
    pub(super) default: Option<Literal>,
    pub(super) description: Cow<'static, str>,
    pub(super) items: Option<ParamType>,
    pub(super) fields: Option<ToolSchema>,
    pub(super) constraints: Constraints,
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

    /// The name in a `const` (empty unless it is `static`): read by the compile-time
    /// checks of `#[derive(ToolParams)]`. Not public API.
    #[doc(hidden)]
    pub const fn static_name(&self) -> &str {
        match &self.name {
            Cow::Borrowed(name) => name,
            Cow::Owned(_) => "",
        }
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
}

/// A declarative schema for a tool's inputs or outputs: the Python original's `ToolSchema`.
///
/// Construction checks every rule and reports every problem at once in a
/// [`SemanticError`](crate::SemanticError); a `ToolSchema` that exists is well formed.
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
    pub(super) parameters: Cow<'static, [Param]>,
}

impl ToolSchema {
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

    /// The parameters, in declaration order.
    pub fn parameters(&self) -> &[Param] {
        &self.parameters
    }

    /// The parameter called `name`.
    pub fn parameter(&self, name: &str) -> Option<&Param> {
        self.parameters.iter().find(|p| p.name() == name)
    }
}

impl Default for ToolSchema {
    fn default() -> Self {
        ToolSchema::empty()
    }
}
