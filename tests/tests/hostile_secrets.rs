//! Planted secrets: a tool that puts its resolved credential in its error text, in a cause
//! deep in its error chain, in its error's `Debug` only, past the point where messages are
//! cut, or in a panic; in what a `ToolError` tells the model (a failure's model message, a
//! retry's feedback, a denial's reason); a credential provider whose error quotes a secret it
//! resolved before, and one it never resolved. A plain error's text never reaches the model;
//! a `ToolError`'s message does, redacted; a provider's error text is rendered nowhere.
//! Every rendering is checked (the harness renders the result's `Debug`, `Display`, every
//! source, the issues' JSON, the events an observer saw with `{:?}`, the `tracing` spans, the
//! recordings' `Debug` and JSON), and so is a replay from the recorded JSON fixture, which
//! must end as the live call did and tell the model the same.

use std::fmt;

use agentkit_core::{
    BoxError, CredentialError, CredentialProvider, Credentials, Error, ErrorKind, JsonObject,
    RecordedOutcome, Secret, TextLimits, ToolCall, ToolError, ToolRegistry, ToolSpec,
};

use crate::core_fixtures::{FnTool, Probe};
use crate::hostile_support::{Harness, KEY, KEY_2, Outcome, SECRET, renderings};

/// The secret resolved for `name`.
fn secret(creds: &Credentials, name: &str) -> String {
    creds
        .get(name)
        .map(|s| s.expose().to_owned())
        .unwrap_or_default()
}

/// A harness over one tool, `leaky`, needing both planted credentials and failing with what
/// `fail` makes of them.
fn leaky(fail: fn(&Credentials) -> BoxError) -> (Harness, Probe) {
    let spec = ToolSpec::builder("leaky")
        .credential(KEY)
        .credential(KEY_2)
        .build()
        .unwrap();
    let (tool, probe) = FnTool::new(spec, move |_, creds| Err(fail(creds)));
    let mut registry = ToolRegistry::new();
    registry.register(tool).unwrap();
    (Harness::new(registry), probe)
}

/// Runs `leaky`, checks every rendering of the live call and of its replay, and returns the
/// live outcome.
fn run_and_replay(harness: &Harness, kind: ErrorKind) -> Outcome {
    let call = ToolCall::new("call_1", "leaky", "{}");
    let outcome = harness.call(&call);
    let _ = outcome.error(kind);
    let _ = harness.replay(&outcome, &call);
    outcome
}

fn execution(outcome: &Outcome) -> &agentkit_core::ToolExecutionError {
    match outcome.result.error() {
        Some(Error::Execution(e)) => e,
        other => panic!("expected an execution error, got {other:?}"),
    }
}

/// What `leaky` says of the planted credentials when it fails.
fn leaky_text(creds: &Credentials) -> String {
    format!(
        "401 from upstream: key {} (and token {}) refused; retry with {}",
        secret(creds, KEY),
        secret(creds, KEY_2),
        secret(creds, KEY),
    )
}

/// [`leaky_text`] with the secrets redacted.
const LEAKY_TEXT_REDACTED: &str =
    "401 from upstream: key [redacted] (and token [redacted]) refused; retry with [redacted]";

#[test]
fn a_secret_in_a_tools_error_text_is_redacted_everywhere() {
    // A plain error: the model is told nothing of it; operators read it redacted.
    let (harness, probe) = leaky(|creds| leaky_text(creds).into());
    let outcome = run_and_replay(&harness, ErrorKind::Execution);
    assert_eq!(probe.runs(), 1);
    assert_eq!(outcome.model_text(), "Error: tool 'leaky' failed.");
    let e = execution(&outcome);
    assert_eq!(e.message(), LEAKY_TEXT_REDACTED);
    assert_eq!(e.model_message(), None);

    // The same text as a failure's model message: the model reads it redacted.
    let (harness, _) = leaky(|creds| {
        ToolError::failed(leaky_text(creds))
            .with_model_message(leaky_text(creds))
            .into()
    });
    let outcome = run_and_replay(&harness, ErrorKind::Execution);
    assert_eq!(
        outcome.model_text(),
        format!("Error: tool 'leaky' failed: {LEAKY_TEXT_REDACTED}")
    );
    let e = execution(&outcome);
    assert_eq!(e.message(), LEAKY_TEXT_REDACTED);
    assert_eq!(e.model_message(), Some(LEAKY_TEXT_REDACTED));
}

