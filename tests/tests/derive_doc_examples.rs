//! Every example in the documentation of `#[tool(...)]` and `#[derive(ToolParams)]` is
//! compiled and run as a test (`derive_pass/doc_*.rs`, or a program in `ui/pass/doc_*.rs`
//! when it needs a crate of its own), since the macro crate cannot run doctests against
//! agentkit-core. This test
//! keeps the two copies identical.

use std::fs;

fn doc_examples() -> Vec<String> {
    // The macro's docs: the doc comments of its entry point, and the reference they include.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../agentkit-derive/src/lib.rs");
    let source = fs::read_to_string(path).unwrap();
    let reference = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../agentkit-derive/docs/tool.md"
    );
    let reference = fs::read_to_string(reference).unwrap();
    let doc_lines = source
        .lines()
        .filter_map(|line| line.trim_start().strip_prefix("///"))
        .map(|doc| doc.strip_prefix(' ').unwrap_or(doc))
        .chain(reference.lines());
    let mut examples = Vec::new();
    let mut current: Option<Vec<&str>> = None;
    for doc in doc_lines {
        match (&mut current, doc) {
            (None, "```rust") => current = Some(Vec::new()),
            (Some(lines), "```") => {
                examples.push(lines.join("\n"));
                current = None;
            }
            (Some(lines), _) => lines.push(doc),
            (None, _) => {}
        }
    }
    examples
}

#[test]
fn every_doc_example_is_a_pass_case() {
    let examples = doc_examples();
    assert!(examples.len() >= 5, "found {} examples", examples.len());
    let dirs = [
        concat!(env!("CARGO_MANIFEST_DIR"), "/ui/pass"),
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/derive_pass"),
    ];
    let cases: Vec<String> = dirs
        .iter()
        .flat_map(|dir| fs::read_dir(dir).unwrap())
        .map(|entry| fs::read_to_string(entry.unwrap().path()).unwrap())
        .collect();
    for example in examples {
        assert!(
            cases.iter().any(|case| case.contains(&example)),
            "no pass case contains this example:\n{example}"
        );
    }
}

/// The skeleton the compiler suggests for a tool without `impl ToolHandler`, pasted as the
/// note reads, for a tool without schemas and for one with both.
mod missing_handler_hint {
    use agentkit_core::{BoxError, ToolContext, ToolHandler, tool};

    #[tool(name = "bare")]
    pub(super) struct Bare;

    #[rustfmt::skip]
    impl ToolHandler for Bare { async fn run(&self, _input: Self::Input, _ctx: &ToolContext<'_>) -> Result<Self::Output, BoxError> { todo!() } }

    #[tool(name = "typed", input = [{ name = "a", type = string }], output = [{ name = "b", type = string }])]
    pub(super) struct Typed;

    #[rustfmt::skip]
    impl ToolHandler for Typed { async fn run(&self, _input: Self::Input, _ctx: &ToolContext<'_>) -> Result<Self::Output, BoxError> { todo!() } }
}

#[test]
fn the_missing_handler_hint_is_an_impl_that_compiles() {
    let typed = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../agentkit-core/src/typed/mod.rs"
    );
    let typed = fs::read_to_string(typed).unwrap();
    let note = typed
        .lines()
        .find_map(|line| {
            line.trim()
                .strip_prefix("note = \"write the logic in an impl: `")
        })
        .expect("the note of ToolHandler's on_unimplemented");
    let hint = note.split('`').next().unwrap();
    // The tools with the pasted impls are tools.
    let mut registry = agentkit_core::ToolRegistry::new();
    registry.register(missing_handler_hint::Bare).unwrap();
    registry.register(missing_handler_hint::Typed).unwrap();
    let this = fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/derive_doc_examples.rs"
    ))
    .unwrap();
    for tool in ["Bare", "Typed"] {
        let pasted = hint
            .replace("{Self}", tool)
            .replace("{{", "{")
            .replace("}}", "}");
        assert!(
            this.lines().any(|line| line.trim() == pasted),
            "`{pasted}` is not pasted above"
        );
    }
}
