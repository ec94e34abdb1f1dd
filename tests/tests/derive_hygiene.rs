//! Generated code is clean under the workspace lints, `clippy::pedantic` and
//! `#![deny(warnings)]`-style builds (CI runs clippy with `-D warnings` on this file), next
//! to user items that shadow `core`, `std` and prelude names.
#![warn(clippy::pedantic)]
#![deny(missing_docs, unused_qualifications)]

use agentkit_core::{BoxError, JsonObject, Tool, ToolContext, ToolHandler, tool};

#[allow(dead_code)]
mod core {}
#[allow(dead_code)]
mod std {}

#[allow(dead_code)]
type Result = ();
#[allow(dead_code)]
type Option = ();
#[allow(dead_code, non_snake_case)]
fn Some() {}
#[allow(dead_code, non_snake_case)]
fn Ok() {}

/// Public, and reachable from the crate root (this module is `pub` in `main.rs`): its generated
/// structs are public too, with documented fields.
#[tool(
    name = "flags",
    input = [
        { name = "a", type = boolean },
        { name = "b", type = boolean },
        { name = "c", type = boolean },
        { name = "d", type = boolean, required = false, default = false },
        { name = "camelCase", type = string, required = false },
        { name = "big", type = float, required = false, default = 12345678901.5 },
        { name = "huge", type = integer, required = false, default = -9223372036854775808 },
    ],
    output = [{ name = "count", type = integer }],
    timeout = "24h",
    requires_approval,
    retries = 4294967295,
)]
pub struct Flags;

impl ToolHandler for Flags {
    async fn run(
        &self,
        input: FlagsInput,
        _: &ToolContext<'_>,
    ) -> ::core::result::Result<FlagsOutput, BoxError> {
        let count = [input.a, input.b, input.c, input.d]
            .into_iter()
            .filter(|flag| *flag)
            .count();
        let _ = (input.camelCase, input.big, input.huge);
        ::core::result::Result::Ok(FlagsOutput {
            count: i64::try_from(count)?,
        })
    }
}

mod private {
    use agentkit_core::{BoxError, ToolContext, ToolHandler, tool};

    /// Private, in a module: its generated structs and fields are private too (no
    /// `unreachable_pub`), and usable from this module.
    #[tool(name = "private_tool", input = [{ name = "x", type = string }, { name = "unused", type = string, required = false }])]
    pub(crate) struct PrivateTool {
        pub(crate) prefix: String,
    }

    impl ToolHandler for PrivateTool {
        async fn run(
            &self,
            input: PrivateToolInput,
            _: &ToolContext<'_>,
        ) -> Result<agentkit_core::JsonObject, BoxError> {
            let mut out = agentkit_core::JsonObject::new();
            out.insert("x".into(), format!("{}{}", self.prefix, input.x).into());
            Ok(out)
        }
    }
}

#[test]
fn shadowed_names_do_not_reach_the_expansion() {
    assert_eq!(Flags.spec().name(), "flags");
    let tool = private::PrivateTool {
        prefix: "p-".into(),
    };
    assert_eq!(tool.spec().name(), "private_tool");
    let _: fn(JsonObject) -> JsonObject = |o| o;
}

/// A public tagged union whose fields carry the names the generated code uses for its own
/// locals.
#[derive(Debug, PartialEq, agentkit_core::ToolParams)]
pub enum Step {
    /// Writes.
    Write {
        /// Where.
        output: String,
        /// What.
        value: ::std::collections::HashMap<String, i64>,
        /// How.
        object: (i64, ::core::option::Option<bool>),
    },
    /// Reads.
    Read(StepArgs),
    /// Nothing.
    Skip,
    /// Nothing, with braces.
    Empty {},
}

/// A struct with JSON-only fields, public.
#[derive(Debug, PartialEq, agentkit_core::ToolParams)]
pub struct StepArgs {
    /// The inner value.
    pub inner: serde_json::Value,
    /// Definitions.
    pub defs: ::core::option::Option<Vec<::core::option::Option<String>>>,
}

/// A tool whose input is the tagged union.
#[tool(name = "step", input = Step)]
pub struct Steps;

impl ToolHandler for Steps {
    async fn run(
        &self,
        input: Step,
        _: &ToolContext<'_>,
    ) -> ::core::result::Result<JsonObject, BoxError> {
        let mut out = JsonObject::new();
        out.insert("step".into(), format!("{input:?}").into());
        ::core::result::Result::Ok(out)
    }
}

