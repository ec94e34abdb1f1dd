//! The typed output of a `#[tool]` tool, erased: [`TypedOutput`], which the generated output
//! struct implements by listing its fields to an [`OutputFields`] visitor, once.
//!
//! Everything the executor does with such an output (make its JSON object, write its JSON
//! text) is a walk over its fields, and lives here, compiled once in this crate. Were it
//! generic over the output type instead (serde_json's serializers, a lazily converted
//! wrapper), each tool's output would compile its own copy of it in the user's crate: most of
//! what a `#[tool]` cost to build. The generated code looks for a float that is not finite
//! itself, where the field types are known (`TypedOutput::is_finite`).

use std::sync::OnceLock;

use serde::Serialize;
use serde_json::Value;

use super::Returned;
use super::finite::floats_are_finite;
use crate::schema::JsonObject;

/// An output struct `#[tool]` generates whose types guarantee its schema, as the executor
/// carries it: object-safe, so that [`Lazy`]'s conversions are compiled once. Not public API.
#[doc(hidden)]
pub trait TypedOutput: Send + Sync + 'static {
    /// Lists every field the output holds, in key order (an optional field left `None` is
    /// left out), to `fields`.
    fn fields(&self, fields: &mut OutputFields<'_>);

    /// The output as its JSON object, taking its fields (their strings move rather than
    /// being copied); the output is left empty.
    fn take_object(&mut self) -> JsonObject;

    /// Whether every float the output holds is finite (one that is not becomes `null`, which
    /// the schema refuses). `#[tool]` writes it for an output holding a float, where the
    /// field types are known.
    fn is_finite(&self) -> bool {
        true
    }
}

/// A field's value that is not one of the four scalars (a list, a dictionary, a nested
/// struct), its type erased: implemented for every `Serialize` type, so one copy serves each
/// field type, whichever tool it is in. Not public API.
#[doc(hidden)]
pub trait OutputValue {
    /// The value as JSON.
    fn to_json(&self) -> Value;

    /// Writes the value as compact JSON text to `out`; `false` if it could not be serialized.
    fn write_json(&self, out: &mut Vec<u8>) -> bool;

    /// Whether every float in the value, at any depth, is finite: a float field's own
    /// `is_finite` is enough, this is for a list or a nested struct holding one.
    fn is_finite(&self) -> bool;
}

impl<T: Serialize + ?Sized> OutputValue for T {
    fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    fn write_json(&self, out: &mut Vec<u8>) -> bool {
        serde_json::to_writer(out, self).is_ok()
    }

    fn is_finite(&self) -> bool {
        floats_are_finite(self)
    }
}

/// What [`TypedOutput::fields`] lists its fields to: one of the two walks over them. Not
/// public API.
#[doc(hidden)]
pub struct OutputFields<'a>(Walk<'a>);

enum Walk<'a> {
    /// Into a JSON object.
    Object(&'a mut JsonObject),
    /// As JSON text: `{` is written, each field goes after a `,` unless it is the `first`;
    /// `ok` turns false if a value could not be serialized.
    Text {
        out: &'a mut Vec<u8>,
        first: bool,
        ok: bool,
    },
}

impl OutputFields<'_> {
    /// A string field (a string enum's field passes its value's text).
    pub fn str(&mut self, name: &'static str, value: &str) {
        match &mut self.0 {
            Walk::Object(object) => {
                object.insert(name.to_owned(), Value::String(value.to_owned()));
            }
            Walk::Text { out, first, ok } => {
                key(out, first, name);
                *ok &= write(out, value);
            }
        }
    }

    /// An integer field.
    pub fn int(&mut self, name: &'static str, value: i64) {
        match &mut self.0 {
            Walk::Object(object) => {
                object.insert(name.to_owned(), Value::from(value));
            }
            Walk::Text { out, first, ok } => {
                key(out, first, name);
                *ok &= write(out, &value);
            }
        }
    }

    /// A float field.
    pub fn float(&mut self, name: &'static str, value: f64) {
        match &mut self.0 {
            // `null` if it is not finite, as serde_json makes it.
            Walk::Object(object) => {
                object.insert(name.to_owned(), Value::from(value));
            }
            Walk::Text { out, first, ok } => {
                key(out, first, name);
                *ok &= write(out, &value);
            }
        }
    }

    /// A boolean field.
    pub fn bool(&mut self, name: &'static str, value: bool) {
        match &mut self.0 {
            Walk::Object(object) => {
                object.insert(name.to_owned(), Value::Bool(value));
            }
            Walk::Text { out, first, ok } => {
                key(out, first, name);
                *ok &= write(out, &value);
            }
        }
    }

    /// Any other field: a list, a dictionary, a nested struct.
    pub fn value(&mut self, name: &'static str, value: &dyn OutputValue) {
        match &mut self.0 {
            Walk::Object(object) => {
                object.insert(name.to_owned(), value.to_json());
            }
            Walk::Text { out, first, ok } => {
                key(out, first, name);
                *ok &= value.write_json(out);
            }
        }
    }
}

