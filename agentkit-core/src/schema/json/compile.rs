//! The second pass: each schema object the root reaches, compiled once into a [`Node`] of the
//! arena, its `$ref`s resolved to the nodes they name. A work list, not recursion, carries
//! the compiler from a schema to its subschemas, so that neither a deep document nor a long
//! chain of `$ref`s can exhaust the stack; a cycle of `$ref`s is an edge back to a node
//! already made.

use std::collections::HashMap;

use serde_json::{Map, Value};

pub(super) use super::pattern::compile_regex;

use super::error::Problems;
use super::index::{Index, Place, address, escape_token};
use super::keywords;
use super::node::{Keyword, Node, NodeId, Pattern, Plan, Quick, Shape};
use super::uri::{BaseUri, pointer_tokens};
use super::{Draft, Options};

/// The `true` schema's node: every compiled document has it first.
pub(super) const TRUE: NodeId = 0;
/// The `false` schema's node, second.
pub(super) const FALSE: NodeId = 1;

/// How many nodes the search for unions' tags may look at in all (a tag only spares work).
const TAG_SEARCH_BUDGET: usize = 100_000;

/// A schema resource, for `$dynamicRef`: its dynamic anchors, by name.
#[derive(Debug, Default)]
pub(super) struct Resource {
    pub(super) dynamic: HashMap<String, NodeId>,
}

/// What compiling makes: the arena, its root and the resources.
#[derive(Debug)]
pub(super) struct Arena {
    pub(super) nodes: Vec<Node>,
    pub(super) root: NodeId,
    pub(super) resources: Vec<Resource>,
    /// Whether any node is a `$dynamicRef` that may look in the dynamic scope.
    pub(super) dynamic: bool,
}

/// The compiler's state; keyword families read the schema through it.
pub(super) struct Compiler<'d, 'p> {
    index: &'p Index<'d>,
    pub(super) options: &'p Options,
    problems: &'p mut Problems,
    nodes: Vec<Node>,
    value_position: Vec<bool>,
    memo: HashMap<usize, NodeId>,
    queue: Vec<(NodeId, &'d Map<String, Value>, Place)>,
    resource_ids: HashMap<String, u32>,
    patterns: usize,
}

impl<'d, 'p> Compiler<'d, 'p> {
    /// Compiles the schema at `root` (the first document of `index`).
    pub(super) fn compile(
        index: &'p Index<'d>,
        root: &'d Value,
        options: &'p Options,
        problems: &'p mut Problems,
    ) -> Arena {
        let mut compiler = Compiler {
            index,
            options,
            problems,
            nodes: vec![
                Node::empty(0, String::new()),
                Node {
                    reject: true,
                    ..Node::empty(0, String::new())
                },
            ],
            value_position: vec![false, false],
            memo: HashMap::new(),
            queue: Vec::new(),
            resource_ids: HashMap::new(),
            patterns: 0,
        };
        let place = index.places.get(&address(root)).cloned().unwrap_or(Place {
            base: BaseUri::default_base(),
            draft: Draft::Draft2020_12,
            location: String::new(),
            value_position: true,
        });
        let root = compiler.node(root, &place);
        compiler.drain();
        let mut resources: Vec<Resource> = Vec::new();
        if index.has_dynamic_ref {
            // A `$dynamicRef` may land in any resource of the dynamic scope, so the dynamic
            // anchors of every resource the schema reaches are compiled, until no new
            // resource is reached.
            let mut anchors: Vec<(&String, &&Value)> = index.dynamic_anchors.iter().collect();
            anchors.sort_by(|a, b| a.0.cmp(b.0));
            let mut done = vec![false; anchors.len()];
            let mut found = Vec::new();
            loop {
                let mut more = false;
                for (i, (key, value)) in anchors.iter().enumerate() {
                    let Some((uri, name)) = key.split_once('#') else {
                        continue;
                    };
                    if done[i] || !compiler.resource_ids.contains_key(uri) {
                        continue;
                    }
                    done[i] = true;
                    more = true;
                    let place = compiler.place_of(value, uri);
                    let id = compiler.node(value, &place);
                    found.push((compiler.resource_id(uri), name.to_owned(), id));
                }
                if !more {
                    break;
                }
                compiler.drain();
            }
            resources.resize_with(compiler.resource_ids.len(), Resource::default);
            for (resource, name, id) in found {
                resources[resource as usize].dynamic.insert(name, id);
            }
        }
        compiler.finish();
        resources.resize_with(compiler.resource_ids.len().max(1), Resource::default);
        let dynamic = compiler.nodes.iter().any(|node| {
            node.keywords.iter().any(|k| {
                matches!(
                    k,
                    Keyword::DynamicRef {
                        anchor: Some(_),
                        ..
                    }
                )
            })
        });
        if !dynamic {
            for node in &mut compiler.nodes {
                if let ([Keyword::Ref(target)], false, false) =
                    (&node.keywords[..], node.collects, node.reject)
                {
                    node.alias = Some(*target);
                }
            }
        }
        Arena {
            nodes: compiler.nodes,
            root,
            resources,
            dynamic,
        }
    }

