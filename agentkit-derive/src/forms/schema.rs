//! Stage 4: the complete JSON Schema of a literal that uses a form beyond the six types,
//! written as text at compile time. The generated spec compiles it once, on first use.
//!
//! Every object is closed (`additionalProperties: false`), as the six types' are; an optional
//! parameter is simply not `required` (the validator reads a `null` for it as absent unless
//! it is `nullable`, when `null` is its value); a union is an object that is `oneOf` its
//! variants, each fixing the tag with a `const`, from which the validator reports the
//! problems of the variant the tag names. What `#[derive(ToolParams)]` writes for the same
//! form is the same schema (`tests/tests/derive_literal_forms.rs` holds them equal).

use super::json::Json;
use super::{Def, Kind, items_of, kind_of};
use crate::ast::Param;
use crate::rules::{self, ParamType};

/// The schema of the tool's input or output: an object of `params`, with the `$defs` they
/// refer to (the same as `#[derive(ToolParams)]` writes, which lists only the types it meets).
pub(crate) fn root(params: &[Param], defs: &[Def]) -> String {
    let mut schema = object(params);
    let defs = super::reachable_defs(params, defs);
    if !defs.is_empty() {
        let defs = defs
            .into_iter()
            .map(|def| (def.name.value.clone(), declared(&def.param, false)))
            .collect();
        schema.set("$defs", Json::Obj(defs));
    }
    schema.to_text()
}

/// A closed object of `params`.
fn object(params: &[Param]) -> Json {
    let mut properties = Vec::with_capacity(params.len());
    let mut required = Vec::new();
    for param in params {
        let Some(name) = &param.name else { continue };
        properties.push((name.value.clone(), declared(param, true)));
        if param.is_required() {
            required.push(Json::str(&name.value));
        }
    }
    Json::Obj(vec![
        ("type".into(), Json::str("object")),
        ("properties".into(), Json::Obj(properties)),
        ("required".into(), Json::Arr(required)),
        ("additionalProperties".into(), Json::Bool(false)),
    ])
}

/// The schema of one declaration: its kind, constraints, `const`, `nullable`, then (for a
/// parameter, `with_value_keys`) its description and default.
fn declared(param: &Param, with_value_keys: bool) -> Json {
    let mut schema = match kind_of(param) {
        Some(kind) => kind_schema(&kind, param),
        None => Json::object(),
    };
    constraints(&mut schema, &param.constraints);
    if let Some(constant) = &param.forms.constant {
        schema.set("const", Json::literal(&constant.to_literal()));
    }
    if param.forms.is_nullable() {
        schema = nullable(schema);
    }
    if let Some(description) = param.description.as_deref().filter(|d| !d.is_empty()) {
        schema.set("description", Json::str(description));
    }
    if with_value_keys {
        if let Some(default) = &param.default_literal {
            schema.set("default", Json::literal(default));
        }
    }
    schema
}

/// `null` allowed besides: in the type list where there is one, else as a second form.
fn nullable(mut schema: Json) -> Json {
    let simple =
        matches!(schema.get_mut("type"), Some(Json::Str(_))) && schema.get_mut("const").is_none();
    if simple {
        if let Some(Json::Arr(values)) = schema.get_mut("enum") {
            values.push(Json::Null);
        }
    }
    match schema.get_mut("type") {
        Some(ty) if simple => {
            let single = std::mem::replace(ty, Json::Null);
            *ty = Json::Arr(vec![single, Json::str("null")]);
            schema
        }
        _ => Json::Obj(vec![(
            "anyOf".into(),
            Json::Arr(vec![
                schema,
                Json::Obj(vec![("type".into(), Json::str("null"))]),
            ]),
        )]),
    }
}

