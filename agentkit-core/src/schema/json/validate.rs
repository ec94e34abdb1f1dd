//! Validation: a walk of the compiled arena along the value, each keyword checked by its
//! family's file, the issues collected with their paths. Subschemas whose failure is not
//! itself the problem (a union's variants, `not`, `if`) run quietly; the union then says
//! which variant's problems to report.

use std::borrow::Cow;

use serde_json::Value;

use super::Compiled;
use super::keywords;
use super::node::{Keyword, NodeId};
use super::verdict::{Budget, Verdict};
use crate::schema::issue::{IssueKind, Issues, ValidationIssue};
use crate::schema::validate::UnknownArguments;

/// Validates `value` against the schema into `issues`.
pub(super) fn validate(
    schema: &Compiled,
    value: &Value,
    unknown: UnknownArguments,
    issues: &mut Issues,
) {
    // Most values are valid: the verdict walk, which keeps no path, issue or annotation,
    // says so at less cost than this walk, which would find nothing to report (the two
    // agree, and count the same evaluations, so the limits cannot tell them apart). Only an
    // invalid value is walked again, for its issues. Where a `$dynamicRef` reads the dynamic
    // scope, the verdict would be this walk's own, quiet: it is not asked first.
    if !schema.arena.dynamic {
        let close = unknown == UnknownArguments::Reject;
        let mut walk = Verdict::new(schema, close, Budget::new(schema));
        if walk.node(schema.arena.root, value) && !walk.budget.exhausted {
            return;
        }
    }
    let sink = std::mem::replace(issues, Issues::with_cap(0));
    let mut cx = Cx::new(schema, unknown, sink, false);
    cx.node(schema.arena.root, value, Loc::Root, None);
    cx.conclude();
    *issues = cx.issues;
}

/// Whether `value` is valid, without a message made. Inlined in `JsonSchema::is_valid`: a
/// call less per verdict.
#[inline]
pub(super) fn is_valid(schema: &Compiled, value: &Value, unknown: UnknownArguments) -> bool {
    if !schema.arena.dynamic {
        let close = unknown == UnknownArguments::Reject;
        let mut walk = Verdict::new(schema, close, Budget::new(schema));
        return walk.node(schema.arena.root, value) && !walk.budget.exhausted;
    }
    let mut budget = usize::MAX;
    verdict(schema, schema.arena.root, value, unknown, &mut budget)
}

/// Whether `value` is valid against node `id`, spending at most `budget` evaluations (what
/// is left of it is written back).
pub(super) fn is_valid_at(
    schema: &Compiled,
    id: NodeId,
    value: &Value,
    budget: &mut usize,
) -> bool {
    verdict(schema, id, value, UnknownArguments::Reject, budget)
}

/// The verdict on node `id` with `budget` evaluations left: the verdict walk's, or, where a
/// `$dynamicRef` reads the dynamic scope, the full walk's, which keeps it.
fn verdict(
    schema: &Compiled,
    id: NodeId,
    value: &Value,
    unknown: UnknownArguments,
    budget: &mut usize,
) -> bool {
    let close = unknown == UnknownArguments::Reject;
    let mut spent = Budget::new(schema);
    let max = spent.max_visits;
    spent.visits = max.saturating_sub(*budget);
    let (valid, spent) = if schema.arena.dynamic {
        // The dynamic scope is the full walk's to keep.
        let mut cx = Cx::quiet(schema, close, spent);
        (cx.node(id, value, Loc::Root, None), cx.budget)
    } else {
        let mut walk = Verdict::new(schema, close, spent);
        (walk.node(id, value), walk.budget)
    };
    *budget = max.saturating_sub(spent.visits);
    valid && !spent.exhausted
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
    /// `stops[1].city`; each key a bounded copy (it is the model's).
    pub(super) fn name(self) -> Option<Cow<'static, str>> {
        if let Loc::Root = self {
            return None;
        }
        // Sized first, then written in one pass: one allocation for the name.
        let mut len = 0;
        let mut at = self;
        loop {
            match at {
                Loc::Root => break,
                Loc::Key(parent, key) => {
                    len += 1 + key.len().min(crate::model_text::CAPTURE_BYTES + 3);
                    at = *parent;
                }
                Loc::Index(parent, _) => {
                    len += 2 + 20;
                    at = *parent;
                }
            }
        }
        let mut name = String::with_capacity(len);
        self.write(&mut name);
        Some(Cow::Owned(name))
    }

    /// Writes the name of this place after its parent's (nothing at the root).
    fn write(self, name: &mut String) {
        match self {
            Loc::Root => {}
            Loc::Key(parent, key) => {
                parent.write(name);
                if !name.is_empty() {
                    name.push('.');
                }
                crate::model_text::push_captured(name, key);
            }
            Loc::Index(parent, index) => {
                parent.write(name);
                name.push('[');
                push_index(name, index);
                name.push(']');
            }
        }
    }

    /// The name of the member `key` of the object at this place.
    pub(super) fn member(self, key: &str) -> Cow<'static, str> {
        Loc::Key(&self, key).name().unwrap_or(Cow::Borrowed(""))
    }
}

