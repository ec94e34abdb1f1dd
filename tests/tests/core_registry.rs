//! Behaviour of `ToolRegistry`: duplicates refused with a `SemanticError` naming the tool,
//! lookup by name and by tags (every tag must match), registration order, and counts.

use std::sync::Arc;

use agentkit_core::Problem;
use agentkit_core::{ToolRegistry, ToolSpec};

use crate::core_fixtures::{FnTool, Probe, bare_spec};

fn tool(spec: ToolSpec) -> FnTool {
    FnTool::new(spec, |inputs, _| Ok(inputs.clone())).0
}

fn tagged(name: &'static str, tags: &[(&'static str, &'static str)]) -> FnTool {
    let builder = tags
        .iter()
        .fold(ToolSpec::builder(name), |b, (k, v)| b.tag(*k, *v));
    tool(builder.build().unwrap())
}

fn names<'a>(specs: impl Iterator<Item = &'a ToolSpec>) -> Vec<&'a str> {
    specs.map(ToolSpec::name).collect()
}

fn sample() -> ToolRegistry {
    let mut registry = ToolRegistry::new();
    registry
        .register(tagged("search", &[("team", "web"), ("cost", "cheap")]))
        .unwrap();
    registry
        .register(tagged("fetch", &[("team", "web"), ("cost", "dear")]))
        .unwrap();
    registry
        .register(tagged("sum", &[("team", "math"), ("cost", "cheap")]))
        .unwrap();
    registry.register(tagged("untagged", &[])).unwrap();
    registry
}

#[test]
fn a_new_registry_is_empty() {
    let registry = ToolRegistry::new();
    assert!(registry.is_empty());
    assert_eq!(registry.len(), 0);
    assert_eq!(registry.specs().len(), 0);
    assert!(registry.lookup("anything").is_none());
}

#[test]
fn duplicate_registration_is_refused_with_a_semantic_error_naming_the_tool() {
    let mut registry = ToolRegistry::new();
    let (first, first_probe): (FnTool, Probe) =
        FnTool::new(bare_spec("fetch_weather"), |_, _| Ok(Default::default()));
    registry.register(first).unwrap();
    let second = ToolSpec::builder("fetch_weather")
        .description("an impostor")
        .build()
        .unwrap();
    let err = registry.register(tool(second)).unwrap_err();
    assert_eq!(err.problems().len(), 1);
    assert_eq!(
        err.problems()[0].problem(),
        &Problem::DuplicateTool {
            name: "fetch_weather".into()
        }
    );
    assert!(err.to_string().contains("'fetch_weather'"), "{err}");
    // The first registration stands.
    assert_eq!(registry.len(), 1);
    assert_eq!(registry.lookup("fetch_weather").unwrap().description(), "");
    assert_eq!(first_probe.runs(), 0);
}

#[test]
fn duplicates_are_refused_for_shared_tools_too() {
    let mut registry = ToolRegistry::new();
    let shared = Arc::new(tool(bare_spec("shared")));
    registry.register_arc(Arc::clone(&shared)).unwrap();
    assert!(registry.register_arc(Arc::clone(&shared)).is_err());
    assert!(registry.register(tool(bare_spec("shared"))).is_err());
    // The same Arc can live in another registry: one registry per agent.
    let mut other = ToolRegistry::new();
    other.register_arc(shared).unwrap();
    assert_eq!(other.len(), 1);
}

#[test]
fn lookup_finds_by_exact_name_only() {
    let registry = sample();
    assert_eq!(registry.lookup("fetch").map(ToolSpec::name), Some("fetch"));
    assert_eq!(
        registry.lookup("search").unwrap().tag("cost"),
        Some("cheap")
    );
    for missing in ["Fetch", "fetc", "fetch ", "", "nope"] {
        assert!(registry.lookup(missing).is_none(), "{missing:?}");
    }
}

#[test]
fn lookup_by_tags_requires_every_tag_to_match() {
    let registry = sample();
    assert_eq!(
        names(registry.lookup_by_tags(&[("team", "web")])),
        ["search", "fetch"]
    );
    assert_eq!(
        names(registry.lookup_by_tags(&[("cost", "cheap")])),
        ["search", "sum"]
    );
    // Intersection.
    assert_eq!(
        names(registry.lookup_by_tags(&[("team", "web"), ("cost", "cheap")])),
        ["search"]
    );
    assert_eq!(
        names(registry.lookup_by_tags(&[("cost", "cheap"), ("team", "web")])),
        ["search"]
    );
    assert!(names(registry.lookup_by_tags(&[("team", "math"), ("cost", "dear")])).is_empty());
    // A value must match exactly, and a missing key does not match.
    assert!(names(registry.lookup_by_tags(&[("team", "WEB")])).is_empty());
    assert!(names(registry.lookup_by_tags(&[("owner", "me")])).is_empty());
    // No tag asked: every tool.
    assert_eq!(
        names(registry.lookup_by_tags(&[])),
        ["search", "fetch", "sum", "untagged"]
    );
}

#[test]
fn iteration_follows_registration_order_and_len_counts() {
    let order = ["zeta", "alpha", "mid", "beta", "omega", "a1"];
    let mut registry = ToolRegistry::new();
    for (i, name) in order.iter().enumerate() {
        registry.register(tool(bare_spec(name))).unwrap();
        assert_eq!(registry.len(), i + 1);
    }
    assert!(!registry.is_empty());
    assert_eq!(names(registry.specs()), order);
    assert_eq!(registry.specs().len(), order.len());
    // A refused duplicate changes neither the order nor the count.
    assert!(registry.register(tool(bare_spec("mid"))).is_err());
    assert_eq!(names(registry.specs()), order);
    assert_eq!(registry.len(), order.len());
    // Clones keep the order.
    assert_eq!(names(registry.clone().specs()), order);
}

#[test]
fn registries_are_independent() {
    let mut a = ToolRegistry::new();
    let mut b = ToolRegistry::new();
    a.register(tool(bare_spec("only_in_a"))).unwrap();
    b.register(tool(bare_spec("only_in_b"))).unwrap();
    assert!(a.lookup("only_in_b").is_none());
    assert!(b.lookup("only_in_a").is_none());
    // Each may register a name the other has.
    b.register(tool(bare_spec("only_in_a"))).unwrap();
    assert_eq!(a.len(), 1);
    assert_eq!(b.len(), 2);
}

#[test]
fn debug_lists_the_tool_names_in_order() {
    let registry = sample();
    let debug = format!("{registry:?}");
    let positions: Vec<usize> = ["search", "fetch", "sum", "untagged"]
        .iter()
        .map(|n| debug.find(&format!("\"{n}\"")).unwrap())
        .collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{debug}");
}
