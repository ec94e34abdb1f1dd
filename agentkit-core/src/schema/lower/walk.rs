//! The walk that rewrites a schema for a target's [`Rules`].

use std::collections::HashMap;

use serde_json::{Map, Value, json};

use super::refs::{self, escape};
use super::root::{describe, root_object};
use super::sentences::{self, literal};
use super::shape::{openapi_nullable, openapi_type_of};
use super::{Loosened, Lowered, Refs, Rules, Target, TypeLists, openai};
use crate::schema::json_schema::describe_default;

/// How many times a recursive `$ref` is written out along one path where references cannot
/// be declared.
const UNROLL: usize = 2;

/// The most schema objects one lowering writes beyond four per object of the schema:
/// writing shared references out (and merging `allOf`) can multiply a schema's size, and a
/// declaration stays bounded whatever the schema.
const BUDGET: usize = 20_000;

/// How deep the walk goes: a schema was bounded to 128 levels when it was compiled, but `allOf`
/// merging writes referenced schemas out, and the walk's stack must stay bounded whatever the
/// schema.
const MAX_DEPTH: usize = 64;

/// The assertion keywords a target either keeps or states.
const ASSERTIONS: [&str; 26] = [
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minItems",
    "maxItems",
    "uniqueItems",
    "contains",
    "minContains",
    "maxContains",
    "minProperties",
    "maxProperties",
    "propertyNames",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "not",
    "if",
    "unevaluatedProperties",
    "unevaluatedItems",
    "patternProperties",
];

/// The walk's state: the document, the rules, the `$defs` gathered, and what was refused
/// or loosened.
pub(super) struct Lowerer<'a> {
    pub(super) document: &'a Value,
    pub(super) rules: Rules,
    pub(super) anchors: HashMap<String, String>,
    /// The lowered `$defs`: name, pointer in the document, lowered schema once walked.
    pub(super) defs: Vec<(String, String, Option<Value>)>,
    /// Where each pointer's entry is in `defs`, and the names taken.
    pub(super) def_index: HashMap<String, usize>,
    pub(super) def_names: std::collections::HashSet<String>,
    /// References between schemas (`None`: the root), for recursion.
    pub(super) edges: Vec<(Option<usize>, Option<usize>)>,
    pub(super) current: Option<usize>,
    pub(super) inlining: Vec<String>,
    pub(super) budget: usize,
    pub(super) refused: Option<String>,
    pub(super) loosened: Vec<Loosened>,
    pub(super) depth: usize,
    pub(super) nesting: usize,
    pub(super) deepest: usize,
    pub(super) properties: usize,
    pub(super) enum_values: usize,
}

