//! Stage 4 of `#[derive(ToolParams)]`: the impls, in one anonymous `const` block, with the
//! parameters as `const` data that `Param::from_shape` builds from each field's Rust type.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::Ident;
use syn::spanned::Spanned;

use super::ast::{Container, DEFAULT_TAG, Data, FieldParam, TaggedVariant, VariantFields};
use super::kind::{Kind, item_type};
use crate::ast::Str;
use crate::check;
use crate::expand::{constraints_over, enum_conversions, literal};
use crate::rules;

/// The impls of a type without mistakes.
pub(crate) fn expand(container: &Container<'_>) -> TokenStream {
    let p = private();
    let impls = match &container.data {
        Data::Struct(fields) => expand_struct(&p, container.ident, fields),
        Data::Enum(variants) => expand_enum(&p, container.ident, variants),
        Data::Tagged(variants) => {
            let tag = container
                .tag
                .as_ref()
                .map_or(DEFAULT_TAG, |t| t.value.as_str());
            expand_tagged(&p, container.ident, tag, variants)
        }
        // Always reported, so never expanded here.
        Data::Unnamed | Data::Union => TokenStream::new(),
    };
    wrap(&container.krate, &impls)
}

/// The alias through which the impls reach `<crate>::__private`.
pub(crate) fn private() -> Ident {
    Ident::new("__agentkit", Span::call_site())
}

/// `impls` in one anonymous `const` block that imports `<crate>::__private` once, as serde's
/// derives do: one token per path rather than five, and the import seen nowhere else.
///
/// The impls' methods are `#[inline]`: each is then compiled where it is used (a struct that
/// is only an input never compiles its output conversions, one that is never nested nor
/// declared as JSON Schema never compiles its `FromParam` or schema writers), not all of them
/// in every crate that derives.
pub(crate) fn wrap(krate: &TokenStream, impls: &TokenStream) -> TokenStream {
    quote! {
        #[doc(hidden)]
        const _: () = {
            #[allow(unused_imports)]
            use #krate::__private as __agentkit;
            #impls
        };
    }
}

