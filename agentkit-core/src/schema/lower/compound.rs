//! The keywords that hold schemas: unions, arrays and tuples, objects.

use std::collections::HashSet;

use serde_json::{Map, Value, json};

use super::Maps;
use super::refs::escape;
use super::sentences::literal;
use super::shape::make_nullable;
use super::walk::Lowerer;

/// Up to how many forms a union is kept free of repeats: past that, comparing each with
/// every other would cost more than the repeats.
const DEDUPE: usize = 64;

impl Lowerer<'_> {
    /// `anyOf` and `oneOf` (declared as `anyOf`: what the model sends must match one form
    /// either way, and the executor checks there is exactly one).
    pub(super) fn lower_union(
        &mut self,
        schema: &Map<String, Value>,
        pointer: &str,
        out: &mut Map<String, Value>,
        sentences: &mut Vec<String>,
    ) -> Option<()> {
        for key in ["anyOf", "oneOf"] {
            let Some(Value::Array(variants)) = schema.get(key) else {
                continue;
            };
            let beside_properties = schema.contains_key("properties");
            if out.contains_key("anyOf")
                || (beside_properties && !self.rules.union_beside_properties)
            {
                self.loosen(pointer, key);
                sentences.push(format!(
                    "Also `{key}`: {}.",
                    literal(&Value::Array(variants.clone()))
                ));
                continue;
            }
            if key == "oneOf" {
                self.loosen(pointer, key);
            }
            let mut lowered = Vec::new();
            for (index, variant) in variants.iter().enumerate() {
                if let Some(variant) = self.node(variant, &format!("{pointer}/{key}/{index}"))
                    && (lowered.len() > DEDUPE || !lowered.contains(&variant))
                {
                    lowered.push(variant);
                }
            }
            if lowered.is_empty() {
                return None;
            }
            out.insert("anyOf".into(), Value::Array(lowered));
        }
        Some(())
    }

    /// `items` and tuples (`prefixItems`, or draft-07's `items` array).
    pub(super) fn lower_array(
        &mut self,
        schema: &Map<String, Value>,
        pointer: &str,
        out: &mut Map<String, Value>,
        sentences: &mut Vec<String>,
    ) -> Option<()> {
        let (tuple, rest, tuple_key) = match (schema.get("prefixItems"), schema.get("items")) {
            (Some(Value::Array(prefix)), rest) => (Some(prefix), rest, "prefixItems"),
            (None, Some(Value::Array(prefix))) => {
                (Some(prefix), schema.get("additionalItems"), "items")
            }
            (_, items) => (None, items, ""),
        };
        let Some(prefix) = tuple else {
            if let Some(items) = rest {
                let items = self.node(items, &format!("{pointer}/items"))?;
                out.insert("items".into(), items);
            } else if schema.get("type") == Some(&Value::from("array")) {
                self.refuse(pointer.to_owned(), "is a list of any values");
            }
            return Some(());
        };
        let mut lowered = Vec::new();
        for (index, item) in prefix.iter().enumerate() {
            lowered.push(self.node(item, &format!("{pointer}/{tuple_key}/{index}"))?);
        }
        let rest_key = if tuple_key == "items" {
            "additionalItems"
        } else {
            "items"
        };
        let rest = match rest {
            Some(Value::Bool(false)) => None,
            Some(rest) => Some(self.node(rest, &format!("{pointer}/{rest_key}"))?),
            None => None,
        };
        if self.rules.tuples {
            let positions = lowered.len() as u64;
            out.insert("prefixItems".into(), Value::Array(lowered));
            match (rest, schema.get(rest_key)) {
                (Some(rest), _) => {
                    out.insert("items".into(), rest);
                }
                // A closed tuple (`items: false`) is one of at most its positions: said with
                // `maxItems`, since the only target that keeps tuples (Gemini) takes a schema
                // object as `items`, never a boolean (google-genai's `JSONSchema` refuses one).
                (None, Some(_)) => {
                    let bound = out
                        .get("maxItems")
                        .and_then(Value::as_u64)
                        .map_or(positions, |declared| declared.min(positions));
                    out.insert("maxItems".into(), Value::from(bound));
                }
                (None, None) => {}
            }
            return Some(());
        }
        self.loosen(pointer, tuple_key);
        let kinds: Vec<String> = lowered
            .iter()
            .map(|item| match item.get("type") {
                Some(Value::String(ty)) => ty.to_ascii_lowercase(),
                _ => "value".to_owned(),
            })
            .collect();
        let then = if rest.is_some() { ", then more" } else { "" };
        sentences.push(format!("Items in this order: {}{then}.", kinds.join(", ")));
        let mut forms: Vec<Value> = Vec::new();
        for form in lowered.into_iter().chain(rest) {
            if forms.len() > DEDUPE || !forms.contains(&form) {
                forms.push(form);
            }
        }
        let items = match <[Value; 1]>::try_from(forms) {
            Ok([one]) => one,
            Err(forms) => json!({"anyOf": forms}),
        };
        out.insert("items".into(), items);
        Some(())
    }

    /// `properties`, `required` and the keys an object does not name.
    pub(super) fn lower_object<'k>(
        &mut self,
        schema: &'k Map<String, Value>,
        pointer: &str,
        out: &mut Map<String, Value>,
        sentences: &mut Vec<String>,
        stated: &mut Vec<&'k str>,
    ) {
        let properties = schema.get("properties").and_then(Value::as_object);
        let is_object = match schema.get("type") {
            Some(Value::String(ty)) => ty == "object",
            Some(Value::Array(types)) => types.iter().any(|t| t == "object"),
            _ => {
                properties.is_some()
                    || schema.contains_key("required")
                    || schema.contains_key("patternProperties")
                    || schema.contains_key("additionalProperties")
            }
        };
        if !is_object {
            return;
        }
        if !schema.contains_key("type") {
            out.insert("type".into(), self.type_name("object"));
        }
        let mut required: Vec<String> = match schema.get("required") {
            Some(Value::Array(names)) => names
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
            _ => Vec::new(),
        };
        let mut lowered = Map::new();
        self.nesting += 1;
        self.deepest = self.deepest.max(self.nesting);
        for (name, property) in properties.into_iter().flatten() {
            self.properties += 1;
            let at = format!("{pointer}/properties/{}", escape(name));
            match self.node(property, &at) {
                Some(property) => {
                    lowered.insert(name.clone(), property);
                }
                None => {
                    if let Some(at) = required.iter().position(|n| n == name) {
                        required.remove(at);
                    }
                    sentences.push(format!(
                        "'{name}' is not declared at this depth: its schema nests further."
                    ));
                }
            }
        }
        self.nesting -= 1;
        if let Some(missing) = required.iter().find(|name| !lowered.contains_key(*name)) {
            let why = format!("requires '{missing}' without declaring it");
            self.refuse(pointer.to_owned(), &why);
        }
        let extra = schema.get("additionalProperties");
        let patterns = schema.contains_key("patternProperties");
        match self.rules.maps {
            Maps::Refuse => {
                if patterns || matches!(extra, Some(Value::Object(_) | Value::Bool(true))) {
                    self.refuse(pointer.to_owned(), "takes keys it does not name (a map)");
                } else if properties.is_none() && extra.is_none() {
                    self.refuse(pointer.to_owned(), "is an object of any keys");
                }
                out.insert("additionalProperties".into(), Value::Bool(false));
            }
            Maps::Keep => {
                if patterns {
                    stated.push("patternProperties");
                }
                match extra {
                    Some(Value::Object(_)) => {
                        let at = format!("{pointer}/additionalProperties");
                        let lowered = extra.and_then(|e| self.node(e, &at)).unwrap_or(json!({}));
                        out.insert("additionalProperties".into(), lowered);
                    }
                    Some(other) => {
                        out.insert("additionalProperties".into(), other.clone());
                    }
                    // The executor refuses keys an object with properties does not name.
                    None if properties.is_some() && !patterns => {
                        out.insert("additionalProperties".into(), Value::Bool(false));
                    }
                    None => {}
                }
            }
            Maps::State => {
                if patterns {
                    stated.push("patternProperties");
                }
                if matches!(extra, Some(Value::Object(_) | Value::Bool(true))) {
                    stated.push("additionalProperties");
                }
            }
        }
        if self.rules.all_required {
            let given: HashSet<String> = required.drain(..).collect();
            for (name, property) in lowered.iter_mut() {
                if !given.contains(name) {
                    make_nullable(property);
                }
                required.push(name.clone());
            }
        }
        if properties.is_some() || self.rules.strict {
            out.insert("properties".into(), Value::Object(lowered));
        }
        if !required.is_empty() || self.rules.all_required {
            out.insert("required".into(), json!(required));
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::{Target, lower};

    #[test]
    fn a_closed_tuple_is_bounded_by_its_positions_where_tuples_are_kept() {
        // Gemini takes `prefixItems` but no boolean schema as `items`: google-genai's
        // `JSONSchema` model refuses `items: false`.
        let lowered = |schema: serde_json::Value| {
            lower(
                &json!({"type": "object", "properties": {"pair": schema}}),
                Target::GeminiJsonSchema,
            )
            .schema()["properties"]["pair"]
                .clone()
        };
        let two = [json!({"type": "string"}), json!({"type": "integer"})];
        assert_eq!(
            lowered(json!({"type": "array", "prefixItems": two, "items": false})),
            json!({"type": "array", "prefixItems": two, "maxItems": 2})
        );
        // Draft-07's form, and a declared bound that is tighter already.
        assert_eq!(
            lowered(json!({"type": "array", "items": two, "additionalItems": false})),
            json!({"type": "array", "prefixItems": two, "maxItems": 2})
        );
        assert_eq!(
            lowered(json!({"type": "array", "prefixItems": two, "items": false, "maxItems": 1})),
            json!({"type": "array", "prefixItems": two, "maxItems": 1})
        );
        // An open tuple keeps the schema of the rest.
        assert_eq!(
            lowered(json!({"type": "array", "prefixItems": two, "items": {"type": "boolean"}})),
            json!({"type": "array", "prefixItems": two, "items": {"type": "boolean"}})
        );
    }
}