#[test]
fn fields_named_like_the_generated_locals_round_trip() {
    use agentkit_core::{FromParam, IntoParam};
    let step = Step::Write {
        output: "o".into(),
        value: ::std::collections::HashMap::from([("k".to_owned(), 1)]),
        object: (2, ::core::option::Option::None),
    };
    let json = step.into_value().unwrap();
    assert_eq!(
        json,
        serde_json::json!({"type": "write", "output": "o", "value": {"k": 1}, "object": [2, null]})
    );
    assert_eq!(
        Step::from_value(::core::option::Option::Some(&json)),
        ::core::option::Option::Some(Step::Write {
            output: "o".into(),
            value: ::std::collections::HashMap::from([("k".to_owned(), 1)]),
            object: (2, ::core::option::Option::None),
        })
    );
    assert!(Steps.spec().input_json().is_some());
    assert_eq!(
        Step::Empty {}.into_value(),
        ::core::option::Option::Some(serde_json::json!({"type": "empty"}))
    );
    let read = serde_json::json!({"type": "read", "inner": [1], "defs": [null, "d"]});
    assert_eq!(
        Step::from_value(::core::option::Option::Some(&read)),
        ::core::option::Option::Some(Step::Read(StepArgs {
            inner: serde_json::json!([1]),
            defs: ::core::option::Option::Some(vec![
                ::core::option::Option::None,
                ::core::option::Option::Some("d".to_owned()),
            ]),
        }))
    );
}

/// A literal with the forms beyond the six types, public: its generated enum, definition
/// struct and fields are documented, and a variant's fields may have the names the generated
/// code uses for its own locals.
#[tool(
    name = "forms",
    defs = { node = [
        { name = "output", type = integer },
        { name = "next", type = node, required = false },
    ] },
    input = [
        { name = "action", type = union, tag = "kind", variants = [
            { tag = "write", fields = [
                { name = "output", type = string },
                { name = "object", type = map, values = integer },
                { name = "value", type = tuple, items = [integer, boolean] },
                { name = "tag", type = any, required = false },
            ] },
            { tag = "skip" },
        ] },
        { name = "tree", type = node, nullable = true },
    ],
)]
pub struct Forms;

impl ToolHandler for Forms {
    async fn run(
        &self,
        input: FormsInput,
        _: &ToolContext<'_>,
    ) -> ::core::result::Result<JsonObject, BoxError> {
        let mut out = JsonObject::new();
        out.insert("input".into(), format!("{input:?}").into());
        ::core::result::Result::Ok(out)
    }
}

#[test]
fn a_literal_union_round_trips_with_fields_named_like_the_generated_locals() {
    use agentkit_core::{FromParam, IntoParam};
    let action = FormsInputAction::Write {
        output: "o".into(),
        object: ::std::collections::HashMap::from([("k".to_owned(), 1)]),
        value: (2, true),
        tag: ::core::option::Option::None,
    };
    let json = action.clone().into_value().unwrap();
    assert_eq!(
        json,
        serde_json::json!({"kind": "write", "output": "o", "object": {"k": 1}, "value": [2, true]})
    );
    assert_eq!(
        FormsInputAction::from_value(::core::option::Option::Some(&json)),
        ::core::option::Option::Some(action)
    );
    assert!(Forms.spec().input_json().is_some());
}

/// A literal output with the forms, public: its generated types are documented, and its
/// fields may have the names the generated code uses for its own locals (`output`, and the
/// `default` it writes for `None`).
#[tool(
    name = "t",
    input = [{ name = "x", type = string }],
    output = [
        { name = "output", type = union, variants = [
            { tag = "done", fields = [
                { name = "output", type = string, nullable = true },
                { name = "default", type = integer, required = false, default = 3 },
            ] },
        ] },
        { name = "value", type = tuple, items = [integer, any], required = false, default = [1, "a"] },
    ],
)]
pub struct FormsOut;

impl ToolHandler for FormsOut {
    async fn run(
        &self,
        _: FormsOutInput,
        _: &ToolContext<'_>,
    ) -> ::core::result::Result<FormsOutOutput, BoxError> {
        ::core::result::Result::Ok(FormsOutOutput {
            output: FormsOutOutputOutput::Done {
                output: ::core::option::Option::None,
                default: ::core::option::Option::None,
            },
            value: ::core::option::Option::None,
        })
    }
}

/// A tool whose output is the tagged union, public.
#[tool(name = "t", output = Step)]
pub struct StepsOut;

impl ToolHandler for StepsOut {
    async fn run(
        &self,
        _: JsonObject,
        _: &ToolContext<'_>,
    ) -> ::core::result::Result<Step, BoxError> {
        ::core::result::Result::Ok(Step::Skip)
    }
}

#[test]
fn outputs_with_the_forms_convert_with_fields_named_like_the_generated_locals() {
    use agentkit_core::{ToolCall, ToolExecutor, ToolRegistry, block_on};
    /// The structured output of one call of `tool`.
    fn output<T: Tool>(tool: T) -> ::core::option::Option<serde_json::Value> {
        let mut registry = ToolRegistry::new();
        registry.register(tool).unwrap();
        let call = ToolCall::new("c", "t", r#"{"x": "y"}"#);
        let result = block_on(ToolExecutor::new(registry).dispatch(&call));
        assert!(result.is_success(), "{}", result.to_model_content());
        result.output().cloned()
    }
    assert_eq!(
        output(FormsOut),
        ::core::option::Option::Some(serde_json::json!({
            "output": {"type": "done", "output": null, "default": 3},
            "value": [1, "a"],
        }))
    );
    assert_eq!(
        output(StepsOut),
        ::core::option::Option::Some(serde_json::json!({"type": "skip"}))
    );
    assert!(StepsOut.spec().output_json().is_some());
}
