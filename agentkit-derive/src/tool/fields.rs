//! Stage 4: the fields of the structs `#[tool]` generates, and the types their parameters get:
//! a dictionary with declared `fields` becomes a struct, a string `enum` an enum, each named
//! after the struct that holds it and the parameter, with its conversions and serde glue.
//!
//! Also used by the fallback, with whatever parameters could be read, so that the user's
//! `impl ToolHandler` still finds its types, fields and field types; the conversions are then
//! never called.

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

use super::ast::Tool;
use crate::ast::{Param, Str, Ty};
use crate::expand::{enum_conversions, literal};
use crate::forms;
use crate::rules::{self, ParamType};

/// A field of a generated struct.
pub(crate) struct Field<'a> {
    pub(crate) ident: Ident,
    /// The parameter's name, the field's key in the JSON object.
    pub(crate) name: &'a str,
    pub(crate) ty: TokenStream,
    /// Whether the field is an `Option`: left out of the serialized form when `None`.
    pub(crate) optional: bool,
    /// The scalar a six-type field holds, if it holds one (a string enum is its value's
    /// text): what its typed output lists it as.
    pub(crate) scalar: Option<Scalar>,
    /// Whether the field holds a float anywhere (itself, a list's items, a dictionary's
    /// fields, at any depth): only a float can be non-finite, which JSON has no number for.
    pub(crate) holds_float: bool,
    /// Whether the field is a generated struct (a dictionary with `fields`), which has no
    /// `Default` to take it with.
    pub(crate) nested: bool,
    /// Whether `null` is the field's value (`nullable = true`): `None` is written as `null`,
    /// never left out, so a required nullable field is always there.
    nullable: bool,
    /// For an output with a default in an output declared as JSON Schema (it uses a form),
    /// the default as a `Literal` expression: written for `None`, since that validation fills
    /// no default in.
    default: Option<TokenStream>,
    pub(crate) doc: String,
}

/// The scalar a field holds: the methods of `OutputFields` a typed output lists it with.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scalar {
    Str,
    /// A string enum, listed as its value's text (`as_str`).
    Enum,
    Int,
    Float,
    Bool,
}

/// Which struct a field is for: an absent input gets its default before `run` sees it, so
/// an input with a default is a plain value; an output with a default may be left out by
/// `run` (`None`), and output validation fills the default in.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    Input,
    Output,
}

/// What the typed structs of one tool are generated with: the types generated besides the
/// input and output structs (for dictionaries with `fields`, and string `enum`s) are
/// collected in `items`, each named after the struct that holds it and the parameter.
pub(crate) struct Gen<'t, 'a> {
    pub(crate) tool: &'t Tool<'a>,
    pub(crate) p: Ident,
    /// Whether the types are the fallback's, whose conversions are never called.
    pub(crate) fallback: bool,
    pub(crate) items: Vec<TokenStream>,
    /// The names of the types generated so far, so that two parameters whose names differ only
    /// in case or punctuation (`stops`, `Stops`) still get distinct types.
    names: Vec<String>,
    /// Whether the types generated now are inside a definition of `defs`: one that holds a
    /// definition directly boxes it.
    pub(crate) in_def: bool,
    /// The errors written into undecided types so far (see `Gen::undecided_type`), each
    /// with the alias that holds it and the alias's definition.
    pub(super) undecided: Vec<(usize, Ident, TokenStream)>,
}

impl<'t, 'a> Gen<'t, 'a> {
    pub(crate) fn new(tool: &'t Tool<'a>, fallback: bool) -> Self {
        Gen {
            tool,
            p: tool.private(),
            fallback,
            items: Vec::new(),
            names: Vec::new(),
            in_def: false,
            undecided: Vec::new(),
        }
    }

    /// Reserves `name` for a type named otherwise than by [`type_name`](Self::type_name).
    pub(crate) fn reserve(&mut self, name: &str) {
        self.names.push(name.to_owned());
    }

