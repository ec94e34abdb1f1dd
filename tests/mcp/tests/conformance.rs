//! The official MCP conformance suite (`@modelcontextprotocol/conformance`, pinned in
//! `tests/mcp-peers` with the Node.js 22 it needs) against agentkit.
//!
//! The server: the suite's next release (0.2.0-alpha, pinned beside it as
//! `@modelcontextprotocol/conformance-next`) runs every scenario a revision requires
//! (`server --requirements <revision>`, and the pending and extension scenarios it runs
//! beside them), at 2025-11-25 and at 2026-07-28, against the example server
//! `mcp_conformance` (the tools each scenario calls, written with agentkit's public API, and
//! the resources, prompts and completions the application serves beside them). Each scenario
//! must pass unless the revision's baseline (`tests/mcp-peers/conformance-baseline-<revision>.yml`)
//! lists it under a comment giving the reason; a listed one must still fail, so that the list
//! cannot go stale, and the scenarios of what agentkit serves (tools, resources, prompts,
//! completion, caching hints, the transport) may not be listed at all.
//!
//! The client: the client scenarios `initialize`, `tools_call` and `sse-retry`, and the
//! authorization scenarios (`auth/*`) of the current revision, against the example client
//! `mcp_conformance_client` (an `McpClient`, with `McpOAuth` where the server wants OAuth),
//! from the current release (baseline: `tests/mcp-peers/conformance-baseline.yml`); and the
//! next release's JSON Schema scenarios, `json-schema-2020-12-preservation` (the client sends
//! back the `inputSchema` it declares for a server's tool, `$anchor`, `allOf`/`anyOf` and
//! `if`/`then`/`else` included) and `json-schema-ref-no-deref` (a `$ref` to a URL is never
//! fetched).
//!
//! The suite writes each scenario's checks to `checks.json` under the test's temporary
//! directory in `target/`; a scenario passes when none of its checks is a failure or a
//! warning (the suite's own rule). The JSON Schema scenarios must also have no check skipped:
//! the suite skips the SEP-2106 keywords' checks before 2026-07-28 when they are missing.
//!
//! Needs the peers: `npm ci --prefix tests/mcp-peers` (`.ci/run` does it, and `mcp_support`
//! on first use).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::Duration;

use tokio::process::Command;

mod verdict;

use verdict::{
    BASELINE, Skipped, baseline, baseline_file, judge, judge_one, read_results, revision_baseline,
};

use crate::mcp_support::{
    conformance_client, conformance_next_suite, conformance_server_over_http, conformance_suite,
    peers, pinned_node,
};

/// How long one run of the suite may take: the server scenarios take a few seconds.
const SUITE_TIMEOUT: Duration = Duration::from_secs(180);

/// The revisions whose required server scenarios the example server runs, each with its
/// baseline.
const REVISIONS: [&str; 2] = ["2025-11-25", "2026-07-28"];

/// The server scenarios of what agentkit serves: tools (and the transport and lifecycle they
/// run on), resources, prompts, completion and caching hints through its seam, the stateless
/// core and its headers, input-required results, and tasks. Each must run at one revision at
/// least, pass wherever it runs, and be in no baseline.
const SERVED_SCENARIOS: [&str; 62] = [
    "server-initialize",
    "server-session-lifecycle",
    "ping",
    "logging-set-level",
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
    "http-header-validation",
    "resources-list",
    "resources-read-text",
    "resources-read-binary",
    "resources-templates-read",
    "resources-subscribe",
    "resources-unsubscribe",
    "sep-2164-resource-not-found",
    "prompts-list",
    "prompts-get-simple",
    "prompts-get-with-args",
    "prompts-get-embedded-resource",
    "prompts-get-with-image",
    "input-required-result-non-tool-request",
    "completion-complete",
    "caching",
    "server-stateless",
    "http-custom-header-server-validation",
    "input-required-result-basic-elicitation",
    "input-required-result-basic-sampling",
    "input-required-result-basic-list-roots",
    "input-required-result-request-state",
    "input-required-result-multiple-input-requests",
    "input-required-result-multi-round",
    "input-required-result-missing-input-response",
    "input-required-result-result-type",
    "input-required-result-unsupported-methods",
    "input-required-result-tampered-state",
    "input-required-result-capability-check",
    "input-required-result-ignore-extra-params",
    "input-required-result-validate-input",
    "tasks-lifecycle",
    "tasks-capability-negotiation",
    "tasks-wire-fields",
    "tasks-request-state-removal",
    "tasks-mrtr-input",
    "tasks-request-headers",
    "tasks-dispatch-and-envelope",
    "tasks-status-notifications",
    "tasks-required-task-error",
    "tasks-mrtr-composition",
];

