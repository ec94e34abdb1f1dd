//! The official JSON-Schema-Test-Suite (vendored in `tests/json-schema-test-suite/`), run
//! against [`JsonSchema`] with agentkit's policies off: every required test of draft 2020-12
//! and draft-07, the documents of `remotes/` given as resources under
//! `http://localhost:1234/` (never fetched), and the `format` tests with format assertion on.
//! Each exclusion is listed with its reason; a listed exclusion that starts passing, or no
//! longer exists, fails the run, so the list stays true.

use std::path::{Path, PathBuf};

use agentkit_core::{Draft, JsonSchema, JsonSchemaOptions};
use serde_json::Value;

/// Required tests agentkit does not pass, by file, group and test description, with why.
const EXCLUDED: &[(&str, &str, &str, &str)] = &[(
    "draft2020-12/vocabulary.json",
    "schema that uses custom metaschema with with no validation vocabulary",
    "no validation: invalid number, but it still validates",
    "a meta-schema's `$vocabulary` is not read: every keyword agentkit knows is validated",
)];

/// Why a schema that refers to the JSON Schema meta-schema is refused.
const META: &str = "a `$ref` to the draft's meta-schema, which agentkit does not bundle: refused \
                    like any document not given, never fetched";

/// Groups (whole schemas) refused by design: `(file, group description, why)`.
const REFUSED_GROUPS: &[(&str, &str, &str)] = &[
    (
        "draft2020-12/defs.json",
        "validate definition against metaschema",
        META,
    ),
    (
        "draft7/definitions.json",
        "validate definition against metaschema",
        META,
    ),
    (
        "draft2020-12/ref.json",
        "remote ref, containing refs itself",
        META,
    ),
    (
        "draft7/ref.json",
        "remote ref, containing refs itself",
        META,
    ),
];

/// Format tests agentkit's format checks do not pass: `(file, test description, why)`.
const FORMAT_EXCLUDED: &[(&str, &str, &str)] = &[
    (
        "ecmascript-regex.json",
        "an ECMA 262 named backreference \\k<name>",
        "patterns run on a linear-time engine, which has no backreferences",
    ),
    (
        "ecmascript-regex.json",
        "a variable-width lookbehind (ES2018)",
        "patterns run on a linear-time engine, which has no look-around",
    ),
];

fn suite() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("json-schema-test-suite")
}

/// Every file under `remotes/`, as a resource at `http://localhost:1234/<path>`.
fn remotes(options: JsonSchemaOptions) -> JsonSchemaOptions {
    static REMOTES: std::sync::OnceLock<Vec<(String, Value)>> = std::sync::OnceLock::new();
    REMOTES
        .get_or_init(read_remotes)
        .iter()
        .fold(options, |options, (uri, document)| {
            options.resource(uri.clone(), document.clone())
        })
}

