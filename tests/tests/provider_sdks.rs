//! Every declaration agentkit writes, checked by the providers' own code: the official Python
//! SDKs (`google-genai`, `openai`, `anthropic`, and `mcp`, pinned in
//! `tests/mcp-peers/requirements.txt`) validate each tool of the lowering corpus and of the
//! example, for every API and mode, with their request types (unknown keys refused), and
//! strict schemas go through each SDK's own strict-schema helper. `tests/provider-sdks/check.py`
//! says what each SDK checks and why.
//!
//! Needs the venv the MCP interoperability tests use: `python3 -m venv tests/mcp-peers/.venv &&
//! tests/mcp-peers/.venv/bin/pip install -r tests/mcp-peers/requirements.txt` (`.ci/run` makes
//! it). Without it the tests say so loudly and skip; under CI (`CI=true`) they fail.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use agentkit_core::ToolSpec;
use agentkit_core::provider::{anthropic, gemini, mcp, openai_chat, openai_responses};
use serde_json::{Value, json};

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;

use crate::provider_fixtures::registry;
use crate::provider_lowering::{generated, specs};

/// The venv's Python, with the three SDKs importable; else a loud skip line and `None`, or,
/// under CI, a failure (the convention of the MCP interoperability tests).
fn sdk_python() -> Option<PathBuf> {
    let python = Path::new(env!("CARGO_MANIFEST_DIR")).join("mcp-peers/.venv/bin/python");
    let imports = Command::new(&python)
        .args(["-c", "import google.genai, openai, anthropic, mcp"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    if imports {
        return Some(python);
    }
    let why = format!(
        "{} cannot import the providers' SDKs; make the venv: python3 -m venv \
         tests/mcp-peers/.venv && tests/mcp-peers/.venv/bin/pip install -r \
         tests/mcp-peers/requirements.txt",
        python.display()
    );
    let in_ci = std::env::var("CI").is_ok_and(|ci| !ci.is_empty() && ci != "false" && ci != "0");
    assert!(
        !in_ci,
        "\n!!! provider SDK test cannot run under CI: {why}\n"
    );
    // Straight to the process's stderr: the harness captures `eprintln!` of passing tests.
    let _ = writeln!(
        std::io::stderr(),
        "\n!!! SKIPPED provider SDK test: {why}\n"
    );
    None
}

/// What `check.py` found.
struct Report {
    /// How many declarations it checked.
    checked: usize,
    /// How many schemas each SDK helper saw (`openai_strict`, `anthropic_strict`,
    /// `gemini_json_schema`, `gemini_openapi`).
    helped: Value,
    /// Each problem, as `api tool: check: message`.
    problems: Vec<String>,
}

/// Runs `check.py` on `entries`.
fn sdk_check(python: &Path, entries: &[Value]) -> Report {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("provider-sdks/check.py");
    let mut child = Command::new(python)
        .arg(&script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the venv's python starts");
    let input = serde_json::to_vec(entries).expect("declarations serialise");
    // Written from a thread: the script's output could fill its pipe before it reads all of
    // its input.
    let mut stdin = child.stdin.take().expect("piped");
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let output = child.wait_with_output().expect("check.py runs");
    writer
        .join()
        .expect("the writer thread")
        .expect("check.py reads the declarations");
    assert!(
        output.status.success(),
        "check.py failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: Value = serde_json::from_slice(&output.stdout).expect("check.py prints JSON");
    let problems = report["problems"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|problem| {
            format!(
                "{} {}: {}: {}",
                problem["api"].as_str().unwrap_or("?"),
                problem["tool"].as_str().unwrap_or("?"),
                problem["check"].as_str().unwrap_or("?"),
                problem["message"].as_str().unwrap_or("?"),
            )
        })
        .collect();
    Report {
        checked: report["checked"].as_u64().expect("a count") as usize,
        helped: report["helped"].clone(),
        problems,
    }
}

fn entry(api: &str, tool: &str, declaration: Value) -> Value {
    json!({"api": api, "tool": tool, "declaration": declaration})
}

/// Each declaration of `spec`, for every API and mode, as `check.py` takes them.
fn declarations(spec: &ToolSpec) -> Vec<Value> {
    let name = spec.name();
    let first = |tools: Value| tools[0].clone();
    vec![
        entry("openai_chat", name, first(openai_chat::tools([spec]))),
        entry(
            "openai_chat_strict",
            name,
            first(openai_chat::strict_tools([spec])),
        ),
        entry(
            "openai_responses",
            name,
            first(openai_responses::tools([spec])),
        ),
        entry(
            "openai_responses_strict",
            name,
            first(openai_responses::strict_tools([spec])),
        ),
        entry("anthropic", name, first(anthropic::tools([spec]))),
        entry(
            "anthropic_strict",
            name,
            first(anthropic::strict_tools([spec])),
        ),
        entry("gemini", name, first(gemini::tools([spec]))),
        entry("gemini_openapi", name, first(gemini::openapi_tools([spec]))),
        entry("mcp", name, mcp::tool(spec)),
    ]
}

/// How many of `entries` each SDK helper should see: the strict declarations of OpenAI and
/// Anthropic, and Gemini's two schema forms.
fn expected_helped(entries: &[Value]) -> Value {
    let count = |api: &str, pick: &dyn Fn(&Value) -> bool| {
        entries
            .iter()
            .filter(|entry| entry["api"].as_str().is_some_and(|a| a.starts_with(api)))
            .filter(|entry| pick(&entry["declaration"]))
            .count()
    };
    let strict = |declaration: &Value| declaration["strict"] == true;
    let gemini = |key: &'static str| {
        move |declaration: &Value| declaration["functionDeclarations"][0].get(key).is_some()
    };
    json!({
        "openai_strict": count("openai_chat", &|d| d["function"]["strict"] == true)
            + count("openai_responses", &strict),
        "anthropic_strict": count("anthropic", &strict),
        "gemini_json_schema": count("gemini", &gemini("parametersJsonSchema")),
        "gemini_openapi": count("gemini", &gemini("parameters")),
    })
}

/// Tools of the forms the corpus's schemas do not show: no arguments, and an output schema
/// that is not an object (MCP 2026-07-28) with a title and annotations.
fn other_tools() -> Vec<ToolSpec> {
    let no_arguments = ToolSpec::builder("get_time")
        .description("The current time.")
        .build()
        .expect("builds");
    let annotated = ToolSpec::builder("list_names")
        .description("Every name.")
        .title("List names")
        .read_only(true)
        .destructive(false)
        .output_json_schema(json!({"type": "array", "items": {"type": "string"}}))
        .build()
        .expect("builds");
    vec![no_arguments, annotated]
}

#[test]
fn every_declaration_of_the_corpus_is_one_the_providers_sdks_accept() {
    let Some(python) = sdk_python() else { return };
    let mut specs = specs();
    specs.extend(other_tools());
    let entries: Vec<Value> = specs.iter().flat_map(declarations).collect();
    // Nine declarations per tool: the corpus's, the example's and the other tools, all of them.
    assert_eq!(entries.len(), 9 * specs.len());
    let report = sdk_check(&python, &entries);
    assert_eq!(report.checked, entries.len());
    assert!(
        report.problems.is_empty(),
        "the providers' SDKs refuse {} declarations:\n{}",
        report.problems.len(),
        report.problems.join("\n\n")
    );
    // Every strict declaration went through its SDK's strict helper, and most of the corpus
    // is strict in both modes (the rest is what `provider_lowering` shows strict cannot take).
    let expected = expected_helped(&entries);
    assert_eq!(report.helped, expected);
    for (helper, at_least) in [
        ("openai_strict", specs.len()),
        ("anthropic_strict", specs.len() / 2),
        ("gemini_json_schema", specs.len()),
        ("gemini_openapi", specs.len()),
    ] {
        let saw = expected[helper].as_u64().expect("a count") as usize;
        assert!(
            saw >= at_least,
            "{helper} saw {saw} schemas of {} tools",
            specs.len()
        );
    }
}

/// Generated schemas of every form `provider_lowering` generates (objects, tuples, unions, type
/// lists, maps, `allOf`, references, assertion keywords, nested), from a fixed seed so that a
/// failure repeats: their declarations too are ones the SDKs accept. One batch, one Python.
#[test]
fn the_declarations_of_generated_schemas_are_ones_the_providers_sdks_accept() {
    let Some(python) = sdk_python() else { return };
    let mut runner = TestRunner::deterministic();
    let strategy = generated();
    let specs: Vec<ToolSpec> = (0..200)
        .filter_map(|n| {
            let schema = strategy.new_tree(&mut runner).expect("a schema").current();
            // Only schemas a tool can be built with, as in `provider_lowering`.
            ToolSpec::builder(format!("generated_{n}"))
                .input_json_schema(schema)
                .build()
                .ok()
        })
        .collect();
    assert!(specs.len() >= 100, "{} of 200 schemas build", specs.len());
    let entries: Vec<Value> = specs.iter().flat_map(declarations).collect();
    let report = sdk_check(&python, &entries);
    assert_eq!(report.checked, entries.len());
    assert_eq!(report.helped, expected_helped(&entries));
    assert!(
        report.problems.is_empty(),
        "the providers' SDKs refuse {} declarations of generated schemas:\n{}",
        report.problems.len(),
        report.problems.join("\n\n")
    );
}

/// The whole `tools` list of a request where some tools are deferred: the deferred
/// functions marked `defer_loading`, and the API's tool search tool after them (Anthropic's
/// BM25 tool, OpenAI Responses' hosted `tool_search`), each checked by the SDK's type for
/// any tool of a request.
#[test]
fn a_request_s_tools_with_deferred_ones_and_the_search_tool_are_ones_the_sdks_accept() {
    let Some(python) = sdk_python() else { return };
    let registry = registry();
    let view = registry
        .toolset()
        .defer(|spec| spec.name() == "fetch_weather");
    let mut entries = Vec::new();
    let lists = [
        ("anthropic", anthropic::tools(view.tools())),
        ("anthropic_strict", anthropic::strict_tools(view.tools())),
        ("openai_responses", openai_responses::tools(view.tools())),
        (
            "openai_responses_strict",
            openai_responses::strict_tools(view.tools()),
        ),
    ];
    for (api, list) in lists {
        let tools = list.as_array().expect("a list");
        assert!(
            tools.iter().any(|tool| tool["defer_loading"] == true),
            "{api}: a deferred tool"
        );
        for tool in tools {
            // A function goes through the function's checks; the search tool through the
            // type of any tool.
            let function = tool.get("input_schema").is_some() || tool["type"] == "function";
            let (api, name) = match (function, api.split_once('_')) {
                (true, _) => (api.to_owned(), tool["name"].as_str().unwrap_or("?")),
                (false, Some(("openai", _))) => ("openai_responses_tool".to_owned(), "search"),
                (false, _) => ("anthropic_tool".to_owned(), "search"),
            };
            entries.push(entry(&api, name, tool.clone()));
        }
    }
    let searches = entries
        .iter()
        .filter(|entry| {
            entry["api"]
                .as_str()
                .is_some_and(|api| api.ends_with("_tool"))
        })
        .count();
    assert_eq!(searches, 4, "one search tool per list");
    let report = sdk_check(&python, &entries);
    assert_eq!(report.checked, entries.len());
    assert_eq!(report.helped, expected_helped(&entries));
    assert!(
        report.problems.is_empty(),
        "the providers' SDKs refuse {} declarations:\n{}",
        report.problems.len(),
        report.problems.join("\n\n")
    );
}

/// The check can fail: a declaration each SDK should refuse, one per check, is reported with
/// its API, its tool and the SDK's message.
#[test]
fn the_sdk_check_reports_each_declaration_a_provider_s_sdk_refuses() {
    let Some(python) = sdk_python() else { return };
    let spec = &specs()[0];
    let good = declarations(spec);
    let find = |api: &str| {
        good.iter()
            .find(|entry| entry["api"] == api)
            .expect("declared")["declaration"]
            .clone()
    };
    let mut broken = Vec::new();
    // A misspelt key of the request's type.
    let mut chat = find("openai_chat");
    let parameters = chat["function"]
        .as_object_mut()
        .expect("an object")
        .remove("parameters")
        .expect("parameters");
    chat["function"]["parameter"] = parameters;
    broken.push(entry("openai_chat", "misspelt", chat));
    // A strict schema the SDK's strict helper would change: an object not closed.
    let mut strict = find("openai_responses_strict");
    assert_eq!(strict["strict"], true, "the first corpus tool is strict");
    strict["parameters"]
        .as_object_mut()
        .expect("an object")
        .remove("additionalProperties");
    broken.push(entry("openai_responses_strict", "open", strict));
    // An input schema that is not an object.
    let mut claude = find("anthropic");
    claude["input_schema"]["type"] = json!("array");
    broken.push(entry("anthropic", "not_an_object", claude));
    // A strict schema the SDK's transformer cannot take: no type.
    let mut claude_strict = find("anthropic_strict");
    assert_eq!(
        claude_strict["strict"], true,
        "the first corpus tool is strict"
    );
    claude_strict["input_schema"]["properties"]["query"] = json!({"minLength": 1});
    broken.push(entry("anthropic_strict", "untyped", claude_strict));
    // A key Gemini's `FunctionDeclaration` does not know.
    let mut gemini_tool = find("gemini");
    gemini_tool["functionDeclarations"][0]["strict"] = json!(true);
    broken.push(entry("gemini", "unknown_key", gemini_tool));
    // A JSON Schema keyword outside the OpenAPI subset's `Schema`.
    let mut openapi = find("gemini_openapi");
    openapi["functionDeclarations"][0]["parameters"]["properties"]["query"]["const"] = json!("x");
    broken.push(entry("gemini_openapi", "json_schema_keyword", openapi));
    // A type outside the SDK's enum.
    let mut json_schema = find("gemini");
    json_schema["functionDeclarations"][0]["parametersJsonSchema"]["properties"]["query"]["type"] =
        json!("text");
    broken.push(entry("gemini", "bad_type", json_schema));
    // A value the SDK would not send: `Schema` reads a null default as unset.
    let mut dropped = find("gemini_openapi");
    dropped["functionDeclarations"][0]["parameters"]["properties"]["query"]["default"] =
        Value::Null;
    broken.push(entry("gemini_openapi", "null_default", dropped));
    // A search tool of a type the API does not have.
    broken.push(entry(
        "anthropic_tool",
        "bad_search",
        json!({"type": "tool_search_tool_bm25_20990101", "name": "tool_search_tool_bm25"}),
    ));
    broken.push(entry(
        "openai_responses_tool",
        "bad_search",
        json!({"type": "tool_search", "defer": true}),
    ));
    // An MCP tool without its input schema.
    let mut tool = find("mcp");
    tool.as_object_mut()
        .expect("an object")
        .remove("inputSchema");
    broken.push(entry("mcp", "no_input_schema", tool));
    // A hint MCP does not have (its `Tool` ignores it: the read-back check finds it).
    let mut tool = find("mcp");
    tool["annotations"] = json!({"readOnly": true});
    broken.push(entry("mcp", "unknown_hint", tool));

    let Report {
        checked, problems, ..
    } = sdk_check(&python, &broken);
    assert_eq!(checked, broken.len());
    let expected = [
        "function.parameter\n  Extra inputs are not permitted",
        "_ensure_strict_json_schema",
        "InputSchemaTyped\ntype\n  Input should be 'object'",
        "transform_schema: raised ValueError: Schema must have a 'type'",
        "functionDeclarations.0.strict",
        "query.const\n  Extra inputs are not permitted",
        "input_value='text'",
        "the SDK would send it otherwise: at '/functionDeclarations/0/parameters/properties/query/default'",
        "ToolSearchToolBm25_20251119Param.type",
        "ToolSearchToolParam.defer",
        "inputSchema\n  Field required",
        "keys the SDK does not know: at '/annotations/readOnly'",
    ];
    assert_eq!(expected.len(), broken.len());
    for (broken, expected) in broken.iter().zip(expected) {
        let prefix = format!(
            "{} {}:",
            broken["api"].as_str().unwrap(),
            broken["tool"].as_str().unwrap()
        );
        let reported: Vec<&String> = problems.iter().filter(|p| p.starts_with(&prefix)).collect();
        assert!(
            reported.iter().any(|problem| problem.contains(expected)),
            "{prefix} is reported with {expected:?}; the problems:\n{}",
            problems.join("\n\n")
        );
    }
    // And nothing else: the good declaration of each API passes.
    let problems = sdk_check(&python, &good).problems;
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}
