//! Stage 4: the generated code, for a declaration without mistakes.
//!
//! Every path goes through `<crate>::__private`, imported once per tool under a name of its
//! own, so the expansion works whatever the user has in scope (`mod core {}`, a `Result`
//! alias) and under a renamed dependency. The spec is `static` data built with `const fn`s:
//! describing the tool costs nothing at run time.

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::DeriveInput;

use crate::ast::{Param, Policy, Tool, Ty};
use crate::check;
use crate::ctxt::Ctxt;
use crate::fallback;
use crate::place;
use crate::rules::{self, ParamType};

/// `#[tool(args)] item`.
pub(crate) fn tool(args: TokenStream, item: TokenStream) -> TokenStream {
    let mut input = match syn::parse2::<DeriveInput>(item.clone()) {
        Ok(input) => input,
        Err(error) => {
            let error = place::not_a_struct(&item, error.span()).into_compile_error();
            return quote!(#item #error);
        }
    };
    let cx = Ctxt::new();
    // A second `#[tool]` is removed, so it does not expand again, and is the one error.
    let item = match place::take_repeated(&cx, &mut input) {
        true => quote!(#input),
        false => item,
    };
    let tool = Tool::from_ast(&cx, args, &input);
    check::check(&cx, &tool);
    match cx.check() {
        Ok(()) => {
            let typed = typed(&tool, false);
            let tool_impl = tool_impl(&tool, &spec(&tool));
            let thread_safety = thread_safety(&tool);
            let import = tool.private_import();
            quote!(#item #import #typed #tool_impl #thread_safety)
        }
        Err(errors) => fallback::expand(&tool, &item, &errors),
    }
}

impl Tool<'_> {
    /// The path every generated item reaches agentkit-core through: the alias that
    /// [`private_import`](Self::private_import) declares for `<crate>::__private`. One token
    /// in place of the absolute path's five, in each of the expansion's hundred-odd paths:
    /// the compiler parses and resolves every token of every tool on every build. An `Ident`
    /// rather than a `TokenStream`: a token stream interpolated into `quote!` is handed to the
    /// compiler and back each time, an `Ident` is copied in place.
    pub(crate) fn private(&self) -> Ident {
        self.private_at(Span::call_site())
    }

    /// [`private`](Self::private), spanned at `span`: it resolves the same way (both are the
    /// call site's hygiene), but an error in an expression that starts with it points there.
    pub(crate) fn private_at(&self, span: Span) -> Ident {
        let mut alias = self.private_alias();
        alias.set_span(span);
        alias
    }

    /// `use <crate>::__private as __agentkit_<Struct>;`: named after the struct, whose name is
    /// unique in its module, so that two tools in one module import two names.
    pub(crate) fn private_import(&self) -> TokenStream {
        let krate = &self.krate;
        let alias = self.private_alias();
        quote! {
            #[doc(hidden)]
            #[allow(unused_imports)]
            use #krate::__private as #alias;
        }
    }

    fn private_alias(&self) -> Ident {
        format_ident!("__agentkit_{}", self.item.ident, span = Span::call_site())
    }

    fn tool_name(&self) -> String {
        self.name
            .as_ref()
            .map_or_else(|| self.item.ident.to_string(), |name| name.value.clone())
    }
}

/// The `Tool` impl, with `spec_body` as the body of `spec`.
pub(crate) fn tool_impl(tool: &Tool<'_>, spec_body: &TokenStream) -> TokenStream {
    let ident = &tool.item.ident;
    let fits = tool.output_type.is_none() && tool.output.as_deref().is_some_and(fits_by_type);
    let p = tool.private();
    // Spanned on the struct's name, so that a missing `impl ToolHandler` is reported there
    // (once: the call and the returned future need it, and identical errors are merged).
    let at = tool.private_at(ident.span());
    let run = quote_spanned!(ident.span()=> #at::execute_typed(self, inputs, ctx));
    let execute = quote_spanned! {ident.span()=>
        fn execute(
            &self,
            inputs: &#p::JsonObject,
            ctx: &#p::ToolContext<'_>,
        ) -> impl #p::Future<Output = #p::Result<#p::JsonObject, #p::BoxError>> + #p::Send {
            // Through `execute_inputs`, so that a missing `ToolHandler` is one error, there.
            #p::execute_json(#p::Tool::execute_inputs(self, #p::Inputs::Json(inputs), ctx))
        }

        fn parse_typed(
            &self,
            text: &#p::str,
            unknown: #p::UnknownArguments,
            max_issues: #p::usize,
        ) -> #p::Parsed {
            #p::parse_typed(self, text, unknown, max_issues)
        }

        fn execute_inputs(
            &self,
            inputs: #p::Inputs<'_>,
            ctx: &#p::ToolContext<'_>,
        ) -> impl #p::Future<Output = #p::Result<#p::Returned, #p::BoxError>> + #p::Send {
            #run
        }
    };
    let fits = fits.then(|| {
        quote! {
            fn output_fits_by_type(&self) -> #p::bool {
                true
            }
        }
    });
    quote! {
        #[automatically_derived]
        impl #p::Tool for #ident {
            fn spec(&self) -> &#p::ToolSpec {
                #spec_body
            }

            #execute
            #fits
        }
    }
}

