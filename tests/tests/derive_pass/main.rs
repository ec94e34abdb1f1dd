//! Programs that use `#[tool(...)]` as users write it, and must compile and run: ordinary
//! tests, compiled together in one crate. (The cases that need a crate of their own, such as
//! a renamed dependency or a crate without the prelude, are trybuild pass cases in `ui/pass`.)
//!
//! The `doc_*` files mirror the macro's documentation examples word for word
//! (`derive_doc_examples.rs` checks it), since a proc-macro crate cannot run its doctests.

// The programs are written as at a crate root, where their `pub` items would be reachable.
#![allow(unreachable_pub)]

mod all_types;
mod dictionary_fields;
mod doc_defaults;
mod doc_description;
mod doc_execution_policy;
mod doc_quick_start;
mod doc_raw_json;
mod doc_state_and_async;
mod fetch_weather;
mod list_items;
mod no_schemas;
mod output_default;
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
