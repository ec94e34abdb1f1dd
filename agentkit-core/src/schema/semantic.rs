//! The declaration checks: [`SemanticError`], which lists every problem of a schema or spec
//! built from data at run time, and the checks a [`ToolSchema`] runs when it is built. The
//! rules and their words are the shared ones (`crate::rules`), which `#[tool(...)]` applies at
//! compile time.

use std::borrow::Cow;
use std::fmt;

use super::param::{Param, ToolSchema};
use crate::rules::{self, Constraints, Literal, NameKind, ParamType, Problem};

/// A malformed tool declaration or registration, listing every problem at once.
///
/// Returned when a schema or spec is built from data at run time (a tool declared with
/// `#[tool(...)]` has these problems refused by the compiler instead, in the same words),
/// and by [`ToolRegistry::register`](crate::ToolRegistry::register) for a duplicate name.
///
/// ```
/// use agentkit_core::ToolSchema;
/// use serde_json::json;
///
/// let err = ToolSchema::from_value(json!({"parameters": [
///     {"name": "count", "type": "intger"},
///     {"name": "units", "type": "string", "requred": false},
/// ]})).unwrap_err();
/// assert_eq!(err.problems().len(), 2);
/// assert_eq!(err.to_string(), "\
/// invalid tool declaration (2 problems):
///   parameters[0] ('count'): unknown type 'intger'; did you mean 'integer'?
///   parameters[1] ('units'): unknown key 'requred'; did you mean 'required'?");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct SemanticError {
    problems: Vec<SemanticProblem>,
}

/// One problem of a [`SemanticError`]: where, and what.
#[derive(Debug, Clone, PartialEq)]
pub struct SemanticProblem {
    location: String,
    problem: Problem,
}

impl SemanticProblem {
    pub(crate) fn new(location: String, problem: Problem) -> Self {
        SemanticProblem { location, problem }
    }

    /// Where the problem is, such as `input parameters[1] ('units')`; empty for the tool
    /// itself.
    pub fn location(&self) -> &str {
        &self.location
    }

    /// What the problem is.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }
}

impl SemanticProblem {
    /// The same problem, located inside a `fields` list: `parameters[0] ('city')` becomes
    /// `{prefix}fields[0] ('city')`.
    pub(crate) fn prefixed(mut self, prefix: &str, from: &str, to: &str) -> Self {
        self.location = format!("{prefix}{}", self.location.replacen(from, to, 1));
        self
    }
}

impl fmt::Display for SemanticProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.location.is_empty() {
            write!(f, "{}", self.problem)
        } else {
            write!(f, "{}: {}", self.location, self.problem)
        }
    }
}

impl SemanticError {
    pub(crate) fn new(problems: Vec<SemanticProblem>) -> Self {
        debug_assert!(!problems.is_empty());
        SemanticError { problems }
    }

    pub(crate) fn single(problem: Problem) -> Self {
        SemanticError::new(vec![SemanticProblem::new(String::new(), problem)])
    }

    pub(crate) fn prefixed(mut self, prefix: &str) -> Self {
        for p in &mut self.problems {
            p.location = if p.location.is_empty() {
                prefix.to_owned()
            } else {
                format!("{prefix} {}", p.location)
            };
        }
        self
    }

    pub(crate) fn into_problems(self) -> Vec<SemanticProblem> {
        self.problems
    }

    /// Every problem found, in declaration order.
    pub fn problems(&self) -> &[SemanticProblem] {
        &self.problems
    }
}

impl fmt::Display for SemanticError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let [only] = self.problems.as_slice() {
            return write!(f, "invalid tool declaration: {only}");
        }
        write!(
            f,
            "invalid tool declaration ({} problems):",
            self.problems.len()
        )?;
        for problem in &self.problems {
            write!(f, "\n  {problem}")?;
        }
        Ok(())
    }
}

impl std::error::Error for SemanticError {}

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
}

impl Param {
    /// The declaration as the default rules read it, with its fields at any depth.
    pub(crate) fn decl(&self) -> rules::Decl<'_> {
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
        if self.fields.is_some()
            && let Err(p) = rules::check_fields_place(&self.name, self.ty, self.items)
        {
            problems.push(p);
        }
        problems
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