fn expand_struct(p: &Ident, ident: &Ident, fields: &[FieldParam<'_>]) -> TokenStream {
    let params = fields.iter().map(|f| param_value(p, f));
    let shapes = fields.iter().map(|f| shape_of(p, f));
    let field_schemas = field_schemas(p, fields, &quote!(<Self as #p::ToolParams>::PARAMS));
    let json_schema_fn = json_schema_fn(p, ident);
    let (object_schema, defs) = if fields.is_empty() {
        (quote!(_), quote!(_))
    } else {
        (quote!(object), quote!(defs))
    };
    let name = ident.to_string();
    let checks = fields
        .iter()
        .filter_map(|f| own_default_check(p, f))
        .chain(fields.iter().filter_map(|f| shape_check(p, f)));
    let field_of = |f: &FieldParam<'_>| {
        let ty = f.ty;
        quote_spanned!(ty.span()=> #p::field::<#ty>())
    };
    let reads = fields.iter().map(|f| {
        let (field, name, of) = (f.ident, name_of(f), field_of(f));
        quote!(#field: #of.read(inputs, #name)?,)
    });
    let value_reads = fields.iter().map(|f| {
        let (field, name, of) = (f.ident, name_of(f), field_of(f));
        quote!(#field: #of.read_value(object, #name)?,)
    });
    let value_takes = fields.iter().map(|f| {
        let (field, name, of) = (f.ident, name_of(f), field_of(f));
        quote!(#field: #of.take_value(&mut object, #name)?,)
    });
    let slot_takes = fields.iter().enumerate().map(|(index, f)| {
        let (field, of) = (f.ident, field_of(f));
        quote!(#field: #of.take_slot(slots, #index)?,)
    });
    let writes = fields.iter().map(|f| {
        let (field, name, of) = (f.ident, name_of(f), field_of(f));
        quote!(#of.write(&mut output, #name, self.#field);)
    });
    let (inputs, object, output, owned, slots) = if fields.is_empty() {
        (quote!(_), quote!(_), quote!(output), quote!(_), quote!(_))
    } else {
        (
            quote!(inputs),
            quote!(object),
            quote!(mut output),
            quote!(mut object),
            quote!(slots),
        )
    };
    quote! {
        #(#checks)*
        #json_schema_fn

        #[automatically_derived]
        impl #p::ToolParams for #ident {
            const PARAMS: &'static [#p::Param] = &[#(#params),*];

        }

        #[automatically_derived]
        impl #p::ParamSchema for #ident {
            // JSON Schema if any field needs it; else the six-type data of today.
            const SHAPE: #p::Shape = #p::Shape::dictionary(<Self as #p::ToolParams>::PARAMS)
                .with_json(false #(|| #shapes.json)*);

            #[inline]
            fn write_json_schema(defs: &mut #p::SchemaDefs) -> #p::Value {
                defs.named::<Self>(#name, |defs| {
                    let mut object = #p::ObjectSchema::new();
                    <Self as #p::ParamSchema>::write_fields(&mut object, defs);
                    object.finish()
                })
            }

            #[inline]
            fn write_fields(#object_schema: &mut #p::ObjectSchema, #defs: &mut #p::SchemaDefs) {
                #(#field_schemas)*
            }
        }

        #[automatically_derived]
        impl #p::FromParam for #ident {
            const PARAM_TYPE: #p::ParamType = #p::ParamType::Dictionary;

            #[inline]
            fn from_value(value: #p::Option<&#p::Value>) -> #p::Option<Self> {
                let #object = value?.as_object()?;
                #p::Some(Self { #(#value_reads)* })
            }

            #[inline]
            fn from_owned(value: #p::Option<#p::Value>) -> #p::Option<Self> {
                let #p::Value::Object(#owned) = value? else {
                    return #p::None;
                };
                #p::Some(Self { #(#value_takes)* })
            }
        }

        #[automatically_derived]
        impl #p::IntoParam for #ident {
            #[inline]
            fn into_value(self) -> #p::Option<#p::Value> {
                #p::Some(#p::Value::Object(#p::IntoOutput::into_output(self)))
            }
        }

        #[automatically_derived]
        impl #p::FromInputs for #ident {
            const PARAM_LIST: #p::Option<&'static [#p::Param]> =
                if <Self as #p::ParamSchema>::SHAPE.json {
                    #p::None
                } else {
                    #p::Some(<Self as #p::ToolParams>::PARAMS)
                };
            const JSON_SCHEMA: #p::Option<#p::StaticJsonSchema> =
                if <Self as #p::ParamSchema>::SHAPE.json {
                    #p::Some(__agentkit_json_schema)
                } else {
                    #p::None
                };

            #[inline]
            fn from_inputs(#inputs: &#p::JsonObject) -> #p::Result<Self, #p::ParamTypeError> {
                #p::Ok(Self { #(#reads)* })
            }

            #[inline]
            fn from_slots(#slots: &mut [#p::Option<#p::Value>]) -> #p::Option<Self> {
                #p::Some(Self { #(#slot_takes)* })
            }
        }

        #[automatically_derived]
        impl #p::IntoOutput for #ident {
            const PARAM_LIST: #p::Option<&'static [#p::Param]> =
                <Self as #p::FromInputs>::PARAM_LIST;
            const JSON_SCHEMA: #p::Option<#p::StaticJsonSchema> =
                if <Self as #p::ParamSchema>::SHAPE.json {
                    #p::Some(__agentkit_output_json_schema)
                } else {
                    #p::None
                };

            #[inline]
            fn into_output(self) -> #p::JsonObject {
                let #output = #p::JsonObject::new();
                #(#writes)*
                output
            }
        }
    }
}

fn name_of(f: &FieldParam<'_>) -> String {
    f.param
        .name
        .as_ref()
        .map_or_else(String::new, |n| n.value.clone())
}

