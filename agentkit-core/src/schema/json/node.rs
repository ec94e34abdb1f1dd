//! The compiled validator tree: what `compile` makes of a schema document, and what
//! `validate` walks. Nodes live in one arena and name each other by index, so that a `$ref`
//! (and recursion) is an edge, not a copy.

use std::collections::HashMap;

use regex::Regex;
use serde_json::Value;

/// The index of a node in the arena.
pub(super) type NodeId = u32;

/// One schema (an object or a boolean), compiled.
#[derive(Debug)]
pub(super) struct Node {
    /// The keywords, in the order they must run: `unevaluated*` last.
    pub(super) keywords: Vec<Keyword>,
    /// `Some(false)` for the `false` schema (and `{"not": {}}`-like dead ends it is folded
    /// to); `None` for a schema with keywords or `true`.
    pub(super) reject: bool,
    /// The schema resource the node belongs to, for `$dynamicRef`'s dynamic scope.
    pub(super) resource: u32,
    /// Where the node is in the document (a JSON pointer), for schema errors.
    pub(super) location: String,
    /// Its `default`, for the default-filling policy.
    pub(super) default: Option<Value>,
    /// Whether the node needs the annotations of what its subschemas evaluated
    /// (`unevaluatedProperties`, `unevaluatedItems`, or an implicitly closed object).
    pub(super) collects: bool,
    /// Whether every keyword checks the value alone (`type`, bounds, `pattern`, ...: no
    /// subschema, no annotation): the walk then checks them without its bookkeeping for
    /// subschemas (depth, dynamic scope, evaluated keys), which they cannot need.
    pub(super) leaf: bool,
    /// For a node that is only a `$ref` (most `{"$ref": ...}` subschemas), its target: the
    /// walk goes on to it at once, counting the hop as the node it stands for (an evaluation
    /// and a level of depth), where no dynamic scope is kept.
    pub(super) alias: Option<NodeId>,
    /// For a leaf node of the keywords most properties have, those keywords as one test
    /// (see [`Quick`]).
    pub(super) quick: Option<Box<Quick>>,
    /// For an object node of the keywords most objects have, its verdict in one pass (see
    /// [`Shape`]).
    pub(super) shape: Option<Shape>,
    /// How the verdict walk takes the node.
    pub(super) plan: Plan,
}

/// How the verdict walk (`verdict.rs`) takes a node: itself where it can, in one pass, or
/// through the full walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Plan {
    /// The `false` schema: refused.
    Reject,
    /// A leaf of a `type` alone.
    Type(Types),
    /// A leaf with its [`Quick`] test.
    Quick,
    /// A leaf whose every keyword has a verdict alone (`keywords::holds`).
    Leaf,
    /// An object node of [`Shape`].
    Shape,
    /// A node of one `anyOf` (`one` false) or `oneOf` and nothing else (a nullable value,
    /// a union of variants), that keeps no annotation: the union at once.
    Union { one: bool },
    /// A node of leaf keywords with a verdict alone, `$ref`, `allOf`, `anyOf`, `oneOf`,
    /// `not` and `items`, that keeps no annotation: each keyword in turn.
    Keywords,
    /// Anything else: the full walk's.
    Full,
}

impl Plan {
    /// The plan for `node`, its `leaf`, `quick`, `shape` and `collects` already set.
    pub(super) fn of(node: &Node) -> Plan {
        let alone = |k: &Keyword| super::keywords::holds_alone(k);
        if node.reject {
            Plan::Reject
        } else if let [Keyword::Type(types)] = &node.keywords[..] {
            Plan::Type(*types)
        } else if node.leaf && node.quick.is_some() {
            Plan::Quick
        } else if node.leaf && node.keywords.iter().all(alone) {
            Plan::Leaf
        } else if node.shape.is_some() {
            Plan::Shape
        } else if let (false, [Keyword::AnyOf(_) | Keyword::OneOf(_)]) =
            (node.collects, &node.keywords[..])
        {
            Plan::Union {
                one: matches!(node.keywords[0], Keyword::OneOf(_)),
            }
        } else if !node.leaf
            && !node.collects
            && node.keywords.iter().all(|k| {
                alone(k)
                    || matches!(
                        k,
                        Keyword::Ref(_)
                            | Keyword::AllOf(_)
                            | Keyword::AnyOf(_)
                            | Keyword::OneOf(_)
                            | Keyword::Not(_)
                            | Keyword::Items { .. }
                    )
            })
        {
            Plan::Keywords
        } else {
            Plan::Full
        }
    }
}

