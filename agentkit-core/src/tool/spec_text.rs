//! The spec `#[tool(...)]` writes for a tool declared with parameter lists: JSON text in the
//! shape [`ToolSpec::to_value`] saves, read once per process, the first time the tool is
//! asked for its spec. A string costs the user's build next to nothing to compile, where the
//! same spec as `static` data built by `const fn`s cost about 7 % of a clean build of 100
//! tools (see `benches/README.md`, "The spec as text").

use std::borrow::Cow;
use std::sync::OnceLock;

use serde_json::Value;

use super::ToolSpec;

/// The body of the `Tool::spec` that `#[tool(...)]` generates: the spec `cell` holds, read
/// from `text` the first time. Not public API.
///
/// `text` is what the macro wrote after checking every rule at compile time, so it always
/// reads: a text that does not means agentkit-derive and agentkit-core are of different
/// versions, which Cargo rules out. That is a panic, not an error to return, as a `Tool`'s
/// spec cannot fail.
///
/// ```
/// use std::sync::OnceLock;
/// use agentkit_core::ToolSpec;
/// use agentkit_core::__private::static_spec;
///
/// fn spec() -> &'static ToolSpec {
///     static SPEC: OnceLock<ToolSpec> = OnceLock::new();
///     static_spec(&SPEC, r#"{"name":"greet","tags":[["team","core"]],"credential_names":[]}"#)
/// }
/// assert_eq!(spec().name(), "greet");
/// assert!(std::ptr::eq(spec(), spec()));
/// ```
#[doc(hidden)]
#[inline]
pub fn static_spec(cell: &'static OnceLock<ToolSpec>, text: &'static str) -> &'static ToolSpec {
    match cell.get() {
        Some(spec) => spec,
        None => first_read(cell, text),
    }
}

#[cold]
#[inline(never)]
fn first_read(cell: &'static OnceLock<ToolSpec>, text: &'static str) -> &'static ToolSpec {
    cell.get_or_init(|| match read(text) {
        Ok(spec) => spec,
        Err(error) => panic!(
            "agentkit: the spec `#[tool(...)]` wrote does not read ({error}); \
             agentkit-core and agentkit-derive must be the same version"
        ),
    })
}

/// Reads the text: [`ToolSpec::from_value`], but for the tags, written as `[key, value]`
/// pairs so that they keep the order they were declared in.
fn read(text: &str) -> Result<ToolSpec, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let Value::Object(mut object) = value else {
        return Err("not an object".to_owned());
    };
    let tags = match object.remove("tags") {
        Some(Value::Array(pairs)) => pairs.into_iter().map(tag).collect::<Option<Vec<_>>>(),
        _ => None,
    }
    .ok_or("tags that are not a list of `[key, value]` pairs of strings")?;
    let mut spec = ToolSpec::from_value(Value::Object(object)).map_err(|e| e.to_string())?;
    spec.tags = Cow::Owned(tags);
    Ok(spec)
}

/// A tag written as a `[key, value]` pair of strings.
fn tag(pair: Value) -> Option<(Cow<'static, str>, Cow<'static, str>)> {
    let Value::Array(pair) = pair else {
        return None;
    };
    match <[Value; 2]>::try_from(pair).ok()? {
        [Value::String(key), Value::String(value)] => Some((Cow::Owned(key), Cow::Owned(value))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tags_are_pairs_in_the_order_written() {
        let spec = read(r#"{"name":"t","tags":[["b","2"],["a","1"]]}"#).unwrap();
        assert_eq!(spec.tags().collect::<Vec<_>>(), [("b", "2"), ("a", "1")]);
        for tags in [r#"[["a"]]"#, r#"[["a",1]]"#, r#"{"a":"1"}"#, r#"["a"]"#] {
            let text = format!(r#"{{"name":"t","tags":{tags}}}"#);
            let error = read(&text).unwrap_err();
            assert!(error.contains("`[key, value]` pairs"), "{tags}: {error}");
        }
    }

    #[test]
    fn what_the_spec_rules_refuse_is_an_error_that_says_why() {
        let error = read(r#"{"name":"bad name","tags":[]}"#).unwrap_err();
        assert!(error.contains("bad name"), "{error}");
        assert!(read("{").is_err());
        assert!(read("[]").is_err());
    }

    #[test]
    #[should_panic(expected = "agentkit-core and agentkit-derive must be the same version")]
    fn a_text_that_does_not_read_panics_naming_the_versions() {
        static SPEC: OnceLock<ToolSpec> = OnceLock::new();
        static_spec(&SPEC, r#"{"name":"t","tags":[],"version":"one"}"#);
    }
}