/// Writes `name` as the next key of the object in `out`.
fn key(out: &mut Vec<u8>, first: &mut bool, name: &str) {
    if !std::mem::take(first) {
        out.push(b',');
    }
    // A parameter's name rarely holds a character JSON escapes (a quote, a backslash, a
    // control character): written as it is then, without serde_json's escaping pass.
    if name.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\') {
        out.push(b'"');
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(b"\":");
    } else {
        // A key cannot fail to serialize: it is a string.
        write(out, name);
        out.push(b':');
    }
}

/// Writes `value` as compact JSON text to `out`.
fn write<T: Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) -> bool {
    serde_json::to_writer(out, value).is_ok()
}

/// A typed output, and its JSON once something asked for it: boxed as
/// `Box<Lazy<dyn TypedOutput>>`, one allocation. Not public API.
#[doc(hidden)]
pub struct Lazy<O: ?Sized> {
    /// The JSON, once made.
    pub json: OnceLock<Value>,
    /// The output.
    pub output: O,
}

impl Lazy<dyn TypedOutput> {
    /// The output as JSON (an object), converted on the first call.
    pub(crate) fn as_json(&self) -> &Value {
        self.json
            .get_or_init(|| Value::Object(object_of(&self.output)))
    }

    /// The output as JSON text, written straight from its fields, in key order (`None` if a
    /// value could not be serialized).
    pub(crate) fn write_json(&self) -> Option<String> {
        let mut out = Vec::with_capacity(128);
        out.push(b'{');
        let mut walk = OutputFields(Walk::Text {
            out: &mut out,
            first: true,
            ok: true,
        });
        self.output.fields(&mut walk);
        let Walk::Text { ok: true, .. } = walk.0 else {
            return None;
        };
        out.push(b'}');
        String::from_utf8(out).ok()
    }

    /// The output as JSON, taking it (what is left is for dropping).
    pub(crate) fn take_json(&mut self) -> Value {
        match self.json.take() {
            Some(json) => json,
            None => Value::Object(self.output.take_object()),
        }
    }
}

/// The object of `output`'s fields.
fn object_of(output: &dyn TypedOutput) -> JsonObject {
    let mut object = JsonObject::new();
    output.fields(&mut OutputFields(Walk::Object(&mut object)));
    object
}

