//! A parameter's constraints (`enum`, `minimum`, `maximum`, `min_length`, ...) read from
//! their written values into [`rules::Constraints`]; the rules across them are
//! [`crate::check`]'s.

use std::borrow::Cow;

use proc_macro2::{Punct, Spacing};
use quote::quote;
use syn::Lit;

use crate::ast::{DefaultValue, Param};
use crate::attr::Value;
use crate::ctxt::Ctxt;
use crate::rules::{self, Problem};
use crate::symbol::{ENUM, MAX_ITEMS, MAX_LENGTH, MAXIMUM, MIN_ITEMS, MIN_LENGTH, MINIMUM, Symbol};
use crate::value::{default_in, float_in, integer_in, refused};

/// Reads the constraint `key` into `param`; `false` (reported) when its value cannot be read.
pub(super) fn constraint(cx: &Ctxt, key: Symbol, value: Value, param: &mut Param) -> bool {
    const NUMBER: &str = "a number, such as `minimum = 1` or `maximum = 0.5`";
    const ENUM_VALUES: &str =
        "a list of the allowed values, such as `enum = [\"metric\", \"imperial\"]`";
    let c = &mut param.constraints;
    match key {
        ENUM => {
            let Value::List(_, items) = value else {
                refused(cx, &value, ENUM, ENUM_VALUES);
                return false;
            };
            let mut values = Vec::with_capacity(items.len());
            let mut ok = true;
            for item in items {
                let span = item.span();
                match default_in(cx, ENUM, item) {
                    // A list or a dictionary is no enum value; the shared rules say so in
                    // the words of a type mismatch.
                    Some(lit) => {
                        values.push(lit.to_literal());
                        param.enum_spans.push(span);
                    }
                    None => ok = false,
                }
            }
            // An `enum` with a value that could not be read is not checked on a guess.
            if ok {
                c.enum_values = Some(Cow::Owned(values));
            } else {
                param.enum_spans.clear();
            }
            ok
        }
        MINIMUM | MAXIMUM => {
            let number = match value {
                Value::Lit(Lit::Int(i)) => integer_in(cx, key, &i, false),
                Value::Neg(_, Lit::Int(i)) => integer_in(cx, key, &i, true),
                Value::Lit(Lit::Float(f)) => float_in(cx, key, &f, false).map(DefaultValue::Float),
                Value::Neg(_, Lit::Float(f)) => {
                    float_in(cx, key, &f, true).map(DefaultValue::Float)
                }
                other => {
                    refused(cx, &other, key, NUMBER);
                    return false;
                }
            };
            let number = match number {
                Some(DefaultValue::Integer(i)) => rules::Number::Integer(i),
                #[allow(clippy::cast_precision_loss)]
                Some(DefaultValue::OutOfRange(i)) => rules::Number::Float(i as f64),
                Some(DefaultValue::Float(f)) => rules::Number::Float(f),
                _ => return false,
            };
            if key == MINIMUM {
                c.minimum = Some(number);
            } else {
                c.maximum = Some(number);
            }
            true
        }
        _ => {
            let count = match &value {
                Value::Lit(Lit::Int(n)) if n.suffix().is_empty() => n.base10_parse::<usize>().ok(),
                _ => None,
            };
            let expected = match key {
                MIN_LENGTH => "a whole number, 0 or more, such as `min_length = 1`",
                MAX_LENGTH => "a whole number, 0 or more, such as `max_length = 100`",
                MIN_ITEMS => "a whole number, 0 or more, such as `min_items = 1`",
                _ => "a whole number, 0 or more, such as `max_items = 10`",
            };
            let Some(count) = count else {
                if let Value::Neg(minus, n) = value {
                    let mut minus_token = Punct::new('-', Spacing::Alone);
                    minus_token.set_span(minus);
                    cx.error_spanned_by(
                        quote!(#minus_token #n),
                        Problem::InvalidKeyValue {
                            key: key.as_str(),
                            expected,
                        },
                    );
                } else {
                    refused(cx, &value, key, expected);
                }
                return false;
            };
            let slot = match key {
                MIN_LENGTH => &mut c.min_length,
                MAX_LENGTH => &mut c.max_length,
                MIN_ITEMS => &mut c.min_items,
                MAX_ITEMS => &mut c.max_items,
                _ => unreachable!("every constraint key is handled"),
            };
            *slot = Some(count);
            true
        }
    }
}
