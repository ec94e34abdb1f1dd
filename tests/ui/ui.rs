//! Compile-fail and compile-pass cases of `#[tool(...)]`.
//!
//! One mistake per file in `ui/fail/`, named after it; refresh the expected output with
//! `TRYBUILD=overwrite cargo test -p agentkit-tests --test ui`, then read every `.stderr`.
//! `ui/pass/` holds only the programs that need a crate of their own (a renamed dependency, a
//! crate without the prelude); the others are ordinary tests in `derive_pass/`, compiled
//! together, which keeps the suite fast.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/fail/*.rs");
    t.pass("ui/pass/*.rs");
}
