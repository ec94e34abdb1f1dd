//! Every example in the documentation of `#[tool(...)]` is compiled and run as a test
//! (`derive_pass/doc_*.rs`, or a trybuild pass case in `ui/pass/doc_*.rs` when it needs a crate
//! of its own), since the macro crate cannot run doctests against agentkit-core. This test
//! keeps the two copies identical.

use std::fs;

fn doc_examples() -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../agentkit-derive/src/lib.rs");
    let source = fs::read_to_string(path).unwrap();
    let mut examples = Vec::new();
    let mut current: Option<Vec<&str>> = None;
    for line in source.lines() {
        let Some(doc) = line.trim_start().strip_prefix("///") else {
            continue;
        };
        let doc = doc.strip_prefix(' ').unwrap_or(doc);
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