/// An object node whose keywords are at most a `type`, a `properties` of at most 64 names
/// with no `patternProperties` (and its `additionalProperties`, and a `required` of names
/// among them), and the implicit closing of the undeclared-argument policy. Its verdict,
/// when no issue is wanted, is reached in one pass over the object's keys: each key matched
/// to its schema, the required names found by a mask, no keyword dispatched.
#[derive(Debug, Clone, Copy)]
pub(super) struct Shape {
    /// The types allowed (all of them when the node has no `type`).
    pub(super) types: Types,
    /// Where the `properties` keyword is in the node's keywords.
    pub(super) properties: usize,
    /// The positions in `properties` of the required names, as a mask.
    pub(super) required: u64,
}

impl Shape {
    /// The one pass for `keywords`, if they are all of the kinds it takes.
    pub(super) fn of(keywords: &[Keyword]) -> Option<Shape> {
        let mut types = None;
        let mut properties = None;
        let mut required = 0;
        for (i, keyword) in keywords.iter().enumerate() {
            match keyword {
                Keyword::Type(t) if types.is_none() => types = Some(*t),
                Keyword::Properties(p)
                    if properties.is_none()
                        && p.patterns.is_empty()
                        && p.index.is_none()
                        && p.named.len() <= 64 =>
                {
                    properties = Some(i);
                    for (_, j) in p.required.iter().flatten() {
                        required |= 1u64 << j;
                    }
                }
                Keyword::UnevaluatedProperties {
                    schema: super::compile::FALSE,
                    implicit: true,
                } => {}
                _ => return None,
            }
        }
        Some(Shape {
            types: types.unwrap_or(Types(0x7F)),
            properties: properties?,
            required,
        })
    }
}

/// A leaf node's keywords as one test: its `type`, at most one each of a length bound, a
/// lower and an upper number bound, a `pattern`, a `format` and an `enum` or `const`. The
/// verdict is the keywords' own; a value that fails is checked again keyword by keyword to
/// say why.
#[derive(Debug)]
pub(super) struct Quick {
    /// The types allowed (all of them when the node has no `type`).
    pub(super) types: Types,
    pub(super) min_len: Option<u64>,
    pub(super) max_len: Option<u64>,
    /// The lower bound, and whether it is exclusive.
    pub(super) lower: Option<(Bound, bool)>,
    pub(super) upper: Option<(Bound, bool)>,
    /// Where the `pattern`, and the `enum` or `const`, are in the node's keywords.
    pub(super) pattern: Option<usize>,
    pub(super) values: Option<usize>,
    pub(super) format: Option<fn(&str) -> bool>,
}

impl Quick {
    /// The one test for `keywords`, if they are all of the kinds it takes, at most one each.
    pub(super) fn of(keywords: &[Keyword]) -> Option<Quick> {
        let mut quick = Quick {
            types: Types(0x7F),
            min_len: None,
            max_len: None,
            lower: None,
            upper: None,
            pattern: None,
            values: None,
            format: None,
        };
        let mut typed = false;
        fn once<T>(slot: &mut Option<T>, value: T) -> Option<()> {
            if slot.is_some() {
                return None;
            }
            *slot = Some(value);
            Some(())
        }
        for (i, keyword) in keywords.iter().enumerate() {
            match keyword {
                Keyword::Type(t) if !typed => {
                    typed = true;
                    quick.types = *t;
                }
                Keyword::MinLength(n) => once(&mut quick.min_len, *n)?,
                Keyword::MaxLength(n) => once(&mut quick.max_len, *n)?,
                Keyword::Minimum(b) => once(&mut quick.lower, (*b, false))?,
                Keyword::ExclusiveMinimum(b) => once(&mut quick.lower, (*b, true))?,
                Keyword::Maximum(b) => once(&mut quick.upper, (*b, false))?,
                Keyword::ExclusiveMaximum(b) => once(&mut quick.upper, (*b, true))?,
                Keyword::Pattern(_) => once(&mut quick.pattern, i)?,
                Keyword::Enum(_) | Keyword::Const(_) => once(&mut quick.values, i)?,
                Keyword::Format(Format::Known(_, check)) => once(&mut quick.format, *check)?,
                _ => return None,
            }
        }
        Some(quick)
    }
}

impl Node {
    pub(super) fn empty(resource: u32, location: String) -> Node {
        Node {
            keywords: Vec::new(),
            reject: false,
            resource,
            location,
            default: None,
            collects: false,
            leaf: false,
            alias: None,
            quick: None,
            shape: None,
            plan: Plan::Full,
        }
    }
}