#[test]
fn a_secret_in_a_retry_feedback_or_a_denial_is_redacted_everywhere() {
    // The harness checks the model text, `Display`, `Debug`, every source, the events, the
    // spans and the recordings, live and replayed.
    let (harness, _) = leaky(|creds| ToolError::retry(leaky_text(creds)).into());
    let outcome = run_and_replay(&harness, ErrorKind::Retry);
    assert!(outcome.result.is_retryable());
    assert_eq!(
        outcome.model_text(),
        format!(
            "Error: tool 'leaky' asks you to correct the call and try again: \
             {LEAKY_TEXT_REDACTED}"
        )
    );
    assert_eq!(
        execution(&outcome).model_message(),
        Some(LEAKY_TEXT_REDACTED)
    );

    let (harness, _) = leaky(|creds| ToolError::denied(leaky_text(creds)).into());
    let outcome = run_and_replay(&harness, ErrorKind::Denied);
    assert!(!outcome.result.is_retryable());
    assert_eq!(
        outcome.model_text(),
        format!("Error: the call to tool 'leaky' was denied: {LEAKY_TEXT_REDACTED}")
    );
    assert_eq!(
        execution(&outcome).model_message(),
        Some(LEAKY_TEXT_REDACTED)
    );
    let RecordedOutcome::Error(recorded) = &outcome.recordings[0].outcome else {
        panic!("{:?}", outcome.recordings[0])
    };
    assert_eq!(recorded.model_message.as_deref(), Some(LEAKY_TEXT_REDACTED));

    // A feedback longer than what is kept, cut inside a secret: no rendering shows its
    // beginning either.
    let half = &SECRET[..SECRET.len() / 2];
    for pad in 8_170..8_200 {
        let spec = ToolSpec::builder("leaky").credential(KEY).build().unwrap();
        let (tool, _) = FnTool::new(spec, move |_, creds| {
            Err(ToolError::retry(format!("{}{}", "x".repeat(pad), secret(creds, KEY))).into())
        });
        let mut registry = ToolRegistry::new();
        registry.register(tool).unwrap();
        let harness = Harness::new(registry);
        let outcome = run_and_replay(&harness, ErrorKind::Retry);
        assert_no_half(&outcome, half, pad);
    }
}

/// Fails if any rendering of `outcome` (its result, events and recordings) shows `half`.
fn assert_no_half(outcome: &Outcome, half: &str, pad: usize) {
    let mut texts: Vec<String> = renderings(&outcome.result)
        .into_iter()
        .map(|(_, text)| text)
        .collect();
    texts.extend(outcome.events.iter().map(|e| e.debug.clone()));
    texts.push(format!("{:?}", outcome.recordings));
    texts.push(serde_json::to_string(&outcome.recordings).unwrap());
    for text in texts {
        assert!(
            !text.contains(half),
            "cut at {pad}: …{}",
            &text[text.len().saturating_sub(40)..]
        );
    }
}

/// An error that wraps another, showing a clean message itself.
#[derive(Debug)]
struct Wrapped {
    message: &'static str,
    source: BoxError,
}

impl fmt::Display for Wrapped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message)
    }
}

impl std::error::Error for Wrapped {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&*self.source)
    }
}

