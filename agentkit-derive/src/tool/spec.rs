//! Stage 4: the body of `Tool::spec`. A tool declared with parameter lists has its spec
//! written as text, read on first use ([`super::spec_text`]); one with `input = Type`,
//! `output = Type` or a literal only JSON Schema can say has it as `static` data built with
//! `const fn`s (its input examples made JSON objects once, when first asked for), since the
//! types' schemas are their `const`s.

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::quote;

use super::ast::{Annotations, Policy, Tool};
use crate::ast::Param;
use crate::expand::{constraints_over, literal};
use crate::forms;
use crate::rules::{self, ParamType};
use crate::symbol::HINTS;

/// The body of `Tool::spec`: the spec read from text, or as `static` data.
pub(crate) fn spec(tool: &Tool<'_>) -> TokenStream {
    let p = tool.private();
    if let Some(text) = super::spec_text::spec_text(tool) {
        return quote! {
            static SPEC: #p::OnceLock<#p::ToolSpec> = #p::OnceLock::new();
            #p::static_spec(&SPEC, #text)
        };
    }
    let name = tool.tool_name();
    let description = tool.description.as_deref().unwrap_or("");
    let version = tool.version();
    // The parameters get `static`s of their own: a `&[Param::from_static(..)]` inside the
    // spec's initializer would be a temporary, which a `static` cannot borrow. So do the
    // declared `fields` of each parameter: `INPUT_0_FIELDS`, `INPUT_0_FIELDS_1_FIELDS`, ...
    let mut statics = Vec::new();
    let mut schema = |params: &Option<Vec<Param>>, array: &str| match params {
        Some(params) => {
            let array = param_array(&p, params, array, &mut statics);
            quote!(#p::Some(#p::ToolSchema::from_static(&#array)))
        }
        None => quote!(#p::None),
    };
    // The schema of `input = SearchArgs` is read through the `TypedTool` impl, whose bound on
    // `Input` is then the one place a type without `ToolParams` is reported.
    let ident = &tool.item.ident;
    // A literal that says what the six types cannot is declared as its complete JSON
    // Schema, written here as text and compiled once, on first use: an input's with the
    // options for models, an output's with the standard ones (exact JSON Schema).
    let json_input = tool.uses_forms().then(|| {
        let text = forms::schema::root(tool.input.as_deref().unwrap_or_default(), &tool.defs);
        quote! {
            .with_static_json_input({
                fn input_json() -> #p::Result<&'static #p::JsonSchema, &'static #p::SchemaError> {
                    static CELL: #p::OnceLock<#p::Result<#p::JsonSchema, #p::SchemaError>> =
                        #p::OnceLock::new();
                    #p::static_schema_text(&CELL, #text)
                }
                input_json
            })
        }
    });
    let json_output = tool.output_uses_forms().then(|| {
        let text = forms::schema::root(tool.output.as_deref().unwrap_or_default(), &tool.defs);
        quote! {
            .with_static_json_output({
                fn output_json() -> #p::Result<&'static #p::JsonSchema, &'static #p::SchemaError> {
                    static CELL: #p::OnceLock<#p::Result<#p::JsonSchema, #p::SchemaError>> =
                        #p::OnceLock::new();
                    #p::static_schema_text_with(&CELL, #p::JsonSchemaOptions::standard, #text)
                }
                output_json
            })
        }
    });
    let input = match &tool.input_type {
        Some(_) => quote!(#p::input_schema::<#ident>()),
        None if json_input.is_some() => quote!(#p::None),
        None => schema(&tool.input, "INPUT"),
    };
    let output = match &tool.output_type {
        Some(_) => quote!(#p::output_schema::<#ident>()),
        None if json_output.is_some() => quote!(#p::None),
        None => schema(&tool.output, "OUTPUT"),
    };
    let tags = tool.tags.iter().map(|(key, value)| {
        let (key, value) = (&key.value, &value.value);
        quote!((#p::Cow::Borrowed(#key), #p::Cow::Borrowed(#value)))
    });
    let credentials = tool.credentials.iter().map(|c| {
        let c = &c.value;
        quote!(#p::Cow::Borrowed(#c))
    });
    let policy = policy(&p, &tool.policy);
    let annotations = annotations(&p, &tool.annotations);
    let examples = examples(&p, tool);
    let spec = quote! {
        #p::ToolSpec::from_static(
            #name,
            #description,
            #version,
            #input,
            #output,
            &[#(#tags),*],
            &[#(#credentials),*],
        )#json_input #json_output #policy #annotations #examples
    };
    // `input = Args` whose type has a form only JSON Schema can say declares that schema
    // (and no parameter list); which it is, only the type's `const`s know.
    let spec = match &tool.input_type {
        Some(_) => quote!(#p::with_json_input(#spec, #p::input_json_schema::<#ident>())),
        None => spec,
    };
    // So does `output = Type`, compiled as outputs are (exact JSON Schema).
    let spec = match &tool.output_type {
        Some(_) => quote!(#p::with_json_output(#spec, #p::output_json_schema::<#ident>())),
        None => spec,
    };
    quote! {
        #(#statics)*
        static SPEC: #p::ToolSpec = #spec;
        &SPEC
    }
}

/// `.with_static_annotations(..)` when the tool declares a title or a hint; nothing
/// otherwise. A hint not written stays unset (`None`), which MCP reads otherwise than `false`.
fn annotations(p: &Ident, annotations: &Annotations) -> Option<TokenStream> {
    if annotations.is_empty() {
        return None;
    }
    let title = match &annotations.title {
        Some(title) => {
            let title = &title.value;
            quote!(#p::Some(#title))
        }
        None => quote!(#p::None),
    };
    let hints = HINTS.map(|key| match annotations.hint(key) {
        Some((value, _)) => quote!(#p::Some(#value)),
        None => quote!(#p::None),
    });
    Some(quote! {
        .with_static_annotations(#p::ToolAnnotations::from_static(#title, #(#hints),*))
    })
}

/// `.with_static_examples(..)` when the tool has examples: each a `const` `Literal`
/// dictionary, as written, made a JSON object only when the spec's `examples()` are first
/// read. They are checked already, unless the parameters are a type's (`input = Args`),
/// which the registry checks them against.
fn examples(p: &Ident, tool: &Tool<'_>) -> Option<TokenStream> {
    if tool.examples.is_empty() {
        return None;
    }
    let examples = tool
        .examples
        .iter()
        .map(|example| literal(p, &example.value.to_literal()));
    // Those of a literal with the forms beyond the six types are checked at compile time in
    // the forms' own terms, and by the registry again in full, against the JSON Schema.
    let checked = tool.input_type.is_none() && !tool.uses_forms();
    Some(quote!(.with_static_examples(&[#(#examples),*], #checked)))
}

/// `.with_static_policy(..)` when the tool declares any of it; nothing otherwise, which keeps
/// the common expansion as small as it was.
fn policy(p: &Ident, policy: &Policy) -> Option<TokenStream> {
    if *policy == Policy::default() {
        return None;
    }
    // At most a day, so the milliseconds always fit; `0` is "no timeout".
    let timeout_ms = policy.timeout.map_or(0, |timeout| {
        u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX)
    });
    let timeout_ms = Literal::u64_unsuffixed(timeout_ms);
    let Policy {
        blocking,
        sequential,
        requires_approval,
        ..
    } = policy;
    let retries = match policy.retries {
        Some(retries) => {
            let retries = Literal::u32_unsuffixed(retries);
            quote!(#p::Some(#retries))
        }
        None => quote!(#p::None),
    };
    let task_support = policy.task_support.map(|variant| {
        let variant = Ident::new(variant, Span::call_site());
        quote!(.with_static_task_support(#p::TaskSupport::#variant))
    });
    Some(quote! {
        .with_static_policy(#timeout_ms, #blocking, #sequential, #requires_approval, #retries)
        #task_support
    })
}

/// Pushes `static #array: [Param; N] = [...];` for `params` onto `statics`, with the arrays
/// of their declared fields, and returns the name of the array.
fn param_array(p: &Ident, params: &[Param], array: &str, statics: &mut Vec<TokenStream>) -> Ident {
    let len = params.len();
    let values: Vec<TokenStream> = params
        .iter()
        .enumerate()
        .map(|(index, param)| {
            let fields = param.fields.as_ref().map(|(fields, _)| {
                param_array(p, fields, &format!("{array}_{index}_FIELDS"), statics)
            });
            param_value(p, param, fields.as_ref())
        })
        .collect();
    let array = Ident::new(array, Span::call_site());
    statics.push(quote!(static #array: [#p::Param; #len] = [#(#values),*];));
    array
}

/// A `const` `Param` expression; `fields` names the `static` array of its declared fields.
fn param_value(p: &Ident, param: &Param, fields: Option<&Ident>) -> TokenStream {
    let name = param.name.as_ref().map_or("", |n| n.value.as_str());
    let ty = param_type(param.ty.map_or(ParamType::String, |t| t.ty));
    let required = param.is_required();
    let default = match param.stored_default() {
        Some(default) => {
            let default = literal(p, &default);
            quote!(#p::Some(#default))
        }
        None => quote!(#p::None),
    };
    let description = param.description.as_deref().unwrap_or("");
    let items = param.items.map(|(items, _)| {
        let items = param_type(items.ty);
        quote!(.with_items(#p::ParamType::#items))
    });
    let constraints = constraints(p, &param.constraints);
    let constructor = match fields {
        Some(fields) => quote! {
            #p::Param::from_static_with_fields(
                #name, #p::ParamType::#ty, #required, #default, #description, &#fields
            )
        },
        None => quote! {
            #p::Param::from_static(#name, #p::ParamType::#ty, #required, #default, #description)
        },
    };
    quote!(#constructor #items #constraints)
}

/// `.with_static_constraints(..)` when the parameter declares any; nothing otherwise, which
/// keeps the common expansion as it was.
fn constraints(p: &Ident, c: &rules::Constraints) -> Option<TokenStream> {
    constraints_over(p, c, None)
}

fn param_type(ty: ParamType) -> Ident {
    let variant = match ty {
        ParamType::String => "String",
        ParamType::Integer => "Integer",
        ParamType::Float => "Float",
        ParamType::Boolean => "Boolean",
        ParamType::List => "List",
        ParamType::Dictionary => "Dictionary",
    };
    Ident::new(variant, Span::call_site())
}