/// The JSON types of `type`, as a bit set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Types(pub(super) u8);

impl Types {
    pub(super) const NULL: Types = Types(1);
    pub(super) const BOOLEAN: Types = Types(2);
    pub(super) const INTEGER: Types = Types(4);
    pub(super) const NUMBER: Types = Types(8);
    pub(super) const STRING: Types = Types(16);
    pub(super) const ARRAY: Types = Types(32);
    pub(super) const OBJECT: Types = Types(64);

    pub(super) const NAMES: [(&'static str, Types); 7] = [
        ("null", Types::NULL),
        ("boolean", Types::BOOLEAN),
        ("integer", Types::INTEGER),
        ("number", Types::NUMBER),
        ("string", Types::STRING),
        ("array", Types::ARRAY),
        ("object", Types::OBJECT),
    ];

    pub(super) fn named(name: &str) -> Option<Types> {
        Types::NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| *t)
    }

    pub(super) const fn contains(self, other: Types) -> bool {
        self.0 & other.0 != 0
    }

    pub(super) const fn with(self, other: Types) -> Types {
        Types(self.0 | other.0)
    }

    /// The type names in the set, in `NAMES` order.
    pub(super) fn names(self) -> impl Iterator<Item = &'static str> {
        Types::NAMES
            .iter()
            .filter(move |(_, t)| self.contains(*t))
            .map(|(n, _)| *n)
    }
}

/// A number bound of a schema, kept as JSON wrote it.
#[derive(Debug, Clone, Copy)]
pub(super) enum Bound {
    Int(i128),
    Float(f64),
}

/// A compiled `pattern` (or `patternProperties` key), with its source for messages.
#[derive(Debug)]
pub(super) struct Pattern {
    pub(super) source: String,
    pub(super) regex: Regex,
}

/// The object keywords that decide together which subschema a property meets.
#[derive(Debug, Default)]
pub(super) struct Properties {
    /// `properties`, in name order.
    pub(super) named: Vec<(String, NodeId)>,
    /// An index into `named` for a large `properties`, so that a lookup stays cheap.
    pub(super) index: Option<HashMap<String, usize>>,
    pub(super) patterns: Vec<(Pattern, NodeId)>,
    /// `additionalProperties`; `None` when absent.
    pub(super) additional: Option<NodeId>,
    /// Whether the schema has a `properties` keyword (an empty one too): it declares its
    /// object's keys, for the undeclared-argument policy.
    pub(super) declared: bool,
    /// Whether `additionalProperties` is `false`: an undeclared key is then an unknown
    /// parameter, with a suggestion.
    pub(super) closed: bool,
    /// The schema's `required`, when every name in it is one of the first 64 of `named`:
    /// each name with its position there. The object's keys are then found missing from the
    /// ones the walk of `properties` met, with no lookup of its own (`required` itself is
    /// then not a keyword of the node).
    pub(super) required: Option<Box<[(String, u8)]>>,
}

impl Properties {
    pub(super) fn get(&self, key: &str) -> Option<NodeId> {
        self.position(key).map(|i| self.named[i].1)
    }

    /// Where `key` is in `named`.
    pub(super) fn position(&self, key: &str) -> Option<usize> {
        match &self.index {
            Some(index) => index.get(key).copied(),
            // A few names: compared by length first, most differ there.
            None if self.named.len() <= 8 => self
                .named
                .iter()
                .position(|(name, _)| name.len() == key.len() && name == key),
            None => self
                .named
                .binary_search_by(|(name, _)| name.as_str().cmp(key))
                .ok(),
        }
    }

    /// Whether the schema requires `name` (through the `required` merged in here).
    pub(super) fn requires(&self, name: &str) -> bool {
        self.required
            .as_ref()
            .is_some_and(|names| names.iter().any(|(n, _)| n == name))
    }
}

/// The branches of `anyOf` or `oneOf`, and the tag that tells them apart, if they have one.
#[derive(Debug)]
pub(super) struct Union {
    pub(super) branches: Box<[NodeId]>,
    /// Set once every node is compiled (`composition::union_tag`).
    pub(super) tag: Option<Box<Tag>>,
}

impl std::ops::Deref for Union {
    type Target = [NodeId];

    fn deref(&self) -> &[NodeId] {
        &self.branches
    }
}

