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
                                `Map<String, Value>`, or a struct or fieldless enum deriving \
                                `ToolParams`";

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
        "Vec" => {
            let item = only_arg(segment)?;
            if is_named(item, "Value") {
                return Some(known(ParamType::List));
            }
            if is_named(item, "Option") {
                cx.error_spanned_by(
                    item,
                    "a list's items cannot be optional: use `Vec<T>`, or `Vec<Value>` for items \
                     that may be null",
                );
                return None;
            }
            let Type::Path(path) = item else {
                cx.error_spanned_by(item, NOT_A_PARAM_TYPE);
                return None;
            };
            let item_segment = path.path.segments.last()?;
            return match plain(cx, item, item_segment)? {
                Kind::Known {
                    ty: ParamType::List,
                    items: Some(_),
                    ..
                } => {
                    cx.error_spanned_by(
                        item,
                        "a list's items cannot be typed lists: use `Vec<Vec<Value>>`",
                    );
                    None
                }
                Kind::Known {
                    range: (None, None),
                    ty,
                    ..
                } => Some(Kind::Known {
                    ty: ParamType::List,
                    items: Some(ty),
                    range: (None, None),
                }),
                Kind::Known { .. } => {
                    cx.error_spanned_by(
                        item,
                        "a list's items cannot be bounded, as a narrow integer type would bound \
                         them: use `Vec<i64>`, and bound the list with `min_items`/`max_items`",
                    );
                    None
                }
                Kind::Own | Kind::ListOfOwn => Some(Kind::ListOfOwn),
            };
        }
        _ => Kind::Own,
    };
    Some(kind)
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
