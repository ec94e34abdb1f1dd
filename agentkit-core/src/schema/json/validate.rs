//! Validation: a walk of the compiled arena along the value, each keyword checked by its
//! family's file, the issues collected with their paths. Subschemas whose failure is not
//! itself the problem (a union's variants, `not`, `if`) run quietly; the union then says
//! which variant's problems to report.

use std::borrow::Cow;

use serde_json::Value;

use super::Compiled;
use super::compile::TRUE;
use super::keywords;
use super::node::{Keyword, NodeId, Shape, Types};
use crate::schema::issue::{IssueKind, Issues, ValidationIssue};
use crate::schema::validate::UnknownArguments;

/// Validates `value` against the schema into `issues`.
pub(super) fn validate(
    schema: &Compiled,
    value: &Value,
    unknown: UnknownArguments,
    issues: &mut Issues,
) {
    let sink = std::mem::replace(issues, Issues::with_cap(0));
    let mut cx = Cx::new(schema, unknown, sink, false);
    cx.node(schema.arena.root, value, Loc::Root, None);
    cx.conclude();
    *issues = cx.issues;
}

/// Whether `value` is valid, without a message made.
pub(super) fn is_valid(schema: &Compiled, value: &Value, unknown: UnknownArguments) -> bool {
    let mut cx = Cx::new(schema, unknown, Issues::with_cap(0), true);
    cx.node(schema.arena.root, value, Loc::Root, None) && !cx.exhausted
}

/// Whether `value` is valid against node `id`, spending at most `budget` evaluations (what
/// is left of it is written back).
pub(super) fn is_valid_at(
    schema: &Compiled,
    id: NodeId,
    value: &Value,
    budget: &mut usize,
) -> bool {
    let max = schema.options.limits.max_evaluations;
    let mut cx = Cx::new(schema, UnknownArguments::Reject, Issues::with_cap(0), true);
    cx.visits = max.saturating_sub(*budget);
    let valid = cx.node(id, value, Loc::Root, None) && !cx.exhausted;
    *budget = max.saturating_sub(cx.visits);
    valid
}

/// Where a value sits in the validated value, for the names in issues: rendered only when
/// an issue is reported.
#[derive(Clone, Copy)]
pub(super) enum Loc<'a> {
    Root,
    Key(&'a Loc<'a>, &'a str),
    Index(&'a Loc<'a>, usize),
}

impl Loc<'_> {
    /// The name issues give the value: `None` at the root, else `address.city`,
    /// `stops[1].city`.
    pub(super) fn name(self) -> Option<Cow<'static, str>> {
        // A member of the top level, the most common: its key alone.
        if let Loc::Key(Loc::Root, key) = self {
            return Some(Cow::Owned(crate::model_text::capture(key)));
        }
        let mut parts = Vec::new();
        let mut at = self;
        loop {
            match at {
                Loc::Root => break,
                Loc::Key(parent, key) => {
                    parts.push(Part::Key(key));
                    at = *parent;
                }
                Loc::Index(parent, index) => {
                    parts.push(Part::Index(index));
                    at = *parent;
                }
            }
        }
        if parts.is_empty() {
            return None;
        }
        let mut name = String::new();
        for part in parts.iter().rev() {
            match part {
                Part::Key(key) => {
                    if !name.is_empty() {
                        name.push('.');
                    }
                    // The key is the model's: a bounded copy of it.
                    name.push_str(&crate::model_text::capture(key));
                }
                Part::Index(index) => {
                    name.push('[');
                    name.push_str(&index.to_string());
                    name.push(']');
                }
            }
        }
        Some(Cow::Owned(name))
    }

    /// The name of the member `key` of the object at this place.
    pub(super) fn member(self, key: &str) -> Cow<'static, str> {
        Loc::Key(&self, key).name().unwrap_or(Cow::Borrowed(""))
    }
}

enum Part<'a> {
    Key(&'a str),
    Index(usize),
}

/// What the keywords of a schema evaluated of an object or array, for
/// `unevaluatedProperties` and `unevaluatedItems`.
#[derive(Debug, Default)]
pub(super) struct Evaluated {
    /// Per key of the object, by its position in the object.
    props: Vec<bool>,
    all_props: bool,
    /// Items before this index were evaluated.
    items_upto: usize,
    items: Vec<bool>,
    all_items: bool,
}

impl Evaluated {
    pub(super) fn prop(&mut self, index: usize) {
        if self.props.len() <= index {
            self.props.resize(index + 1, false);
        }
        self.props[index] = true;
    }

    pub(super) fn all_props(&mut self) {
        self.all_props = true;
    }