/// One error per field whose type is not `Send` and `Sync`, spanned on that type, and the
/// declaration that the struct is both, so that nothing else fails because of it (see
/// `agentkit_core::__private::thread_safety` for why that is sound).
pub(crate) fn thread_safety(tool: &Tool<'_>) -> TokenStream {
    let syn::Data::Struct(data) = &tool.item.data else {
        return TokenStream::new();
    };
    // A struct without fields is `Send` and `Sync` already: nothing to check or declare.
    if tool.has_generics() || data.fields.is_empty() {
        return TokenStream::new();
    }
    let p = tool.private();
    let checks = data.fields.iter().map(|field| {
        let ty = &field.ty;
        let span = syn::spanned::Spanned::span(ty);
        quote_spanned! {span=>
            (&&&&#p::thread_safety::Probe::<#ty>::NEW).verdict().require();
        }
    });
    // Spanned at the call site, not on the user's tokens: the `unsafe` is the macro's, so a
    // crate under `#![forbid(unsafe_code)]` is not blamed for it.
    let ident = Ident::new(&tool.item.ident.to_string(), Span::call_site());
    quote! {
        const _: () = {
            #[allow(unused_imports)]
            use #p::thread_safety::{Level0 as _, Level1 as _, Level2 as _, Level3 as _};
            let _: fn() = || {
                #(#checks)*
            };
        };
        #[doc(hidden)]
        unsafe impl #p::Send for #ident {}
        #[doc(hidden)]
        unsafe impl #p::Sync for #ident {}
    }
}

/// Whether the generated output struct for `params` always converts to an output that passes
/// validation (a non-finite float aside, which the executor checks for): no default to fill
/// in, and no constraint but a string `enum` that became a Rust enum, at any depth.
fn fits_by_type(params: &[Param]) -> bool {
    params.iter().all(|param| {
        let c = &param.constraints;
        let only_rust_enum = param.ty.is_some_and(|ty| ty.ty == ParamType::String)
            && enum_variants(c).is_some()
            && rules::Constraints {
                enum_values: None,
                ..c.clone()
            }
            .is_empty();
        param.default.is_none()
            && !param.default_guessed
            && (c.is_empty() || only_rust_enum)
            && param
                .fields
                .as_ref()
                .is_none_or(|(fields, _)| fits_by_type(fields))
    })
}

/// Whether the generated struct for `params` holds a float anywhere (a field, a list's items,
/// a dictionary's fields, at any depth): only a float can be non-finite, which JSON has no
/// number for.
fn holds_float(params: &[Param]) -> bool {
    let float = |ty: Option<Ty>| ty.is_some_and(|ty| ty.ty == ParamType::Float);
    params.iter().any(|param| {
        float(param.ty)
            || float(param.items.map(|(items, _)| items))
            || param
                .fields
                .as_ref()
                .is_some_and(|(fields, _)| holds_float(fields))
    })
}

/// The body of `Tool::spec`: the spec as `static` data.
fn spec(tool: &Tool<'_>) -> TokenStream {
    let p = tool.private();
    let name = tool.tool_name();
    let description = tool.description.as_deref().unwrap_or("");
    let version = tool.version.as_ref().map_or("1.0.0", |v| v.value.as_str());
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
    let input = match &tool.input_type {
        Some(_) => quote!(#p::input_schema::<#ident>()),
        None => schema(&tool.input, "INPUT"),
    };
    let output = match &tool.output_type {
        Some(_) => quote!(#p::output_schema::<#ident>()),
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
    quote! {
        #(#statics)*
        static SPEC: #p::ToolSpec = #p::ToolSpec::from_static(
            #name,
            #description,
            #version,
            #input,
            #output,
            &[#(#tags),*],
            &[#(#credentials),*],
        )#policy;
        &SPEC
    }
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
    Some(quote! {
        .with_static_policy(#timeout_ms, #blocking, #sequential, #requires_approval, #retries)
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
    // The default as validation leaves it, as a schema built at run time stores it: filling
    // it in then gives exactly what validating it as the argument gives.
    let normalised = check::decl(param).and_then(|decl| rules::check_default(&decl).value);
    let default = match normalised.as_ref().or(param.default_literal.as_ref()) {
        Some(default) => {
            let default = literal(p, default);
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

/// [`constraints`], where an `enum`, `minimum` or `maximum` the declaration leaves out is
/// `shape`'s (a `const` `Shape`: what a field's Rust type says, for `#[derive(ToolParams)]`).
pub(crate) fn constraints_over(
    p: &Ident,
    c: &rules::Constraints,
    shape: Option<&TokenStream>,
) -> Option<TokenStream> {
    if c.is_empty() {
        return None;
    }
    let unset = |field: TokenStream| match shape {
        Some(shape) => quote!(#shape.#field),
        None => quote!(#p::None),
    };
    let enum_values = match &c.enum_values {
        Some(values) => {
            let values = values.iter().map(|value| literal(p, value));
            quote!(#p::Some(&[#(#values),*]))
        }
        None => unset(quote!(enum_values)),
    };
    let number = |n: Option<rules::Number>, field: TokenStream| match n {
        Some(n) => number(p, n),
        None => unset(field),
    };
    let count = |n: Option<usize>| match n {
        Some(n) => {
            let n = Literal::usize_unsuffixed(n);
            quote!(#p::Some(#n))
        }
        None => quote!(#p::None),
    };
    let minimum = number(c.minimum, quote!(minimum));
    let maximum = number(c.maximum, quote!(maximum));
    let (min_length, max_length) = (count(c.min_length), count(c.max_length));
    let (min_items, max_items) = (count(c.min_items), count(c.max_items));
    Some(quote! {
        .with_static_constraints(
            #enum_values, #minimum, #maximum, #min_length, #max_length, #min_items, #max_items
        )
    })
}

/// `Some(Number::..)`, a bound as a `const` expression.
pub(crate) fn number(p: &Ident, n: rules::Number) -> TokenStream {
    match n {
        rules::Number::Integer(i) => {
            let digits = Literal::u64_unsuffixed(i.unsigned_abs());
            let minus = (i < 0).then(|| quote!(-));
            quote!(#p::Some(#p::Number::Integer(#minus #digits)))
        }
        rules::Number::Float(f) => {
            let digits = Literal::f64_unsuffixed(f.abs());
            let minus = f.is_sign_negative().then(|| quote!(-));
            quote!(#p::Some(#p::Number::Float(#minus #digits)))
        }
    }
}

/// The Rust type of a value of `ty` in the generated input and output structs.
fn rust_type(p: &Ident, ty: ParamType) -> TokenStream {
    match ty {
        ParamType::String => quote!(#p::String),
        ParamType::Integer => quote!(#p::i64),
        ParamType::Float => quote!(#p::f64),
        ParamType::Boolean => quote!(#p::bool),
        ParamType::List => quote!(#p::Vec<#p::Value>),
        ParamType::Dictionary => quote!(#p::Map<#p::String, #p::Value>),
    }
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

/// A default as a `const` `Literal` expression.
pub(crate) fn literal(p: &Ident, default: &rules::Literal) -> TokenStream {
    match default {
        rules::Literal::Null => quote!(#p::Literal::Null),
        rules::Literal::String(s) => {
            let s = s.as_ref();
            quote!(#p::Literal::String(#p::Cow::Borrowed(#s)))
        }
        rules::Literal::Integer(i) => {
            // A `-` and an unsigned literal: a negative literal token is not portable.
            let digits = Literal::u64_unsuffixed(i.unsigned_abs());
            let minus = (*i < 0).then(|| quote!(-));
            quote!(#p::Literal::Integer(#minus #digits))
        }
        // Refused by the rules, so never part of a valid expansion; spelled out all the same.
        rules::Literal::OutOfRange(i) => {
            let digits = Literal::u128_unsuffixed(i.unsigned_abs());
            let minus = (*i < 0).then(|| quote!(-));
            quote!(#p::Literal::OutOfRange(#minus #digits))
        }
        rules::Literal::Float(f) => {
            let digits = Literal::f64_unsuffixed(f.abs());
            let minus = f.is_sign_negative().then(|| quote!(-));
            quote!(#p::Literal::Float(#minus #digits))
        }
        rules::Literal::Boolean(b) => quote!(#p::Literal::Boolean(#b)),
        rules::Literal::List(items) => {
            let items = items.iter().map(|item| literal(p, item));
            quote!(#p::Literal::List(#p::Cow::Borrowed(&[#(#items),*])))
        }
        rules::Literal::Dictionary(entries) => {
            let entries = entries.iter().map(|(key, value)| {
                let key = key.as_ref();
                let value = literal(p, value);
                quote!((#p::Cow::Borrowed(#key), #value))
            });
            quote!(#p::Literal::Dictionary(#p::Cow::Borrowed(&[#(#entries),*])))
        }
    }
}

/// The typed input and output structs, their conversions, and the `TypedTool` impl.
///
/// Also used by the fallback (`fallback`), with whatever parameters could be read, so the
/// user's `impl ToolHandler` still finds its types, fields and field types; the conversions
/// are then never called.
pub(crate) fn typed(tool: &Tool<'_>, fallback: bool) -> TokenStream {
    let p = tool.private();
    let ident = &tool.item.ident;
    let mut g = Gen {
        tool,
        p: p.clone(),
        fallback,
        items: Vec::new(),
        names: Vec::new(),
    };
    let (input_ty, input_items) = match &tool.input {
        _ if tool.input_type.is_some() => {
            let path = tool.input_type.as_ref().expect("checked");
            (quote!(#path), quote!())
        }
        Some(params) => {
            let name = format_ident!("{}Input", ident, span = Span::call_site());
            let items = input_struct(&mut g, &name, params);
            (quote!(#name), items)
        }
        None => (quote!(#p::JsonObject), quote!()),
    };
    let (output_ty, output_items) = match &tool.output {
        _ if tool.output_type.is_some() => {
            let path = tool.output_type.as_ref().expect("checked");
            (quote!(#path), quote!())
        }
        Some(params) => {
            let name = format_ident!("{}Output", ident, span = Span::call_site());
            let items = output_struct(&mut g, &name, params);
            (quote!(#name), items)
        }
        None => (quote!(#p::JsonObject), quote!()),
    };
    let nested = &g.items;
    let (impl_generics, ty_generics, where_clause) = tool.item.generics.split_for_impl();
    quote! {
        #input_items
        #output_items
        #(#nested)*

        #[automatically_derived]
        impl #impl_generics #p::TypedTool for #ident #ty_generics #where_clause {
            type Input = #input_ty;
            type Output = #output_ty;
        }
    }
}

/// A field of a generated struct.
struct Field<'a> {
    ident: Ident,
    name: &'a str,
    ty: TokenStream,
    /// Whether the field is an `Option`: left out of the serialized form when `None`.
    optional: bool,
    doc: String,
}

/// Which struct a field is for: an absent input gets its default before `run` sees it, so
/// an input with a default is a plain value; an output with a default may be left out by
/// `run` (`None`), and output validation fills the default in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Input,
    Output,
}

/// What the typed structs of one tool are generated with: the types generated besides the
/// input and output structs (for dictionaries with `fields`, and string `enum`s) are
/// collected in `items`, each named after the struct that holds it and the parameter.
struct Gen<'t, 'a> {
    tool: &'t Tool<'a>,
    p: Ident,
    fallback: bool,
    items: Vec<TokenStream>,
    /// The names of the types generated so far, so that two parameters whose names differ only
    /// in case or punctuation (`stops`, `Stops`) still get distinct types.
    names: Vec<String>,
}

impl Gen<'_, '_> {
    /// A fresh type name: `parent` and the parameter's name in UpperCamelCase.
    fn type_name(&mut self, parent: &Ident, param: &str) -> Ident {
        let base = format!("{parent}{}", upper_camel(param).unwrap_or_default());
        let mut name = base.clone();
        let mut n = 2;
        while self.names.contains(&name) {
            name = format!("{base}{n}");
            n += 1;
        }
        self.names.push(name.clone());
        Ident::new(&name, Span::call_site())
    }

    /// The derives every generated type has. serde's `Serialize` and `Deserialize` are not
    /// derived but implemented by [`serialize`] and [`deserialize`]: thin glue to generic
    /// code in agentkit-core, where serde's derived code would be most of the expansion.
    fn derives(&self, extra: &TokenStream) -> TokenStream {
        let p = &self.p;
        quote! {
            #[derive(#p::Debug, #p::Clone, #p::PartialEq, #extra)]
        }
    }
}

/// `impl Serialize` for a generated struct: an object of its parameters, an optional one left
/// out when `None`.
fn serialize(p: &Ident, name: &Ident, fields: &[Field<'_>]) -> TokenStream {
    // In key order, as the JSON object the executor validates keeps them: so the text written
    // straight from an output struct is the text of its object.
    let mut sorted: Vec<&Field<'_>> = fields.iter().collect();
    sorted.sort_by_key(|f| f.name);
    let writes = sorted.into_iter().map(|f| {
        let (ident, key) = (&f.ident, f.name);
        if f.optional {
            quote!(fields.optional(#key, &self.#ident);)
        } else {
            quote!(fields.field(#key, &self.#ident);)
        }
    });
    let fields_var = if fields.is_empty() {
        quote!(fields)
    } else {
        quote!(mut fields)
    };
    quote! {
        #[automatically_derived]
        impl #p::serde::Serialize for #name {
            fn serialize<S: #p::serde::Serializer>(&self, serializer: S) -> #p::Result<S::Ok, S::Error> {
                let #fields_var = #p::serde_glue::Fields::new(serializer)?;
                #(#writes)*
                fields.end()
            }
        }
    }
}

/// `impl Deserialize` through `glue` (`object` for a struct read with `FromInputs`, `value`
/// for a type read with `FromParam`).
fn deserialize(p: &Ident, name: &Ident, glue: &str, fallback: bool) -> TokenStream {
    let glue = Ident::new(glue, Span::call_site());
    // The fallback's types have no conversions to read with.
    let body = if fallback {
        quote!(#p::unreachable!("#[tool] reported errors for this tool"))
    } else {
        quote!(#p::serde_glue::#glue(deserializer))
    };
    let deserializer = if fallback {
        quote!(_)
    } else {
        quote!(deserializer)
    };
    quote! {
        #[automatically_derived]
        impl<'de> #p::serde::Deserialize<'de> for #name {
            fn deserialize<D: #p::serde::Deserializer<'de>>(#deserializer: D) -> #p::Result<Self, D::Error> {
                #body
            }
        }
    }
}

/// `name` in UpperCamelCase (`max-days` and `maxDays` as `MaxDays`, `km/h` as `KmH`), if
/// that is an identifier: each run of ASCII letters and digits is a word, as is each
/// lowercase-to-uppercase step; a word is capitalised and the rest of it lowercased.
fn upper_camel(name: &str) -> Option<String> {
    let mut out = String::new();
    let mut start = true;
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_ascii() {
            return None;
        }
        if !c.is_ascii_alphanumeric() {
            start = true;
            prev_lower = false;
            continue;
        }
        if start || (prev_lower && c.is_ascii_uppercase()) {
            out.push(c.to_ascii_uppercase());
        } else {
            out.push(c.to_ascii_lowercase());
        }
        start = false;
        prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
    }
    let ident = out.starts_with(|c: char| c.is_ascii_alphabetic()) && out != "Self";
    ident.then_some(out)
}

/// The variants of a string `enum`: each value and its variant, if every value gives a
/// distinct one.
fn enum_variants(c: &rules::Constraints) -> Option<Vec<(&str, Ident)>> {
    let values = c.enum_values.as_ref()?;
    let mut variants: Vec<(&str, Ident)> = Vec::new();
    for value in values.iter() {
        let rules::Literal::String(value) = value else {
            return None;
        };
        let variant = upper_camel(value)?;
        if variants.iter().any(|(_, v)| *v == variant) {
            return None;
        }
        variants.push((value.as_ref(), Ident::new(&variant, Span::call_site())));
    }
    (!variants.is_empty()).then_some(variants)
}

/// The fields for `params`, skipping any repeated field; `parent` is the struct they are
/// in, after which the types generated for them are named.
///
/// In the `fallback`, a parameter with mistakes still gets the field its handler reads,
/// wherever its name could be read: a refused name is made an identifier, and a type that
/// could not be read (nor guessed from a misspelling or the default) is a
/// `serde_json::Value`, what the argument is at run time whatever its type. No Rust type fits
/// every use; `Value` is the one that code passing the value on, formatting or comparing it
/// still compiles with, without the unreachable-code warnings `!` would bring.
fn fields<'a>(
    g: &mut Gen<'_, '_>,
    parent: &Ident,
    params: &'a [Param],
    side: Side,
) -> Vec<Field<'a>> {
    let p = g.p.clone();
    let what = match side {
        Side::Input => "parameter",
        Side::Output => "output",
    };
    let mut fields: Vec<Field<'a>> = Vec::new();
    for param in params {
        let ident = match param.field() {
            Some(ident) => Some(ident),
            None if g.fallback => param.fallback_field(),
            None => None,
        };
        let (Some(ident), Some(name)) = (ident, &param.name) else {
            continue;
        };
        if fields.iter().any(|f| f.ident == ident) {
            continue;
        }
        let rust = match (param.ty.map(|ty| ty.ty), param.items, &param.fields) {
            (Some(ParamType::List), Some((items, _)), Some((declared, _)))
                if items.ty == ParamType::Dictionary =>
            {
                let nested = nested_struct(g, parent, &name.value, declared, side);
                quote!(#p::Vec<#nested>)
            }
            (Some(ParamType::Dictionary), _, Some((declared, _))) => {
                let nested = nested_struct(g, parent, &name.value, declared, side);
                quote!(#nested)
            }
            (Some(ParamType::String), _, _) => match enum_variants(&param.constraints) {
                Some(variants) => {
                    let name = string_enum(g, parent, &name.value, &variants);
                    quote!(#name)
                }
                None => rust_type(&p, ParamType::String),
            },
            (Some(ParamType::List), Some((items, _)), _) => {
                let item = rust_type(&p, items.ty);
                quote!(#p::Vec<#item>)
            }
            (Some(ty), _, _) => rust_type(&p, ty),
            (None, _, _) if g.fallback => quote!(#p::Value),
            (None, _, _) => continue,
        };
        let has_default = param.default.is_some() || param.default_guessed;
        let optional = !param.is_required() && (side == Side::Output || !has_default);
        let ty = if optional {
            quote!(#p::Option<#rust>)
        } else {
            rust
        };
        let doc = match param.description.as_deref() {
            Some(description) if !description.is_empty() => description.to_owned(),
            _ => format!("The `{}` {what}.", name.value),
        };
        fields.push(Field {
            ident,
            name: &name.value,
            ty,
            optional,
            doc,
        });
    }
    fields
}

/// The struct of a dictionary with declared `fields`, with its conversions; returns its name.
fn nested_struct(
    g: &mut Gen<'_, '_>,
    parent: &Ident,
    param: &str,
    declared: &[Param],
    side: Side,
) -> Ident {
    let name = g.type_name(parent, param);
    let fields = fields(g, &name, declared, side);
    let doc = format!("The `{param}` dictionary of `{parent}`, generated by `#[tool]`.");
    let def = struct_def(g, &name, &fields, &doc);
    let p = &g.p;
    // The fallback needs the type only: its conversions are never called.
    let conversions = (!g.fallback).then(|| {
        let value = if fields.is_empty() {
            quote!(_)
        } else {
            quote!(object)
        };
        let reads = fields.iter().map(|Field { ident, name, .. }| {
            quote!(#ident: #p::FromParam::from_value(object.get(#name))?,)
        });
        let takes = fields.iter().map(|Field { ident, name, .. }| {
            quote!(#ident: #p::FromParam::from_owned(object.remove(#name))?,)
        });
        let owned = if fields.is_empty() {
            quote!(_)
        } else {
            quote!(mut object)
        };
        let writes = writes(p, &fields);
        quote! {
            #[automatically_derived]
            impl #p::FromParam for #name {
                const PARAM_TYPE: #p::ParamType = #p::ParamType::Dictionary;

                fn from_value(value: #p::Option<&#p::Value>) -> #p::Option<Self> {
                    let #value = value?.as_object()?;
                    #p::Some(Self { #(#reads)* })
                }

                fn from_owned(value: #p::Option<#p::Value>) -> #p::Option<Self> {
                    let #p::Value::Object(#owned) = value? else {
                        return #p::None;
                    };
                    #p::Some(Self { #(#takes)* })
                }
            }

            #[automatically_derived]
            impl #p::IntoParam for #name {
                fn into_value(self) -> #p::Option<#p::Value> {
                    let mut output = #p::JsonObject::new();
                    #writes
                    #p::Some(#p::Value::Object(output))
                }
            }
        }
    });
    let serde = serialize(p, &name, &fields);
    let de = deserialize(p, &name, "value", g.fallback);
    g.items.push(quote!(#def #conversions #serde #de));
    name
}

/// The Rust enum of a string parameter with an `enum`, with its conversions; returns its name.
fn string_enum(
    g: &mut Gen<'_, '_>,
    parent: &Ident,
    param: &str,
    variants: &[(&str, Ident)],
) -> Ident {
    let name = g.type_name(parent, param);
    let p = &g.p;
    let vis = &g.tool.item.vis;
    let doc = format!("The allowed values of `{param}` in `{parent}`, generated by `#[tool]`.");
    let derives = g.derives(&quote!(#p::Copy, #p::Eq, #p::Hash,));
    let defs = variants.iter().map(|(value, variant)| {
        let doc = format!("`\"{value}\"`");
        quote! {
            #[doc = #doc]
            #variant,
        }
    });
    let strs = variants
        .iter()
        .map(|(value, variant)| quote!(Self::#variant => #value,));
    let pairs: Vec<(&str, &Ident)> = variants.iter().map(|(v, i)| (*v, i)).collect();
    let conversions = enum_conversions(p, &name, &pairs);
    let deserialize = deserialize(p, &name, "value", false);
    g.items.push(quote! {
        #[doc = #doc]
        #derives
        #vis enum #name {
            #(#defs)*
        }

        // `as_str` is there for the handler; one that only matches on the variants leaves it
        // unused.
        #[allow(dead_code)]
        impl #name {
            /// The value as the model sends it.
            #[must_use]
            #vis const fn as_str(self) -> &'static #p::str {
                match self {
                    #(#strs)*
                }
            }
        }

        #[automatically_derived]
        impl #p::Display for #name {
            fn fmt(&self, f: &mut #p::fmt::Formatter<'_>) -> #p::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        #conversions

        #[automatically_derived]
        impl #p::serde::Serialize for #name {
            fn serialize<S: #p::serde::Serializer>(&self, serializer: S) -> #p::Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        #deserialize
    });
    name
}

/// `FromParam` and `IntoParam` of a fieldless enum whose variants stand for the string values
/// (`#[tool]`'s generated enums, and `#[derive(ToolParams)]` on an enum).
pub(crate) fn enum_conversions(
    p: &Ident,
    name: &Ident,
    variants: &[(&str, &Ident)],
) -> TokenStream {
    let parses = variants
        .iter()
        .map(|(value, variant)| quote!(#value => #p::Some(Self::#variant),));
    let strs = variants
        .iter()
        .map(|(value, variant)| quote!(Self::#variant => #value,));
    quote! {
        #[automatically_derived]
        impl #p::FromParam for #name {
            const PARAM_TYPE: #p::ParamType = #p::ParamType::String;

            fn from_value(value: #p::Option<&#p::Value>) -> #p::Option<Self> {
                match value?.as_str()? {
                    #(#parses)*
                    _ => #p::None,
                }
            }
        }

        #[automatically_derived]
        impl #p::IntoParam for #name {
            fn into_value(self) -> #p::Option<#p::Value> {
                let value: &'static #p::str = match self {
                    #(#strs)*
                };
                #p::Some(#p::Value::String(#p::From::from(value)))
            }
        }
    }
}

fn struct_def(g: &Gen<'_, '_>, name: &Ident, fields: &[Field<'_>], doc: &str) -> TokenStream {
    let vis = &g.tool.item.vis;
    let fields = fields.iter().map(|field| {
        let Field { ident, ty, doc, .. } = field;
        quote! {
            #[doc = #doc]
            #vis #ident: #ty,
        }
    });
    let derives = g.derives(&quote!());
    quote! {
        #[doc = #doc]
        // A parameter named in camelCase keeps its name as the field's.
        #[allow(non_snake_case)]
        #derives
        #vis struct #name {
            #(#fields)*
        }
    }
}

/// The statements that write each field into `output`, a `JsonObject`.
fn writes(p: &Ident, fields: &[Field<'_>]) -> TokenStream {
    let writes = fields.iter().map(|Field { ident, name, .. }| {
        // One call a field: less for the compiler than the `if let` and insert inline.
        quote!(#p::serde_glue::put(&mut output, #name, self.#ident);)
    });
    quote!(#(#writes)*)
}

fn input_struct(g: &mut Gen<'_, '_>, name: &Ident, params: &[Param]) -> TokenStream {
    let fields = fields(g, name, params, Side::Input);
    let doc = format!(
        "The validated inputs of the `{}` tool, generated by `#[tool]` on `{}`.",
        g.tool.tool_name(),
        g.tool.item.ident
    );
    let def = struct_def(g, name, &fields, &doc);
    let from_inputs = from_inputs(g, name, &fields, Side::Input);
    let serde = serialize(&g.p, name, &fields);
    let de = deserialize(&g.p, name, "object", false);
    quote!(#def #from_inputs #serde #de)
}

/// `impl FromInputs`: the struct read from an object of validated values (the input, to call
/// `run`; both, to deserialize).
fn from_inputs(g: &Gen<'_, '_>, name: &Ident, fields: &[Field<'_>], side: Side) -> TokenStream {
    let p = &g.p;
    // `inputs` is unused when there is no parameter.
    let inputs = if fields.is_empty() || g.fallback {
        quote!(_)
    } else {
        quote!(inputs)
    };
    let reads = fields.iter().map(
        |Field { ident, name, .. }| quote!(#ident: #p::FromParam::from_param(inputs, #name)?,),
    );
    let body = if g.fallback {
        quote!(#p::unreachable!("#[tool] reported errors for this tool"))
    } else {
        quote!(#p::Ok(Self { #(#reads)* }))
    };
    // The fast path's: the fields in parameter order, each taken from its slot.
    let slots = if fields.is_empty() || g.fallback {
        quote!(_)
    } else {
        quote!(slots)
    };
    let takes = fields.iter().enumerate().map(|(index, Field { ident, .. })| {
        quote!(#ident: #p::FromParam::from_owned(slots.get_mut(#index)?.take())?,)
    });
    let slots_body = if g.fallback {
        quote!(#p::None)
    } else {
        quote!(#p::Some(Self { #(#takes)* }))
    };
    // An output struct is read from an object only to deserialize it, never on the fast
    // path: the trait's default `from_slots` serves it, at no cost to compile.
    let from_slots = (side == Side::Input).then(|| {
        quote! {
            fn from_slots(#slots: &mut [#p::Option<#p::Value>]) -> #p::Option<Self> {
                #slots_body
            }
        }
    });
    quote! {
        #[automatically_derived]
        impl #p::FromInputs for #name {
            fn from_inputs(#inputs: &#p::JsonObject) -> #p::Result<Self, #p::ParamTypeError> {
                #body
            }

            #from_slots
        }
    }
}

fn output_struct(g: &mut Gen<'_, '_>, name: &Ident, params: &[Param]) -> TokenStream {
    let fields = fields(g, name, params, Side::Output);
    let p = &g.p;
    let doc = format!(
        "The outputs of the `{}` tool, generated by `#[tool]` on `{}`.",
        g.tool.tool_name(),
        g.tool.item.ident
    );
    let def = struct_def(g, name, &fields, &doc);
    let body = if g.fallback {
        quote!(#p::unreachable!("#[tool] reported errors for this tool"))
    } else if fields.is_empty() {
        quote!(#p::JsonObject::new())
    } else {
        let writes = writes(p, &fields);
        quote! {
            let mut output = #p::JsonObject::new();
            #writes
            output
        }
    };
    let from_inputs = from_inputs(g, name, &fields, Side::Output);
    let serde = serialize(p, name, &fields);
    let de = deserialize(p, name, "object", false);
    // Valid by construction: the executor keeps it typed, and makes it JSON when asked.
    let into_returned = (!g.fallback && fits_by_type(params)).then(|| {
        // Without a float, nothing in it can become `null`: no walk over it to check.
        let typed = if holds_float(params) {
            quote!(typed)
        } else {
            quote!(typed_without_floats)
        };
        quote! {
            fn into_returned(self) -> #p::Returned {
                #p::Returned::#typed(self)
            }
        }
    });
    quote! {
        #def

        #[automatically_derived]
        impl #p::IntoOutput for #name {
            fn into_output(self) -> #p::JsonObject {
                #body
            }

            #into_returned
        }

        #from_inputs
        #serde
        #de
    }
}

#[cfg(test)]
mod tests {
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
        let out =
            expand(quote!(name = "s", version "1.0.0", input = [{ name = "x", type = string }]));
        assert_eq!(out.matches("compile_error").count(), 1, "{out}");
        assert!(out.contains("SInput"), "{out}");
    }

    #[test]
    fn each_fields_list_gets_its_own_static() {
        let out = expand(quote!(
            name = "s",
            input = [
                { name = "a", type = string },
                { name = "b", type = dictionary, fields = [
                    { name = "c", type = string },
                    { name = "d", type = list, items = dictionary, fields = [{ name = "e", type = integer }] },
                ] },
            ],
            output = [{ name = "f", type = dictionary, fields = [{ name = "g", type = boolean }] }]
        ));
        assert!(!out.contains("compile_error"), "{out}");
        for array in [
            "static INPUT :",
            "static INPUT_1_FIELDS :",
            "static INPUT_1_FIELDS_1_FIELDS :",
            "static OUTPUT_0_FIELDS :",
        ] {
            assert!(out.contains(array), "{array} in {out}");
        }
        assert!(out.contains("& INPUT_1_FIELDS_1_FIELDS"), "{out}");
        assert_eq!(out.matches("from_static_with_fields").count(), 3, "{out}");
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
        assert!(out.contains("Literal :: Integer (2)"), "{out}");
        assert!(
            out.contains(
                "(__agentkit_S :: Cow :: Borrowed (\"e\") , __agentkit_S :: Literal :: Integer (1))"
            ),
            "{out}"
        );
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
    fn upper_camel_case() {
        let camel = |s: &str| super::upper_camel(s);
        assert_eq!(camel("metric").as_deref(), Some("Metric"));
        assert_eq!(camel("max-days").as_deref(), Some("MaxDays"));
        assert_eq!(camel("maxDays").as_deref(), Some("MaxDays"));
        assert_eq!(camel("METRIC").as_deref(), Some("Metric"));
        assert_eq!(camel("km/h").as_deref(), Some("KmH"));
        assert_eq!(camel("v2_beta").as_deref(), Some("V2Beta"));
        assert_eq!(camel("1st"), None);
        assert_eq!(camel("café"), None);
        assert_eq!(camel("self"), None);
        assert_eq!(camel(""), None);
    }

    #[test]
    fn fields_on_a_list_of_other_items_suggest_items_dictionary() {
        let out = expand(quote!(
            name = "s",
            input = [{ name = "c", type = list, fields = [{ name = "d", type = string }] }]
        ));
        assert_eq!(out.matches("compile_error").count(), 1, "{out}");
        assert!(
            out.contains(
                "but this parameter is a 'list'; declare its items with `items = dictionary`"
            ),
            "{out}"
        );
    }
}