    /// A fresh type name: `parent` and the parameter's name in UpperCamelCase.
    pub(crate) fn type_name(&mut self, parent: &Ident, param: &str) -> Ident {
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
    pub(crate) fn derives(&self, extra: &TokenStream) -> TokenStream {
        let p = &self.p;
        quote! {
            #[derive(#p::Debug, #p::Clone, #p::PartialEq, #extra)]
        }
    }
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
pub(crate) fn fields<'a>(
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
        let undecided = param.undecided.borrow().clone().filter(|_| g.fallback);
        let rust = match &undecided {
            // Undecided: so is the type it may have generated (`{Struct}{Param}`, an enum or
            // a struct), which the handler may name, and whose variants or fields the two
            // fixes may not agree on; none is generated, and the name is the undecided type.
            Some(reported) => Some(g.undecided_field(parent, &name.value, reported)),
            None if forms::rust::applies(param) => {
                forms::rust::rust_type(g, parent, &name.value, param, side)
            }
            None => six_rust(g, parent, &name.value, param, side),
        };
        let rust = match rust {
            Some(rust) => rust,
            None if g.fallback => quote!(#p::Value),
            None => continue,
        };
        let scalar = match &undecided {
            None if !forms::rust::applies(param) => scalar(param),
            _ => None,
        };
        let holds_float = holds_float(param);
        let nested = undecided.is_none()
            && !forms::rust::applies(param)
            && param.ty.is_some_and(|ty| ty.ty == ParamType::Dictionary)
            && param.fields.is_some();
        let has_default = param.default.is_some() || param.default_guessed;
        let optional = undecided.is_none()
            && ((!param.is_required() && (side == Side::Output || !has_default))
                || param.forms.is_nullable());
        let ty = if optional {
            quote!(#p::Option<#rust>)
        } else {
            rust
        };
        let doc = match param.description.as_deref() {
            Some(description) if !description.is_empty() => description.to_owned(),
            _ => format!("The `{}` {what}.", name.value),
        };
        let nullable = param.forms.is_nullable();
        let json_output = side == Side::Output && g.tool.output_uses_forms();
        let default = param
            .default_literal
            .as_ref()
            .filter(|_| json_output && optional && !nullable)
            .map(|default| literal(&p, default));
        // The field of a second `name` (an error), of the same type.
        let also = param
            .also_named
            .as_ref()
            .filter(|_| g.fallback)
            .and_then(|also| {
                let field = Param {
                    name: Some(Str {
                        value: also.value.clone(),
                        span: also.span,
                    }),
                    ..Param::empty()
                };
                let ident = field.field().or_else(|| field.fallback_field())?;
                Some((ident, &also.value))
            });
        if let Some((also, also_name)) = also {
            if also != ident && !fields.iter().any(|f| f.ident == also) {
                fields.push(Field {
                    ident: also,
                    name: also_name,
                    ty: ty.clone(),
                    optional,
                    scalar,
                    holds_float,
                    nested,
                    nullable,
                    default: default.clone(),
                    doc: doc.clone(),
                });
            }
        }
        fields.push(Field {
            ident,
            name: &name.value,
            ty,
            optional,
            scalar,
            holds_float,
            nested,
            nullable,
            default,
            doc,
        });
    }
    fields
}

/// The scalar a parameter of the six types holds, as [`six_rust`] types it; `None` for a list
/// or a dictionary.
fn scalar(param: &Param) -> Option<Scalar> {
    Some(match param.ty?.ty {
        ParamType::String if enum_variants(&param.constraints).is_some() => Scalar::Enum,
        ParamType::String => Scalar::Str,
        ParamType::Integer => Scalar::Int,
        ParamType::Float => Scalar::Float,
        ParamType::Boolean => Scalar::Bool,
        ParamType::List | ParamType::Dictionary => return None,
    })
}

/// Whether the Rust type of `param` holds a float anywhere: itself, a list's items, a
/// dictionary's fields, at any depth.
fn holds_float(param: &Param) -> bool {
    let float = |ty: Option<Ty>| ty.is_some_and(|ty| ty.ty == ParamType::Float);
    float(param.ty)
        || float(param.items.map(|(items, _)| items))
        || param
            .fields
            .as_ref()
            .is_some_and(|(fields, _)| fields.iter().any(holds_float))
}

/// The Rust type of a parameter of the six types (a dictionary with `fields` a struct, a
/// string `enum` an enum); `None` when its type could not be read.
pub(crate) fn six_rust(
    g: &mut Gen<'_, '_>,
    parent: &Ident,
    name: &str,
    param: &Param,
    side: Side,
) -> Option<TokenStream> {
    let p = g.p.clone();
    Some(
        match (param.ty.map(|ty| ty.ty), param.items, &param.fields) {
            (Some(ParamType::List), Some((items, _)), Some((declared, _)))
                if items.ty == ParamType::Dictionary =>
            {
                let nested = nested_struct(g, parent, None, name, declared, side);
                quote!(#p::Vec<#nested>)
            }
            (Some(ParamType::Dictionary), _, Some((declared, _))) => {
                let nested = nested_struct(g, parent, None, name, declared, side);
                quote!(#nested)
            }
            (Some(ParamType::String), _, _) => match enum_variants(&param.constraints) {
                Some(variants) => {
                    let name = string_enum(g, parent, name, &variants);
                    quote!(#name)
                }
                None => rust_type(&p, ParamType::String),
            },
            (Some(ParamType::List), Some((items, _)), _) => {
                let item = rust_type(&p, items.ty);
                quote!(#p::Vec<#item>)
            }
            (Some(ty), _, _) => rust_type(&p, ty),
            (None, _, _) => return None,
        },
    )
}

/// The struct of a dictionary with declared `fields`, with its conversions; returns its name:
/// `fixed`, or one made of `parent` and `param`.
pub(crate) fn nested_struct(
    g: &mut Gen<'_, '_>,
    parent: &Ident,
    fixed: Option<Ident>,
    param: &str,
    declared: &[Param],
    side: Side,
) -> Ident {
    let name = fixed.unwrap_or_else(|| g.type_name(parent, param));
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

                #[inline]
                fn from_value(value: #p::Option<&#p::Value>) -> #p::Option<Self> {
                    let #value = value?.as_object()?;
                    #p::Some(Self { #(#reads)* })
                }

                #[inline]
                fn from_owned(value: #p::Option<#p::Value>) -> #p::Option<Self> {
                    let #p::Value::Object(#owned) = value? else {
                        return #p::None;
                    };
                    #p::Some(Self { #(#takes)* })
                }
            }

            #[automatically_derived]
            impl #p::IntoParam for #name {
                #[inline]
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
    // `Eq` by hand: the derive writes a method, which a crate compiles whether it is used or not.
    let derives = g.derives(&quote!(#p::Copy, #p::Hash,));
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
            #[inline]
            #vis const fn as_str(self) -> &'static #p::str {
                match self {
                    #(#strs)*
                }
            }
        }

        #[automatically_derived]
        impl #p::Eq for #name {}

        #[automatically_derived]
        impl #p::Display for #name {
            #[inline]
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

/// The definition of a generated struct, with the tool struct's visibility and the derives
/// every generated type has.
pub(crate) fn struct_def(
    g: &Gen<'_, '_>,
    name: &Ident,
    fields: &[Field<'_>],
    doc: &str,
) -> TokenStream {
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
pub(crate) fn writes(p: &Ident, fields: &[Field<'_>]) -> TokenStream {
    let writes = fields.iter().map(|field| {
        let ident = &field.ident;
        put(p, field, &quote!(self.#ident))
    });
    quote!(#(#writes)*)
}

/// The statement that writes `value`, the value of `field`, into `output`: one call a field,
/// less for the compiler than the `if let` and insert inline. A nullable field's `None` is
/// written as `null`, that of an output with a default (declared as JSON Schema) as the
/// default; another `None` is left out.
pub(crate) fn put(p: &Ident, field: &Field<'_>, value: &TokenStream) -> TokenStream {
    let name = field.name;
    if let Some(default) = &field.default {
        quote!(#p::serde_glue::put_or_default(&mut output, #name, #value, &#default);)
    } else if field.nullable {
        quote!(#p::serde_glue::put_or_null(&mut output, #name, #value);)
    } else {
        quote!(#p::serde_glue::put(&mut output, #name, #value);)
    }
}

/// `impl Serialize` for a generated struct: an object of its parameters, an optional one left
/// out when `None` (a nullable one is `null`).
pub(crate) fn serialize(p: &Ident, name: &Ident, fields: &[Field<'_>]) -> TokenStream {
    // In key order, as the JSON object the executor validates keeps them: so the text written
    // straight from an output struct is the text of its object.
    let mut sorted: Vec<&Field<'_>> = fields.iter().collect();
    sorted.sort_by_key(|f| f.name);
    let writes = sorted.into_iter().map(|f| {
        let (ident, key) = (&f.ident, f.name);
        if f.optional && !f.nullable {
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
pub(crate) fn deserialize(p: &Ident, name: &Ident, glue: &str, fallback: bool) -> TokenStream {
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
pub(crate) fn upper_camel(name: &str) -> Option<String> {
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
/// distinct one. A value listed again is left out: that is an error of its own, and the
/// fallback's enum is the one the list will give once the repeat is gone.
pub(crate) fn enum_variants(c: &rules::Constraints) -> Option<Vec<(&str, Ident)>> {
    let values = c.enum_values.as_ref()?;
    let mut variants: Vec<(&str, Ident)> = Vec::new();
    for value in values.iter() {
        let rules::Literal::String(value) = value else {
            return None;
        };
        if variants.iter().any(|(seen, _)| seen == value) {
            continue;
        }
        let variant = upper_camel(value)?;
        if variants.iter().any(|(_, v)| *v == variant) {
            return None;
        }
        variants.push((value.as_ref(), Ident::new(&variant, Span::call_site())));
    }
    (!variants.is_empty()).then_some(variants)
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

#[cfg(test)]
mod tests {
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
}
