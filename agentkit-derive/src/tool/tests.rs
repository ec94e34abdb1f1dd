//! The expansion of `#[tool]` as a whole: what it generates, and how many errors a
//! declaration with mistakes gets.

use quote::quote;

fn expand(args: proc_macro2::TokenStream) -> String {
    super::tool(
        args,
        quote!(
            pub struct S;
        ),
    )
    .to_string()
}

/// The string literal that follows `marker` in the expansion `out`, unescaped: the spec
/// text of a tool (`static_spec (& SPEC , `) or a JSON Schema it declares.
pub(crate) fn string_after(out: &str, marker: &str) -> String {
    let start = out
        .find(marker)
        .unwrap_or_else(|| panic!("no `{marker}` in {out}"))
        + marker.len();
    let rest = &out[start..];
    let bytes = rest.as_bytes();
    let mut end = 1;
    while bytes[end] != b'"' {
        end += if bytes[end] == b'\\' { 2 } else { 1 };
    }
    syn::parse_str::<syn::LitStr>(&rest[..=end])
        .unwrap()
        .value()
}

/// The spec text the expansion of `args` reads.
fn spec_text(args: proc_macro2::TokenStream) -> String {
    string_after(&expand(args), "static_spec (& SPEC , ")
}

#[test]
fn a_valid_declaration_expands_without_errors() {
    let out = expand(quote!(name = "s", input = [{ name = "x", type = integer }]));
    assert!(!out.contains("compile_error"), "{out}");
    assert!(out.contains("SInput"), "{out}");
    assert!(out.contains("static SPEC"), "{out}");
}

#[test]
fn every_mistake_is_reported_with_a_stub() {
    let out = expand(quote!(
        name = "s s",
        version = "1",
        input = [{ name = "x", type = intger }, { name = "x", type = string }]
    ));
    assert_eq!(out.matches("compile_error").count(), 4, "{out}");
    // The typed structs survive, with the misspelt type guessed.
    assert!(out.contains("SInput"), "{out}");
    assert!(out.contains("i64"), "{out}");
    assert!(out.contains("unreachable"), "{out}");
}

#[test]
fn a_syntax_error_costs_only_its_entry() {
    let out = expand(quote!(name = "s", version "1.0.0", input = [{ name = "x", type = string }]));
    assert_eq!(out.matches("compile_error").count(), 1, "{out}");
    assert!(out.contains("SInput"), "{out}");
}

/// An input with fields, and fields within those.
fn nested_fields() -> proc_macro2::TokenStream {
    quote!([
        { name = "a", type = string },
        { name = "b", type = dictionary, fields = [
            { name = "c", type = string },
            { name = "d", type = list, items = dictionary, fields = [{ name = "e", type = integer }] },
        ] },
    ])
}

#[test]
fn fields_are_nested_in_the_spec_text() {
    let input = nested_fields();
    let spec = spec_text(quote!(
        name = "s",
        input = #input,
        output = [{ name = "f", type = dictionary, fields = [{ name = "g", type = boolean }] }]
    ));
    let input = r#""input_schema":{"parameters":[{"name":"a","type":"string","required":true},{"name":"b","type":"dictionary","required":true,"fields":[{"name":"c","type":"string","required":true},{"name":"d","type":"list","required":true,"items":"dictionary","fields":[{"name":"e","type":"integer","required":true}]}]}]}"#;
    assert!(spec.contains(input), "{spec}");
    let output = r#""output_schema":{"parameters":[{"name":"f","type":"dictionary","required":true,"fields":[{"name":"g","type":"boolean","required":true}]}]}"#;
    assert!(spec.contains(output), "{spec}");
}

