//! The forms beyond the six types as the macro expands them: the JSON Schema text, which
//! expansion a literal gets, and the errors a declaration with mistakes gets.

use proc_macro2::TokenStream;
use quote::quote;

fn expand(args: TokenStream) -> String {
    crate::tool::tool(
        args,
        quote!(
            pub struct S;
        ),
    )
    .to_string()
}

/// The JSON Schema text the expansion of `args` declares.
fn schema(args: TokenStream) -> String {
    crate::tool::tests::string_after(&expand(args), "static_schema_text (& CELL , ")
}

#[test]
fn six_types_keep_their_expansion() {
    let out =
        expand(quote!(name = "s", input = [{ name = "x", type = integer, required = false }]));
    assert!(!out.contains("with_static_json_input"), "{out}");
    let spec = crate::tool::tests::string_after(&out, "static_spec (& SPEC , ");
    let input = r#""input_schema":{"parameters":[{"name":"x","type":"integer","required":false}]}"#;
    assert!(spec.contains(input), "{spec}");
    assert!(out.contains("parse_typed"), "{out}");
}

#[test]
fn a_six_type_output_keeps_its_expansion_and_a_form_declares_the_output_as_json_schema() {
    let six = expand(quote!(name = "s", output = [{ name = "x", type = integer }]));
    assert!(!six.contains("with_static_json_output"), "{six}");
    let spec = crate::tool::tests::string_after(&six, "static_spec (& SPEC , ");
    let output =
        r#""output_schema":{"parameters":[{"name":"x","type":"integer","required":true}]}"#;
    assert!(spec.contains(output), "{spec}");
    assert!(six.contains("TypedOutput"), "{six}");
    // Only the output uses a form (through `defs`): the input stays six-type data, and the
    // output schema, compiled with the standard options, holds the definitions it uses.
    let out = expand(quote!(name = "s",
        defs = { p = [{ name = "x", type = integer }] },
        input = [{ name = "q", type = string }],
        output = [{ name = "at", type = p, nullable = true }, { name = "m", type = map, values = any }],
    ));
    assert!(!out.contains("compile_error"), "{out}");
    assert!(!out.contains("with_static_json_input"), "{out}");
    assert!(out.contains("static INPUT"), "{out}");
    assert!(!out.contains("static OUTPUT"), "{out}");
    assert!(!out.contains("TypedOutput"), "{out}");
    let start = out
        .find("static_schema_text_with (& CELL , ")
        .expect("an output schema");
    let rest = &out[start..];
    assert!(
        rest.starts_with(
            "static_schema_text_with (& CELL , __agentkit_S :: JsonSchemaOptions :: standard , "
        ),
        "{rest}"
    );
    assert!(
        rest.contains(r##"{\"type\":\"object\",\"properties\":{\"at\":{\"anyOf\":[{\"$ref\":\"#/$defs/p\"},{\"type\":\"null\"}]},\"m\":{\"type\":\"object\",\"additionalProperties\":{}}},\"required\":[\"at\",\"m\"],\"additionalProperties\":false,\"$defs\":{\"p\":"##),
        "{rest}"
    );
    // A nullable output's `None` is written as `null`.
    assert!(out.contains("put_or_null (& mut output , \"at\""), "{out}");
}

#[test]
fn a_mistake_in_an_output_form_is_one_error_with_a_stub() {
    for args in [
        quote!(name = "s", output = [{ name = "a", type = union, variants = [{ tag = "x" }, { tag = "x" }] }]),
        quote!(name = "s", output = [{ name = "a", type = map }]),
        quote!(name = "s", output = [{ name = "a", type = integer, const = "2" }]),
        quote!(name = "s", defs = { t = [] }, input = Args, output = Found),
    ] {
        let out = expand(args);
        assert_eq!(out.matches("compile_error").count(), 1, "{out}");
        assert!(
            out.contains("SOutput") || out.contains("Output = Found"),
            "{out}"
        );
    }
}

#[test]
fn a_form_declares_the_whole_input_as_json_schema() {
    let out = expand(quote!(name = "s", input = [
        { name = "x", type = integer },
        { name = "y", type = any },
    ]));
    assert!(!out.contains("compile_error"), "{out}");
    assert!(out.contains("with_static_json_input"), "{out}");
    assert!(!out.contains("ToolSchema :: from_static"), "{out}");
}

#[test]
fn nullable_adds_null_to_the_type_or_as_a_second_form() {
    assert_eq!(
        schema(quote!(name = "s", input = [
            { name = "u", type = string, nullable = true, enum = ["a", "b"] },
        ])),
        r#"{"type":"object","properties":{"u":{"type":["string","null"],"enum":["a","b",null]}},"required":["u"],"additionalProperties":false}"#
    );
    assert_eq!(
        schema(
            quote!(name = "s", defs = { p = [{ name = "x", type = integer }] }, input = [
                { name = "u", type = p, nullable = true, description = "A point" },
            ])
        ),
        r##"{"type":"object","properties":{"u":{"anyOf":[{"$ref":"#/$defs/p"},{"type":"null"}],"description":"A point"}},"required":["u"],"additionalProperties":false,"$defs":{"p":{"type":"object","properties":{"x":{"type":"integer"}},"required":["x"],"additionalProperties":false}}}"##
    );
}

#[test]
fn a_map_of_unions_and_a_union_definition() {
    assert_eq!(
        schema(quote!(name = "s",
            defs = { expr = { type = union, tag = "op", variants = [
                { tag = "not", fields = [{ name = "of", type = expr }] },
                { tag = "is", fields = [{ name = "value", type = string }] },
            ] } },
            input = [
                { name = "m", type = map, values = union, variants = [{ tag = "a" }] },
                { name = "e", type = expr },
            ]
        )),
        concat!(
            r##"{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"object","oneOf":[{"type":"object","properties":{"type":{"const":"a"}},"required":["type"],"additionalProperties":false}]}},"e":{"$ref":"#/$defs/expr"}},"required":["m","e"],"additionalProperties":false,"##,
            r##""$defs":{"expr":{"type":"object","oneOf":[{"type":"object","properties":{"op":{"const":"not"},"of":{"$ref":"#/$defs/expr"}},"required":["op","of"],"additionalProperties":false},{"type":"object","properties":{"op":{"const":"is"},"value":{"type":"string"}},"required":["op","value"],"additionalProperties":false}]}}}"##
        )
    );
}

#[test]
fn a_mistake_in_a_form_is_one_error_with_a_stub() {
    for args in [
        quote!(name = "s", input = [{ name = "a", type = union, variants = [{ tag = "x" }, { tag = "x" }] }]),
        quote!(name = "s", input = [{ name = "a", type = tuple }]),
        quote!(name = "s", input = [{ name = "a", type = map, values = tuple }]),
        quote!(name = "s", input = [{ name = "a", type = string, values = string }]),
        quote!(name = "s", input = [{ name = "a", type = union, variants = [{ tag = "x", fields = [{ name = "b", type = strng }] }] }]),
        quote!(name = "s", input = [{ name = "a", type = union, variants = [{ fields = [] }] }]),
        quote!(name = "s", input = [{ name = "a", type = any, nulable = true }]),
        quote!(name = "s", input = [{ name = "a", type = union, minimum = 1, variants = [{ tag = "x" }] }]),
        quote!(name = "s", defs = { "a b" = [] }, input = [{ name = "a", type = any }]),
        quote!(name = "s", defs = { t = { type = map, values = u }, u = { type = list, items = t } }, input = [{ name = "a", type = u }]),
        quote!(name = "s", defs = { t = [] }, input = Args),
    ] {
        let out = expand(args);
        assert_eq!(out.matches("compile_error").count(), 1, "{out}");
        assert!(
            out.contains("SInput") || out.contains("Input = Args"),
            "{out}"
        );
    }
    let out = expand(quote!(name = "s", input = [{ name = "a", type = any, nulable = true }]));
    assert!(out.contains("did you mean 'nullable'?"), "{out}");
}

#[test]
fn an_example_is_checked_at_any_depth_against_the_bounds() {
    let out = expand(quote!(name = "s",
        input = [{ name = "a", type = union, variants = [
            { tag = "t", fields = [
                { name = "text", type = string, min_length = 1 },
                { name = "n", type = integer, maximum = 9 },
                { name = "at", type = tuple, items = [integer, float] },
            ] },
        ] }],
        examples = [{ a = { type = "t", text = "", n = 10, at = [1e400, 2] } }]
    ));
    for message in [
        "input example 0: 'a.text' must have at least 1 character, got 0",
        "input example 0: 'a.n' must be at most 9, got 10",
        "input example 0: 'a.at[0]' is not a finite number; JSON has no NaN or infinity",
    ] {
        assert!(out.contains(message), "{message} in {out}");
    }
}

#[test]
fn a_definition_that_holds_itself_through_an_object_is_fine() {
    let out = expand(quote!(name = "s",
        defs = { t = { type = map, values = n }, n = [{ name = "children", type = t }] },
        input = [{ name = "a", type = t }]
    ));
    assert!(!out.contains("compile_error"), "{out}");
}

#[test]
fn a_nested_map_says_how_to_write_it() {
    let out = expand(quote!(name = "s", input = [{ name = "a", type = list, items = map }]));
    assert!(
        out.contains(
            "`items = map` is not written inline: declare it in the tool's `defs`, such as \
             `defs = { inner = { type = map, ... } }`, and write `items = inner`"
        ),
        "{out}"
    );
}

#[test]
fn nullable_list_items_and_map_values_are_a_nullable_definition() {
    // `Vec<Option<String>>` and `HashMap<String, Option<String>>`: a type position names a
    // definition for what it cannot say inline, nullable included.
    let args = quote!(name = "s",
        defs = { maybe_text = { type = string, nullable = true } },
        input = [
            { name = "tags", type = list, items = maybe_text },
            { name = "m", type = map, values = maybe_text },
        ],
    );
    let out = expand(args.clone());
    assert!(!out.contains("compile_error"), "{out}");
    assert!(
        out.contains("pub type SMaybeText = __agentkit_S :: Option < __agentkit_S :: String >"),
        "{out}"
    );
    assert!(
        out.contains("pub tags : __agentkit_S :: Vec < SMaybeText >"),
        "{out}"
    );
    assert_eq!(
        schema(args),
        r##"{"type":"object","properties":{"tags":{"type":"array","items":{"$ref":"#/$defs/maybe_text"}},"m":{"type":"object","additionalProperties":{"$ref":"#/$defs/maybe_text"}}},"required":["tags","m"],"additionalProperties":false,"$defs":{"maybe_text":{"type":["string","null"]}}}"##
    );
}
