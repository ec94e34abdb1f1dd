//! The official MCP conformance suite (`@modelcontextprotocol/conformance`, pinned in
//! `tests/mcp-peers` with the Node.js 22 it needs) against agentkit: every server scenario
//! against the example server `mcp_conformance` (the tools each scenario calls, written with
//! agentkit's public API), and the client scenarios `initialize`, `tools_call` and `sse-retry`,
//! and the authorization scenarios (`auth/*`) of the current revision, against the example
//! client `mcp_conformance_client` (an `McpClient`, with `McpOAuth` where the server wants
//! OAuth).
//!
//! Every tool scenario and every authorization scenario must pass. The scenarios outside a
//! tool layer (resources, prompts, completion) are listed, with the reason, in
//! `tests/mcp-peers/conformance-baseline.yml`; each of those must still fail, so that the list
//! cannot go stale. The suite writes each scenario's checks to `checks.json` under the test's
//! temporary directory in `target/`; a scenario passes when none of its checks is a failure
//! or a warning (the suite's own rule).
//!
//! The JSON Schema scenarios of the suite's next release (0.2.0-alpha, pinned beside it as
//! `@modelcontextprotocol/conformance-next`; the revision 2026-07-28's other scenarios wait
//! for the main pin to move) run too: the server's `json-schema-2020-12` at the revisions
//! 2025-11-25 and 2026-07-28, the client's `json-schema-2020-12-preservation` (the client
//! sends back the `inputSchema` it declares for a server's tool, `$anchor`, `allOf`/`anyOf`
//! and `if`/`then`/`else` included) and `json-schema-ref-no-deref` (a `$ref` to a URL is
//! never fetched). Each of their checks must succeed: one the suite skips (it skips the
//! SEP-2106 keywords before 2026-07-28 when they are missing) fails them.
//!
//! Needs the peers: `npm ci --prefix tests/mcp-peers` (`.ci/run` does it, and `mcp_support`
//! on first use).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::Duration;

use serde_json::Value;
use tokio::process::Command;

use crate::mcp_support::{
    conformance_client, conformance_next_suite, conformance_server_over_http, conformance_suite,
    peers, pinned_node,
};

/// How long one run of the suite may take: the server scenarios take a few seconds.
const SUITE_TIMEOUT: Duration = Duration::from_secs(180);

/// The scenarios that concern tools (and the transport and lifecycle they run on): all must
/// pass, and none may be in the baseline.
const TOOL_SCENARIOS: [&str; 19] = [
    "server-initialize",
    "ping",
    "tools-list",
    "tools-call-simple-text",
    "tools-call-image",
    "tools-call-audio",
    "tools-call-embedded-resource",
    "tools-call-mixed-content",
    "tools-call-with-logging",
    "tools-call-error",
    "tools-call-with-progress",
    "tools-call-sampling",
    "tools-call-elicitation",
    "json-schema-2020-12",
    "elicitation-sep1034-defaults",
    "elicitation-sep1330-enums",
    "server-sse-polling",
    "server-sse-multiple-streams",
    "dns-rebinding-protection",
];

/// The client scenarios run against the example client; all must pass.
const CLIENT_SCENARIOS: [&str; 3] = ["initialize", "tools_call", "sse-retry"];

/// The revision whose authorization scenarios the client must pass.
const AUTH_REVISION: &str = "2025-11-25";

/// The suite's authorization scenarios for a client of that revision (`--suite auth
/// --spec-version 2025-11-25`): metadata discovery, client id metadata documents, scope
/// selection and step-up, token endpoint authentication, pre-registration. All must pass,
/// and the suite must run no other (a new one is added here, to pass or be baselined).
const AUTH_SCENARIOS: [&str; 14] = [
    "auth/metadata-default",
    "auth/metadata-var1",
    "auth/metadata-var2",
    "auth/metadata-var3",
    "auth/basic-cimd",
    "auth/scope-from-www-authenticate",
    "auth/scope-from-scopes-supported",
    "auth/scope-omitted-when-undefined",
    "auth/scope-step-up",
    "auth/scope-retry-limit",
    "auth/token-endpoint-auth-basic",
    "auth/token-endpoint-auth-post",
    "auth/token-endpoint-auth-none",
    "auth/pre-registration",
];

