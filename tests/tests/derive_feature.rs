//! `#[tool]` and `#[derive(ToolParams)]` without agentkit-core's `derive` feature are one
//! compile error each, which says which feature to enable. A trybuild case cannot turn a
//! feature off, so this builds the small crate in `tests/no-derive` (its own workspace, built
//! in `CARGO_TARGET_TMPDIR`, the directory cargo gives integration tests for their files) and
//! reads the compiler's output.

use std::process::Command;

#[test]
fn the_macros_without_the_derive_feature_say_to_enable_it() {
    let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/no-derive/Cargo.toml");
    let target = concat!(env!("CARGO_TARGET_TMPDIR"), "/no-derive");
    let output = Command::new(env!("CARGO"))
        .args([
            "check",
            "--quiet",
            "--offline",
            "--color",
            "never",
            "--manifest-path",
        ])
        .arg(manifest)
        .env("CARGO_TARGET_DIR", target)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    let errors: Vec<&str> = stderr
        .lines()
        .filter(|line| line.starts_with("error") && !line.contains("could not compile"))
        .collect();
    assert_eq!(
        errors,
        [
            "error: `#[tool]` needs the `derive` feature of agentkit-core: \
             agentkit-core = { version = \"0.1\", features = [\"derive\"] }",
            "error: `#[derive(ToolParams)]` needs the `derive` feature of agentkit-core: \
             agentkit-core = { version = \"0.1\", features = [\"derive\"] }",
        ],
        "{stderr}"
    );
    // On the attribute and on the derive.
    assert!(stderr.contains("src/main.rs:3:1"), "{stderr}");
    assert!(stderr.contains("src/main.rs:6:10"), "{stderr}");
}
