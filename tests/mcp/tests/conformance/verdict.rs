//! What the conformance suite wrote, judged: each scenario's failed checks, read from the
//! suite's results, against the baseline of the scenarios expected to fail (the suite's
//! `--expected-failures` files in `tests/mcp-peers`, each item under its reason).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

/// Adds to `problems` what is wrong with the one scenario run `name`, given its failed checks
/// (`None`: it wrote no results) and the suite's output.
pub(super) fn judge_one(
    problems: &mut Vec<String>,
    name: &str,
    failures: Option<&Vec<String>>,
    output: &Output,
) {
    match failures {
        None => problems.push(format!("{name}: the suite wrote no results")),
        Some(failures) if !failures.is_empty() => {
            problems.push(format!("{name} fails: {}", failures.join("; ")));
        }
        Some(_) if !output.status.success() => {
            problems.push(format!("{name}: the suite failed ({})", output.status));
        }
        Some(_) => {}
    }
}

/// Whether a check the suite skipped fails its scenario.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Skipped {
    /// No: the suite's own rule.
    Passes,
    /// Yes: for the JSON Schema scenarios, which skip a keyword's check when the keyword is
    /// missing at a revision before the one that requires it.
    Fails,
    /// Yes in the scenarios named, no in the others.
    FailsIn(&'static [&'static str]),
}

impl Skipped {
    /// Whether a skipped check fails `scenario`.
    fn fails(self, scenario: &str) -> bool {
        match self {
            Skipped::Passes => false,
            Skipped::Fails => true,
            Skipped::FailsIn(scenarios) => scenarios.contains(&scenario),
        }
    }
}

/// The failed checks of each scenario the suite wrote results for, by scenario: the suite
/// writes `<prefix><scenario>-<timestamp>/checks.json` for each (in a directory `auth` for a
/// scenario `auth/<name>`), a list of checks with a `status`. A check whose status is
/// `FAILURE` or `WARNING` (or `SKIPPED`, as `skipped` says) fails the scenario, and so does
/// a scenario none of whose checks succeeded, unless the suite skipped it whole (a scenario
/// the suite has yet to write, as it says in the check; it passes, by the suite's rule).
pub(super) fn read_results(
    dir: &Path,
    prefix: &str,
    skipped: Skipped,
) -> BTreeMap<String, Vec<String>> {
    let mut scenarios = BTreeMap::new();
    let entries = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("the conformance suite wrote no results in {dir:?}: {e}"));
    for entry in entries {
        let path = entry.expect("a readable results directory").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if name == "auth" && prefix.is_empty() {
            for (scenario, failures) in read_results(&path, "", skipped) {
                scenarios.insert(format!("auth/{scenario}"), failures);
            }
            continue;
        }
        let scenario = scenario_name(name, prefix)
            .unwrap_or_else(|| panic!("unexpected entry in the suite's results: {path:?}"));
        let checks_file = path.join("checks.json");
        let text = std::fs::read_to_string(&checks_file)
            .unwrap_or_else(|e| panic!("{}: {e}", checks_file.display()));
        let checks: Vec<Value> = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{}: {e}", checks_file.display()));
        let passed = checks.iter().any(|check| check["status"] == "SUCCESS");
        let skipped_whole = !skipped.fails(scenario)
            && !checks.is_empty()
            && checks.iter().all(|check| check["status"] == "SKIPPED");
        let mut failures: Vec<String> = checks
            .iter()
            .filter(|check| match check["status"].as_str() {
                Some("FAILURE" | "WARNING") => true,
                Some("SKIPPED") => skipped.fails(scenario),
                _ => false,
            })
            .map(|check| {
                format!(
                    "{} {}: {}",
                    check["status"].as_str().unwrap_or_default(),
                    check["id"].as_str().unwrap_or_default(),
                    check["errorMessage"]
                        .as_str()
                        .or_else(|| check["description"].as_str())
                        .unwrap_or_default(),
                )
            })
            .collect();
        if !passed && !skipped_whole && failures.is_empty() {
            failures.push("no check succeeded".to_owned());
        }
        let previous = scenarios.insert(scenario.to_owned(), failures);
        assert!(previous.is_none(), "{scenario} has two results in {dir:?}");
    }
    scenarios
}

/// `server-tools-list-2026-01-02T03-04-05-678Z` → `tools-list` (for the prefix `server-`).
fn scenario_name<'a>(dir_name: &'a str, prefix: &str) -> Option<&'a str> {
    const TIMESTAMP: &str = "-2026-01-02T03-04-05-678Z";
    let name = dir_name.strip_prefix(prefix)?;
    let split = name.len().checked_sub(TIMESTAMP.len())?;
    let (scenario, stamp) = name.split_at_checked(split)?;
    let shaped = stamp.len() == TIMESTAMP.len()
        && stamp
            .chars()
            .zip(TIMESTAMP.chars())
            .all(|(c, t)| c.is_ascii_digit() == t.is_ascii_digit());
    (shaped && !scenario.is_empty()).then_some(scenario)
}