impl<'a> Lowerer<'a> {
    pub(super) fn new(document: &'a Value, rules: Rules) -> Lowerer<'a> {
        Lowerer {
            document,
            rules,
            anchors: refs::anchors(document),
            defs: Vec::new(),
            def_index: HashMap::new(),
            def_names: std::collections::HashSet::new(),
            edges: Vec::new(),
            current: None,
            inlining: Vec::new(),
            budget: BUDGET.saturating_add(refs::objects(document).saturating_mul(4)),
            refused: None,
            loosened: Vec::new(),
            depth: 0,
            nesting: 0,
            deepest: 0,
            properties: 0,
            enum_values: 0,
        }
    }

    /// The lowered schema, or the reason the (strict) target refuses it.
    pub(super) fn run(mut self, target: Target) -> Lowered {
        let is_union = matches!(self.document, Value::Object(root)
            if !root.contains_key("properties")
                && (root.contains_key("anyOf") || root.contains_key("oneOf")));
        if is_union && !self.rules.root_union {
            self.refuse(
                String::new(),
                "is a union of forms; the root must be one object",
            );
        }
        let is_object = match self.document.get("type") {
            None => true,
            Some(ty) => ty == "object",
        };
        if !is_object && self.rules.strict {
            self.refuse(String::new(), "is not an object; the root must be one");
        }
        let root = root_object(self.document, &mut self.loosened, false);
        let mut lowered = match self.object(&root, "") {
            Some(Value::Object(lowered)) => lowered,
            _ => Map::from_iter([("type".to_owned(), self.type_name("object"))]),
        };
        let mut next = 0;
        while next < self.defs.len() {
            self.current = Some(next);
            let pointer = self.defs[next].1.clone();
            let schema = refs::resolve(self.document, &pointer).unwrap_or(&Value::Bool(true));
            let schema = self.node(schema, &pointer).unwrap_or_else(|| json!({}));
            self.defs[next].2 = Some(schema);
            next += 1;
        }
        if !self.rules.recursion
            && let Some(pointer) = self.cycle()
        {
            self.refuse(pointer, "is recursive (a cycle of `$ref`s reaches it)");
        }
        if !self.defs.is_empty() {
            let defs = self
                .defs
                .drain(..)
                .map(|(name, _, schema)| (name, schema.unwrap_or_else(|| json!({}))))
                .collect();
            lowered.insert("$defs".into(), Value::Object(defs));
        }
        if self.rules.limits {
            self.check_limits();
        }
        Lowered {
            schema: Value::Object(lowered),
            target,
            not_strict: self.refused,
            loosened: self.loosened,
        }
    }

    fn check_limits(&mut self) {
        if self.deepest > openai::MAX_NESTING {
            let reason = format!(
                "nests objects {} deep (at most {})",
                self.deepest,
                openai::MAX_NESTING
            );
            self.refuse(String::new(), &reason);
        }
        if self.properties > openai::MAX_PROPERTIES {
            let reason = format!(
                "has {} properties (at most {})",
                self.properties,
                openai::MAX_PROPERTIES
            );
            self.refuse(String::new(), &reason);
        }
        if self.enum_values > openai::MAX_ENUM_VALUES {
            let reason = format!(
                "has {} enum values (at most {})",
                self.enum_values,
                openai::MAX_ENUM_VALUES
            );
            self.refuse(String::new(), &reason);
        }
    }

    /// Records the first reason the target refuses the schema.
    pub(super) fn refuse(&mut self, pointer: String, why: &str) {
        if self.refused.is_none() && self.rules.strict {
            let at = if pointer.is_empty() {
                "the root".to_owned()
            } else {
                format!("'{pointer}'")
            };
            self.refused = Some(format!(
                "{} cannot declare this schema: {at} {why}",
                self.rules.name
            ));
        }
    }

    pub(super) fn loosen(&mut self, pointer: &str, keyword: &str) {
        self.loosened.push(Loosened {
            pointer: pointer.to_owned(),
            keyword: keyword.to_owned(),
        });
    }

    /// A schema the cycle check found: some `$defs` entry reachable from itself.
    fn cycle(&self) -> Option<String> {
        let nodes = self.defs.len() + 1;
        let index = |node: Option<usize>| node.map_or(0, |i| i + 1);
        let mut next: Vec<Vec<usize>> = vec![Vec::new(); nodes];
        for (from, to) in &self.edges {
            next[index(*from)].push(index(*to));
        }
        // Kahn's algorithm: whatever is left after removing every node without a way in
        // lies on or behind a cycle.
        let mut incoming = vec![0usize; nodes];
        for targets in &next {
            for &to in targets {
                incoming[to] += 1;
            }
        }
        let mut ready: Vec<usize> = (0..nodes).filter(|&n| incoming[n] == 0).collect();
        let mut removed = 0;
        while let Some(node) = ready.pop() {
            removed += 1;
            for &to in &next[node] {
                incoming[to] -= 1;
                if incoming[to] == 0 {
                    ready.push(to);
                }
            }
        }
        if removed == nodes {
            return None;
        }
        let node = (0..nodes).find(|&n| incoming[n] > 0)?;
        Some(match node {
            0 => String::new(),
            n => self.defs[n - 1].1.clone(),
        })
    }

    pub(super) fn type_name(&self, ty: &str) -> Value {
        if self.rules.openapi {
            Value::from(ty.to_ascii_uppercase())
        } else {
            Value::from(ty)
        }
    }

    /// One schema, lowered; `None` where a recursive reference was cut.
    pub(super) fn node(&mut self, schema: &Value, pointer: &str) -> Option<Value> {
        match schema {
            Value::Object(_) if self.depth >= MAX_DEPTH => {
                self.refuse(pointer.to_owned(), "nests too deep to declare");
                self.loosen(pointer, "$ref");
                None
            }
            Value::Object(map) => {
                self.depth += 1;
                let lowered = self.object(map, pointer);
                self.depth -= 1;
                lowered
            }
            Value::Bool(true) => {
                self.refuse(pointer.to_owned(), "accepts any value");
                Some(json!({}))
            }
            Value::Bool(false) => {
                self.refuse(pointer.to_owned(), "accepts no value");
                Some(json!({"description": "No value is accepted."}))
            }
            other => Some(other.clone()),
        }
    }

    /// A `$ref`, lowered: a reference into the root's `$defs`, or the schema written out.
    fn reference(&mut self, reference: &str, pointer: &str) -> Option<Value> {
        let target = refs::target(reference, &self.anchors)
            .filter(|target| refs::resolve(self.document, target).is_some());
        let Some(target) = target else {
            self.refuse(pointer.to_owned(), "refers to a schema outside it");
            self.loosen(pointer, "$ref");
            let sentence = format!("A value as {} describes.", literal(&Value::from(reference)));
            return Some(json!({"description": sentence}));
        };
        match self.rules.refs {
            Refs::Keep if target.is_empty() => {
                self.edges.push((self.current, None));
                Some(json!({"$ref": "#"}))
            }
            Refs::Keep => {
                let index = match self.def_index.get(&target) {
                    Some(&index) => index,
                    None => {
                        let base = refs::def_name(&target);
                        let mut name = base.clone();
                        let mut n = 2;
                        while self.def_names.contains(&name) {
                            name = format!("{base}_{n}");
                            n += 1;
                        }
                        self.def_index.insert(target.clone(), self.defs.len());
                        self.def_names.insert(name.clone());
                        self.defs.push((name, target, None));
                        self.defs.len() - 1
                    }
                };
                self.edges.push((self.current, Some(index)));
                Some(json!({"$ref": format!("#/$defs/{}", escape(&self.defs[index].0))}))
            }
            Refs::Inline => {
                let schema = refs::resolve(self.document, &target)?;
                if self.inlining.iter().filter(|p| **p == target).count() >= UNROLL {
                    // Written out twice already: the next level is its type alone, so that
                    // what holds it (a list's items, a union's form) stays declared.
                    self.loosen(pointer, "$ref");
                    let mut stub = Map::new();
                    if let Some(Value::String(ty)) = schema.get("type") {
                        stub.insert("type".into(), self.type_name(ty));
                    }
                    let sentence =
                        "The same shape as above, nested further (not written out again).";
                    stub.insert("description".into(), Value::from(sentence));
                    return Some(Value::Object(stub));
                }
                self.inlining.push(target.clone());
                let lowered = self.node(schema, &target);
                self.inlining.pop();
                lowered
            }
        }
    }

    /// A schema object, lowered.
    fn object(&mut self, map: &Map<String, Value>, pointer: &str) -> Option<Value> {
        if self.budget == 0 {
            self.refuse(pointer.to_owned(), "is too large to declare");
            self.loosen(pointer, "$ref");
            return None;
        }
        self.budget -= 1;
        let mut conflicts = Vec::new();
        let mut schema = refs::flatten(self.document, map, &self.anchors, &mut conflicts);
        let mut sentences = Vec::new();
        for (keyword, value) in conflicts {
            self.loosen(pointer, &keyword);
            sentences.push(format!("Also `{keyword}`: {}.", literal(&value)));
        }
        if self.rules.type_lists != TypeLists::Keep
            && let Some(split) =
                refs::split_types(&schema, self.rules.type_lists == TypeLists::SplitAll)
        {
            schema = split;
        }
        if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
            let lowered = self.reference(reference, pointer)?;
            return Some(self.annotate_reference(lowered, &schema, sentences));
        }
        let mut out = Map::new();
        let mut stated: Vec<&str> = Vec::new();
        for (key, value) in &schema {
            match key.as_str() {
                "type" => {
                    out.insert(key.clone(), self.lower_type(value));
                }
                "description" | "title" => {
                    out.insert(key.clone(), value.clone());
                }
                // The OpenAPI subset's `Schema` has no null default: google-genai reads a
                // null as "unset" and leaves it out of the request.
                "default"
                    if self.rules.default_in_description
                        || (self.rules.openapi && value.is_null()) =>
                {
                    self.loosen(pointer, key);
                    sentences.push(describe_default("", value));
                }
                "default" => {
                    out.insert(key.clone(), value.clone());
                }
                "enum" => self.lower_enum(value, &mut out, &mut stated),
                "const" => self.lower_const(value, &mut out, &mut stated),
                key if ASSERTIONS.contains(&key) => {
                    let kept =
                        (self.rules.keeps)(key, value) && !matches!(key, "patternProperties");
                    if kept {
                        out.insert(key.to_owned(), value.clone());
                    } else if key != "patternProperties" {
                        stated.push(key);
                    }
                }
                _ => {}
            }
        }
        self.lower_union(&schema, pointer, &mut out, &mut sentences)?;
        self.lower_array(&schema, pointer, &mut out, &mut sentences)?;
        self.lower_object(&schema, pointer, &mut out, &mut sentences, &mut stated);
        for key in &stated {
            self.loosen(pointer, key);
        }
        sentences.extend(sentences::state(&schema, &stated));
        if self.rules.openapi {
            openapi_nullable(&mut out);
            if !out.contains_key("type") && !out.contains_key("anyOf") {
                // The subset wants a type: a stated `enum` or `const` still gives one.
                let value = schema.get("const").or_else(|| {
                    schema
                        .get("enum")
                        .and_then(Value::as_array)
                        .and_then(|v| v.first())
                });
                if let Some(ty) = value.and_then(openapi_type_of) {
                    out.insert("type".into(), Value::from(ty));
                }
            }
        }
        let typed = ["type", "anyOf", "$ref", "enum", "const"]
            .iter()
            .any(|key| out.contains_key(*key));
        if !typed {
            self.refuse(pointer.to_owned(), "accepts any value");
        }
        describe(&mut out, &sentences);
        Some(Value::Object(out))
    }

