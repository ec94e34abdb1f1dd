//! The verdict alone: whether a value is valid, by a walk of the compiled arena that keeps no
//! issue, path or annotation. [`JsonSchema::is_valid`](super::JsonSchema::is_valid) takes it,
//! and so does every subschema the full walk ([`Cx`]) runs quietly without wanting what it
//! evaluated (a union's branches, `not`, `if`).
//!
//! It takes the nodes of the common kinds itself (see [`Plan`]), each in one pass: a leaf
//! (`type`, bounds, `enum`, ...), an object of `properties`, and a node of `$ref`, `allOf`,
//! `anyOf`, `oneOf`, `not`, `items` and leaf keywords; a union tagged by a `const` goes
//! straight to the branch the value's tag names. Any other node goes to the full walk,
//! quietly, which comes back here for that node's subschemas. Both walks count the same
//! visits and depth ([`Budget`]), so the limits stop them at the same place.

use serde_json::Value;

use super::Compiled;
use super::compile::{FALSE, TRUE};
use super::keywords::{self, composition};
use super::node::{Keyword, Node, NodeId, Plan, Shape, Types, Union};
use super::validate::{Cx, Evaluated};

/// What a validation may still spend and how deep it is, carried from one walk to the other.
#[derive(Debug, Clone, Copy)]
pub(super) struct Budget {
    pub(super) visits: usize,
    /// 0 once exhausted, so that every node after fails at its first check.
    pub(super) max_visits: usize,
    pub(super) depth: usize,
    pub(super) max_depth: usize,
    pub(super) exhausted: bool,
}

impl Budget {
    pub(super) fn new(schema: &Compiled) -> Budget {
        Budget {
            visits: 0,
            max_visits: schema.options.limits.max_evaluations,
            depth: 0,
            max_depth: schema.options.limits.max_eval_depth,
            exhausted: false,
        }
    }

    /// Counts the visit of node `id`, and of the nodes it is only a `$ref` to (each an
    /// evaluation and a level of depth): the node reached and how many hops it took, or the
    /// verdict already known (`true` for the `true` schema, `false` past a limit).
    #[inline]
    pub(super) fn reach(
        &mut self,
        nodes: &[Node],
        mut id: NodeId,
    ) -> Result<(NodeId, usize), bool> {
        let mut hops = 0;
        loop {
            if id == TRUE {
                return Err(true);
            }
            self.visits += 1;
            if self.visits > self.max_visits || self.depth + hops >= self.max_depth {
                self.exhausted = true;
                self.max_visits = 0;
                return Err(false);
            }
            match nodes[id as usize].alias {
                Some(target) => {
                    id = target;
                    hops += 1;
                }
                None => return Ok((id, hops)),
            }
        }
    }
}

/// The verdict walk's state: no issue sink, no dynamic scope (a schema with a `$dynamicRef`
/// that reads it never comes here).
pub(super) struct Verdict<'s> {
    pub(super) schema: &'s Compiled,
    nodes: &'s [Node],
    /// Whether implicitly closed objects refuse undeclared keys.
    close: bool,
    pub(super) budget: Budget,
}

