//! Behaviour of credentials: the environment and in-memory providers, and the guarantee that
//! a secret never appears in any `Debug`, `Display`, error, event or recording.

use std::process::Command;
use std::sync::{Arc, Mutex, PoisonError};

use agentkit_core::{
    BoxError, CredentialProvider, Credentials, EnvCredentials, ExecutionRecorder,
    InMemoryCredentials, NoCredentials, Secret, ToolCall, ToolEvent, ToolExecutor, ToolRegistry,
    ToolResult, ToolSpec, block_on,
};
use serde_json::json;

use crate::core_fixtures::{FnTool, WEATHER_KEY, obj, weather_tool};

// ---------------------------------------------------------------- Secret and Credentials

#[test]
fn a_secret_shows_only_through_expose() {
    let secret = Secret::new("sk-abc");
    assert_eq!(secret.expose(), "sk-abc");
    assert_eq!(secret.to_string(), "[REDACTED]");
    assert_eq!(format!("{secret:?}"), "Secret([REDACTED])");
    assert_eq!(format!("{secret:#?}"), "Secret([REDACTED])");
    assert_eq!(Secret::from("sk-abc"), secret);
    assert_eq!(Secret::from(String::from("sk-abc")), secret);
}

#[test]
fn credentials_hold_named_secrets_in_order() {
    let creds = Credentials::from_iter([("b-key", Secret::new("1")), ("a-key", Secret::new("2"))]);
    assert_eq!(creds.len(), 2);
    assert!(!creds.is_empty());
    assert_eq!(creds.names().collect::<Vec<_>>(), ["b-key", "a-key"]);
    assert_eq!(creds.get("a-key").map(Secret::expose), Some("2"));
    assert!(creds.get("c-key").is_none());
    assert_eq!(creds.require("b-key").unwrap().expose(), "1");
    let missing = creds.require("c-key").unwrap_err();
    assert_eq!(missing.name(), "c-key");
    assert!(missing.to_string().contains("'c-key'"), "{missing}");
    assert!(Credentials::new().is_empty());
}

// ---------------------------------------------------------------- providers

#[test]
fn in_memory_credentials_resolve_by_name() {
    let mut creds = InMemoryCredentials::new().with("weather-api-key", "sk-1");
    creds.insert("geo-key", Secret::new("g-1"));
    assert_eq!(
        creds
            .resolve("weather-api-key")
            .unwrap()
            .map(|s| s.expose().to_owned()),
        Some("sk-1".to_owned())
    );
    assert_eq!(
        creds
            .resolve("geo-key")
            .unwrap()
            .map(|s| s.expose().to_owned()),
        Some("g-1".to_owned())
    );
    assert!(creds.resolve("WEATHER-API-KEY").unwrap().is_none());
    assert!(creds.resolve("").unwrap().is_none());
    // Replacing a credential keeps the latest value.
    let creds = creds.with("geo-key", "g-2");
    assert_eq!(creds.resolve("geo-key").unwrap().unwrap().expose(), "g-2");
    // Shared providers resolve the same.
    let shared = Arc::new(creds);
    assert_eq!(shared.resolve("geo-key").unwrap().unwrap().expose(), "g-2");
    assert!(NoCredentials.resolve("geo-key").unwrap().is_none());
}

#[test]
fn env_credentials_map_names_to_variables() {
    let env = EnvCredentials::new();
    assert_eq!(env.variable_for("weather-api-key"), "WEATHER_API_KEY");
    assert_eq!(env.variable_for("github.token"), "GITHUB_TOKEN");
    assert_eq!(env.variable_for("already_UPPER"), "ALREADY_UPPER");
    assert_eq!(env.variable_for("key 2"), "KEY_2");
    assert_eq!(env.variable_for("clé"), "CL_");
    let prefixed = EnvCredentials::with_prefix("AGENT_");
    assert_eq!(
        prefixed.variable_for("weather-api-key"),
        "AGENT_WEATHER_API_KEY"
    );
}

const CHILD: &str = "AGENTKIT_CORE_CREDENTIALS_CHILD";

