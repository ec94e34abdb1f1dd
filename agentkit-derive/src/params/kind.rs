//! What `#[derive(ToolParams)]` can tell from a field's Rust type: the parameter type it
//! stands for, or that it is a type of the user's own, whose kind (a struct or an enum)
//! the generated `const`s check when they are evaluated.

use syn::{GenericArgument, PathArguments, Type};

use crate::ctxt::Ctxt;
use crate::rules::ParamType;

/// What the macro can tell from a field's Rust type.
#[derive(Clone, Copy)]
pub(crate) enum Kind {
    /// A standard type: its parameter type, its items' for a `Vec`, and the bounds of an
    /// integer type narrower than `i64`.
    Known {
        ty: ParamType,
        items: Option<ParamType>,
        range: (Option<i64>, Option<i64>),
    },
    /// A type of the user's own: a struct (a dictionary) or a fieldless enum (a string with
    /// allowed values) deriving `ToolParams`.
    Own,
    /// A `Vec` of a type of the user's own.
    ListOfOwn,
    /// A standard type only JSON Schema can say: a map, any value, a box, a tuple, a list of
    /// nullable, bounded or typed-list items. `ty` is the JSON type it always has (a box's
    /// and any value's are not known: `Dictionary` stands for them).
    Json { ty: ParamType },
}

const fn known(ty: ParamType) -> Kind {
    Kind::Known {
        ty,
        items: None,
        range: (None, None),
    }
}

/// The single type argument of `segment`, if it has exactly one.
pub(crate) fn only_arg(segment: &syn::PathSegment) -> Option<&Type> {
    let PathArguments::AngleBracketed(args) = &segment.arguments else {
        return None;
    };
    match args.args.iter().collect::<Vec<_>>().as_slice() {
        [GenericArgument::Type(ty)] => Some(ty),
        _ => None,
    }
}

/// `(optional, kind)` of a field's type; `None` (reported) when it cannot be a parameter.
pub(crate) fn classify(cx: &Ctxt, ty: &Type) -> Option<(bool, Kind)> {
    let segment = match ty {
        Type::Path(path) if path.qself.is_none() => path.path.segments.last()?,
        Type::Tuple(tuple) if !tuple.elems.is_empty() => {
            return Some((
                false,
                Kind::Json {
                    ty: ParamType::List,
                },
            ));
        }
        Type::Paren(inner) => return classify(cx, &inner.elem),
        Type::Reference(_) => {
            cx.error_spanned_by(
                ty,
                "a parameter's field owns its value: use `String` rather than `&str`, `Vec<T>` \
                 rather than `&[T]`",
            );
            return None;
        }
        _ => {
            cx.error_spanned_by(ty, NOT_A_PARAM_TYPE);
            return None;
        }
    };
    if segment.ident == "Option" {
        if let Some(inner) = only_arg(segment) {
            if is_named(inner, "Option") {
                cx.error_spanned_by(
                    ty,
                    "`Option<Option<T>>` says nothing `Option<T>` does not: an absent argument \
                     and a `null` are both `None`",
                );
                return None;
            }
            return Some((true, classify(cx, inner)?.1));
        }
    }
    Some((false, plain(cx, ty, segment)?))
}

const NOT_A_PARAM_TYPE: &str = "this type cannot be the type of a parameter: use `String`, an \
                                integer type, `f64`, `bool`, `Vec<T>`, `Option<T>`, \
                                `HashMap<String, T>`, `BTreeMap<String, T>`, `Value`, `Box<T>`, \
                                a tuple `(A, B)`, or a struct or enum deriving `ToolParams`";

const fn json(ty: ParamType) -> Kind {
    Kind::Json { ty }
}

fn is_named(ty: &Type, name: &str) -> bool {
    matches!(ty, Type::Path(p) if p.qself.is_none()
        && p.path.segments.last().is_some_and(|s| s.ident == name))
}

/// The kind of a type that is not an `Option`.
fn plain(cx: &Ctxt, ty: &Type, segment: &syn::PathSegment) -> Option<Kind> {
    let integer = |min: Option<i64>, max: Option<i64>| Kind::Known {
        ty: ParamType::Integer,
        items: None,
        range: (min, max),
    };
    let kind = match segment.ident.to_string().as_str() {
        "String" => known(ParamType::String),
        "i64" => known(ParamType::Integer),
        "u64" | "usize" => integer(Some(0), None),
        "isize" => integer(Some(i64::MIN), Some(i64::MAX)),
        "i32" => integer(Some(i32::MIN.into()), Some(i32::MAX.into())),
        "u32" => integer(Some(0), Some(u32::MAX.into())),
        "i16" => integer(Some(i16::MIN.into()), Some(i16::MAX.into())),
        "u16" => integer(Some(0), Some(u16::MAX.into())),
        "i8" => integer(Some(i8::MIN.into()), Some(i8::MAX.into())),
        "u8" => integer(Some(0), Some(u8::MAX.into())),
        "f64" => known(ParamType::Float),
        "f32" => {
            cx.error_spanned_by(
                ty,
                "`f32` cannot be the type of a parameter: a JSON number the model sends may \
                 not fit one; use `f64`",
            );
            return None;
        }
        "bool" => known(ParamType::Boolean),
        "Map" | "JsonObject" => known(ParamType::Dictionary),
        "HashMap" | "BTreeMap" => {
            map_key(cx, segment)?;
            json(ParamType::Dictionary)
        }
        "Value" | "Box" => json(ParamType::Dictionary),
        "Vec" => {
            let item = only_arg(segment)?;
            if is_named(item, "Value") {
                return Some(known(ParamType::List));
            }
            // An item that may be `null`, or a tuple: JSON Schema says it.
            let (optional, item_kind) = classify(cx, item)?;
            if optional {
                return Some(json(ParamType::List));
            }
            return Some(match item_kind {
                Kind::Known {
                    range: (None, None),
                    items: None,
                    ty,
                } => Kind::Known {
                    ty: ParamType::List,
                    items: Some(ty),
                    range: (None, None),
                },
                // Typed lists, bounded integers: what six-type items cannot say.
                Kind::Known { .. } | Kind::Json { .. } => json(ParamType::List),
                Kind::Own | Kind::ListOfOwn => Kind::ListOfOwn,
            });
        }
        _ => Kind::Own,
    };
    Some(kind)
}

/// A map's key type is `String`: JSON object keys are strings. Reported on the key.
fn map_key(cx: &Ctxt, segment: &syn::PathSegment) -> Option<()> {
    let PathArguments::AngleBracketed(args) = &segment.arguments else {
        return Some(());
    };
    let Some(GenericArgument::Type(key)) = args.args.first() else {
        return Some(());
    };
    if is_named(key, "String") {
        return Some(());
    }
    cx.error_spanned_by(
        key,
        format_args!(
            "a map's keys are the keys of a JSON object, which are always strings: use \
             `{}<String, V>` (and parse the key in the tool if it stands for something else)",
            segment.ident
        ),
    );
    None
}

/// `T` in `Vec<T>` or `Option<Vec<T>>`.
pub(crate) fn item_type(ty: &Type) -> Option<&Type> {
    let Type::Path(path) = ty else { return None };
    let segment = path.path.segments.last()?;
    let inner = only_arg(segment)?;
    if segment.ident == "Option" {
        return item_type(inner);
    }
    Some(inner)
}