    fn drain(&mut self) {
        while let Some((id, map, place)) = self.queue.pop() {
            let node = self.compile_object(map, &place);
            self.nodes[id as usize] = node;
        }
    }

    /// The node of the schema `value`, made (and queued for compiling) on first sight.
    pub(super) fn node(&mut self, value: &'d Value, place: &Place) -> NodeId {
        match value {
            Value::Bool(true) => TRUE,
            Value::Bool(false) => FALSE,
            Value::Object(map) => {
                if let Some(&id) = self.memo.get(&address(value)) {
                    return id;
                }
                let id = NodeId::try_from(self.nodes.len()).unwrap_or(NodeId::MAX);
                let resource = self.resource_id(place.base.as_str());
                self.nodes
                    .push(Node::empty(resource, place.location.clone()));
                self.value_position.push(place.value_position);
                self.memo.insert(address(value), id);
                self.queue.push((id, map, place.clone()));
                id
            }
            _ => {
                self.problem(&place.location, "a schema must be an object or a boolean");
                TRUE
            }
        }
    }

    /// The node of the subschema at `keyword` (a path below `place`, `properties/name`).
    pub(super) fn sub(&mut self, value: &'d Value, place: &Place, keyword: &str) -> NodeId {
        let place = match self.index.places.get(&address(value)) {
            Some(known) => known.clone(),
            None => Place {
                location: format!("{}/{keyword}", place.location),
                value_position: false,
                ..place.clone()
            },
        };
        self.node(value, &place)
    }

    /// The subschema at `keyword/key` of `place`: `key` escaped as a pointer token.
    pub(super) fn sub_at(
        &mut self,
        value: &'d Value,
        place: &Place,
        keyword: &str,
        key: &str,
    ) -> NodeId {
        self.sub(value, place, &format!("{keyword}/{}", escape_token(key)))
    }

    fn place_of(&self, value: &Value, uri: &str) -> Place {
        self.index
            .places
            .get(&address(value))
            .cloned()
            .unwrap_or_else(|| Place {
                base: BaseUri::default_base()
                    .resolve(uri)
                    .map_or_else(|_| BaseUri::default_base(), |(base, _)| base),
                draft: Draft::Draft2020_12,
                location: String::new(),
                value_position: false,
            })
    }

    fn resource_id(&mut self, uri: &str) -> u32 {
        let next = u32::try_from(self.resource_ids.len()).unwrap_or(u32::MAX);
        *self.resource_ids.entry(uri.to_owned()).or_insert(next)
    }

    /// Records a problem of the schema at `location`.
    pub(super) fn problem(&mut self, location: &str, message: impl Into<String>) {
        self.problems.push(location.to_owned(), message.into());
    }