/// `index` in decimal, without the formatting machinery.
fn push_index(name: &mut String, mut index: usize) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (index % 10) as u8;
        index /= 10;
        if index == 0 {
            break;
        }
    }
    for &digit in &digits[at..] {
        name.push(char::from(digit));
    }
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
    /// The evaluations and depth spent, and the limits (copied from the options: read at
    /// every node).
    pub(super) budget: Budget,
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
            budget: Budget::new(schema),
            scope: Vec::new(),
        }
    }

    /// A quiet walk that goes on with `budget`: for a node the verdict walk leaves to it.
    pub(super) fn quiet(schema: &'s Compiled, close: bool, budget: Budget) -> Self {
        Cx {
            schema,
            issues: Issues::with_cap(0),
            quiet: true,
            close,
            budget,
            scope: Vec::new(),
        }
    }

    /// Runs `f` on the verdict walk, which goes on with this walk's budget.
    fn verdict<T>(&mut self, f: impl FnOnce(&mut Verdict<'s>) -> T) -> T {
        let mut verdict = Verdict::new(self.schema, self.close, self.budget);
        let result = f(&mut verdict);
        self.budget = verdict.budget;
        result
    }

    fn conclude(&mut self) {
        if self.budget.exhausted {
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
    /// A verdict alone (quiet, nothing evaluated wanted) is the verdict walk's. Otherwise
    /// small and inlined where it is called: a node whose keywords check the value alone (a
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
        if self.quiet && eval.is_none() && !self.schema.arena.dynamic {
            return self.verdict(|v| v.node(id, value));
        }
        let (id, hops) = match self.budget.reach(&self.schema.arena.nodes, id) {
            Ok(reached) => reached,
            Err(verdict) => return verdict,
        };
        self.reached(id, hops, value, loc, eval)
    }

    /// The quiet verdict on node `id`, its visit already counted by the verdict walk (and
    /// its hops added to the depth).
    pub(super) fn checked(&mut self, id: NodeId, value: &Value) -> bool {
        self.reached(id, 0, value, Loc::Root, None)
    }

    /// A keyword's quiet verdict, for the verdict walk.
    pub(super) fn keyword_verdict(&mut self, id: NodeId, keyword: &Keyword, value: &Value) -> bool {
        self.keyword(id, keyword, value, Loc::Root, None)
    }

    /// [`Cx::node`] once node `id` is reached, `hops` `$ref`s below where it was named.
    #[inline]
    fn reached(
        &mut self,
        id: NodeId,
        hops: usize,
        value: &Value,
        loc: Loc<'_>,
        eval: Option<&mut Evaluated>,
    ) -> bool {
        let node = &self.schema.arena.nodes[id as usize];
        if !node.leaf {
            self.budget.depth += hops;
            let valid = self.enter(id, value, loc, eval);
            self.budget.depth -= hops;
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
            return self.verdict(|v| v.shape(shape, node, value, eval));
        }
        // Only a `$dynamicRef` reads the dynamic scope: without one, it is not kept.
        let entered = schema.arena.dynamic && self.scope.last() != Some(&node.resource);
        if entered {
            self.scope.push(node.resource);
        }
        self.budget.depth += 1;
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
        self.budget.depth -= 1;
        if entered {
            self.scope.pop();
        }
        valid && !self.budget.exhausted
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
            let ok = match keywords::holds_inlined(keyword, value) {
                Some(true) => true,
                Some(false) if self.quiet => false,
                // Checked (again, to report why).
                _ => self.keyword(id, keyword, value, loc, eval.as_deref_mut()),
            };
            if !ok {
                valid = false;
                if self.quiet || self.budget.exhausted {
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

#[cfg(test)]
mod tests {
    use super::Loc;
    use crate::model_text::CAPTURE_BYTES;

    fn name(loc: Loc<'_>) -> Option<String> {
        loc.name().map(|n| n.into_owned())
    }

    #[test]
    fn names_join_keys_with_dots_and_put_indices_in_brackets() {
        assert_eq!(name(Loc::Root), None);
        let stops = Loc::Key(&Loc::Root, "stops");
        assert_eq!(name(stops), Some("stops".to_owned()));
        let stop = Loc::Index(&stops, 1);
        assert_eq!(
            name(Loc::Key(&stop, "city")),
            Some("stops[1].city".to_owned())
        );
        assert_eq!(stop.member("city"), "stops[1].city");
        for index in [0, 9, 10, 1_234_567, usize::MAX] {
            assert_eq!(
                name(Loc::Index(&Loc::Root, index)),
                Some(format!("[{index}]"))
            );
        }
        let nested = Loc::Index(&Loc::Index(&stops, 12), 0);
        assert_eq!(name(nested), Some("stops[12][0]".to_owned()));
        // An empty key adds no dot before the next.
        let empty = Loc::Key(&Loc::Root, "");
        assert_eq!(name(Loc::Key(&empty, "a")), Some("a".to_owned()));
    }

    #[test]
    fn names_bound_each_key_on_a_character_boundary() {
        let long = "é".repeat(CAPTURE_BYTES);
        let first = Loc::Key(&Loc::Root, &long);
        let second = Loc::Key(&first, &long);
        let name = name(second).expect("a name");
        let (a, b) = name.split_once('.').expect("two keys");
        for part in [a, b] {
            assert!(
                part.len() <= CAPTURE_BYTES + '…'.len_utf8(),
                "{}",
                part.len()
            );
            assert!(part.ends_with('…'));
            assert!(part.trim_end_matches('…').chars().all(|c| c == 'é'));
        }
    }
}
