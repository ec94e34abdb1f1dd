//! `#[tool]` and `#[derive(ToolParams)]` without agentkit-core's `derive` feature are one
//! compile error each, which says which feature to enable, and nothing else is: not the
//! handler of the tool, nor its registration. A trybuild case cannot turn a feature off, so
//! this builds `tests/no-derive/both_macros.rs` in a crate of its own, depending on
//! agentkit-core without features (see `program_fixtures`), and reads the compiler's errors.

use crate::program_fixtures::{build, programs, rendered};

#[test]
fn the_macros_without_the_derive_feature_say_to_enable_it() {
    let programs = programs(concat!(env!("CARGO_MANIFEST_DIR"), "/no-derive"));
    let build = build("no-derive", "", &programs);
    let errors = &build.errors[&programs[0]];
    let rendered: Vec<&str> = errors.iter().map(rendered).collect();
    assert!(
        build.elsewhere.is_empty(),
        "{:?}\n{}",
        build.elsewhere,
        build.stderr
    );
    let said: Vec<(&str, u64, u64)> = errors
        .iter()
        .map(|error| {
            let span = &error["spans"][0];
            let at = |key: &str| span[key].as_u64().unwrap();
            (
                error["message"].as_str().unwrap(),
                at("line_start"),
                at("column_start"),
            )
        })
        .collect();
    // On the attribute and on the derive.
    assert_eq!(
        said,
        [
            (
                "`#[tool]` needs the `derive` feature of agentkit-core: \
                 agentkit-core = { version = \"0.1\", features = [\"derive\"] }",
                3,
                1
            ),
            (
                "`#[derive(ToolParams)]` needs the `derive` feature of agentkit-core: \
                 agentkit-core = { version = \"0.1\", features = [\"derive\"] }",
                6,
                10
            ),
        ],
        "{rendered:#?}\n{}",
        build.stderr
    );
}