/// What is wrong with the scenarios' results, given the baseline (the file `baseline_name`
/// lists): a scenario not in it that fails, one in it that passes, one in it that did not run.
pub(super) fn judge(
    scenarios: &BTreeMap<String, Vec<String>>,
    baseline: &BTreeSet<String>,
    baseline_name: &str,
) -> Vec<String> {
    let mut problems = Vec::new();
    for (scenario, failures) in scenarios {
        match (baseline.contains(scenario), failures.is_empty()) {
            (false, false) => {
                problems.push(format!("{scenario} fails: {}", failures.join("; ")));
            }
            (true, true) => problems.push(format!(
                "{scenario} passes, but the baseline expects it to fail: remove it from \
                 tests/mcp-peers/{baseline_name}"
            )),
            _ => {}
        }
    }
    for scenario in baseline {
        if !scenarios.contains_key(scenario) {
            problems.push(format!(
                "{scenario} is in the baseline, but the suite did not run it"
            ));
        }
    }
    problems
}

/// The current suite's expected-failures file (its client scenarios).
pub(super) const BASELINE: &str = "conformance-baseline.yml";

/// The name of the next suite's expected-failures file for `revision`'s server scenarios.
pub(super) fn revision_baseline(revision: &str) -> String {
    format!("conformance-baseline-{revision}.yml")
}

/// The expected-failures file `name`, in `tests/mcp-peers`.
pub(super) fn baseline_file(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../mcp-peers")
        .join(name)
}

/// The scenarios the baseline `name` lists under `section` (`server` or `client`); see
/// [`parse_baseline`].
pub(super) fn baseline(name: &str, section: &str) -> BTreeSet<String> {
    let file = baseline_file(name);
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file:?}: {e}"));
    parse_baseline(&text, section).unwrap_or_else(|e| panic!("{file:?}: {e}"))
}

/// The scenarios a baseline lists under `section`. The file is the suite's simple YAML: a key
/// per section, then `  - scenario` lines; `[]` for none. Each item gives its reason: a
/// comment above it in its section (one comment may give the reason of the items under it),
/// or after it on its line; an item without is refused.
fn parse_baseline(text: &str, section: &str) -> Result<BTreeSet<String>, String> {
    let mut current = None;
    let mut reason_given = false;
    let mut scenarios = BTreeSet::new();
    for line in text.lines() {
        let (line, comment) = line.split_once('#').unwrap_or((line, ""));
        let line = line.trim_end();
        if line.trim().is_empty() {
            reason_given |= !comment.trim().is_empty();
            continue;
        }
        if let Some(item) = line.trim_start().strip_prefix("- ") {
            let Some(current) = current else {
                return Err(format!("an item outside a section: {line:?}"));
            };
            if !reason_given && comment.trim().is_empty() {
                return Err(format!(
                    "{line:?} gives no reason (a comment above it in its section)"
                ));
            }
            if current == section {
                scenarios.insert(item.trim().to_owned());
            }
        } else if let Some((key, rest)) = line.split_once(':') {
            if line.starts_with(' ') || !matches!(rest.trim(), "" | "[]") {
                return Err(format!("unexpected line {line:?}"));
            }
            current = Some(key.trim());
            reason_given = false;
        } else {
            return Err(format!("unexpected line {line:?}"));
        }
    }
    Ok(scenarios)
}

#[test]
fn result_directories_name_their_scenario() {
    let name = |dir, prefix| scenario_name(dir, prefix);
    assert_eq!(
        name("server-tools-list-2026-12-01T22-50-32-406Z", "server-"),
        Some("tools-list")
    );
    assert_eq!(
        name("sse-retry-2026-12-01T22-52-08-024Z", ""),
        Some("sse-retry")
    );
    assert_eq!(name("server-tools-list", "server-"), None);
    assert_eq!(name("tools-list-2026-12-01T22-50-32-406Z", "server-"), None);
}

#[test]
fn the_baseline_parser_holds_every_item_to_a_reason() {
    let given = "server:\n  # why\n  - a\n  - b\n  - c # why too\nclient: []\n";
    let listed = BTreeSet::from(["a", "b", "c"].map(str::to_owned));
    assert_eq!(parse_baseline(given, "server"), Ok(listed));
    assert_eq!(parse_baseline(given, "client"), Ok(BTreeSet::new()));
    // A comment above the section gives its items no reason, nor one in another section.
    let missing = "# about the file\nserver:\n  - a\n";
    assert!(parse_baseline(missing, "server").is_err());
    let elsewhere = "server:\n  # why\n  - a\nclient:\n  - b\n";
    assert!(parse_baseline(elsewhere, "server").is_err());
}
