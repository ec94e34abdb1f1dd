//! The expansion names everything through absolute paths: it compiles without warnings next to
//! a user's `mod core`, `mod std`, and items that shadow prelude names, and in a module
//! without the prelude at all, in a crate that forbids unsafe code (the expansion has none:
//! see `forbid_unsafe.rs`).
#![forbid(unsafe_code)]
#![deny(warnings, missing_docs, unused_qualifications)]
#![deny(clippy::pedantic)]

use agentkit_core::{BoxError, ToolContext, ToolHandler, tool};

#[allow(dead_code)]
mod core {}
#[allow(dead_code)]
mod std {}
#[allow(dead_code)]
mod serde_json {}
#[allow(dead_code)]
mod serde {}
#[allow(dead_code)]
mod fmt {}

#[allow(dead_code)]
type Result = ();
#[allow(dead_code)]
type Option = ();
#[allow(dead_code, non_camel_case_types)]
type i64 = ();
#[allow(dead_code)]
struct String;
#[allow(dead_code)]
struct Vec;
#[allow(dead_code)]
trait Clone {}
#[allow(dead_code)]
trait Debug {}
#[allow(dead_code)]
trait Display {}
#[allow(dead_code)]
trait Copy {}
#[allow(dead_code)]
trait Eq {}
#[allow(dead_code)]
trait Hash {}
#[allow(dead_code)]
trait Serialize {}
#[allow(dead_code)]
trait Deserialize {}
// Not `type str`: serde's own derive names `str` unqualified.
#[allow(dead_code, non_snake_case)]
fn Some() {}
#[allow(dead_code, non_snake_case)]
fn Ok() {}
#[allow(dead_code, non_snake_case)]
fn None() {}

/// A tool declared among shadowed names.
#[tool(
    name = "shadowed",
    input = [
        { name = "n", type = integer, required = false, default = 1 },
        { name = "tag", type = string, required = false },
        { name = "items", type = list, required = false, default = [1, "x"] },
        { name = "mode", type = string, required = false, enum = ["on", "off"], default = "on" },
        { name = "where", type = dictionary, fields = [
            { name = "zip-code", type = string },
            { name = "rooms", type = list, items = dictionary, required = false, fields = [
                { name = "kind", type = string, enum = ["single", "double"] },
            ] },
        ] },
    ],
    output = [
        { name = "n", type = integer },
        { name = "tag", type = string, required = false },
        { name = "mode", type = string, required = false, enum = ["on", "off"] },
    ],
    tags = { kind = "test" },
    credentials = ["key"],
    timeout = "10s",
    blocking,
    retries = 2,
    title = "Shadowed",
    read_only,
    open_world = false,
    examples = [{ n = 2, r#where = { "zip-code" = "75001", rooms = [{ kind = "double" }] } }],
)]
pub struct Shadowed;

impl ToolHandler for Shadowed {
    async fn run(
        &self,
        input: ShadowedInput,
        _: &ToolContext<'_>,
    ) -> ::core::result::Result<ShadowedOutput, BoxError> {
        let _ = input.items;
        let _ = (input.r#where.zip_code, input.r#where.rooms);
        let mode = match input.mode {
            ShadowedInputMode::On => ShadowedOutputMode::On,
            ShadowedInputMode::Off => ShadowedOutputMode::Off,
        };
        ::core::result::Result::Ok(ShadowedOutput {
            n: input.n,
            tag: input.tag,
            mode: ::core::option::Option::Some(mode),
        })
    }
}

mod no_prelude {
    #![no_implicit_prelude]

    use ::agentkit_core::{BoxError, ToolContext, ToolHandler, tool};

    /// A tool declared where the prelude is not in scope.
    #[tool(
        name = "bare",
        input = [
            { name = "flag", type = boolean },
            { name = "mode", type = string, enum = ["on", "off"] },
            { name = "at", type = dictionary, fields = [{ name = "city", type = string }] },
        ],
        output = [],
        sequential,
        destructive,
        examples = [{ flag = true, mode = "off", at = { city = "Paris" } }],
    )]
    pub struct Bare;

    impl ToolHandler for Bare {
        async fn run(
            &self,
            input: BareInput,
            _: &ToolContext<'_>,
        ) -> ::core::result::Result<BareOutput, BoxError> {
            let _ = (input.flag, input.mode.as_str(), input.at.city);
            ::core::result::Result::Ok(BareOutput {})
        }
    }
}

fn main() {
    let _ = (Shadowed, no_prelude::Bare);
}