impl<'s> Verdict<'s> {
    pub(super) fn new(schema: &'s Compiled, close: bool, budget: Budget) -> Verdict<'s> {
        Verdict {
            schema,
            nodes: &schema.arena.nodes,
            close,
            budget,
        }
    }

    /// Whether `value` is valid against node `id`. Inlined where it is called: a leaf (most
    /// nodes) is checked here, without a call; the others go on to [`Verdict::enter`].
    #[inline(always)]
    pub(super) fn node(&mut self, id: NodeId, value: &Value) -> bool {
        let (id, hops) = match self.budget.reach(self.nodes, id) {
            Ok(reached) => reached,
            Err(verdict) => return verdict,
        };
        let node = &self.nodes[id as usize];
        match (node.plan, &node.quick) {
            (Plan::Type(types), _) => keywords::types::matches(types, value),
            (Plan::Quick, Some(quick)) => keywords::quick_holds(quick, &node.keywords, value),
            _ => self.enter(id, node, hops, value),
        }
    }

    /// [`Verdict::node`] for the other nodes, `hops` `$ref`s below where it was named (its
    /// visit counted).
    #[inline(never)]
    pub(super) fn enter(&mut self, id: NodeId, node: &'s Node, hops: usize, value: &Value) -> bool {
        self.budget.depth += hops;
        let valid = match (node.plan, node.shape) {
            (Plan::Reject, _) => false,
            (Plan::Leaf, _) => node
                .keywords
                .iter()
                .all(|k| keywords::holds(k, value) == Some(true)),
            // An implicitly closed node that the policy leaves open marks what it evaluated
            // key by key: the full walk.
            (Plan::Shape, Some(shape)) if self.close || !node.collects => {
                self.shape(shape, node, value, None)
            }
            // Its one keyword as `Plan::Keywords` takes it, without the loop.
            (Plan::Union { one }, _) => match &node.keywords[..] {
                [Keyword::AnyOf(union) | Keyword::OneOf(union)] => {
                    self.budget.depth += 1;
                    let valid = self.union(union, value, one);
                    self.budget.depth -= 1;
                    valid && !self.budget.exhausted
                }
                _ => false,
            },
            (Plan::Keywords, _) => {
                self.budget.depth += 1;
                let valid = node.keywords.iter().all(|k| self.keyword(id, k, value));
                self.budget.depth -= 1;
                valid && !self.budget.exhausted
            }
            _ => self.full(id, value),
        };
        self.budget.depth -= hops;
        valid
    }

    /// The full walk's verdict on node `id`, its visit already counted.
    fn full(&mut self, id: NodeId, value: &Value) -> bool {
        let mut cx = Cx::quiet(self.schema, self.close, self.budget);
        let valid = cx.checked(id, value);
        self.budget = cx.budget;
        valid
    }

    /// One keyword of a [`Plan::Keywords`] node.
    #[inline]
    fn keyword(&mut self, id: NodeId, keyword: &Keyword, value: &Value) -> bool {
        match keyword {
            Keyword::Ref(target) => self.node(*target, value),
            Keyword::AllOf(branches) => branches.iter().all(|&b| self.node(b, value)),
            Keyword::AnyOf(union) => self.union(union, value, false),
            Keyword::OneOf(union) => self.union(union, value, true),
            Keyword::Not(schema) => !self.node(*schema, value),
            Keyword::Items { prefix, rest } => self.items(prefix, *rest, value),
            other if keywords::holds_alone(other) => keywords::holds(other, value).unwrap_or(false),
            // Not in a `Plan::Keywords` node; answered all the same.
            other => {
                let mut cx = Cx::quiet(self.schema, self.close, self.budget);
                let valid = cx.keyword_verdict(id, other, value);
                self.budget = cx.budget;
                valid
            }
        }
    }

    /// `anyOf` (`one` false) or `oneOf`: a value whose tag names one branch is that branch's
    /// to judge; otherwise each branch the tag does not rule out is tried.
    #[inline]
    fn union(&mut self, union: &Union, value: &Value, one: bool) -> bool {
        let given = composition::given_tag(union, value);
        if let Some((tag, given)) = given
            && let Some(branch) = tag.branch(given)
        {
            return branch.is_some_and(|i| self.node(union.branches[i], value));
        }
        let mut matched = false;
        for (i, &branch) in union.branches.iter().enumerate() {
            if composition::excluded(given, i) || !self.node(branch, value) {
                continue;
            }
            if matched || !one {
                // `anyOf`'s first match, or `oneOf`'s second.
                return !one;
            }
            matched = true;
        }
        matched
    }

    /// `prefixItems` and `items` (draft-07's `items` and `additionalItems`).
    fn items(&mut self, prefix: &[NodeId], rest: Option<NodeId>, value: &Value) -> bool {
        let Value::Array(items) = value else {
            return true;
        };
        for (i, item) in items.iter().enumerate() {
            let schema = match (prefix.get(i), rest) {
                (Some(&schema), _) | (None, Some(schema)) => schema,
                (None, None) => break,
            };
            // The `false` schema refuses the item without a visit, as the full walk does.
            if schema == FALSE || !self.node(schema, item) {
                return false;
            }
        }
        true
    }

    /// The verdict on a node of [`Shape`]: the value's type, then each key of an object
    /// matched to its schema, the required names found by a mask; the keys evaluated noted
    /// in `eval` as `properties` and the implicit closing would note them. Inlined in
    /// [`Verdict::enter`]: a call less per object.
    #[inline]
    pub(super) fn shape(
        &mut self,
        shape: Shape,
        node: &Node,
        value: &Value,
        mut eval: Option<&mut Evaluated>,
    ) -> bool {
        let Value::Object(object) = value else {
            return keywords::types::matches(shape.types, value);
        };
        let Keyword::Properties(properties) = &node.keywords[shape.properties] else {
            return false;
        };
        if !shape.types.contains(Types::OBJECT) {
            return false;
        }
        let collects = node.collects;
        let named = &properties.named;
        // A key `properties` does not name meets `additionalProperties` (refused when it is
        // `false`), or the implicit closing when the node has it (it collects for nothing
        // else), or nothing.
        let refused = properties.closed || (collects && self.close);
        self.budget.depth += 1;
        let mut valid = true;
        let mut found: u64 = 0;
        // Keys and names both in name order: each name looked for from after the last one
        // found (see `check_properties`).
        let mut next = 0;
        for (i, (key, member)) in object.iter().enumerate() {
            // Most often the very next name.
            let schema = if let Some((name, schema)) = named.get(next)
                && keywords::same_text(name, key)
            {
                found |= 1 << next;
                next += 1;
                *schema
            } else {
                let position = named[next..]
                    .iter()
                    .position(|(name, _)| keywords::same_text(name, key))
                    .map(|p| next + p)
                    .or_else(|| properties.position(key));
                match position {
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
                }
            };
            if !self.node(schema, member) {
                valid = false;
                break;
            }
            // A collecting node's own annotations reach `eval` only if it holds (below).
            if let (false, Some(eval)) = (collects, eval.as_deref_mut()) {
                eval.prop(i);
            }
        }
        self.budget.depth -= 1;
        valid &= found & shape.required == shape.required && !self.budget.exhausted;
        // Closed, the node evaluated every key it holds.
        if let (true, true, Some(eval)) = (valid, collects, eval) {
            eval.all_props();
        }
        valid
    }
}