#[test]
fn each_fields_list_of_a_static_spec_gets_its_own_static() {
    // `output = Type` keeps the spec `static` data, the parameter list with it.
    let input = nested_fields();
    let out = expand(quote!(
        name = "s",
        input = #input,
        output = Out
    ));
    assert!(!out.contains("compile_error"), "{out}");
    assert!(!out.contains("static_spec"), "{out}");
    for array in [
        "static INPUT :",
        "static INPUT_1_FIELDS :",
        "static INPUT_1_FIELDS_1_FIELDS :",
    ] {
        assert!(out.contains(array), "{array} in {out}");
    }
    assert!(out.contains("& INPUT_1_FIELDS_1_FIELDS"), "{out}");
    assert_eq!(out.matches("from_static_with_fields").count(), 2, "{out}");
}

#[test]
fn every_mistake_inside_fields_is_reported_once() {
    let out = expand(quote!(
        name = "s",
        input = [
            { name = "a", type = string, fields = [{ name = "b", type = string }] },
            { name = "c", type = dictionary, required = false, default = { x = 1, e = "y" }, fields = [
                { name = "d", type = intger },
                { name = "d", type = string },
                { name = "e", type = integer, requred = false },
            ] },
        ]
    ));
    // `fields` on a string, `intger`, the second `d`, `requred`; the default is not
    // checked against fields whose types are not all known.
    assert_eq!(out.matches("compile_error").count(), 4, "{out}");
    assert!(out.contains("SInput"), "{out}");
}

#[test]
fn a_default_is_checked_against_the_fields() {
    let out = expand(quote!(
        name = "s",
        input = [
            { name = "c", type = list, items = dictionary, required = false,
              default = [{ d = 1 }, { d = "ok" }, { x = "y" }],
              fields = [{ name = "d", type = string }] },
        ]
    ));
    // `d = 1`, then `x` without `d`, and `x` undeclared.
    assert!(!out.contains("items = dictionary"), "{out}");
    assert_eq!(out.matches("compile_error").count(), 3, "{out}");
    assert!(
        out.contains("default value 'c[0].d' of type 'integer' does not fit"),
        "{out}"
    );
    assert!(out.contains("default value 'c[2]' has no 'd'"), "{out}");
    assert!(
        out.contains("default value 'c[2]' has a field 'x' that is not declared"),
        "{out}"
    );
}