/// The schema of a value of `kind`; `param` holds the parts it names (`fields`, `variants`,
/// `items`, `values`).
fn kind_schema(kind: &Kind, param: &Param) -> Json {
    match kind {
        Kind::Six(ParamType::Dictionary) => match &param.fields {
            Some((fields, _)) => object(fields),
            None => typed("object"),
        },
        Kind::Six(ParamType::List) => {
            let mut schema = typed("array");
            if let Some(items) = items_of(param) {
                schema.set("items", part_schema(&items, param));
            }
            schema
        }
        Kind::Six(ty) => typed(ty.json_schema_type()),
        Kind::Any => Json::object(),
        Kind::Union => union(param),
        Kind::Map => {
            let mut schema = typed("object");
            let values = match &param.forms.values {
                Some((values, _)) => part_schema(values, param),
                None => Json::object(),
            };
            schema.set("additionalProperties", values);
            schema
        }
        Kind::Tuple => {
            let items: Vec<Json> = param
                .forms
                .tuple
                .as_ref()
                .map(|(items, _)| items.iter().map(|(k, _)| part_schema(k, param)).collect())
                .unwrap_or_default();
            let len = i64::try_from(items.len()).unwrap_or(i64::MAX);
            Json::Obj(vec![
                ("type".into(), Json::str("array")),
                ("prefixItems".into(), Json::Arr(items)),
                ("items".into(), Json::Bool(false)),
                ("minItems".into(), Json::Int(len)),
            ])
        }
        Kind::Def(name) => Json::Obj(vec![("$ref".into(), Json::Str(format!("#/$defs/{name}")))]),
    }
}

/// The schema of a part of a declaration (a list's items, a map's values, a tuple's
/// position): a dictionary with the declaration's `fields`, a union with its `variants`.
fn part_schema(kind: &Kind, param: &Param) -> Json {
    match kind {
        Kind::Six(ParamType::Dictionary) => match &param.fields {
            Some((fields, _)) => object(fields),
            None => typed("object"),
        },
        Kind::Six(ParamType::List) => typed("array"),
        Kind::Union => union(param),
        other => kind_schema(other, param),
    }
}

/// `{"oneOf": [...]}`: each variant a closed object whose tag is a `const`.
fn union(param: &Param) -> Json {
    let tag = param.forms.tag_name();
    let variants = param
        .forms
        .variants
        .iter()
        .flat_map(|(variants, _)| variants)
        .map(|variant| {
            let mut schema = object(&variant.fields);
            let tag_value = variant.tag.as_ref().map_or("", |t| t.value.as_str());
            let tag_schema = Json::Obj(vec![("const".into(), Json::str(tag_value))]);
            // The tag first, in the properties and in `required`.
            if let Some(Json::Obj(properties)) = schema.get_mut("properties") {
                properties.insert(0, (tag.to_owned(), tag_schema));
            }
            if let Some(Json::Arr(required)) = schema.get_mut("required") {
                required.insert(0, Json::str(tag));
            }
            if let Some(description) = &variant.description {
                schema.set("description", Json::str(description));
            }
            schema
        })
        .collect();
    Json::Obj(vec![
        ("type".into(), Json::str("object")),
        ("oneOf".into(), Json::Arr(variants)),
    ])
}

fn typed(ty: &str) -> Json {
    Json::Obj(vec![("type".into(), Json::str(ty))])
}

/// The six types' constraints, as the keywords their names stand for.
fn constraints(schema: &mut Json, c: &rules::Constraints) {
    if let Some(values) = &c.enum_values {
        schema.set(
            "enum",
            Json::Arr(values.iter().map(Json::literal).collect()),
        );
    }
    if let Some(min) = c.minimum {
        schema.set("minimum", Json::number(min));
    }
    if let Some(max) = c.maximum {
        schema.set("maximum", Json::number(max));
    }
    for (key, value) in [
        ("minLength", c.min_length),
        ("maxLength", c.max_length),
        ("minItems", c.min_items),
        ("maxItems", c.max_items),
    ] {
        if let Some(n) = value {
            schema.set(key, Json::count(n));
        }
    }
}