    pub(super) fn has_prop(&self, index: usize) -> bool {
        self.all_props || self.props.get(index).copied().unwrap_or(false)
    }

    pub(super) fn items_upto(&mut self, n: usize) {
        self.items_upto = self.items_upto.max(n);
    }

    pub(super) fn item(&mut self, index: usize) {
        if self.items.len() <= index {
            self.items.resize(index + 1, false);
        }
        self.items[index] = true;
    }

    pub(super) fn all_items(&mut self) {
        self.all_items = true;
    }

    pub(super) fn has_item(&self, index: usize) -> bool {
        self.all_items || index < self.items_upto || self.items.get(index).copied().unwrap_or(false)
    }

    pub(super) fn merge(&mut self, other: Evaluated) {
        self.all_props |= other.all_props;
        self.all_items |= other.all_items;
        self.items_upto = self.items_upto.max(other.items_upto);
        for (i, seen) in other.props.into_iter().enumerate() {
            if seen {
                self.prop(i);
            }
        }
        for (i, seen) in other.items.into_iter().enumerate() {
            if seen {
                self.item(i);
            }
        }
    }
}

/// One validation's state.
pub(super) struct Cx<'s> {
    pub(super) schema: &'s Compiled,
    pub(super) issues: Issues,
    /// No issue is wanted, only whether the value is valid: keywords may stop early.
    pub(super) quiet: bool,
    /// Whether implicitly closed objects refuse undeclared keys.
    pub(super) close: bool,
    visits: usize,
    depth: usize,
    /// The limits, copied here from the options: read at every node. `max_visits` is 0 once
    /// exhausted, so that every node after fails at its first check.
    max_visits: usize,
    max_depth: usize,
    pub(super) exhausted: bool,
    /// The schema resources entered, outermost first: `$dynamicRef`'s dynamic scope.
    pub(super) scope: Vec<u32>,
}

impl<'s> Cx<'s> {
    fn new(schema: &'s Compiled, unknown: UnknownArguments, issues: Issues, quiet: bool) -> Self {
        Cx {
            schema,
            issues,
            quiet,
            close: unknown == UnknownArguments::Reject,
            visits: 0,
            depth: 0,
            max_visits: schema.options.limits.max_evaluations,
            max_depth: schema.options.limits.max_eval_depth,
            exhausted: false,
            scope: Vec::new(),
        }
    }

    fn conclude(&mut self) {
        if self.exhausted {
            let limits = &self.schema.options.limits;
            let message = format!(
                "could not be validated: it needs more than {} subschema evaluations or a \
                 nesting deeper than {}",
                limits.max_evaluations, limits.max_eval_depth
            );
            self.issues.push(|| {
                ValidationIssue::schema(IssueKind::TooComplex, None, "$ref", None, message)
            });
        }
    }

    /// Reports the issue `make` builds, unless quiet.
    #[inline]
    pub(super) fn report(&mut self, make: impl FnOnce() -> ValidationIssue) {
        if !self.quiet {
            self.issues.push(make);
        }
    }