/// The `const` `Shape` of a field: its type's, or for a field naming the type being derived
/// (whose `SHAPE` is being evaluated), a JSON shape of what the macro sees.
fn shape_of(p: &Ident, f: &FieldParam<'_>) -> TokenStream {
    let ty = f.ty;
    if f.recursive {
        let json_ty = match f.kind {
            Kind::ListOfOwn => quote!(List),
            Kind::Json { ty } | Kind::Known { ty, .. } => {
                let ty = Ident::new(&format!("{ty:?}"), Span::call_site());
                quote!(#ty)
            }
            Kind::Own => quote!(Dictionary),
        };
        let optional = f.optional;
        return quote!(#p::Shape::recursive(#p::ParamType::#json_ty, #optional));
    }
    quote_spanned!(ty.span()=> #p::field::<#ty>().shape)
}

/// The calls that write each field's schema into `object`, with `params` its `Param`s.
fn field_schemas(p: &Ident, fields: &[FieldParam<'_>], params: &TokenStream) -> Vec<TokenStream> {
    fields
        .iter()
        .enumerate()
        .map(|(index, f)| {
            let ty = f.ty;
            // Through `field::<T>()`, the one bound every use of the field's type shares: a
            // type that is no parameter type is one error.
            let of = quote_spanned!(ty.span()=> #p::field::<#ty>());
            quote!(#of.write_schema(object, defs, &#params[#index]);)
        })
        .collect()
}

/// The functions that write and compile the type's JSON Schema, once each: for its
/// `FromInputs::JSON_SCHEMA` with the options for models, and for its
/// `IntoOutput::JSON_SCHEMA` with the standard ones, as outputs are compiled.
fn json_schema_fn(p: &Ident, ident: &Ident) -> TokenStream {
    // Inline, like the impls' methods: compiled only where a `JSON_SCHEMA` that is `Some`
    // is used, not for every type that derives (a six-type one never uses them).
    quote! {
        #[inline]
        fn __agentkit_json_schema()
            -> #p::Result<&'static #p::JsonSchema, &'static #p::SchemaError>
        {
            static CELL: #p::OnceLock<#p::Result<#p::JsonSchema, #p::SchemaError>> =
                #p::OnceLock::new();
            #p::static_schema(&CELL, #p::root_json_schema::<#ident>)
        }

        #[inline]
        fn __agentkit_output_json_schema()
            -> #p::Result<&'static #p::JsonSchema, &'static #p::SchemaError>
        {
            static CELL: #p::OnceLock<#p::Result<#p::JsonSchema, #p::SchemaError>> =
                #p::OnceLock::new();
            #p::static_schema_with(
                &CELL,
                #p::JsonSchemaOptions::standard,
                #p::root_json_schema::<#ident>,
            )
        }
    }
}

/// The `const` `Param` of a field.
fn param_value(p: &Ident, f: &FieldParam<'_>) -> TokenStream {
    let shape = shape_of(p, f);
    let name = name_of(f);
    let description = f.param.description.as_deref().unwrap_or("");
    // The default as validation leaves it (`2.0` for an integer as `2`).
    let normalised = match f.kind {
        Kind::Known { .. } => {
            check::decl(&f.param).and_then(|decl| rules::check_default(&decl).value)
        }
        _ => None,
    };
    let default = match normalised.as_ref().or(f.param.default_literal.as_ref()) {
        Some(default) => {
            let default = literal(p, default);
            quote!(#p::Some(#default))
        }
        None => quote!(#p::None),
    };
    // Bounds the field leaves out are those of its type (`u8`: 0 to 255).
    let constraints = constraints_over(p, &f.param.constraints, Some(&shape));
    quote!(#p::Param::from_shape(#name, #shape, #default, #description) #constraints)
}

/// For a default of a type of the user's own: a `const` that fails to evaluate unless the
/// type is a fieldless enum allowing that value, on the default.
fn own_default_check(p: &Ident, f: &FieldParam<'_>) -> Option<TokenStream> {
    let (value, span) = f.own_default.as_ref()?;
    let ty = f.ty;
    let message = format!(
        "parameter '{}': default must be one of the values of `{}`, got '{}'",
        name_of(f),
        quote!(#ty).to_string().replace(' ', ""),
        value
    );
    let mut p = p.clone();
    p.set_span(*span);
    Some(quote_spanned! {*span=>
        const _: () = #p::assert!(#p::has_enum_value::<#ty>(#value), #message);
    })
}

/// For a type of the user's own, or a list of one: a `const` that fails to evaluate, on the
/// field's type, if the type cannot be a parameter (a `Vec` of an enum).
fn shape_check(p: &Ident, f: &FieldParam<'_>) -> Option<TokenStream> {
    if matches!(f.kind, Kind::Known { .. }) || f.recursive {
        return None;
    }
    let ty = f.ty;
    // On the item type of a list: `Units` in `Vec<Units>`.
    let span = match f.kind {
        Kind::ListOfOwn => item_type(ty).map_or_else(|| ty.span(), Spanned::span),
        _ => ty.span(),
    };
    let mut p = p.clone();
    p.set_span(span);
    Some(quote_spanned! {span=>
        const _: () = if let #p::Some(problem) = #p::field::<#ty>().shape.problem {
            #p::panic!("{}", problem)
        };
    })
}

fn expand_enum(p: &Ident, ident: &Ident, variants: &[(Str, &Ident)]) -> TokenStream {
    let values = variants.iter().map(|(value, _)| {
        let value = &value.value;
        quote!(#p::Literal::String(#p::Cow::Borrowed(#value)))
    });
    let pairs: Vec<(&str, &Ident)> = variants
        .iter()
        .map(|(value, variant)| (value.value.as_str(), *variant))
        .collect();
    let conversions = enum_conversions(p, ident, &pairs);
    quote! {
        #[automatically_derived]
        impl #p::ParamSchema for #ident {
            const SHAPE: #p::Shape = {
                const VALUES: &[#p::Literal] = &[#(#values),*];
                #p::Shape::string_enum(VALUES)
            };
        }

        #conversions
    }
}

/// The impls of a tagged enum: a JSON Schema `oneOf` of one closed object per variant, each
/// with its tag, and the conversions that read the tag first.
fn expand_tagged(
    p: &Ident,
    ident: &Ident,
    tag: &str,
    variants: &[TaggedVariant<'_>],
) -> TokenStream {
    let name = ident.to_string();
    let mut consts = Vec::new();
    let mut schemas = Vec::new();
    let mut reads = Vec::new();
    let mut writes = Vec::new();
    for (index, variant) in variants.iter().enumerate() {
        let (v, value) = (variant.ident, variant.value.value.as_str());
        let description = variant.description.as_deref().unwrap_or("");
        let tagged = quote!(#p::ObjectSchema::tagged(#tag, #value, #description));
        match &variant.fields {
            VariantFields::Unit => {
                schemas.push(quote!(#tagged.finish()));
                reads.push(quote!(#value => #p::Some(Self::#v),));
                writes.push(quote!(Self::#v => #p::tagged_value(#tag, #value, #p::None),));
            }
            VariantFields::Named(fields) => {
                let array = Ident::new(&format!("__AGENTKIT_VARIANT_{index}"), Span::call_site());
                let params = fields.iter().map(|f| param_value(p, f));
                consts.push(quote!(const #array: &[#p::Param] = &[#(#params),*];));
                consts.extend(fields.iter().filter_map(|f| own_default_check(p, f)));
                consts.extend(fields.iter().filter_map(|f| shape_check(p, f)));
                let field_schemas = field_schemas(p, fields, &quote!(#array));
                schemas.push(if fields.is_empty() {
                    quote!(#tagged.finish())
                } else {
                    quote!({
                        let mut variant = #tagged;
                        let object = &mut variant;
                        #(#field_schemas)*
                        variant.finish()
                    })
                });
                let field_of = |f: &FieldParam<'_>| {
                    let ty = f.ty;
                    quote_spanned!(ty.span()=> #p::field::<#ty>())
                };
                let idents: Vec<&Ident> = fields.iter().map(|f| f.ident).collect();
                // Bound to names of the macro's own: a field called `output` must not be
                // shadowed by the object the fields are written into.
                let bindings: Vec<Ident> = (0..fields.len())
                    .map(|i| Ident::new(&format!("__agentkit_field_{i}"), Span::call_site()))
                    .collect();
                let field_reads = fields.iter().map(|f| {
                    let (field, name, of) = (f.ident, name_of(f), field_of(f));
                    quote!(#field: #of.read_value(object, #name)?,)
                });
                reads.push(quote!(#value => #p::Some(Self::#v { #(#field_reads)* }),));
                let field_writes = fields.iter().zip(&bindings).map(|(f, binding)| {
                    let (name, of) = (name_of(f), field_of(f));
                    quote!(#of.write(&mut output, #name, #binding);)
                });
                let output = if fields.is_empty() {
                    quote!(output)
                } else {
                    quote!(mut output)
                };
                writes.push(quote!(Self::#v { #(#idents: #bindings),* } => {
                    let #output = #p::Map::new();
                    #(#field_writes)*
                    #p::tagged_value(#tag, #value, #p::Some(#p::Value::Object(output)))
                }));
            }
            VariantFields::Newtype(ty) => {
                let span = ty.span();
                let mut ps = p.clone();
                ps.set_span(span);
                let not_struct = format!(
                    "`{}` holds `{}`, which must be a struct deriving `ToolParams`: its fields \
                     sit beside the tag '{tag}' in one object",
                    v,
                    quote!(#ty).to_string().replace(' ', "")
                );
                let clash = format!(
                    "`{}` has a field named '{tag}', the enum's tag, the key that says which \
                     variant an object is; rename that field (#[param(rename = \"...\")]) or \
                     choose another tag (#[param(tag = \"...\")] on the enum)",
                    quote!(#ty).to_string().replace(' ', "")
                );
                consts.push(quote_spanned! {span=>
                    const _: () = #ps::assert!(
                        #ps::field::<#ty>().shape.fields.is_some(),
                        #not_struct
                    );
                    const _: () = #ps::assert!(!#ps::has_param::<#ty>(#tag), #clash);
                });
                schemas.push(quote!({
                    let mut object = #tagged;
                    #p::write_fields::<#ty>(&mut object, defs);
                    object.finish()
                }));
                reads.push(quote!(
                    #value => #p::Some(Self::#v(<#ty as #p::FromParam>::from_value(value)?)),
                ));
                writes.push(quote!(Self::#v(inner) => {
                    #p::tagged_value(#tag, #value, #p::IntoParam::into_value(inner))
                }));
            }
        }
    }
    let json_schema_fn = json_schema_fn(p, ident);
    quote! {
        #(#consts)*
        #json_schema_fn

        #[automatically_derived]
        impl #p::ParamSchema for #ident {
            // Always JSON Schema, and read from none of the variants: a variant may hold the
            // enum itself (`And { items: Vec<Expr> }`).
            const SHAPE: #p::Shape = #p::Shape::json(#p::ParamType::Dictionary);

            #[inline]
            fn write_json_schema(defs: &mut #p::SchemaDefs) -> #p::Value {
                defs.named::<Self>(#name, |defs| {
                    #p::one_of(#p::Vec::from([#(#schemas),*]))
                })
            }
        }

        #[automatically_derived]
        impl #p::FromParam for #ident {
            const PARAM_TYPE: #p::ParamType = #p::ParamType::Dictionary;

            #[inline]
            fn from_value(value: #p::Option<&#p::Value>) -> #p::Option<Self> {
                let object = value?.as_object()?;
                match object.get(#tag)?.as_str()? {
                    #(#reads)*
                    _ => #p::None,
                }
            }
        }

        #[automatically_derived]
        impl #p::IntoParam for #ident {
            #[inline]
            fn into_value(self) -> #p::Option<#p::Value> {
                match self {
                    #(#writes)*
                }
            }
        }

        #[automatically_derived]
        impl #p::ToolParams for #ident {
            const PARAMS: &'static [#p::Param] = &[];
        }

        #[automatically_derived]
        impl #p::FromInputs for #ident {
            const JSON_SCHEMA: #p::Option<#p::StaticJsonSchema> =
                #p::Some(__agentkit_json_schema);

            #[inline]
            fn from_inputs(inputs: &#p::JsonObject) -> #p::Result<Self, #p::ParamTypeError> {
                #p::from_object(inputs, #tag)
            }
        }

        #[automatically_derived]
        impl #p::IntoOutput for #ident {
            const JSON_SCHEMA: #p::Option<#p::StaticJsonSchema> =
                #p::Some(__agentkit_output_json_schema);

            #[inline]
            fn into_output(self) -> #p::JsonObject {
                match #p::IntoParam::into_value(self) {
                    #p::Some(#p::Value::Object(object)) => object,
                    _ => #p::JsonObject::new(),
                }
            }
        }
    }
}