    /// A lowered `$ref` with the annotations that stood beside it: alone where the target
    /// writes references out, else in a one-branch `anyOf` (a `$ref` takes no siblings).
    fn annotate_reference(
        &mut self,
        lowered: Value,
        schema: &Map<String, Value>,
        mut sentences: Vec<String>,
    ) -> Value {
        let mut notes = Map::new();
        for key in ["description", "title"] {
            if let Some(value) = schema.get(key) {
                notes.insert(key.to_owned(), value.clone());
            }
        }
        if let Some(default) = schema.get("default") {
            if self.rules.default_in_description || (self.rules.openapi && default.is_null()) {
                sentences.push(describe_default("", default));
            } else {
                notes.insert("default".into(), default.clone());
            }
        }
        if notes.is_empty() && sentences.is_empty() {
            return lowered;
        }
        let mut out = match (self.rules.refs, lowered) {
            (Refs::Inline, Value::Object(inlined)) => {
                let mut out = inlined;
                for (key, value) in notes {
                    out.insert(key, value);
                }
                out
            }
            (_, lowered) => {
                let mut out = notes;
                out.insert("anyOf".into(), Value::Array(vec![lowered]));
                out
            }
        };
        describe(&mut out, &sentences);
        Value::Object(out)
    }

    fn lower_type(&self, value: &Value) -> Value {
        if !self.rules.openapi {
            return value.clone();
        }
        match value {
            Value::String(ty) => self.type_name(ty),
            Value::Array(types) => Value::Array(
                types
                    .iter()
                    .map(|ty| self.type_name(ty.as_str().unwrap_or("string")))
                    .collect(),
            ),
            other => other.clone(),
        }
    }

