//! Compile-fail cases of `#[tool(...)]`.
//!
//! One mistake per file in `fail/`, named after it; refresh the expected output with
//! `TRYBUILD=overwrite cargo test -p agentkit-ui-tests --test ui`, then read every `.stderr`.
//! With no pass case among them, trybuild checks all the cases in one `cargo check` (a pass
//! case would make it build every case on its own, one after the other), which keeps the suite
//! fast as it grows. The programs that must compile and run are ordinary tests: in
//! `tests/tests/derive_pass/`, a module of `agentkit-tests`' `behaviour` test binary, or, when
//! one needs a crate of its own (a renamed dependency, a crate root without the prelude), a test
//! target of this package in `pass/`.

use std::fs;

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("fail/*.rs");
}

/// Cargo finds test targets only in `tests/`: a program in `pass/` that `Cargo.toml` does not
/// list would never be compiled.
#[test]
fn every_pass_case_is_a_test_target() {
    let manifest = fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")).unwrap();
    let pass = fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/pass")).unwrap();
    for entry in pass {
        let name = entry.unwrap().file_name().into_string().unwrap();
        assert!(
            manifest.contains(&format!("path = \"pass/{name}\"")),
            "pass/{name} is not a [[test]] target in Cargo.toml"
        );
    }
}