#[test]
fn defaults_are_emitted_as_validation_leaves_them() {
    let out = expand(quote!(
        name = "s",
        input = [
            { name = "n", type = integer, required = false, default = 2.0 },
            { name = "c", type = list, items = dictionary, required = false,
              default = [{ d = "x" }],
              fields = [
                  { name = "d", type = string },
                  { name = "e", type = integer, required = false, default = 1 },
              ] },
        ]
    ));
    assert!(!out.contains("compile_error"), "{out}");
    // `2.0` is the integer 2, and the absent `e` is filled in.
    let spec = string_after(&out, "static_spec (& SPEC , ");
    let n = r#"{"name":"n","type":"integer","required":false,"default":2}"#;
    assert!(spec.contains(n), "{spec}");
    assert!(spec.contains(r#""default":[{"d":"x","e":1}]"#), "{spec}");
}

#[test]
fn nested_structs_and_enums_are_generated_and_named_after_their_parent() {
    let out = expand(quote!(
        name = "s",
        input = [
            { name = "units", type = string, enum = ["metric", "km/h"] },
            { name = "level", type = integer, enum = [1, 2] },
            { name = "odd", type = string, enum = ["1st", "second"] },
            { name = "stops", type = list, items = dictionary, fields = [
                { name = "hotel", type = dictionary, fields = [{ name = "zip-code", type = string }] },
            ] },
        ]
    ));
    assert!(!out.contains("compile_error"), "{out}");
    for item in [
        "enum SInputUnits",
        "Metric ,",
        "KmH ,",
        "struct SInputStops",
        "struct SInputStopsHotel",
        "Vec < SInputStops >",
        "fields . field (\"zip-code\" , & self . zip_code)",
    ] {
        assert!(out.contains(item), "{item} in {out}");
    }
    // An integer enum, and one whose values give no variant names, keep their types.
    assert!(!out.contains("SInputLevel"), "{out}");
    assert!(!out.contains("SInputOdd"), "{out}");
}

#[test]
fn the_fallback_keeps_nested_structs_and_enums() {
    let out = expand(quote!(
        name = "s",
        input = [
            { name = "x", type = intger },
            { name = "units", type = string, enum = ["metric", "imperial"] },
            { name = "at", type = dictionary, fields = [{ name = "city", type = sting }] },
        ]
    ));
    assert_eq!(out.matches("compile_error").count(), 2, "{out}");
    assert!(out.contains("enum SInputUnits"), "{out}");
    assert!(out.contains("struct SInputAt"), "{out}");
}

#[test]
fn type_names_that_meet_are_numbered() {
    let out = expand(quote!(
        name = "s",
        input = [
            { name = "ab", type = string, enum = ["x", "y"] },
            { name = "Ab", type = dictionary, fields = [{ name = "c", type = string }] },
        ]
    ));
    assert!(!out.contains("compile_error"), "{out}");
    assert!(out.contains("enum SInputAb "), "{out}");
    assert!(out.contains("struct SInputAb2 "), "{out}");
}

#[test]
fn fields_on_a_list_of_other_items_suggest_items_dictionary() {
    let out = expand(quote!(
        name = "s",
        input = [{ name = "c", type = list, fields = [{ name = "d", type = string }] }]
    ));
    assert_eq!(out.matches("compile_error").count(), 1, "{out}");
    assert!(
        out.contains("but this parameter is a 'list'; declare its items with `items = dictionary`"),
        "{out}"
    );
}

#[test]
fn no_expansion_writes_unsafe() {
    let item = quote!(
        pub struct S {
            cache: std::rc::Rc<u8>,
            name: String,
        }
    );
    for args in [
        quote!(name = "s", input = [{ name = "x", type = integer }]),
        quote!(name = "s s", input = [{ name = "x", type = intger }]),
    ] {
        let out = super::tool(args, item.clone()).to_string();
        assert!(!out.contains("unsafe"), "{out}");
        // Each field is checked, in the bound of the `Tool` impl.
        let bound = out.find("where < () as __agentkit_S :: thread_safety :: Checked <");
        let (Some(bound), Some(body)) = (bound, out.find("fn spec")) else {
            panic!("no bound in {out}");
        };
        assert!(
            out[..bound].contains("impl __agentkit_S :: Tool for S"),
            "{out}"
        );
        for check in ["Probe :: < std :: rc :: Rc < u8 > >", "Probe :: < String >"] {
            assert!(out[bound..body].contains(check), "{check} in {out}");
        }
        assert!(
            out[bound..body].contains(">> :: Unit : __agentkit_S :: Send + __agentkit_S :: Sync"),
            "{out}"
        );
    }
}

#[test]
fn a_struct_without_fields_has_nothing_to_check() {
    let out = expand(quote!(name = "s"));
    assert!(!out.contains("thread_safety"), "{out}");
    assert!(!out.contains("where"), "{out}");
}

/// The fields of the fallback's `SInput`: each `name: Type` as the expansion spells it.
fn input_fields(out: &str) -> &str {
    let start = out.find("pub struct SInput {").expect("SInput");
    &out[start..start + out[start..].find('}').expect("a struct body")]
}

#[test]
fn a_plainly_meant_value_is_one_error_and_keeps_its_meaning() {
    for (args, error, field) in [
        (
            quote!(name = "s", input = [{ name = "x", type = string, required = "false" }]),
            "'required' takes `true` or `false`, without quotes: write `required = false`",
            "x : __agentkit_S :: Option < __agentkit_S :: String >",
        ),
        (
            quote!(name = "s", input = [{ name = "x", type = integer, required = False }]),
            "'required' takes `true` or `false`, in lowercase: write `required = false`",
            "x : __agentkit_S :: Option < __agentkit_S :: i64 >",
        ),
        (
            quote!(name = "s", input = [{ name = "x", type = list, items = [string] }]),
            "'items' takes one type, written without brackets: write `items = string`",
            "x : __agentkit_S :: Vec < __agentkit_S :: String >",
        ),
        (
            quote!(name = "s", input = [{ name = "x", type = integer, required = false, default = -5i64 }]),
            "'default' takes a number without a type suffix: write `default = -5`",
            "x : __agentkit_S :: i64",
        ),
        (
            quote!(name = "s", input = [{ name = "x", type = float, required = false, default = 2.5f64 }]),
            "'default' takes a number without a type suffix: write `default = 2.5`",
            "x : __agentkit_S :: f64",
        ),
    ] {
        let out = expand(args);
        assert_eq!(out.matches("compile_error").count(), 1, "{out}");
        assert!(out.contains(error), "{error} in {out}");
        assert!(input_fields(&out).contains(field), "{field} in {out}");
    }
}

#[test]
fn a_slip_in_the_parameter_list_is_one_error_and_keeps_every_parameter() {
    for (args, error) in [
        (
            quote!(name = "s", input = [{ name = "a", type = string } { name = "b", type = integer }]),
            "expected `,` before `{`: the items of a list are separated by commas",
        ),
        (
            quote!(name = "s", input = [{ name: "a", type: string }, { name: "b", type: integer }]),
            "expected `=` after `name`, found `:`: a key takes its value with `=`, as in \
             `name = \\\"a\\\"`; the same goes for the 3 other keys written with `:` here",
        ),
        (
            quote!(name = "s", input = [( name = "a", type = string ), ( name = "b", type = integer )]),
            "expected `{`, found `(`",
        ),
        (
            quote!(name = "s", input = [{ name = "a", type = string, name = "b", type = integer }]),
            "duplicate key 'name'; if a second parameter starts here, close the first before \
             it: `}, {`",
        ),
    ] {
        let out = expand(args);
        assert_eq!(out.matches("compile_error").count(), 1, "{out}");
        assert!(out.contains(error), "{error} in {out}");
        let fields = input_fields(&out);
        assert!(fields.contains("a : __agentkit_S :: String"), "{out}");
        assert!(fields.contains("b : __agentkit_S :: i64"), "{out}");
    }
}

#[test]
fn a_name_written_twice_in_one_parameter_is_a_duplicate_key() {
    // No `type` after the second `name`: one parameter, whose second name is refused.
    let out = expand(quote!(name = "s", input = [{ name = "a", type = string, name = "b" }]));
    assert_eq!(out.matches("compile_error").count(), 1, "{out}");
    assert!(out.contains("\"duplicate key 'name'\""), "{out}");
    assert!(
        input_fields(&out).contains("a : __agentkit_S :: String"),
        "{out}"
    );
}

#[test]
fn on_an_impl_block_the_struct_gets_what_the_attribute_would_give_it() {
    let args = quote!(name = "s", input = [{ name = "x", type = integer }]);
    let out = super::tool(args.clone(), quote!(impl ToolHandler for S { })).to_string();
    assert_eq!(out.matches("compile_error").count(), 1, "{out}");
    assert!(
        out.contains("#[tool] goes on the struct, not on an impl block"),
        "{out}"
    );
    assert!(out.starts_with("impl ToolHandler for S { }"), "{out}");
    assert!(
        input_fields(&out).contains("x : __agentkit_S :: i64"),
        "{out}"
    );
    assert!(
        out.contains("impl __agentkit_S :: TypedTool for S"),
        "{out}"
    );
    assert!(out.contains("impl __agentkit_S :: Tool for S"), "{out}");
    // Without the handler, a `Tool` impl would ask for it.
    let out = super::tool(args, quote!(impl S { })).to_string();
    assert_eq!(out.matches("compile_error").count(), 1, "{out}");
    assert!(
        out.contains("impl __agentkit_S :: TypedTool for S"),
        "{out}"
    );
    assert!(!out.contains(":: Tool for S"), "{out}");
}

#[test]
fn annotations_and_examples_are_in_the_spec_text_only_when_written() {
    let spec = spec_text(quote!(name = "s"));
    assert!(!spec.contains("annotations"), "{spec}");
    assert!(!spec.contains("examples"), "{spec}");
    let spec = spec_text(quote!(
        name = "s",
        title = "Do it",
        destructive = false,
        open_world,
        input = [{ name = "x", type = integer }, { name = "y", type = float, required = false }],
        examples = [{ x = 1 }, { x = -2, y = -2.5e0 }]
    ));
    // Every hint written, in the order of the spec's JSON shape; the unset ones absent.
    let annotations = r#""annotations":{"title":"Do it","destructive":false,"open_world":true}"#;
    assert!(spec.contains(annotations), "{spec}");
    assert!(
        spec.contains(r#""examples":[{"x":1},{"x":-2,"y":-2.5}]"#),
        "{spec}"
    );
}

#[test]
fn annotations_and_examples_of_a_static_spec_are_static_data_only_when_written() {
    let out = expand(quote!(name = "s", input = Args));
    assert!(!out.contains("with_static_annotations"), "{out}");
    assert!(!out.contains("with_static_examples"), "{out}");
    let out = expand(quote!(
        name = "s",
        title = "Do it",
        destructive = false,
        open_world,
        input = Args,
        examples = [{ x = 1 }, { x = -2, y = -2.5e0 }]
    ));
    assert!(!out.contains("compile_error"), "{out}");
    // Every hint in its place, the unset ones unset.
    let annotations = "ToolAnnotations :: from_static (__agentkit_S :: Some (\"Do it\") , \
                       __agentkit_S :: None , __agentkit_S :: Some (false) , __agentkit_S :: None , \
                       __agentkit_S :: Some (true))";
    assert!(out.contains(annotations), "{out}");
    assert!(out.contains("Literal :: Integer (1)"), "{out}");
    assert!(out.contains("Literal :: Float (- 2.5)"), "{out}");
}

#[test]
fn examples_of_a_typed_input_are_left_to_the_registry() {
    let out = expand(quote!(name = "s", input = Args, examples = [{ x = 1 }]));
    assert!(!out.contains("compile_error"), "{out}");
    assert!(out.contains("with_static_examples"), "{out}");
    assert!(out.contains("] , false)"), "{out}");
}

#[test]
fn every_mistake_in_annotations_and_examples_is_one_error() {
    for (args, errors) in [
        (quote!(name = "s", read_only, destructive), 1),
        (quote!(name = "s", read_only = 1, title = 2), 2),
        (
            quote!(name = "s", input = [{ name = "x", type = integer }], examples = [{ y = 1 }, { x = "a" }, 3]),
            3,
        ),
        // A misspelt key is the one error, not also the parameter it leaves missing.
        (
            quote!(name = "s", input = [{ name = "city", type = string }], examples = [{ ctiy = "a" }]),
            1,
        ),
        // A value that cannot be read leaves its example unchecked: no `city` missing.
        (
            quote!(name = "s", input = [{ name = "city", type = string }], examples = [{ city = Paris }]),
            1,
        ),
        // A parameter that cannot be read leaves every example unchecked.
        (
            quote!(name = "s", input = [{ name = "x", type = intger }], examples = [{ x = "a" }]),
            1,
        ),
    ] {
        let out = expand(args.clone());
        assert_eq!(
            out.matches("compile_error").count(),
            errors,
            "{args}: {out}"
        );
    }
}

#[test]
fn an_entry_that_does_not_parse_leaves_its_example_unchecked() {
    // `zip-code` unquoted is a syntax error; the example is not then missing `zip-code` too.
    let out = expand(quote!(
        name = "s",
        input = [{ name = "zip-code", type = string }],
        examples = [{ zip-code = "75001" }]
    ));
    assert_eq!(out.matches("compile_error").count(), 1, "{out}");
    let out = expand(quote!(
        name = "s",
        input = [{ name = "zip-code", type = string }],
        examples = [{ "zip-code" = "75001" }]
    ));
    assert!(!out.contains("compile_error"), "{out}");
}

// Issue 32: a mistake the fallback cannot tell the fix of leaves the types it decides
// undecided, so the handler compiles whichever fix it was written for.

#[test]
fn a_refused_default_types_its_field_with_its_one_error() {
    let out = expand(quote!(
        name = "s",
        input = [{ name = "x", type = string, required = false, default = null }]
    ));
    // Once, inside the alias that types the field, and not again beside it.
    assert_eq!(out.matches("compile_error").count(), 1, "{out}");
    assert!(out.contains("is not one"), "{out}");
    assert!(out.contains("type __SUndecided0 ="), "{out}");
    assert!(out.contains("pub x : __SUndecided0"), "{out}");
}

#[test]
fn a_default_of_another_type_leaves_the_field_undecided() {
    let out = expand(quote!(
        name = "s",
        input = [{ name = "x", type = integer, required = false, default = "3" }]
    ));
    assert_eq!(out.matches("compile_error").count(), 1, "{out}");
    assert!(out.contains("pub x : __SUndecided0"), "{out}");
}

#[test]
fn a_repeated_input_adds_the_fields_of_the_repeat() {
    let out = expand(quote!(
        name = "s",
        input = [{ name = "a", type = string }],
        input = [{ name = "b", type = integer }, { name = "a", type = string }]
    ));
    assert_eq!(out.matches("compile_error").count(), 1, "{out}");
    assert!(out.contains("duplicate key 'input'"), "{out}");
    assert!(out.contains("pub a :"), "{out}");
    assert!(out.contains("pub b :"), "{out}");
    // `a` is declared the same in both: its type stands.
    assert!(!out.contains("Undecided"), "{out}");
}

#[test]
fn a_parameter_declared_otherwise_in_a_repeated_input_is_undecided() {
    let out = expand(quote!(
        name = "s",
        input = [{ name = "a", type = string }],
        input = [{ name = "a", type = integer }]
    ));
    assert_eq!(out.matches("compile_error").count(), 1, "{out}");
    assert!(out.contains("pub a : __SUndecided"), "{out}");
}

#[test]
fn an_input_written_as_a_type_and_as_a_list_is_undecided() {
    let out = expand(quote!(
        name = "s",
        input = Args,
        input = [{ name = "a", type = string }]
    ));
    assert_eq!(out.matches("compile_error").count(), 1, "{out}");
    assert!(out.contains("type Input = __SUndecided"), "{out}");
    assert!(out.contains("pub struct SInput"), "{out}");
}

#[test]
fn a_second_name_in_a_parameter_names_a_second_field() {
    let out = expand(quote!(name = "s", input = [{ name = "a", name = "b", type = string }]));
    assert_eq!(out.matches("compile_error").count(), 1, "{out}");
    assert!(out.contains("pub a :"), "{out}");
    assert!(out.contains("pub b :"), "{out}");
}

#[test]
fn a_macro_call_for_a_literal_is_one_error_that_says_so() {
    for args in [
        quote!(name = "s", description = concat!("a", "b")),
        quote!(name = stringify!(s)),
        quote!(name = "s", retries = std::concat!("3"), blocking),
        quote!(name = "s", input = [{ name = "a", type = string, required = false, default = concat!("x") }]),
    ] {
        let out = expand(args);
        assert_eq!(out.matches("compile_error").count(), 1, "{out}");
        assert!(out.contains("is a macro call"), "{out}");
    }
}

#[test]
fn an_undecided_parameter_names_the_type_it_may_have_generated() {
    let out = expand(quote!(
        name = "s",
        input = [{ name = "units", type = string, enum = ["a"], enum = ["a", "b"] }]
    ));
    assert_eq!(out.matches("compile_error").count(), 1, "{out}");
    // No enum of either list: the name is the undecided type.
    assert!(out.contains("type SInputUnits = __SUndecided"), "{out}");
    assert!(!out.contains("enum SInputUnits"), "{out}");
}
