//! Stage 4, the common case: the spec of a tool declared with parameter lists, written as
//! JSON text in the shape `ToolSpec::to_value` saves, which the generated `Tool::spec` reads
//! once, on first use.
//!
//! Text rather than `static` data built by `const fn`s: the compiler type-checks, qualifies
//! and evaluates every call of such an initializer, and with a dozen calls a tool that was
//! about 7 % of a clean build of 100 tools. A string literal costs it next to nothing;
//! reading it costs the first `spec()` call a few microseconds.

use crate::ast::Param;
use crate::forms::json::Json;
use crate::rules::{self, ParamType};
use crate::symbol::HINTS;

use super::ast::Tool;

/// The spec as text, if the tool's declaration is all the text says: parameter lists of the
/// six types. `None` for `input = Type` or `output = Type` (their schemas are the types'
/// `const`s) and for a literal with the forms only JSON Schema can say, which keep the
/// `static` spec.
pub(crate) fn spec_text(tool: &Tool<'_>) -> Option<String> {
    if tool.input_type.is_some()
        || tool.output_type.is_some()
        || tool.uses_forms()
        || tool.output_uses_forms()
    {
        return None;
    }
    let mut spec = Json::object();
    spec.set("name", Json::str(&tool.tool_name()));
    spec.set(
        "description",
        Json::str(tool.description.as_deref().unwrap_or("")),
    );
    spec.set("version", Json::str(tool.version()));
    for (key, params) in [
        ("input_schema", &tool.input),
        ("output_schema", &tool.output),
    ] {
        if let Some(params) = params {
            let mut schema = Json::object();
            schema.set("parameters", param_list(params));
            spec.set(key, schema);
        }
    }
    // Pairs, not an object: read back as an object, the tags would come in the order of
    // whichever map `serde_json` is built with, not in the order written.
    let tags = tool
        .tags
        .iter()
        .map(|(key, value)| Json::Arr(vec![Json::str(&key.value), Json::str(&value.value)]));
    spec.set("tags", Json::Arr(tags.collect()));
    let credentials = tool.credentials.iter().map(|c| Json::str(&c.value));
    spec.set("credential_names", Json::Arr(credentials.collect()));
    let policy = &tool.policy;
    if let Some(timeout) = policy.timeout {
        spec.set("timeout", Json::Str(rules::format_timeout(timeout)));
    }
    for (key, set) in [
        ("blocking", policy.blocking),
        ("sequential", policy.sequential),
        ("requires_approval", policy.requires_approval),
    ] {
        if set {
            spec.set(key, Json::Bool(true));
        }
    }
    if let Some(retries) = policy.retries {
        spec.set("retries", Json::Int(i64::from(retries)));
    }
    if let Some(variant) = policy.task_support {
        spec.set("task_support", Json::Str(variant.to_ascii_lowercase()));
    }
    let annotations = &tool.annotations;
    if !annotations.is_empty() {
        let mut object = Json::object();
        if let Some(title) = &annotations.title {
            object.set("title", Json::str(&title.value));
        }
        for key in HINTS {
            if let Some((value, _)) = annotations.hint(key) {
                object.set(key.as_str(), Json::Bool(value));
            }
        }
        spec.set("annotations", object);
    }
    if !tool.examples.is_empty() {
        let examples = tool
            .examples
            .iter()
            .map(|example| Json::literal(&example.value.to_literal()));
        spec.set("examples", Json::Arr(examples.collect()));
    }
    Some(spec.to_text())
}

/// A parameter list in the Python original's shape, as `ToolSchema::to_value` writes it.
fn param_list(params: &[Param]) -> Json {
    Json::Arr(params.iter().map(param).collect())
}

fn param(param: &Param) -> Json {
    let mut object = Json::object();
    object.set(
        "name",
        Json::str(param.name.as_ref().map_or("", |n| n.value.as_str())),
    );
    let ty = param.ty.map_or(ParamType::String, |t| t.ty);
    object.set("type", Json::str(ty.as_str()));
    object.set("required", Json::Bool(param.is_required()));
    // Reading it back normalises it again, to the same value.
    if let Some(default) = param.stored_default() {
        object.set("default", Json::literal(&default));
    }
    if let Some(description) = param.description.as_deref().filter(|d| !d.is_empty()) {
        object.set("description", Json::str(description));
    }
    if let Some((items, _)) = param.items {
        object.set("items", Json::str(items.ty.as_str()));
    }
    if let Some((fields, _)) = &param.fields {
        object.set("fields", param_list(fields));
    }
    let c = &param.constraints;
    if let Some(values) = &c.enum_values {
        object.set(
            "enum",
            Json::Arr(values.iter().map(Json::literal).collect()),
        );
    }
    for (key, bound) in [("minimum", c.minimum), ("maximum", c.maximum)] {
        if let Some(bound) = bound {
            object.set(key, Json::number(bound));
        }
    }
    for (key, count) in [
        ("min_length", c.min_length),
        ("max_length", c.max_length),
        ("min_items", c.min_items),
        ("max_items", c.max_items),
    ] {
        if let Some(count) = count {
            object.set(key, Json::count(count));
        }
    }
    object
}