fn read_remotes() -> Vec<(String, Value)> {
    let root = suite().join("remotes");
    let mut remotes = Vec::new();
    let mut stack = vec![root.clone()];
    let mut files = Vec::new();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("the vendored remotes") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "json") {
                files.push(path);
            }
        }
    }
    files.sort();
    for path in files {
        let relative = path.strip_prefix(&root).expect("below remotes/");
        let uri = format!(
            "http://localhost:1234/{}",
            relative.to_string_lossy().replace('\\', "/")
        );
        let document: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("a remote")).expect("JSON");
        remotes.push((uri, document));
    }
    remotes
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("the vendored suite at {}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

struct Tally {
    passed: usize,
    failures: Vec<String>,
    excluded_hit: Vec<String>,
}

fn run(draft_dir: &str, draft: Draft, formats: bool) -> Tally {
    let dir = if formats {
        suite()
            .join("tests")
            .join(draft_dir)
            .join("optional/format")
    } else {
        suite().join("tests").join(draft_dir)
    };
    let mut tally = Tally {
        passed: 0,
        failures: Vec::new(),
        excluded_hit: Vec::new(),
    };
    for path in files(&dir) {
        let name = format!(
            "{draft_dir}/{}",
            path.file_name().unwrap().to_string_lossy()
        );
        let groups: Vec<Value> =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for group in groups {
            let description = group["description"].as_str().unwrap();
            let refused = REFUSED_GROUPS
                .iter()
                .any(|(f, g, _)| *f == name && *g == description);
            let options = remotes(
                JsonSchemaOptions::standard()
                    .draft(draft)
                    .assert_formats(formats),
            );
            let schema = options.build(group["schema"].clone());
            let schema = match (schema, refused) {
                (Ok(_), true) => {
                    tally.failures.push(format!(
                        "{name}: '{description}' is listed as refused, and compiles"
                    ));
                    continue;
                }
                (Err(_), true) => {
                    tally.excluded_hit.push(format!("{name}: {description}"));
                    continue;
                }
                (Err(e), false) => {
                    tally
                        .failures
                        .push(format!("{name}: '{description}' does not compile: {e}"));
                    continue;
                }
                (Ok(schema), false) => schema,
            };
            for test in group["tests"].as_array().unwrap() {
                let what = test["description"].as_str().unwrap();
                let expected = test["valid"].as_bool().unwrap();
                let got = check(&schema, &test["data"]);
                let excluded = EXCLUDED
                    .iter()
                    .any(|(f, g, t, _)| *f == name && *g == description && *t == what)
                    || (formats
                        && FORMAT_EXCLUDED
                            .iter()
                            .any(|(f, t, _)| name.ends_with(f) && *t == what));
                match (got == expected, excluded) {
                    (true, false) => tally.passed += 1,
                    (true, true) => tally.failures.push(format!(
                        "{name}: '{description}' / '{what}' is excluded, and passes"
                    )),
                    (false, true) => tally.excluded_hit.push(format!("{name}: {what}")),
                    (false, false) => tally.failures.push(format!(
                        "{name}: '{description}' / '{what}': expected {}, got {}",
                        if expected { "valid" } else { "invalid" },
                        if got { "valid" } else { "invalid" },
                    )),
                }
            }
        }
    }
    tally
}

/// Whether the schema accepts `data`, and `validate` agrees with `is_valid`.
fn check(schema: &JsonSchema, data: &Value) -> bool {
    let valid = schema.is_valid(data);
    let issues = schema.validate(&mut data.clone());
    assert_eq!(
        valid,
        issues.is_empty(),
        "is_valid and validate disagree on {data}: {issues:?}"
    );
    valid
}

fn assert_suite(draft_dir: &str, draft: Draft, formats: bool, at_least: usize) {
    let tally = run(draft_dir, draft, formats);
    println!(
        "{draft_dir}{}: {} passed, {} excluded, {} failed",
        if formats { " (formats)" } else { "" },
        tally.passed,
        tally.excluded_hit.len(),
        tally.failures.len()
    );
    assert!(
        tally.failures.is_empty(),
        "{} failures:\n{}",
        tally.failures.len(),
        tally
            .failures
            .iter()
            .map(|f| f.chars().take(400).collect::<String>())
            .collect::<Vec<_>>()
            .join("\n")
    );
    // The suite was found and read: not a run over nothing.
    assert!(tally.passed >= at_least, "only {} tests ran", tally.passed);
}

#[test]
fn draft2020_12_required() {
    assert_suite("draft2020-12", Draft::Draft2020_12, false, 1200);
}

#[test]
fn draft7_required() {
    assert_suite("draft7", Draft::Draft7, false, 850);
}

#[test]
fn draft2020_12_formats() {
    assert_suite("draft2020-12", Draft::Draft2020_12, true, 500);
}

#[test]
fn draft7_formats() {
    assert_suite("draft7", Draft::Draft7, true, 400);
}