/// A property whose value a union's branches require to be one value each (a `const`, or an
/// `enum` of one), applied unconditionally (in the branch, or through its `$ref`s and
/// `allOf`s): where a value has that property, a branch whose value differs cannot match,
/// and is not tried.
#[derive(Debug)]
pub(super) struct Tag {
    pub(super) name: String,
    /// Per branch, the value it requires.
    pub(super) values: Box<[Value]>,
    /// Whether the values are strings, no two the same: a value's tag then names one branch
    /// at most, the only one to try.
    pub(super) distinct: bool,
}

impl Tag {
    /// The branch a value whose tag is `given` can only be (`Some(None)`: none), when the
    /// values are [`distinct`](Tag::distinct).
    #[inline]
    pub(super) fn branch(&self, given: &Value) -> Option<Option<usize>> {
        if !self.distinct {
            return None;
        }
        let Value::String(given) = given else {
            return Some(None);
        };
        Some(
            self.values.iter().position(
                |v| matches!(v, Value::String(s) if super::keywords::same_text(s, given)),
            ),
        )
    }

    /// Whether `values` are strings, no two the same.
    pub(super) fn are_distinct(values: &[Value]) -> bool {
        values
            .iter()
            .enumerate()
            .all(|(i, v)| v.is_string() && !values[..i].contains(v))
    }
}

/// A string `format` agentkit asserts.
#[derive(Debug, Clone)]
pub(super) enum Format {
    /// One of `formats::checker`'s: its name, for messages, and its check.
    Known(String, fn(&str) -> bool),
    /// `regex`: the string must be a pattern the validator accepts.
    Regex,
}

impl Keyword {
    /// Whether the keyword checks the value alone: no subschema, no annotation.
    pub(super) fn is_leaf(&self) -> bool {
        matches!(
            self,
            Keyword::Type(_)
                | Keyword::Enum(_)
                | Keyword::Const(_)
                | Keyword::Minimum(_)
                | Keyword::Maximum(_)
                | Keyword::ExclusiveMinimum(_)
                | Keyword::ExclusiveMaximum(_)
                | Keyword::MultipleOf(_)
                | Keyword::MinLength(_)
                | Keyword::MaxLength(_)
                | Keyword::Pattern(_)
                | Keyword::Format(_)
                | Keyword::MinItems(_)
                | Keyword::MaxItems(_)
                | Keyword::UniqueItems
                | Keyword::Required(_)
                | Keyword::MinProperties(_)
                | Keyword::MaxProperties(_)
                | Keyword::DependentRequired(_)
        )
    }
}

/// One keyword (or a group of keywords that act together), compiled.
#[derive(Debug)]
pub(super) enum Keyword {
    // types.rs
    Type(Types),
    Enum(Box<[Value]>),
    Const(Value),
    // numbers.rs
    Minimum(Bound),
    Maximum(Bound),
    ExclusiveMinimum(Bound),
    ExclusiveMaximum(Bound),
    MultipleOf(Bound),
    // strings.rs
    MinLength(u64),
    MaxLength(u64),
    Pattern(Pattern),
    Format(Format),
    // arrays.rs
    /// `prefixItems` (or draft-07's array form of `items`) and the schema for the items after
    /// them (`items`, or draft-07's `additionalItems`).
    Items {
        prefix: Box<[NodeId]>,
        rest: Option<NodeId>,
    },
    Contains {
        schema: NodeId,
        min: u64,
        max: Option<u64>,
    },
    MinItems(u64),
    MaxItems(u64),
    UniqueItems,
    UnevaluatedItems(NodeId),
    // objects.rs
    Properties(Box<Properties>),
    PropertyNames(NodeId),
    Required(Box<[String]>),
    MinProperties(u64),
    MaxProperties(u64),
    DependentRequired(Box<[(String, Box<[String]>)]>),
    DependentSchemas(Box<[(String, NodeId)]>),
    /// `unevaluatedProperties`; `implicit` when the schema said nothing of extra keys and the
    /// undeclared-argument policy closes it (`NodeId` is then the `false` schema).
    UnevaluatedProperties {
        schema: NodeId,
        implicit: bool,
    },
    // composition.rs
    AllOf(Box<[NodeId]>),
    AnyOf(Union),
    OneOf(Union),
    Not(NodeId),
    // conditionals.rs
    IfThenElse {
        condition: NodeId,
        then: Option<NodeId>,
        otherwise: Option<NodeId>,
    },
    // refs.rs
    Ref(NodeId),
    /// `$dynamicRef`: `target` statically; when that target has a `$dynamicAnchor` of the
    /// same `anchor` name, the outermost resource in the dynamic scope that has one.
    DynamicRef {
        target: NodeId,
        anchor: Option<String>,
    },
}
