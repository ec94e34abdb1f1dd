//! The keys a declaration may use, and the lookups that turn a slip into a suggestion: an
//! unknown key or type names the one meant (`requred` → `required`, `object` → `dictionary`),
//! and a name given twice is found.

use super::problem::Problem;
use super::types::ParamType;

/// The keys a parameter declaration may have, as in the Python original.
pub const PARAM_KEYS: &[&str] = &[
    "name",
    "type",
    "required",
    "default",
    "description",
    "items",
    "fields",
    "enum",
    "minimum",
    "maximum",
    "min_length",
    "max_length",
    "min_items",
    "max_items",
];

/// The keys a `#[tool(...)]` attribute may have.
pub const TOOL_KEYS: &[&str] = &[
    "name",
    "description",
    "version",
    "input",
    "output",
    "tags",
    "credentials",
    "timeout",
    "blocking",
    "sequential",
    "requires_approval",
    "retries",
    "task_support",
    "title",
    "read_only",
    "destructive",
    "idempotent",
    "open_world",
    "examples",
    "crate",
    "defs",
];

impl std::str::FromStr for ParamType {
    type Err = Problem;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ParamType::from_name(s).ok_or_else(|| Problem::UnknownType {
            found: s.to_owned(),
            suggestion: suggest(s, ParamType::ALL.iter().map(|ty| ty.as_str())),
        })
    }
}

/// Looks up a key of a parameter declaration.
pub fn check_param_key(key: &str) -> Result<&'static str, Problem> {
    lookup_key(key, PARAM_KEYS)
}

/// Looks up a key of the `#[tool(...)]` attribute.
pub fn check_tool_key(key: &str) -> Result<&'static str, Problem> {
    lookup_key(key, TOOL_KEYS)
}

fn lookup_key(key: &str, allowed: &'static [&'static str]) -> Result<&'static str, Problem> {
    allowed
        .iter()
        .copied()
        .find(|known| *known == key)
        .ok_or_else(|| Problem::UnknownKey {
            found: key.to_owned(),
            suggestion: suggest(key, allowed.iter().copied()),
            allowed,
        })
}

/// Returns the first name in `names` that occurs again after it, for duplicate checks.
pub fn find_duplicates<'a, I>(names: I) -> Vec<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    let mut seen: Vec<&str> = Vec::new();
    let mut duplicates = Vec::new();
    for name in names {
        if seen.contains(&name) {
            if !duplicates.contains(&name) {
                duplicates.push(name);
            }
        } else {
            seen.push(name);
        }
    }
    duplicates
}

/// Words other schema languages (JSON Schema, Python, Rust, OpenAPI) use for what a
/// declaration here calls by another name: too far from ours for an edit distance to catch,
/// but what a user coming from one of them writes first.
const SYNONYMS: &[(&str, &str)] = &[
    // Types.
    ("object", "dictionary"),
    ("dict", "dictionary"),
    ("map", "dictionary"),
    ("hashmap", "dictionary"),
    ("array", "list"),
    ("vec", "list"),
    ("number", "float"),
    ("f32", "float"),
    ("f64", "float"),
    ("double", "float"),
    ("bool", "boolean"),
    ("int", "integer"),
    ("i32", "integer"),
    ("i64", "integer"),
    ("u32", "integer"),
    ("u64", "integer"),
    ("usize", "integer"),
    ("str", "string"),
    // Keys: a word stands for the first of its meanings allowed where it is written, so
    // `parameters` is `input` in `#[tool(...)]` and `input_schema` in a spec's JSON shape.
    ("parameters", "input"),
    ("parameters", "input_schema"),
    ("params", "input"),
    ("params", "input_schema"),
    ("input", "input_schema"),
    ("input_schema", "input"),
    ("output", "output_schema"),
    ("output_schema", "output"),
    ("credentials", "credential_names"),
    ("credential_names", "credentials"),
    ("desc", "description"),
    // MCP's names of the annotations, and Anthropic's of the examples.
    ("readOnlyHint", "read_only"),
    ("destructiveHint", "destructive"),
    ("idempotentHint", "idempotent"),
    ("openWorldHint", "open_world"),
    ("input_examples", "examples"),
];