/// The server scenarios a skipped check fails: `json-schema-2020-12` skips the SEP-2106
/// keywords' checks before 2026-07-28 when they are missing.
const NO_SKIPS: &[&str] = &["json-schema-2020-12"];

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
    let suite = conformance_next_suite(&peers);
    let (_server, url) = conformance_server_over_http().await;

    // Every scenario each revision requires, the two revisions at once against the one server.
    let [earlier, later] = REVISIONS.map(|revision| {
        let results = fresh_dir(&format!("server-{revision}"));
        let mut command = Command::new(pinned_node(&peers));
        command
            .arg(&suite)
            .args(["server", "--requirements", revision, "--url", &url])
            .arg("--expected-failures")
            .arg(baseline_file(&revision_baseline(revision)))
            .arg("--output-dir")
            .arg(&results);
        let peers = peers.clone();
        async move { (results, run(command, &peers).await) }
    });
    let runs = tokio::join!(earlier, later);

    let mut problems = Vec::new();
    let mut printed_runs = String::new();
    let mut ran = BTreeSet::new();
    for (revision, (results, output)) in REVISIONS.iter().zip([runs.0, runs.1]) {
        let scenarios = read_results(&results, "server-", Skipped::FailsIn(NO_SKIPS));
        let baseline = baseline(&revision_baseline(revision), "server");
        for problem in judge(&scenarios, &baseline, &revision_baseline(revision)) {
            problems.push(format!("at {revision}: {problem}"));
        }
        for scenario in SERVED_SCENARIOS {
            if baseline.contains(scenario) {
                problems.push(format!(
                    "at {revision}: {scenario} is a scenario of what agentkit serves: it must \
                     pass, not be in the baseline"
                ));
            }
        }
        // The suite's own verdict, from the same baseline, agrees.
        if !output.status.success() {
            problems.push(format!(
                "at {revision}: the suite failed ({})",
                output.status
            ));
        }
        ran.extend(scenarios.into_keys());
        printed_runs.push_str(&format!(
            "=== at {revision} (results in {})\n{}\n",
            results.display(),
            printed(&output)
        ));
    }
    for scenario in SERVED_SCENARIOS {
        if !ran.contains(scenario) {
            problems.push(format!("{scenario}: the suite ran it at no revision"));
        }
    }
    assert!(
        problems.is_empty(),
        "\nthe MCP conformance suite against the example server:\n  {}\n\n{printed_runs}",
        problems.join("\n  "),
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn the_client_passes_the_conformance_suite() {
    let Some(peers) = peers() else { return };
    let suite = conformance_suite(&peers);
    let baseline = baseline(BASELINE, "client");

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
    let baseline: BTreeSet<String> = baseline(BASELINE, "client")
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
        .arg(baseline_file(BASELINE))
        .arg("--output-dir")
        .arg(&results);
    let (output, (extension_results, extension_output)) = tokio::join!(
        run(command, &peers),
        client_scenario(&peers, &suite, AUTH_EXTENSION_SCENARIO)
    );

    let scenarios = read_results(&results, "", Skipped::Passes);
    let mut problems = judge(&scenarios, &baseline, BASELINE);
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

/// The optional authorization extensions the next suite runs beside the required client
/// scenarios, unscored: the only client scenarios a revision's baseline may list (with the
/// reason `McpClient` fails it).
const CLIENT_EXTENSIONS: [&str; 5] = [
    "auth/client-credentials-jwt",
    "auth/enterprise-managed-authorization",
    "auth/dpop",
    "auth/dpop-nonce",
    "auth/wif-jwt-bearer",
];

#[tokio::test(flavor = "multi_thread")]
async fn the_client_passes_both_requirement_sets_of_the_next_suite() {
    let Some(peers) = peers() else { return };
    let suite = conformance_next_suite(&peers);
    let mut problems = Vec::new();
    let mut printed_runs = String::new();
    for revision in REVISIONS {
        let results = fresh_dir(&format!("next-client-requirements-{revision}"));
        let mut command = Command::new(pinned_node(&peers));
        command
            .arg(&suite)
            .args(["client", "--requirements", revision, "--timeout", "30000"])
            .args(["--command", &client_command()])
            .arg("--output-dir")
            .arg(&results);
        let output = run(command, &peers).await;
        // The suite exits with a failure when a required scenario fails.
        if !output.status.success() {
            problems.push(format!(
                "at {revision}: the suite failed ({})",
                output.status
            ));
        }
        let name = revision_baseline(revision);
        let unscored = baseline(&name, "client");
        let scenarios = read_results(&results, "", Skipped::Passes);
        if scenarios.len() < 18 {
            problems.push(format!(
                "at {revision}: only {} scenarios ran",
                scenarios.len()
            ));
        }
        for (scenario, failures) in &scenarios {
            match (failures.is_empty(), unscored.contains(scenario)) {
                (false, false) => problems.push(format!(
                    "{scenario} at {revision} fails: {}",
                    failures.join("; ")
                )),
                (true, true) => problems.push(format!(
                    "{scenario} at {revision} passes: take it out of {name}"
                )),
                _ => {}
            }
        }
        for listed in &unscored {
            if !scenarios.contains_key(listed) {
                problems.push(format!(
                    "{listed} is in {name} but did not run at {revision}"
                ));
            }
        }
        printed_runs.push_str(&format!("=== at {revision}\n{}\n", printed(&output)));
    }
    assert!(
        problems.is_empty(),
        "\nthe next MCP conformance suite's client requirement sets against the example \
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
fn the_baselines_list_nothing_agentkit_serves() {
    for revision in REVISIONS {
        let name = revision_baseline(revision);
        let server = baseline(&name, "server");
        for scenario in SERVED_SCENARIOS {
            assert!(!server.contains(scenario), "{name} lists {scenario}");
        }
        for scenario in baseline(&name, "client") {
            assert!(
                CLIENT_EXTENSIONS.contains(&scenario.as_str()),
                "{name} lists {scenario}, a client scenario that must pass"
            );
        }
    }
    // The current suite runs client scenarios only, and they all pass.
    assert!(baseline(BASELINE, "server").is_empty());
    assert!(baseline(BASELINE, "client").is_empty());
}