impl Returned {
    /// The output of a tool whose output struct fits its schema by its types: kept typed,
    /// unless one of its floats is not finite ([`TypedOutput::is_finite`]: it would become
    /// `null`, which the schema refuses), in which case it is JSON now, for the validator to
    /// report.
    pub fn typed<T: TypedOutput>(mut output: T) -> Returned {
        if output.is_finite() {
            Returned::Typed(Box::new(Lazy {
                json: OnceLock::new(),
                output,
            }))
        } else {
            Returned::Json(Value::Object(output.take_object()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// An output as `#[tool]` generates it: a float, a string, an optional integer, a list.
    struct Reading {
        temperature: f64,
        place: String,
        rank: Option<i64>,
        tags: Vec<String>,
        ok: bool,
    }

    impl TypedOutput for Reading {
        fn fields(&self, fields: &mut OutputFields<'_>) {
            fields.bool("ok", self.ok);
            fields.str("place", &self.place);
            if let Some(rank) = self.rank {
                fields.int("rank", rank);
            }
            fields.value("tags", &self.tags);
            fields.float("temperature", self.temperature);
        }

        fn take_object(&mut self) -> JsonObject {
            let mut object = JsonObject::new();
            object.insert("ok".into(), self.ok.into());
            object.insert("place".into(), std::mem::take(&mut self.place).into());
            if let Some(rank) = self.rank {
                object.insert("rank".into(), rank.into());
            }
            object.insert("tags".into(), std::mem::take(&mut self.tags).into());
            object.insert("temperature".into(), self.temperature.into());
            object
        }

        fn is_finite(&self) -> bool {
            self.temperature.is_finite()
        }
    }

    fn reading(temperature: f64, rank: Option<i64>) -> Returned {
        let reading = Reading {
            temperature,
            place: "Quai \"A\"".into(),
            rank,
            tags: vec!["x".into(), "é".into()],
            ok: true,
        };
        Returned::typed(reading)
    }

    #[test]
    fn a_typed_output_is_made_json_once_when_first_asked() {
        let expected = json!({
            "ok": true, "place": "Quai \"A\"", "rank": 2, "tags": ["x", "é"], "temperature": 21.5,
        });
        let returned = reading(21.5, Some(2));
        assert!(matches!(returned, Returned::Typed(_)));
        let first = returned.structured().unwrap();
        assert_eq!(first, &expected);
        assert!(
            std::ptr::eq(first, returned.structured().unwrap()),
            "converted twice"
        );
        assert_eq!(returned.into_output().into_parts().0.unwrap(), expected);
        // Taken without being read first: its own object, the optional left out.
        let returned = reading(-3.0, None);
        assert_eq!(
            returned.into_output().into_parts().0.unwrap(),
            json!({"ok": true, "place": "Quai \"A\"", "tags": ["x", "é"], "temperature": -3.0})
        );
    }

    #[test]
    fn the_text_written_from_the_fields_is_the_text_of_the_object() {
        for rank in [Some(-7), None] {
            let returned = reading(0.1, rank);
            let Returned::Typed(typed) = &returned else {
                panic!("kept typed")
            };
            let text = typed.write_json().unwrap();
            let object = serde_json::to_string(returned.structured().unwrap()).unwrap();
            assert_eq!(text, object);
        }
    }

    #[test]
    fn a_key_json_escapes_is_written_escaped() {
        struct Odd;
        impl TypedOutput for Odd {
            fn fields(&self, fields: &mut OutputFields<'_>) {
                fields.int("a\"b\\c\u{1}", 1);
                fields.int("é", 2);
            }
            fn take_object(&mut self) -> JsonObject {
                JsonObject::new()
            }
        }
        let returned = Returned::typed(Odd);
        let Returned::Typed(lazy) = &returned else {
            panic!("kept typed")
        };
        let text = lazy.write_json().unwrap();
        assert_eq!(text, r#"{"a\"b\\c\u0001":1,"é":2}"#);
        assert_eq!(
            serde_json::from_str::<Value>(&text).unwrap(),
            *returned.structured().unwrap()
        );
    }

    #[test]
    fn readers_on_several_threads_see_one_conversion() {
        let returned = reading(1.0, None);
        let addresses: Vec<usize> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..4)
                .map(|_| {
                    scope.spawn(|| std::ptr::from_ref(returned.structured().unwrap()) as usize)
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert!(addresses.windows(2).all(|w| w[0] == w[1]), "{addresses:?}");
        assert_eq!(returned.structured().unwrap()["temperature"], 1.0);
    }

    #[test]
    fn a_typed_output_with_a_float_that_is_not_finite_is_json_at_once() {
        // JSON now, so that the executor's validator refuses the `null` it became.
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let returned = reading(bad, None);
            assert!(matches!(returned, Returned::Json(_)));
            assert_eq!(returned.structured().unwrap()["temperature"], Value::Null);
        }
        // A float in a list is looked at too (`OutputValue::is_finite`, which generated code
        // calls for such a field).
        struct Listed(Vec<f64>);
        impl TypedOutput for Listed {
            fn fields(&self, fields: &mut OutputFields<'_>) {
                fields.value("values", &self.0);
            }
            fn take_object(&mut self) -> JsonObject {
                let mut object = JsonObject::new();
                object.insert("values".into(), std::mem::take(&mut self.0).into());
                object
            }
            fn is_finite(&self) -> bool {
                OutputValue::is_finite(&self.0)
            }
        }
        let listed = |values: Vec<f64>| Returned::typed(Listed(values));
        let returned = listed(vec![1.0, f64::NAN]);
        assert!(matches!(returned, Returned::Json(_)));
        assert_eq!(returned.structured().unwrap()["values"], json!([1.0, null]));
        assert!(matches!(listed(vec![1.0, 2.0]), Returned::Typed(_)));
    }
}