/// The candidate closest to `input`, if it is close enough to be what was meant.
///
/// Close enough: a known synonym (`object` for `dictionary`, `desc` for `description`), an
/// edit distance of at most a third of the input's length (at least 1), or the same word in
/// another case.
pub fn suggest<'a, I>(input: &str, candidates: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    let candidates: Vec<&'a str> = candidates.into_iter().collect();
    let synonym = SYNONYMS
        .iter()
        .filter(|(word, _)| word.eq_ignore_ascii_case(input))
        .find_map(|(_, meant)| candidates.iter().copied().find(|c| c == meant));
    if synonym.is_some() {
        return synonym;
    }
    let limit = (input.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .map(|candidate| (edit_distance(input, candidate), candidate))
        .filter(|(distance, candidate)| *distance <= limit || candidate.eq_ignore_ascii_case(input))
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate)
}

/// Levenshtein distance, with a transposition of two neighbours counted as one edit.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Three rows of the classic table suffice for the transposition rule.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        current[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (previous[j] + 1)
                .min(current[j - 1] + 1)
                .min(previous[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(before[j - 2] + 1);
            }
            current[j] = best;
        }
        std::mem::swap(&mut before, &mut previous);
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::types::ParamType;

    #[test]
    fn suggestions_catch_typos_only() {
        let types = || ParamType::ALL.iter().map(|t| t.as_str());
        assert_eq!(suggest("intger", types()), Some("integer"));
        assert_eq!(suggest("strnig", types()), Some("string"));
        assert_eq!(suggest("Boolean", types()), Some("boolean"));
        assert_eq!(suggest("float", ["integer", "string"]), None);
        assert_eq!(
            suggest("requred", PARAM_KEYS.iter().copied()),
            Some("required")
        );
        assert_eq!(edit_distance("ab", "ba"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
    }

    #[test]
    fn suggestions_know_the_words_of_other_schema_languages() {
        let types = || ParamType::ALL.iter().map(|t| t.as_str());
        for (word, meant) in [
            ("object", "dictionary"),
            ("array", "list"),
            ("number", "float"),
            ("bool", "boolean"),
            ("int", "integer"),
            ("str", "string"),
            ("Object", "dictionary"),
            ("i64", "integer"),
        ] {
            assert_eq!(suggest(word, types()), Some(meant), "{word}");
        }
        let tool_keys = || TOOL_KEYS.iter().copied();
        assert_eq!(suggest("parameters", tool_keys()), Some("input"));
        assert_eq!(suggest("desc", tool_keys()), Some("description"));
        assert_eq!(
            suggest("desc", PARAM_KEYS.iter().copied()),
            Some("description")
        );
        assert_eq!(suggest("readOnlyHint", tool_keys()), Some("read_only"));
        assert_eq!(suggest("readonly", tool_keys()), Some("read_only"));
        assert_eq!(suggest("openWorldHint", tool_keys()), Some("open_world"));
        assert_eq!(suggest("input_examples", tool_keys()), Some("examples"));
        assert_eq!(suggest("example", tool_keys()), Some("examples"));
        let spec_keys = ["name", "description", "input_schema", "output_schema"];
        assert_eq!(suggest("parameters", spec_keys), Some("input_schema"));
        assert_eq!(suggest("input", spec_keys), Some("input_schema"));
        // A synonym is offered only where the word it stands for is allowed.
        assert_eq!(suggest("parameters", PARAM_KEYS.iter().copied()), None);
    }

    #[test]
    fn messages_read_well() {
        let p = "intger".parse::<ParamType>().unwrap_err();
        assert_eq!(
            p.to_string(),
            "unknown type 'intger'; did you mean 'integer'?"
        );
        let p = check_param_key("requred").unwrap_err();
        assert_eq!(
            p.to_string(),
            "unknown key 'requred'; did you mean 'required'?"
        );
        assert_eq!(find_duplicates(["a", "b", "a", "a"]), vec!["a"]);
    }
}