#[test]
fn a_secret_deep_in_the_error_chain_is_redacted() {
    let (harness, _) = leaky(|creds| {
        let inner: BoxError =
            format!("bad header Authorization: Bearer {}", secret(creds, KEY)).into();
        Box::new(Wrapped {
            message: "request failed",
            source: Box::new(Wrapped {
                message: "transport error",
                source: inner,
            }),
        })
    });
    let outcome = run_and_replay(&harness, ErrorKind::Execution);
    assert_eq!(outcome.model_text(), "Error: tool 'leaky' failed.");
    // The chain is kept, redacted, for operators.
    assert_eq!(chain(execution(&outcome)), CHAIN_REDACTED);

    // The same chain as the cause of a failure whose model message the tool made of it: the
    // model reads the message redacted, operators the chain.
    let (harness, _) = leaky(|creds| {
        let inner = format!("bad header Authorization: Bearer {}", secret(creds, KEY));
        let chain = Wrapped {
            message: "request failed",
            source: Box::new(Wrapped {
                message: "transport error",
                source: inner.clone().into(),
            }),
        };
        ToolError::failed(chain)
            .with_model_message(format!("request failed: transport error: {inner}"))
            .into()
    });
    let outcome = run_and_replay(&harness, ErrorKind::Execution);
    assert_eq!(
        outcome.model_text(),
        "Error: tool 'leaky' failed: request failed: transport error: bad header \
         Authorization: Bearer [redacted]"
    );
    assert_eq!(chain(execution(&outcome)), CHAIN_REDACTED);
}

/// The messages of the redacted chain of [`a_secret_deep_in_the_error_chain_is_redacted`].
const CHAIN_REDACTED: [&str; 3] = [
    "request failed",
    "transport error",
    "bad header Authorization: Bearer [redacted]",
];

/// The messages of `e`'s cause and of each of its sources.
fn chain(e: &agentkit_core::ToolExecutionError) -> Vec<String> {
    let mut messages = vec![e.cause().to_string()];
    let mut next = e.cause().source();
    while let Some(cause) = next {
        messages.push(cause.to_string());
        next = cause.source();
    }
    messages
}

/// An error whose `Display` is clean and whose `Debug` shows the credential it was built with.
#[derive(Debug)]
#[allow(dead_code)] // the fields are read by `Debug` only
struct RequestError {
    status: u16,
    api_key: String,
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "upstream answered {}", self.status)
    }
}

impl std::error::Error for RequestError {}

#[test]
fn a_secret_in_an_errors_debug_only_is_redacted() {
    let (harness, _) = leaky(|creds| {
        Box::new(RequestError {
            status: 403,
            api_key: secret(creds, KEY),
        })
    });
    let outcome = run_and_replay(&harness, ErrorKind::Execution);
    assert_eq!(outcome.model_text(), "Error: tool 'leaky' failed.");
    assert_eq!(
        execution(&outcome).cause().to_string(),
        "upstream answered 403"
    );

    // A model message the tool made of that `Debug`: the model reads it redacted, and the
    // cause is kept for operators as its clean message.
    let (harness, _) = leaky(|creds| {
        let error = RequestError {
            status: 403,
            api_key: secret(creds, KEY),
        };
        let told = format!("{error:?}");
        ToolError::failed(error).with_model_message(told).into()
    });
    let outcome = run_and_replay(&harness, ErrorKind::Execution);
    assert_eq!(
        outcome.model_text(),
        "Error: tool 'leaky' failed: RequestError { status: 403, api_key: \"[redacted]\" }"
    );
    let e = execution(&outcome);
    assert_eq!(e.cause().to_string(), "upstream answered 403");
    assert!(
        !e.cause().is::<RequestError>(),
        "a stand-in, not the leaky cause"
    );
}

/// An error whose `Debug` is long, with the credential at its end.
#[derive(Debug)]
#[allow(dead_code)] // the fields are read by `Debug` only
struct VerboseError {
    response_body: String,
    api_key: String,
}

impl fmt::Display for VerboseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("upstream sent an error page")
    }
}

impl std::error::Error for VerboseError {}