/// Runs in a child process only (see `env_credentials_read_the_process_environment`), which
/// sets the variables: Rust 2024 makes `set_var` unsafe, and this workspace forbids unsafe
/// code, so the environment is prepared by the parent instead.
#[test]
fn env_credentials_child_process() {
    if std::env::var_os(CHILD).is_none() {
        return;
    }
    let env = EnvCredentials::new();
    let value =
        |p: &EnvCredentials, name: &str| p.resolve(name).unwrap().map(|s| s.expose().to_owned());
    assert_eq!(value(&env, "weather-api-key").as_deref(), Some("from-env"));
    assert_eq!(value(&env, "github.token").as_deref(), Some("gh-token"));
    assert_eq!(
        value(&env, "empty-key"),
        None,
        "an empty variable counts as missing"
    );
    assert_eq!(value(&env, "agentkit-surely-unset-key"), None);
    let prefixed = EnvCredentials::with_prefix("AGENT_");
    assert_eq!(
        value(&prefixed, "weather-api-key").as_deref(),
        Some("prefixed")
    );
    assert_eq!(value(&prefixed, "github.token"), None);

    // And through an executor: the tool receives the variable's value.
    let (tool, probe) = weather_tool();
    let mut registry = ToolRegistry::new();
    registry.register(tool).unwrap();
    let executor = ToolExecutor::builder(registry)
        .credentials(EnvCredentials::with_prefix("AGENT_"))
        .build();
    let result = block_on(executor.execute("fetch_weather", obj(json!({"city": "Paris"}))));
    assert!(result.is_success(), "{result:?}");
    assert_eq!(
        probe.seen()[0].credentials,
        [(WEATHER_KEY.to_owned(), "prefixed".to_owned())]
    );
    println!("child ran");
}

#[test]
fn env_credentials_read_the_process_environment() {
    // The harness names a test by its path in the test binary, less the crate's name.
    let test = concat!(module_path!(), "::env_credentials_child_process");
    let test = test.split_once("::").expect("a test path").1;
    let output = Command::new(std::env::current_exe().unwrap())
        .args([test, "--exact", "--nocapture"])
        .env(CHILD, "1")
        .env("WEATHER_API_KEY", "from-env")
        .env("AGENT_WEATHER_API_KEY", "prefixed")
        .env("GITHUB_TOKEN", "gh-token")
        .env("EMPTY_KEY", "")
        .env_remove("AGENTKIT_SURELY_UNSET_KEY")
        .env_remove("AGENT_GITHUB_TOKEN")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "child failed:\n{stdout}\n{stderr}");
    assert!(
        stdout.contains("child ran"),
        "the child test did not run:\n{stdout}"
    );
    assert!(stdout.contains("1 passed"), "{stdout}");
}

#[test]
fn provider_debug_output_names_but_never_reveals() {
    let creds = InMemoryCredentials::new()
        .with("weather-api-key", "sk-live-very-secret")
        .with("a-key", "other-secret");
    let debug = format!("{creds:?} {creds:#?}");
    assert!(debug.contains("weather-api-key"), "{debug}");
    assert!(!debug.contains("sk-live-very-secret"), "{debug}");
    assert!(!debug.contains("other-secret"), "{debug}");
    let env = format!("{:?}", EnvCredentials::with_prefix("AGENT_"));
    assert!(env.contains("AGENT_"), "{env}");
}

// ---------------------------------------------------------------- THE SECRET TEST

const SECRET: &str = "sk-live-9Q7zXw3-top-secret";