/// An extension scenario run beside them, as the one that exercises
/// `McpOAuth::client_credentials`: the client credentials grant (SEP-1046) with a client
/// secret. It must pass too.
const AUTH_EXTENSION_SCENARIO: &str = "auth/client-credentials-basic";

/// The next suite's client scenarios about the stateless core of revision 2026-07-28, and the
/// one about elicitation defaults at 2025-11-25, each with the revision it runs at; all must
/// pass. `McpClient` finds a 2026-07-28 server with `server/discover` and sends every request
/// with its `_meta` (`request-metadata`), the `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*`
/// headers (`http-standard-headers`, `http-custom-headers`), leaves out a tool whose
/// `x-mcp-header` annotations are invalid and keeps the others (`http-invalid-tool-headers`),
/// and answers a result that asks for input, echoing its `requestState`
/// (`sep-2322-client-request-state`); at 2025-11-25 it fills in an elicitation form's defaults
/// (`elicitation-sep1034-client-defaults`). The suite's own rule judges them: a check it
/// skips passes (`http-standard-headers` skips the resource and prompt methods, which a tool
/// client never sends).
const NEXT_CLIENT_SCENARIOS: [(&str, &str); 8] = [
    ("tools_call", "2026-07-28"),
    ("request-metadata", "2026-07-28"),
    ("http-standard-headers", "2026-07-28"),
    ("http-custom-headers", "2026-07-28"),
    ("http-invalid-tool-headers", "2026-07-28"),
    ("sep-2322-client-request-state", "2026-07-28"),
    ("json-schema-2020-12-preservation", "2026-07-28"),
    ("elicitation-sep1034-client-defaults", "2025-11-25"),
];

/// The revisions at which the next suite's server scenario `json-schema-2020-12` runs: the
/// one agentkit negotiates over a session, and 2026-07-28, where the suite lists the tools
/// statelessly and the SEP-2106 keywords are required.
const JSON_SCHEMA_REVISIONS: [&str; 2] = ["2025-11-25", "2026-07-28"];

/// The next suite's client scenarios about JSON Schema, each with the revision it runs at:
/// `json-schema-ref-no-deref` exists only at 2026-07-28 (its server answers the 2025-11-25
/// handshake too). `json-schema-2020-12-preservation` runs here at 2025-11-25, where its server
/// keeps sessions, and at 2026-07-28 in [`NEXT_CLIENT_SCENARIOS`].
const JSON_SCHEMA_CLIENT_SCENARIOS: [(&str, &str); 2] = [
    ("json-schema-2020-12-preservation", "2025-11-25"),
    ("json-schema-ref-no-deref", "2026-07-28"),
];