#[test]
fn a_secret_past_where_messages_are_cut_is_redacted() {
    // In the `Debug`, after a long response body.
    let (harness, _) = leaky(|creds| {
        Box::new(VerboseError {
            response_body: "<html>".repeat(5_000),
            api_key: secret(creds, KEY),
        })
    });
    let _ = run_and_replay(&harness, ErrorKind::Execution);

    // In the message itself, after 64 KiB.
    let (harness, _) =
        leaky(|creds| format!("{} key={}", "x".repeat(64 * 1024), secret(creds, KEY)).into());
    let _ = run_and_replay(&harness, ErrorKind::Execution);

    // Cut inside the secret: no rendering shows its first half either. Messages are read up
    // to a few KiB; every cut position around 8 KiB is tried.
    let half = &SECRET[..SECRET.len() / 2];
    for pad in 8_150..8_200 {
        let spec = ToolSpec::builder("leaky").credential(KEY).build().unwrap();
        let (tool, _) = FnTool::new(spec, move |_, creds| {
            Err(format!("{}{}", "x".repeat(pad), secret(creds, KEY)).into())
        });
        let mut registry = ToolRegistry::new();
        registry.register(tool).unwrap();
        let harness = Harness::new(registry);
        let outcome = run_and_replay(&harness, ErrorKind::Execution);
        assert_no_half(&outcome, half, pad);
    }

    // In a failure's model message, past what is kept of it, and cut inside the secret:
    // what the recordings keep for the model shows no part of it.
    let (harness, _) = leaky(|creds| {
        let told = format!("{} key={}", "x".repeat(64 * 1024), secret(creds, KEY));
        ToolError::failed("upstream refused the key")
            .with_model_message(told)
            .into()
    });
    let _ = run_and_replay(&harness, ErrorKind::Execution);
    for pad in 8_170..8_200 {
        let spec = ToolSpec::builder("leaky").credential(KEY).build().unwrap();
        let (tool, _) = FnTool::new(spec, move |_, creds| {
            let told = format!("{}{}", "x".repeat(pad), secret(creds, KEY));
            Err(ToolError::failed("refused").with_model_message(told).into())
        });
        let mut registry = ToolRegistry::new();
        registry.register(tool).unwrap();
        let harness = Harness::new(registry);
        let outcome = run_and_replay(&harness, ErrorKind::Execution);
        assert!(execution(&outcome).model_message().is_some());
        assert_no_half(&outcome, half, pad);
    }

    // At the bottom of a chain of thirty errors.
    let (harness, _) = leaky(|creds| {
        let mut error: BoxError = format!("root cause: key {}", secret(creds, KEY)).into();
        for _ in 0..30 {
            error = Box::new(Wrapped {
                message: "wrapped",
                source: error,
            });
        }
        error
    });
    let _ = run_and_replay(&harness, ErrorKind::Execution);
}

#[test]
fn a_secret_in_a_panic_is_redacted_and_never_reaches_the_model() {
    let (harness, _) = leaky(|creds| {
        panic!(
            "assertion failed: key {} was refused, token {}",
            secret(creds, KEY),
            secret(creds, KEY_2)
        )
    });
    let outcome = run_and_replay(&harness, ErrorKind::Panic);
    assert_eq!(
        outcome.model_text(),
        "Error: tool 'leaky' failed unexpectedly."
    );
    let e = execution(&outcome);
    assert!(e.is_panic());
    assert_eq!(
        e.message(),
        "the tool panicked: assertion failed: key [redacted] was refused, token [redacted]"
    );
}

/// A secret the provider knows but never resolves for any call (another key's value, a
/// vault's admin token): the executor cannot know to scrub it.
const UNRESOLVED: &str = "hvs-PLANTED-vault-root-5c2e91";

/// Resolves [`KEY`], then fails on [`KEY_2`] with an error quoting the first secret and an
/// [`UNRESOLVED`] one, in its message, its source and its `Debug`.
struct LeakyProvider;