/// Every rendering of `error` and of each error in its source chain.
fn error_renderings(error: &(dyn std::error::Error + 'static)) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = Some(error);
    while let Some(e) = current {
        out.push(format!("{e}"));
        out.push(format!("{e:?}"));
        out.push(format!("{e:#?}"));
        current = e.source();
    }
    out
}

fn result_renderings(result: &ToolResult) -> Vec<String> {
    let mut out = vec![
        format!("{result:?}"),
        format!("{result:#?}"),
        result.to_model_content(),
    ];
    if let Some(error) = result.error() {
        out.extend(error_renderings(error));
        out.push(error.to_model_message());
        out.push(error.kind().to_string());
    }
    out
}

#[test]
fn the_secret_never_appears_in_any_rendering() {
    // What the tools themselves wrote down about their credentials.
    let tool_renderings = Arc::new(Mutex::new(Vec::<String>::new()));
    let note = {
        let sink = Arc::clone(&tool_renderings);
        move |creds: &Credentials| {
            let secret = creds.get(WEATHER_KEY).expect("resolved");
            assert_eq!(secret.expose(), SECRET, "the tool does get the real value");
            sink.lock().unwrap_or_else(PoisonError::into_inner).extend([
                format!("{creds:?}"),
                format!("{creds:#?}"),
                format!("{secret:?}"),
                format!("{secret}"),
            ]);
        }
    };

    let spec = |name: &'static str, extra: Option<&'static str>| {
        let mut b = ToolSpec::builder(name)
            .input(
                agentkit_core::ToolSchema::new([agentkit_core::Param::required(
                    "q",
                    agentkit_core::ParamType::String,
                )])
                .unwrap(),
            )
            .credential(WEATHER_KEY);
        if let Some(extra) = extra {
            b = b.credential(extra);
        }
        b.build().unwrap()
    };
    let n1 = note.clone();
    let (ok, _) = FnTool::new(spec("ok_tool", None), move |inputs, creds| {
        n1(creds);
        Ok(inputs.clone())
    });
    let n2 = note.clone();
    let (failing, _) = FnTool::new(spec("failing_tool", None), move |_, creds| {
        n2(creds);
        // An error with a source chain, none of it secret.
        let inner: BoxError = "connection reset by peer".into();
        Err(Box::new(std::io::Error::other(inner)) as BoxError)
    });
    let n3 = note.clone();
    let (panicking, _) = FnTool::new(spec("panicking_tool", None), move |_, creds| {
        n3(creds);
        panic!("the tool gave up");
    });
    let (needs_other, other_probe) =
        FnTool::new(spec("needs_other_tool", Some("other-key")), |i, _| {
            Ok(i.clone())
        });
    let n4 = note;
    let (bad_output, _) = FnTool::new(
        ToolSpec::builder("bad_output_tool")
            .output(
                agentkit_core::ToolSchema::new([agentkit_core::Param::required(
                    "n",
                    agentkit_core::ParamType::Integer,
                )])
                .unwrap(),
            )
            .credential(WEATHER_KEY)
            .build()
            .unwrap(),
        move |_, creds| {
            n4(creds);
            Ok(obj(json!({"n": "not a number"})))
        },
    );

    let mut registry = ToolRegistry::new();
    for tool in [ok, failing, panicking, needs_other, bad_output] {
        registry.register(tool).unwrap();
    }
    let recorder = ExecutionRecorder::new();
    let events = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = Arc::clone(&events);
    let provider = InMemoryCredentials::new().with(WEATHER_KEY, SECRET);
    let provider_debug = format!("{provider:?} {provider:#?}");
    let executor = ToolExecutor::builder(registry)
        .credentials(provider)
        .observer(recorder.clone())
        .observer(move |event: &ToolEvent<'_>| {
            sink.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .extend([format!("{event:?}"), format!("{event:#?}")]);
        })
        .build();

    let calls = [
        ToolCall::new("c1", "ok_tool", r#"{"q": "weather"}"#), // success
        ToolCall::new("c2", "ok_tool", r#"{"q": 5, "x": 1}"#), // input validation
        ToolCall::new("c3", "ok_tool", "not json"),            // input validation
        ToolCall::new("c4", "failing_tool", r#"{"q": "a"}"#),  // execution error
        ToolCall::new("c5", "panicking_tool", r#"{"q": "a"}"#), // panic
        ToolCall::new("c6", "needs_other_tool", r#"{"q": "a"}"#), // missing other credential
        ToolCall::new("c7", "bad_output_tool", "{}"),          // output validation
        ToolCall::new("c8", "ok_tol", "{}"),                   // unknown tool
    ];
    let mut results: Vec<ToolResult> = calls
        .iter()
        .map(|c| block_on(executor.dispatch(c)))
        .collect();
    // Strict mode too.
    for call in &calls[1..] {
        let err = block_on(executor.try_dispatch(call)).unwrap_err();
        let mut texts = error_renderings(&err);
        texts.push(err.to_model_message());
        for text in texts {
            assert!(!text.contains(SECRET), "strict error leaks: {text}");
        }
    }
    results.extend(block_on(executor.dispatch_all(&calls)));

    // The calls did what they were meant to, so every path was taken.
    let kinds: Vec<Option<&str>> = results[..8]
        .iter()
        .map(|r| r.error().map(|e| e.kind().as_str()))
        .collect();
    assert_eq!(
        kinds,
        [
            None,
            Some("input_validation"),
            Some("input_validation"),
            Some("execution"),
            Some("panic"),
            Some("credential"),
            Some("output_validation"),
            Some("unknown_tool"),
        ]
    );
    assert_eq!(other_probe.runs(), 0);

    let mut texts: Vec<String> = Vec::new();
    for result in &results {
        texts.extend(result_renderings(result));
    }
    let events = events
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    assert!(
        events.len() >= 2 * calls.len() * 3,
        "every call emitted events"
    );
    texts.extend(events);
    let recordings = recorder.recordings();
    assert_eq!(recordings.len(), 3 * calls.len() - 1);
    texts.push(format!("{recordings:?}"));
    texts.push(format!("{recordings:#?}"));
    texts.push(serde_json::to_string(&recordings).unwrap());
    texts.push(format!("{recorder:?}"));
    texts.push(format!("{:?}", recorder.replay()));
    let tool_texts = tool_renderings
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    assert!(!tool_texts.is_empty());
    texts.extend(tool_texts);
    texts.push(provider_debug);
    texts.push(format!("{executor:?}"));
    texts.push(format!("{executor:#?}"));
    texts.push(format!("{:?}", executor.registry()));

    for text in &texts {
        assert!(!text.contains(SECRET), "the secret leaked into: {text}");
        // Not even a recognisable part of it.
        assert!(
            !text.contains("9Q7zXw3"),
            "part of the secret leaked into: {text}"
        );
    }
    // The redaction marker shows credentials were there, and redacted.
    assert!(texts.iter().any(|t| t.contains("[REDACTED]")));
    // And the renderings are about something: the credential is named, not valued.
    assert!(texts.iter().any(|t| t.contains("'other-key'")));
}