    /// Resolves the reference `reference` (a `$ref`'s value) written at `place`: the node it
    /// names, and its schema.
    pub(super) fn resolve(
        &mut self,
        reference: &str,
        place: &Place,
        keyword: &str,
    ) -> Option<(NodeId, &'d Value)> {
        let at = format!("{}/{keyword}", place.location);
        let (uri, fragment) = match place.base.resolve(reference) {
            Ok(resolved) => resolved,
            Err(reason) => {
                self.problem(&at, format!("invalid reference '{reference}': {reason}"));
                return None;
            }
        };
        let Some(&document) = self.index.resources.get(uri.as_str()) else {
            self.problem(
                &at,
                format!(
                    "the reference '{reference}' names '{}', which is not in the schema: \
                     agentkit never fetches a schema from the network; give the document with \
                     JsonSchemaOptions::resource",
                    uri.as_str()
                ),
            );
            return None;
        };
        let target = match fragment.as_deref() {
            None | Some("") => Some(document),
            Some(fragment) if fragment.starts_with('/') => match pointer_tokens(fragment) {
                Some(tokens) => follow(document, &tokens),
                None => None,
            },
            Some(name) => self
                .index
                .anchors
                .get(&format!("{}#{name}", uri.as_str()))
                .copied(),
        };
        let Some(target) = target else {
            self.problem(
                &at,
                format!("the reference '{reference}' names nothing in the schema"),
            );
            return None;
        };
        let target_place = self.place_of(target, uri.as_str());
        Some((self.node(target, &target_place), target))
    }

    /// Compiles `source` as a `pattern`: ECMA-262's syntax, on the `regex` crate's engine,
    /// which runs in time linear in the text (no pattern can make it backtrack).
    pub(super) fn pattern(&mut self, source: &str, location: &str) -> Option<Pattern> {
        self.patterns += 1;
        let limits = &self.options.limits;
        if self.patterns > limits.max_patterns {
            if self.patterns == limits.max_patterns + 1 {
                self.problem(
                    location,
                    format!(
                        "the schema has more than {} patterns (SchemaLimits::max_patterns)",
                        limits.max_patterns
                    ),
                );
            }
            return None;
        }
        if source.len() > limits.max_pattern_bytes {
            self.problem(
                location,
                format!(
                    "the pattern is {} bytes long, more than {} (SchemaLimits::max_pattern_bytes)",
                    source.len(),
                    limits.max_pattern_bytes
                ),
            );
            return None;
        }
        match compile_regex(source, limits.max_pattern_bytes) {
            Ok(regex) => Some(Pattern {
                source: source.to_owned(),
                regex,
            }),
            Err(reason) => {
                self.problem(location, format!("invalid pattern: {reason}"));
                None
            }
        }
    }

    fn compile_object(&mut self, map: &'d Map<String, Value>, place: &Place) -> Node {
        let mut node = Node::empty(
            self.resource_id(place.base.as_str()),
            place.location.clone(),
        );
        node.default = map.get("default").cloned();
        let out = &mut node.keywords;
        keywords::refs::compile(self, map, place, out);
        // In draft-07, a `$ref` stands alone: its siblings are ignored.
        if place.draft == Draft::Draft7 && map.contains_key("$ref") {
            return node;
        }
        keywords::types::compile(self, map, place, out);
        keywords::numbers::compile(self, map, place, out);
        keywords::strings::compile(self, map, place, out);
        keywords::arrays::compile(self, map, place, out);
        keywords::objects::compile(self, map, place, out);
        keywords::composition::compile(self, map, place, out);
        keywords::conditionals::compile(self, map, place, out);
        // Last: they read what the keywords above evaluated.
        if place.draft != Draft::Draft7 {
            keywords::arrays::compile_unevaluated(self, map, place, out);
            keywords::objects::compile_unevaluated(self, map, place, out);
        }
        node
    }