impl CredentialProvider for LeakyProvider {
    fn resolve(&self, name: &str) -> Result<Option<Secret>, BoxError> {
        if name == KEY {
            return Ok(Some(Secret::new(SECRET)));
        }
        Err(Box::new(Wrapped {
            message: "vault session expired",
            source: format!("session opened with {SECRET}, root token {UNRESOLVED}").into(),
        }))
    }
}

fn leaky_provider_harness() -> (Harness, Probe) {
    let spec = ToolSpec::builder("leaky")
        .credential(KEY)
        .credential(KEY_2)
        .build()
        .unwrap();
    let (tool, probe) = FnTool::new(spec, |_, _| Ok(JsonObject::new()));
    let mut registry = ToolRegistry::new();
    registry.register(tool).unwrap();
    let harness = Harness::configured(registry, TextLimits::DEFAULT, |builder| {
        builder.credentials(LeakyProvider)
    });
    (harness, probe)
}

#[test]
fn a_credential_providers_error_text_is_rendered_nowhere() {
    let (harness, probe) = leaky_provider_harness();
    let call = ToolCall::new("c", "leaky", "{}");
    let outcome = harness.call(&call);
    let error = outcome.error(ErrorKind::Credential);
    assert_eq!(probe.runs(), 0);
    assert_eq!(
        outcome.model_text(),
        "Error: tool 'leaky' failed unexpectedly."
    );
    // Operators learn which credential failed and that the provider failed: its name and
    // the failure's kind, from the error's message, `Debug` and chain alike.
    assert_eq!(
        error.to_string(),
        "tool 'leaky' failed: credential 'db-token' could not be resolved, so the tool was not run"
    );
    let e = execution(&outcome);
    assert!(e.is_credential());
    assert!(e.cause().source().is_none(), "no source chain to render");
    // Nothing the executor made of the call carries the provider's text: not the secret it
    // resolved, not the one it never did, not even its words.
    let replayed = harness.replay(&outcome, &call);
    let mut texts: Vec<(String, String)> = renderings(&outcome.result);
    texts.extend(renderings(&replayed.result));
    for (what, events) in [
        ("event", &outcome.events),
        ("replayed event", &replayed.events),
    ] {
        texts.extend(events.iter().map(|e| (what.to_owned(), e.debug.clone())));
    }
    texts.extend(outcome.spans.iter().map(|s| ("span".to_owned(), s.clone())));
    texts.push((
        "recordings".to_owned(),
        format!(
            "{:?} {}",
            outcome.recordings,
            serde_json::to_string(&outcome.recordings).unwrap()
        ),
    ));
    for (what, text) in &texts {
        for quoted in [
            UNRESOLVED,
            SECRET,
            "vault session expired",
            "session opened",
        ] {
            assert!(!text.contains(quoted), "{what} shows {quoted:?}: {text}");
        }
    }
    // Asked for explicitly, the provider's own error, untouched.
    let credential = e
        .cause()
        .downcast_ref::<CredentialError>()
        .expect("a credential error");
    assert_eq!(credential.name(), KEY_2);
    assert!(!credential.is_missing());
    let provider = credential.provider_error().expect("the provider's error");
    assert_eq!(provider.to_string(), "vault session expired");
    let source = provider.source().expect("its cause").to_string();
    assert!(
        source.contains(UNRESOLVED) && source.contains(SECRET),
        "{source}"
    );
}

#[test]
fn a_tool_that_leaks_nothing_keeps_its_error_as_is() {
    // Redaction replaces only what shows a secret: a clean cause keeps its type.
    let (harness, _) = leaky(|_| {
        Box::new(RequestError {
            status: 503,
            api_key: "not-the-planted-one".to_owned(),
        })
    });
    let outcome = run_and_replay(&harness, ErrorKind::Execution);
    assert!(execution(&outcome).cause().is::<RequestError>());
}
