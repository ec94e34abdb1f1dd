//! Programs that use `#[tool(...)]` as users write it, and must compile and run: ordinary
//! tests, one module each, in the behaviour tests' binary (`main.rs`). (The cases that need a
//! crate of their own, such as a renamed dependency or a crate without the prelude, are test
//! targets of `agentkit-ui-tests` in `ui/pass`.)
//!
//! The `doc_*` files mirror the macro's documentation examples word for word
//! (`derive_doc_examples.rs` checks it), since a proc-macro crate cannot run its doctests.

// The programs are written as at a crate root, where their `pub` items would be reachable.
#![allow(unreachable_pub)]

// Left as written: the `doc_*` programs must match the documentation's text exactly.

#[rustfmt::skip]
mod all_types;
#[rustfmt::skip]
mod dictionary_fields;
#[rustfmt::skip]
mod doc_annotations;
#[rustfmt::skip]
mod doc_defaults;
#[rustfmt::skip]
mod doc_description;
#[rustfmt::skip]
mod doc_execution_policy;
#[rustfmt::skip]
mod doc_forms;
#[rustfmt::skip]
mod doc_quick_start;
#[rustfmt::skip]
mod doc_raw_json;
#[rustfmt::skip]
mod doc_state_and_async;
#[rustfmt::skip]
mod doc_tagged_enum;
#[rustfmt::skip]
mod doc_tool_params;
#[rustfmt::skip]
mod fetch_weather;
#[rustfmt::skip]
mod list_items;
#[rustfmt::skip]
mod no_schemas;
#[rustfmt::skip]
mod output_default;
#[rustfmt::skip]
mod stateful_async;

#[test]
fn all_types() {
    all_types::main();
}

#[test]
fn dictionary_fields() {
    dictionary_fields::main();
}

#[test]
fn doc_annotations() {
    doc_annotations::main();
}

#[test]
fn doc_forms() {
    doc_forms::main();
}

#[test]
fn doc_defaults() {
    doc_defaults::main();
}

#[test]
fn doc_description() {
    doc_description::main();
}

#[test]
fn doc_execution_policy() {
    doc_execution_policy::main();
}

#[test]
fn doc_tagged_enum() {
    doc_tagged_enum::main();
}

#[test]
fn doc_quick_start() {
    doc_quick_start::main();
}

#[test]
fn doc_raw_json() {
    doc_raw_json::main();
}

#[test]
fn doc_state_and_async() {
    doc_state_and_async::main();
}

#[test]
fn doc_tool_params() {
    doc_tool_params::main();
}

#[test]
fn fetch_weather() {
    fetch_weather::main();
}

#[test]
fn list_items() {
    list_items::main();
}

#[test]
fn no_schemas() {
    no_schemas::main();
}

#[test]
fn output_default() {
    output_default::main();
}

#[test]
fn stateful_async() {
    stateful_async::main();
}