    /// Runs `f` without reporting: for a subschema whose failure is not itself the problem.
    pub(super) fn quietly<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        let quiet = std::mem::replace(&mut self.quiet, true);
        let result = f(self);
        self.quiet = quiet;
        result
    }

    /// Validates `value` against node `id`; `eval`, when given, learns what was evaluated.
    ///
    /// Small and inlined where it is called: a node whose keywords check the value alone (a
    /// property's `type` and bounds, most nodes) is checked here, each keyword's verdict
    /// reached without its message (made only for a keyword that fails); the others go on to
    /// [`Cx::enter`].
    #[inline]
    pub(super) fn node(
        &mut self,
        id: NodeId,
        value: &Value,
        loc: Loc<'_>,
        eval: Option<&mut Evaluated>,
    ) -> bool {
        let nodes = &self.schema.arena.nodes;
        let (mut id, mut hops) = (id, 0);
        let node = loop {
            if id == TRUE {
                return true;
            }
            self.visits += 1;
            if self.visits > self.max_visits || self.depth + hops >= self.max_depth {
                self.exhausted = true;
                self.max_visits = 0;
                return false;
            }
            let node = &nodes[id as usize];
            match node.alias {
                Some(target) => {
                    id = target;
                    hops += 1;
                }
                None => break node,
            }
        };
        if !node.leaf {
            self.depth += hops;
            let valid = self.enter(id, value, loc, eval);
            self.depth -= hops;
            return valid;
        }
        // No subschema to enter: no depth, scope or annotations to keep.
        if let Some(quick) = &node.quick {
            if keywords::quick_holds(quick, &node.keywords, value) {
                return true;
            }
            if self.quiet {
                return false;
            }
        }
        let mut valid = true;
        for keyword in &node.keywords {
            let ok = match keywords::holds(keyword, value) {
                Some(true) => true,
                // Checked again, to report why.
                Some(false) if !self.quiet => {
                    self.keyword(id, keyword, value, loc, None);
                    false
                }
                Some(false) => false,
                None => self.keyword(id, keyword, value, loc, None),
            };
            if !ok {
                valid = false;
                if self.quiet {
                    break;
                }
            }
        }
        valid
    }

    /// [`Cx::node`] for a node with subschemas: its keywords in turn, with the walk's
    /// bookkeeping (depth, dynamic scope, evaluated keys and items).
    #[inline(never)]
    fn enter(
        &mut self,
        id: NodeId,
        value: &Value,
        loc: Loc<'_>,
        eval: Option<&mut Evaluated>,
    ) -> bool {
        let schema = self.schema;
        let node = &schema.arena.nodes[id as usize];
        if node.reject {
            self.report(|| keywords::not_allowed(loc));
            return false;
        }
        // The verdict alone of a common object node: one pass (an implicitly closed node
        // that the policy leaves open marks what it evaluated key by key: the full walk).
        if let Some(shape) = node.shape
            && self.quiet
            && !schema.arena.dynamic
            && (self.close || !node.collects)
        {
            return self.shape(shape, &node.keywords, node.collects, value, loc, eval);
        }
        // Only a `$dynamicRef` reads the dynamic scope: without one, it is not kept.
        let entered = schema.arena.dynamic && self.scope.last() != Some(&node.resource);
        if entered {
            self.scope.push(node.resource);
        }
        self.depth += 1;
        let valid = if node.collects {
            let mut own = Evaluated::default();
            let valid = self.keywords(id, &node.keywords, value, loc, Some(&mut own));
            // A failing node's annotations count only where its failure is the value's:
            // outside a quiet branch, every node up to the value's root fails with it, so
            // they cannot make anything valid, and they keep the keys it knows from being
            // reported as unknown.
            if let (true, Some(parent)) = (valid || !self.quiet, eval) {
                parent.merge(own);
            }
            valid
        } else {
            self.keywords(id, &node.keywords, value, loc, eval)
        };
        self.depth -= 1;
        if entered {
            self.scope.pop();
        }
        valid && !self.exhausted
    }

    /// [`Cx::enter`]'s verdict for a node of [`Shape`]: the value's type, then each key of
    /// an object matched to its schema, the required names found by a mask; the keys
    /// evaluated noted in `eval` as `properties` and the implicit closing would note them.
    fn shape(
        &mut self,
        shape: Shape,
        keywords: &[Keyword],
        collects: bool,
        value: &Value,
        loc: Loc<'_>,
        mut eval: Option<&mut Evaluated>,
    ) -> bool {
        let Value::Object(object) = value else {
            return keywords::types::matches(shape.types, value);
        };
        let Keyword::Properties(properties) = &keywords[shape.properties] else {
            return false;
        };
        if !shape.types.contains(Types::OBJECT) {
            return false;
        }
        let named = &properties.named;
        // A key `properties` does not name meets `additionalProperties` (refused when it is
        // `false`), or the implicit closing when the node has it (it collects for nothing
        // else), or nothing.
        let refused = properties.closed || (collects && self.close);
        self.depth += 1;
        let mut valid = true;
        let mut found: u64 = 0;
        // Keys and names both in name order: each name looked for from after the last one
        // found (see `check_properties`).
        let mut next = 0;
        for (i, (key, member)) in object.iter().enumerate() {
            let position = named[next..]
                .iter()
                .position(|(name, _)| name.len() == key.len() && name == key)
                .map(|p| next + p)
                .or_else(|| properties.position(key));
            let schema = match position {
                Some(j) => {
                    next = j + 1;
                    found |= 1 << j;
                    named[j].1
                }
                None if refused => {
                    valid = false;
                    break;
                }
                None => match properties.additional {
                    Some(schema) => schema,
                    None => continue,
                },
            };
            if !self.node(schema, member, Loc::Key(&loc, key), None) {
                valid = false;
                break;
            }
            // A collecting node's own annotations reach `eval` only if it holds (below).
            if let (false, Some(eval)) = (collects, eval.as_deref_mut()) {
                eval.prop(i);
            }
        }
        self.depth -= 1;
        valid &= found & shape.required == shape.required && !self.exhausted;
        // Closed, the node evaluated every key it holds.
        if let (true, true, Some(eval)) = (valid, collects, eval) {
            eval.all_props();
        }
        valid
    }

    /// The keywords of node `id` in turn; those that check the value alone reach their
    /// verdict first, without their message.
    fn keywords(
        &mut self,
        id: NodeId,
        keywords: &'s [Keyword],
        value: &Value,
        loc: Loc<'_>,
        mut eval: Option<&mut Evaluated>,
    ) -> bool {
        let mut valid = true;
        for keyword in keywords {
            let ok = match keywords::holds(keyword, value) {
                Some(true) => true,
                Some(false) if self.quiet => false,
                // Checked (again, to report why).
                _ => self.keyword(id, keyword, value, loc, eval.as_deref_mut()),
            };
            if !ok {
                valid = false;
                if self.quiet || self.exhausted {
                    break;
                }
            }
        }
        valid
    }

    fn keyword(
        &mut self,
        id: NodeId,
        keyword: &Keyword,
        value: &Value,
        loc: Loc<'_>,
        eval: Option<&mut Evaluated>,
    ) -> bool {
        use keywords::{arrays, composition, conditionals, numbers, objects, refs, strings, types};
        match keyword {
            Keyword::Type(t) => types::check_type(self, *t, value, loc),
            Keyword::Enum(values) => types::check_enum(self, values, value, loc),
            Keyword::Const(expected) => types::check_const(self, expected, value, loc),
            Keyword::Minimum(_)
            | Keyword::Maximum(_)
            | Keyword::ExclusiveMinimum(_)
            | Keyword::ExclusiveMaximum(_)
            | Keyword::MultipleOf(_) => numbers::check(self, keyword, value, loc),
            Keyword::MinLength(_)
            | Keyword::MaxLength(_)
            | Keyword::Pattern(_)
            | Keyword::Format(_) => strings::check(self, keyword, value, loc),
            Keyword::Items { prefix, rest } => {
                arrays::check_items(self, prefix, *rest, value, loc, eval)
            }
            Keyword::Contains { schema, min, max } => {
                arrays::check_contains(self, *schema, *min, *max, value, loc, eval)
            }
            Keyword::MinItems(_) | Keyword::MaxItems(_) | Keyword::UniqueItems => {
                arrays::check_size(self, keyword, value, loc)
            }
            Keyword::UnevaluatedItems(schema) => {
                arrays::check_unevaluated(self, *schema, value, loc, eval)
            }
            Keyword::Properties(properties) => {
                objects::check_properties(self, properties, value, loc, eval)
            }
            Keyword::PropertyNames(schema) => objects::check_names(self, *schema, value, loc),
            Keyword::Required(names) => objects::check_required(self, names, value, loc),
            Keyword::MinProperties(_) | Keyword::MaxProperties(_) => {
                objects::check_size(self, keyword, value, loc)
            }
            Keyword::DependentRequired(deps) => {
                objects::check_dependent_required(self, deps, value, loc)
            }
            Keyword::DependentSchemas(deps) => {
                objects::check_dependent_schemas(self, deps, value, loc, eval)
            }
            Keyword::UnevaluatedProperties { schema, implicit } => {
                if *implicit && !self.close {
                    return true;
                }
                objects::check_unevaluated(self, id, *schema, value, loc, eval)
            }
            Keyword::AllOf(branches) => composition::all_of(self, branches, value, loc, eval),
            Keyword::AnyOf(branches) => composition::any_of(self, branches, value, loc, eval),
            Keyword::OneOf(branches) => composition::one_of(self, branches, value, loc, eval),
            Keyword::Not(schema) => composition::not(self, *schema, value, loc),
            Keyword::IfThenElse {
                condition,
                then,
                otherwise,
            } => conditionals::check(self, *condition, *then, *otherwise, value, loc, eval),
            Keyword::Ref(target) => self.node(*target, value, loc, eval),
            Keyword::DynamicRef { target, anchor } => {
                let target = refs::dynamic_target(self, *target, anchor.as_deref());
                self.node(target, value, loc, eval)
            }
        }
    }

    /// A sibling sink for issues: the caller decides whether to keep what it collects.
    pub(super) fn collect<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> (T, Issues) {
        let fresh = self.issues.sibling();
        let outer = std::mem::replace(&mut self.issues, fresh);
        let quiet = std::mem::replace(&mut self.quiet, false);
        let result = f(self);
        self.quiet = quiet;
        let inner = std::mem::replace(&mut self.issues, outer);
        (result, inner)
    }
}
