//! The minimum Rust version each crate of the workspace declares is true of what it builds
//! on: no locked dependency it may compile (with any of its features) asks for a newer Rust.
//!
//! A user on the declared version who turns on a feature (say `mcp`, whose rmcp asks for
//! more than the rest of the core) must get a build, not a resolver error. Cargo records each
//! dependency's own `rust-version`; this test reads them through `cargo metadata`, from the
//! lock file.

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

use serde_json::Value;

/// A `rust-version` as numbers: `1.88` and `1.88.0` are the same version.
fn version(text: &str) -> Vec<u64> {
    let mut parts: Vec<u64> = text
        .split('.')
        .map(|part| {
            part.parse()
                .unwrap_or_else(|_| panic!("rust-version {text:?}"))
        })
        .collect();
    parts.resize(3, 0);
    parts
}

fn metadata() -> Value {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let output = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--locked",
            "--all-features",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("cargo metadata prints JSON")
}

#[test]
fn declared_rust_versions_cover_every_locked_dependency() {
    let metadata = metadata();
    let packages: BTreeMap<&str, &Value> = metadata["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|package| (package["id"].as_str().unwrap(), package))
        .collect();
    let nodes: BTreeMap<&str, &Value> = metadata["resolve"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|node| (node["id"].as_str().unwrap(), node))
        .collect();
    let mut checked = 0;
    let mut wrong = Vec::new();
    for member in metadata["workspace_members"].as_array().unwrap() {
        let member = member.as_str().unwrap();
        let package = packages[member];
        let name = package["name"].as_str().unwrap();
        let declared = package["rust_version"]
            .as_str()
            .unwrap_or_else(|| panic!("{name} declares no rust-version"));
        // What the member compiles when a user depends on it: its normal and build
        // dependencies, and theirs (a dependency's dev-dependencies are never built for it).
        let mut seen = BTreeSet::new();
        let mut stack = vec![member];
        while let Some(id) = stack.pop() {
            for dep in nodes[id]["deps"].as_array().unwrap() {
                let kinds = dep["dep_kinds"].as_array().unwrap();
                let built = id != member
                    || kinds
                        .iter()
                        .any(|kind| kind["kind"].as_str() != Some("dev"));
                let dep_id = dep["pkg"].as_str().unwrap();
                if built && seen.insert(dep_id) {
                    stack.push(dep_id);
                }
            }
        }
        for id in seen {
            let dep = packages[id];
            checked += 1;
            if let Some(needs) = dep["rust_version"].as_str()
                && version(needs) > version(declared)
            {
                wrong.push(format!(
                    "{name} declares rust-version {declared}, but {} {} needs {needs}",
                    dep["name"].as_str().unwrap(),
                    dep["version"].as_str().unwrap()
                ));
            }
        }
    }
    assert!(checked > 50, "only {checked} dependencies were read");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn rust_versions_compare_as_numbers() {
    assert!(version("1.88") > version("1.85.0"));
    assert!(version("1.100") > version("1.99.9"));
    assert_eq!(version("1.88"), version("1.88.0"));
}