#[tokio::test(flavor = "multi_thread")]
async fn the_server_passes_the_conformance_suite() {
    let Some(peers) = peers() else { return };
    let suite = conformance_suite(&peers);
    let (_server, url) = conformance_server_over_http().await;
    let results = fresh_dir("server");

    // Every server scenario, the pending ones too (`--suite all`), in one run.
    let mut command = Command::new(pinned_node(&peers));
    command
        .arg(&suite)
        .args(["server", "--suite", "all", "--url", &url])
        .arg("--expected-failures")
        .arg(baseline_file())
        .arg("--output-dir")
        .arg(&results);
    let output = run(command, &peers).await;

    let scenarios = read_results(&results, "server-", Skipped::Passes);
    let baseline = baseline("server");
    let mut problems = judge(&scenarios, &baseline);
    for scenario in TOOL_SCENARIOS {
        if !scenarios.contains_key(scenario) {
            problems.push(format!("{scenario}: the suite did not run it"));
        }
        if baseline.contains(scenario) {
            problems.push(format!(
                "{scenario}: a tool scenario must pass, not be in the baseline"
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "\nthe MCP conformance suite against the example server (results in {}):\n  {}\n\n{}",
        results.display(),
        problems.join("\n  "),
        printed(&output),
    );
    // The suite's own verdict, from the same baseline, agrees.
    assert!(output.status.success(), "{}", printed(&output));
}

#[tokio::test(flavor = "multi_thread")]
async fn the_client_passes_the_conformance_suite() {
    let Some(peers) = peers() else { return };
    let suite = conformance_suite(&peers);
    let baseline = baseline("client");

    // The suite starts a server of its own per scenario and runs the client against it: the
    // three at once.
    let [initialize, tools_call, sse_retry] =
        CLIENT_SCENARIOS.map(|scenario| client_scenario(&peers, &suite, scenario));
    let runs = tokio::join!(initialize, tools_call, sse_retry);

    let mut problems = Vec::new();
    let mut printed_runs = String::new();
    for (scenario, (results, output)) in CLIENT_SCENARIOS.iter().zip([runs.0, runs.1, runs.2]) {
        if baseline.contains(*scenario) {
            problems.push(format!("{scenario}: must pass, not be in the baseline"));
        }
        let scenarios = read_results(&results, "", Skipped::Passes);
        judge_one(&mut problems, scenario, scenarios.get(*scenario), &output);
        printed_runs.push_str(&format!("=== {scenario}\n{}\n", printed(&output)));
    }
    assert!(
        problems.is_empty(),
        "\nthe MCP conformance suite against the example client:\n  {}\n\n{printed_runs}",
        problems.join("\n  "),
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn the_client_passes_the_auth_scenarios() {
    let Some(peers) = peers() else { return };
    let suite = conformance_suite(&peers);
    let baseline: BTreeSet<String> = baseline("client")
        .into_iter()
        .filter(|scenario| scenario.starts_with("auth/"))
        .collect();

    // The revision's authorization scenarios, in parallel in one run of the suite (each with
    // an authorization server and an MCP server of its own), and the extension beside them.
    let results = fresh_dir("client-auth");
    let mut command = Command::new(pinned_node(&peers));
    command
        .arg(&suite)
        .args(["client", "--suite", "auth", "--spec-version", AUTH_REVISION])
        .args(["--timeout", "30000", "--command", &client_command()])
        .arg("--expected-failures")
        .arg(baseline_file())
        .arg("--output-dir")
        .arg(&results);
    let (output, (extension_results, extension_output)) = tokio::join!(
        run(command, &peers),
        client_scenario(&peers, &suite, AUTH_EXTENSION_SCENARIO)
    );

    let scenarios = read_results(&results, "", Skipped::Passes);
    let mut problems = judge(&scenarios, &baseline);
    for scenario in AUTH_SCENARIOS {
        if !scenarios.contains_key(scenario) {
            problems.push(format!("{scenario}: the suite did not run it"));
        }
    }
    for scenario in scenarios.keys() {
        if !AUTH_SCENARIOS.contains(&scenario.as_str()) {
            problems.push(format!(
                "{scenario}: the suite runs it for {AUTH_REVISION}, and AUTH_SCENARIOS does not \
                 list it"
            ));
        }
    }
    let extension = read_results(&extension_results, "", Skipped::Passes);
    judge_one(
        &mut problems,
        AUTH_EXTENSION_SCENARIO,
        extension.get(AUTH_EXTENSION_SCENARIO),
        &extension_output,
    );
    assert!(
        problems.is_empty(),
        "\nthe MCP conformance suite's auth scenarios against the example client (results in \
         {}):\n  {}\n\n{}\n=== {AUTH_EXTENSION_SCENARIO}\n{}",
        results.display(),
        problems.join("\n  "),
        printed(&output),
        printed(&extension_output),
    );
    // The suite's own verdict, from the same baseline, agrees.
    assert!(output.status.success(), "{}", printed(&output));
}

#[tokio::test(flavor = "multi_thread")]
async fn the_server_passes_the_next_suites_json_schema_scenario() {
    let Some(peers) = peers() else { return };
    let suite = conformance_next_suite(&peers);
    let (_server, url) = conformance_server_over_http().await;

    // The scenario at each revision, at once, against the one server.
    let [earlier, later] = JSON_SCHEMA_REVISIONS.map(|revision| {
        let results = fresh_dir(&format!("next-server-json-schema-{revision}"));
        let mut command = Command::new(pinned_node(&peers));
        command
            .arg(&suite)
            .args(["server", "--scenario", "json-schema-2020-12", "--url", &url])
            .args(["--spec-version", revision])
            .arg("--output-dir")
            .arg(&results);
        let peers = peers.clone();
        async move { (results, run(command, &peers).await) }
    });
    let runs = tokio::join!(earlier, later);

    let mut problems = Vec::new();
    let mut printed_runs = String::new();
    for (revision, (results, output)) in JSON_SCHEMA_REVISIONS.iter().zip([runs.0, runs.1]) {
        let scenarios = read_results(&results, "server-", Skipped::Fails);
        judge_one(
            &mut problems,
            &format!("json-schema-2020-12 at {revision}"),
            scenarios.get("json-schema-2020-12"),
            &output,
        );
        printed_runs.push_str(&format!("=== at {revision}\n{}\n", printed(&output)));
    }
    assert!(
        problems.is_empty(),
        "\nthe next MCP conformance suite's json-schema-2020-12 against the example server:\n  \
         {}\n\n{printed_runs}",
        problems.join("\n  "),
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn the_client_passes_the_next_suites_json_schema_scenarios() {
    let Some(peers) = peers() else { return };
    let suite = conformance_next_suite(&peers);

    let [preservation, no_deref] = JSON_SCHEMA_CLIENT_SCENARIOS.map(|(scenario, revision)| {
        let (peers, suite) = (peers.clone(), suite.clone());
        async move {
            client_scenario_at(
                &peers,
                &suite,
                scenario,
                &["--spec-version", revision],
                "next-",
            )
            .await
        }
    });
    let runs = tokio::join!(preservation, no_deref);

    let mut problems = Vec::new();
    let mut printed_runs = String::new();
    for ((scenario, revision), (results, output)) in
        JSON_SCHEMA_CLIENT_SCENARIOS.iter().zip([runs.0, runs.1])
    {
        let scenarios = read_results(&results, "", Skipped::Fails);
        let name = format!("{scenario} at {revision}");
        judge_one(&mut problems, &name, scenarios.get(*scenario), &output);
        printed_runs.push_str(&format!("=== {name}\n{}\n", printed(&output)));
    }
    assert!(
        problems.is_empty(),
        "\nthe next MCP conformance suite's JSON Schema scenarios against the example \
         client:\n  {}\n\n{printed_runs}",
        problems.join("\n  "),
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn the_client_passes_the_next_suites_stateless_scenarios() {
    let Some(peers) = peers() else { return };
    let suite = conformance_next_suite(&peers);

    // The suite starts a server of its own per scenario: all at once.
    let runs = NEXT_CLIENT_SCENARIOS.map(|(scenario, revision)| {
        let (peers, suite) = (peers.clone(), suite.clone());
        tokio::spawn(async move {
            let args = ["--spec-version", revision];
            client_scenario_at(&peers, &suite, scenario, &args, "next-stateless-").await
        })
    });
    let mut problems = Vec::new();
    let mut printed_runs = String::new();
    for ((scenario, revision), run) in NEXT_CLIENT_SCENARIOS.iter().zip(runs) {
        let (results, output) = run.await.expect("the run does not panic");
        let scenarios = read_results(&results, "", Skipped::Passes);
        let name = format!("{scenario} at {revision}");
        judge_one(&mut problems, &name, scenarios.get(*scenario), &output);
        printed_runs.push_str(&format!("=== {name}\n{}\n", printed(&output)));
    }
    assert!(
        problems.is_empty(),
        "\nthe next MCP conformance suite's stateless client scenarios against the example \
         client:\n  {}\n\n{printed_runs}",
        problems.join("\n  "),
    );
}

/// Adds to `problems` what is wrong with the one scenario run `name`, given its failed checks
/// (`None`: it wrote no results) and the suite's output.
fn judge_one(
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

/// Runs the client scenario `scenario` against the example client; returns where the suite
/// wrote its results, and its output.
async fn client_scenario(peers: &Path, suite: &Path, scenario: &str) -> (PathBuf, Output) {
    client_scenario_at(peers, suite, scenario, &[], "").await
}

/// [`client_scenario`] with the suite `suite`, more arguments for it (`--spec-version`), and
/// its results in a directory named with `label` before the scenario.
async fn client_scenario_at(
    peers: &Path,
    suite: &Path,
    scenario: &str,
    args: &[&str],
    label: &str,
) -> (PathBuf, Output) {
    let results = fresh_dir(&format!("{label}client-{}", scenario.replace('/', "-")));
    let mut command = Command::new(pinned_node(peers));
    command
        .arg(suite)
        .args(["client", "--scenario", scenario, "--timeout", "30000"])
        .args(args)
        .args(["--command", &client_command()])
        .arg("--output-dir")
        .arg(&results);
    let output = run(command, peers).await;
    (results, output)
}

/// The example client, as the suite's `--command`. The suite splits the command at spaces and
/// runs it through a shell, which puts the pieces back together: quoted, a path with spaces
/// survives.
fn client_command() -> String {
    format!("'{}'", conformance_client().replace('\'', r"'\''"))
}

/// Runs the suite, bounded in time.
async fn run(mut command: Command, peers: &Path) -> Output {
    let run = command
        .current_dir(peers)
        .stdin(Stdio::null())
        .kill_on_drop(true)
        .output();
    tokio::time::timeout(SUITE_TIMEOUT, run)
        .await
        .expect("the MCP conformance suite did not finish in time")
        .expect("the pinned Node.js runs the conformance suite")
}

/// Whether a check the suite skipped fails its scenario.
#[derive(Clone, Copy, PartialEq)]
enum Skipped {
    /// No: the suite's own rule.
    Passes,
    /// Yes: for the JSON Schema scenarios, which skip a keyword's check when the keyword is
    /// missing at a revision before the one that requires it.
    Fails,
}

/// The failed checks of each scenario the suite wrote results for, by scenario: the suite
/// writes `<prefix><scenario>-<timestamp>/checks.json` for each (in a directory `auth` for a
/// scenario `auth/<name>`), a list of checks with a `status`. A check whose status is
/// `FAILURE` or `WARNING` (or `SKIPPED`, as `skipped` says) fails the scenario.
fn read_results(dir: &Path, prefix: &str, skipped: Skipped) -> BTreeMap<String, Vec<String>> {
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
        let mut failures: Vec<String> = checks
            .iter()
            .filter(|check| match check["status"].as_str() {
                Some("FAILURE" | "WARNING") => true,
                Some("SKIPPED") => skipped == Skipped::Fails,
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
        if !passed && failures.is_empty() {
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

/// What is wrong with the scenarios' results, given the baseline: a scenario not in it that
/// fails, one in it that passes, one in it that did not run.
fn judge(scenarios: &BTreeMap<String, Vec<String>>, baseline: &BTreeSet<String>) -> Vec<String> {
    let mut problems = Vec::new();
    for (scenario, failures) in scenarios {
        match (baseline.contains(scenario), failures.is_empty()) {
            (false, false) => {
                problems.push(format!("{scenario} fails: {}", failures.join("; ")));
            }
            (true, true) => problems.push(format!(
                "{scenario} passes, but the baseline expects it to fail: remove it from \
                 tests/mcp-peers/conformance-baseline.yml"
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

/// The expected-failures file, `tests/mcp-peers/conformance-baseline.yml`.
fn baseline_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../mcp-peers/conformance-baseline.yml")
}

/// The scenarios the baseline lists under `section` (`server` or `client`). The file is the
/// suite's simple YAML: a key per section, then `  - scenario` lines; `[]` for none.
fn baseline(section: &str) -> BTreeSet<String> {
    let file = baseline_file();
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file:?}: {e}"));
    let mut current = None;
    let mut scenarios = BTreeSet::new();
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or_default().trim_end();
        if line.trim().is_empty() {
            continue;
        }
        if let Some(item) = line.trim_start().strip_prefix("- ") {
            let Some(current) = current else {
                panic!("{file:?}: an item outside a section: {line:?}")
            };
            if current == section {
                scenarios.insert(item.trim().to_owned());
            }
        } else if let Some((key, rest)) = line.split_once(':') {
            assert!(
                !line.starts_with(' ') && matches!(rest.trim(), "" | "[]"),
                "{file:?}: unexpected line {line:?}"
            );
            current = Some(key.trim());
        } else {
            panic!("{file:?}: unexpected line {line:?}");
        }
    }
    scenarios
}

/// An empty directory for the suite's results, under this test binary's directory in
/// `target/`.
fn fresh_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("mcp-conformance")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{dir:?}: {e}"));
    dir
}

/// What the suite printed.
fn printed(output: &Output) -> String {
    format!(
        "the suite exited with {}; it printed:\n{}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
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
fn the_baseline_lists_only_scenarios_outside_a_tool_layer() {
    let server = baseline("server");
    assert!(!server.is_empty());
    for scenario in &server {
        assert!(
            ["resources-", "prompts-", "completion-"]
                .iter()
                .any(|kind| scenario.starts_with(kind)),
            "{scenario} is not a resource, prompt or completion scenario"
        );
    }
    assert!(baseline("client").is_empty());
}
