//! One mistake, one error. Each program in `tests/one-mistake/` has one mistake in its
//! `#[tool]` (a wrong key or value, a syntax slip, the attribute in the wrong place) and a
//! handler that uses the generated fields as the program would once fixed; the compiler must
//! report exactly one error for each, on the mistake, and nothing that follows from it. The
//! programs in `tests/one-mistake/no-derive/` are built without agentkit-core's `derive`
//! feature, whose absence is their one mistake.
//!
//! The `.stderr` files of `tests/ui/` show what a few of these errors say; this counts them,
//! over many more programs, in one `cargo check` for each feature set (see
//! `program_fixtures`).

use std::fmt::Write as _;

use crate::program_fixtures::{build, programs, rendered};

const PROGRAMS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/one-mistake");

#[test]
fn every_program_with_one_mistake_is_one_error() {
    check("one-mistake", r#"features = ["derive"]"#, PROGRAMS);
}

#[test]
fn every_program_without_the_derive_feature_is_one_error() {
    check(
        "one-mistake-no-derive",
        "",
        &format!("{PROGRAMS}/no-derive"),
    );
}

/// Asserts that each program in `dir`, built with agentkit-core's `features`, is one error.
fn check(name: &str, features: &str, dir: &str) {
    let programs = programs(dir);
    assert!(!programs.is_empty(), "no programs in {dir}");
    let build = build(name, features, &programs);
    let mut report = String::new();
    let mut wrong = 0;
    for (program, errors) in &build.errors {
        if errors.len() != 1 {
            wrong += 1;
            let file = program.file_name().unwrap().to_string_lossy();
            writeln!(report, "{file}: {} errors, not 1", errors.len()).unwrap();
            for error in errors {
                writeln!(report, "{}", rendered(error)).unwrap();
            }
        }
    }
    for error in &build.elsewhere {
        writeln!(
            report,
            "an error in none of the programs:\n{}",
            rendered(error)
        )
        .unwrap();
    }
    assert!(
        report.is_empty(),
        "{wrong} of {} programs in {dir} are not one error:\n\n{report}\ncargo's stderr:\n{}",
        programs.len(),
        build.stderr,
    );
}