    /// After every node is made: the implicit closing of objects, which nodes collect
    /// annotations, and the refusal of `$ref` cycles that would never end.
    fn finish(&mut self) {
        if self.options.close_objects {
            let declares = keywords::objects::declaring(&self.nodes);
            for (id, node) in self.nodes.iter_mut().enumerate() {
                if self.value_position[id]
                    && declares[id]
                    && !keywords::objects::speaks_of_extra_keys(node)
                {
                    node.keywords.push(Keyword::UnevaluatedProperties {
                        schema: FALSE,
                        implicit: true,
                    });
                }
            }
        }
        for node in &mut self.nodes {
            node.collects = node.keywords.iter().any(|k| {
                matches!(
                    k,
                    Keyword::UnevaluatedItems(_) | Keyword::UnevaluatedProperties { .. }
                )
            });
            node.leaf = !node.reject && node.keywords.iter().all(Keyword::is_leaf);
            if node.leaf {
                node.quick = Quick::of(&node.keywords).map(Box::new);
            } else if !node.reject {
                node.shape = Shape::of(&node.keywords);
            }
            node.plan = Plan::of(node);
        }
        // The tags of unions, which read the nodes their branches reach.
        let mut tags = Vec::new();
        let mut budget = TAG_SEARCH_BUDGET;
        for (id, node) in self.nodes.iter().enumerate() {
            for (k, keyword) in node.keywords.iter().enumerate() {
                if let Keyword::AnyOf(u) | Keyword::OneOf(u) = keyword
                    && let Some(tag) = keywords::composition::union_tag(&self.nodes, u, &mut budget)
                {
                    tags.push((id, k, tag));
                }
            }
        }
        for (id, k, tag) in tags {
            if let Keyword::AnyOf(u) | Keyword::OneOf(u) = &mut self.nodes[id].keywords[k] {
                u.tag = Some(tag);
            }
        }
        if let Some((from, to)) = in_place_cycle(&self.nodes) {
            let (from, to) = (
                self.nodes[from as usize].location.clone(),
                self.nodes[to as usize].location.clone(),
            );
            self.problem(
                &from,
                format!(
                    "the schema at '{from}' leads back to '{to}' without validating any part of \
                     the value in between (through `$ref`, `allOf`, `anyOf`, `oneOf`, `not` or \
                     `if`): validating against it would never end"
                ),
            );
        }
    }
}

/// The value a JSON pointer's `tokens` name in `document`.
fn follow<'d>(document: &'d Value, tokens: &[String]) -> Option<&'d Value> {
    let mut value = document;
    for token in tokens {
        value = match value {
            Value::Object(map) => map.get(token)?,
            Value::Array(items) => {
                // RFC 6901: an index is digits without a leading zero.
                if token.len() > 1 && token.starts_with('0') {
                    return None;
                }
                items.get(token.parse::<usize>().ok()?)?
            }
            _ => return None,
        };
    }
    Some(value)
}

/// The nodes a node applies to the same instance (not to its parts).
pub(super) fn in_place(node: &Node) -> impl Iterator<Item = NodeId> + '_ {
    node.keywords.iter().flat_map(|k| {
        let ids: Box<dyn Iterator<Item = NodeId> + '_> = match k {
            Keyword::Ref(t) | Keyword::DynamicRef { target: t, .. } | Keyword::Not(t) => {
                Box::new(std::iter::once(*t))
            }
            Keyword::AllOf(b) => Box::new(b.iter().copied()),
            Keyword::AnyOf(u) | Keyword::OneOf(u) => Box::new(u.branches.iter().copied()),
            Keyword::IfThenElse {
                condition,
                then,
                otherwise,
            } => Box::new(std::iter::once(*condition).chain(*then).chain(*otherwise)),
            Keyword::DependentSchemas(d) => Box::new(d.iter().map(|(_, id)| *id)),
            _ => Box::new(std::iter::empty()),
        };
        ids
    })
}

/// An edge `(from, to)` that closes a cycle of in-place applicators, if there is one: found
/// with a stack of its own (an arena of 10⁵ nodes in a chain must not overflow the stack).
fn in_place_cycle(nodes: &[Node]) -> Option<(NodeId, NodeId)> {
    // 0: not seen, 1: on the current path, 2: done.
    let mut state = vec![0u8; nodes.len()];
    for start in 0..nodes.len() {
        if state[start] != 0 {
            continue;
        }
        let mut stack: Vec<(usize, Vec<NodeId>)> = vec![(start, in_place(&nodes[start]).collect())];
        state[start] = 1;
        while let Some((at, next)) = stack.last_mut() {
            let at = *at;
            match next.pop() {
                Some(to) => match state[to as usize] {
                    0 => {
                        state[to as usize] = 1;
                        let children = in_place(&nodes[to as usize]).collect();
                        stack.push((to as usize, children));
                    }
                    1 => return Some((NodeId::try_from(at).unwrap_or(0), to)),
                    _ => {}
                },
                None => {
                    state[at] = 2;
                    stack.pop();
                }
            }
        }
    }
    None
}