    fn lower_enum(&mut self, value: &Value, out: &mut Map<String, Value>, stated: &mut Vec<&str>) {
        let Value::Array(values) = value else {
            return;
        };
        let plain = values.iter().all(|v| !v.is_object() && !v.is_array());
        let strings = values.iter().all(Value::is_string);
        if (self.rules.enum_primitives_only && !plain) || (self.rules.enum_strings_only && !strings)
        {
            stated.push("enum");
        } else {
            self.enum_values += values.len();
            out.insert("enum".into(), value.clone());
        }
    }

    fn lower_const(&mut self, value: &Value, out: &mut Map<String, Value>, stated: &mut Vec<&str>) {
        let plain = !value.is_object() && !value.is_array();
        if (self.rules.enum_primitives_only && !plain)
            || (self.rules.enum_strings_only && !value.is_string())
        {
            stated.push("const");
        } else if self.rules.const_as_enum {
            self.enum_values += 1;
            out.insert("enum".into(), json!([value]));
        } else {
            out.insert("const".into(), value.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::{Target, lower};

    #[test]
    fn a_null_default_is_stated_in_the_openapi_subset_and_kept_elsewhere() {
        // google-genai's `Schema` reads `default: null` as unset and sends nothing.
        let schema = json!({"type": "object", "properties": {
            "limit": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": null},
            "sort": {"$ref": "#/$defs/Sort", "default": null},
            "page": {"type": "integer", "default": 1},
        }, "$defs": {"Sort": {"type": "string", "enum": ["date", "name"]}}});
        let openapi = lower(&schema, Target::GeminiOpenApi);
        let properties = &openapi.schema()["properties"];
        for name in ["limit", "sort"] {
            assert!(
                properties[name].get("default").is_none(),
                "{name}: {properties}"
            );
            let description = properties[name]["description"].as_str().unwrap_or_default();
            assert!(description.contains("null"), "{name}: {description}");
        }
        assert_eq!(properties["page"]["default"], 1);
        let json_schema = lower(&schema, Target::GeminiJsonSchema);
        assert!(json_schema.schema()["properties"]["limit"]["default"].is_null());
        assert!(
            json_schema.schema()["properties"]["limit"]
                .get("default")
                .is_some()
        );
    }
}
