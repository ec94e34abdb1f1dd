//! `McpClient::connect_http_with_oauth` and what it is entrusted with: the client secret and
//! the tokens it gets appear in no `Debug` or `Display`, no error, no event and no log line;
//! the authorization code in none of agentkit's log lines, nor in rmcp's once filtered as the
//! `mcp` docs advise (`rmcp=info`: rmcp logs the code at `debug`); and a failed
//! authorization says which step failed. Against the servers of the conformance suite's
//! `auth/pre-registration` scenario (an authorization server that knows one pre-registered
//! client, authenticated with `client_secret_basic`, and approves every authorization request
//! at once; an MCP server that wants its tokens); for the client credentials grant's log lines,
//! of its `auth/client-credentials-basic`; and for the failures of a private key and a
//! workload's assertion, of its `auth/client-credentials-jwt` and (its next release's)
//! `auth/wif-jwt-bearer` scenarios; run by the suite in its interactive mode. (Each authorization scenario is run in
//! `conformance.rs`.)
//!
//! Needs the peers: `npm ci --prefix tests/mcp-peers` (`.ci/run` does it).

use std::fmt::{self, Write as _};
use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use agentkit_core::mcp::{
    EnterpriseIdp, JwtSigningAlgorithm, McpAuthError, McpClient, McpErrorKind, McpOAuth,
};
use agentkit_core::{
    BoxError, Secret, ToolCall, ToolEvent, ToolExecutor, ToolObserver, ToolRegistry,
};
use serde_json::json;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

use crate::mcp_support::{
    PEER_TIMEOUT, conformance_next_scenario_servers, conformance_scenario_servers, peers,
};

/// The scenario's pre-registered client (fixed by the suite).
const CLIENT_ID: &str = "pre-registered-client";
const CLIENT_SECRET: &str = "pre-registered-secret";
/// How every access token the scenario's authorization server issues begins.
const TOKEN_PREFIX: &str = "test-token";
/// Never contacted: the authorization server's redirect is read, not followed.
const REDIRECT_URI: &str = "http://localhost:3000/callback";

async fn bounded<T>(future: impl Future<Output = T>) -> T {
    tokio::time::timeout(PEER_TIMEOUT, future)
        .await
        .expect("the MCP peer did not answer in time")
}

/// Stands in for the person and their browser: the authorization server approves at once,
/// with a redirect to the redirect URI, which is the authorization response.
async fn approve(url: String) -> Result<String, BoxError> {
    approve_keeping(url, Codes::default()).await
}

/// The authorization codes the authorization server gave, as the redirects carried them.
#[derive(Clone, Default)]
struct Codes(Arc<Mutex<Vec<String>>>);

impl Codes {
    fn all(&self) -> Vec<String> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

/// [`approve`], keeping the code of each redirect in `codes`.
async fn approve_keeping(url: String, codes: Codes) -> Result<String, BoxError> {
    let browser = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()?;
    let response = browser.get(url).send().await?;
    let location = response
        .headers()
        .get(reqwest::header::LOCATION)
        .ok_or("no redirect")?;
    let location = location.to_str()?.to_owned();
    let code = location
        .split(['?', '&'])
        .find_map(|pair| pair.strip_prefix("code="))
        .ok_or("no code in the redirect")?;
    codes
        .0
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push(code.to_owned());
    Ok(location)
}

/// Every event, as its `Debug`.
#[derive(Clone, Default)]
struct Events(Arc<Mutex<Vec<String>>>);

impl ToolObserver for Events {
    fn on_event(&self, event: &ToolEvent<'_>) {
        let mut events = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        events.push(format!("{event:?}"));
    }
}

/// Every log line and span of this thread, at every level, with all their fields.
#[derive(Clone, Default)]
struct Logs(Arc<Mutex<String>>);

impl Logs {
    fn text(&self) -> String {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn write(&self, what: &Metadata<'_>, record: impl FnOnce(&mut dyn Visit)) {
        let mut text = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let _ = write!(text, "{} {}:", what.level(), what.target());
        record(&mut Line(&mut text));
        text.push('\n');
    }

    /// The lines a subscriber keeps with the directive the `mcp` docs advise, `rmcp=info`:
    /// rmcp's below `INFO` are dropped. (A span's later fields, on lines of their own, are
    /// kept: the executor's spans are agentkit's.)
    fn as_advised(&self) -> String {
        self.text()
            .lines()
            .filter(|line| {
                let mut words = line.split(' ');
                let level = words.next().unwrap_or_default();
                let target = words.next().unwrap_or_default();
                let rmcp = target == "rmcp:" || target.starts_with("rmcp::");
                !(rmcp && matches!(level, "DEBUG" | "TRACE"))
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The lines of agentkit's own targets.
    fn agentkit(&self) -> String {
        self.text()
            .lines()
            .filter(|line| {
                line.split(' ')
                    .nth(1)
                    .is_some_and(|t| t.starts_with("agentkit"))
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

struct Line<'a>(&'a mut String);

impl Visit for Line<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        let _ = write!(self.0, " {}={value:?}", field.name());
    }
}

impl Subscriber for Logs {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }

    fn new_span(&self, span: &Attributes<'_>) -> Id {
        self.write(span.metadata(), |line| span.record(line));
        Id::from_u64(1)
    }

    fn record(&self, _: &Id, values: &Record<'_>) {
        let mut text = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        values.record(&mut Line(&mut text));
        text.push('\n');
    }

    fn record_follows_from(&self, _: &Id, _: &Id) {}

    fn event(&self, event: &Event<'_>) {
        self.write(event.metadata(), |line| event.record(line));
    }

    fn enter(&self, _: &Id) {}

    fn exit(&self, _: &Id) {}
}

// On the test's one thread (tokio's default for tests), where the log capture is installed.
#[tokio::test]
async fn tokens_and_the_client_secret_stay_out_of_everything_shown() {
    let Some(peers) = peers() else { return };
    let (_suite, url) = conformance_scenario_servers(&peers, "auth/pre-registration").await;
    let logs = Logs::default();
    let _capture = tracing::subscriber::set_default(logs.clone());

    let codes = Codes::default();
    let kept = codes.clone();
    let oauth =
        McpOAuth::authorization_code(REDIRECT_URI, move |url| approve_keeping(url, kept.clone()))
            .client_id(CLIENT_ID)
            .client_secret(CLIENT_SECRET);
    let mut shown = vec![("the configuration", format!("{oauth:?}"))];
    let client = bounded(McpClient::connect_http_with_oauth(&url, oauth))
        .await
        .expect("authorized as the pre-registered client");
    let mut registry = ToolRegistry::new();
    let import = bounded(client.register_tools(&mut registry, None))
        .await
        .expect("the authorized client lists the tools");
    assert_eq!(import.refused(), []);
    let tool = registry.lookup("test-tool").expect("the scenario's tool");
    shown.push(("the tool", format!("{tool:?}")));
    shown.push(("the client", format!("{client:?}")));

    let events = Events::default();
    let executor = ToolExecutor::builder(registry)
        .observer(events.clone())
        .build();
    // Another test's thread may have hit the executor's span first, while this capture was
    // being installed: tracing then caches that call site as disabled for every thread (a
    // race between a call site's registration and a scoped subscriber's). Asked again now.
    tracing::callsite::rebuild_interest_cache();
    let result = bounded(executor.dispatch(&ToolCall::new("call_1", "test-tool", json!({})))).await;
    // The call went through: a token was sent.
    assert!(result.error().is_none(), "{result:?}");
    shown.push(("the result", format!("{result:?}")));
    shown.push(("the model's text", result.to_model_content().to_string()));
    for event in events
        .0
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .iter()
    {
        shown.push(("an event", event.clone()));
    }
    let all = logs.text();
    // The capture works: it saw rmcp's OAuth client log the token response (at `debug`, with
    // the token itself redacted).
    assert!(all.contains("AccessToken("), "{all}");
    // And the executor's span of the call: agentkit's own lines are there to be checked.
    assert!(logs.agentkit().contains("execute_tool"), "{all}");
    let codes = codes.all();
    assert!(
        !codes.is_empty(),
        "the flow went through the authorization code grant"
    );
    // The authorization code is a secret too, until it is exchanged: agentkit never logs it,
    // and the filter the docs advise for rmcp's target keeps rmcp's `debug` line of it out.
    let mut logged = vec![
        ("agentkit's log lines", logs.agentkit()),
        ("the log lines kept with `rmcp=info`", logs.as_advised()),
    ];
    for (what, text) in &logged {
        for code in &codes {
            assert!(
                !text.contains(code.as_str()),
                "{what} show the authorization code: {text}"
            );
        }
    }
    shown.append(&mut logged);
    shown.push(("the logs", all));

    for (what, text) in &shown {
        assert!(
            !text.contains(CLIENT_SECRET),
            "{what} shows the secret: {text}"
        );
        assert!(!text.contains(TOKEN_PREFIX), "{what} shows a token: {text}");
    }
}

/// What `connect_http_with_oauth` shows when authorizing with `oauth` fails: the error's
/// `Display` and `Debug`; its source is an [`McpAuthError`].
async fn failed(url: &str, oauth: McpOAuth) -> String {
    let error = bounded(McpClient::connect_http_with_oauth(url, oauth))
        .await
        .expect_err("the authorization fails");
    assert_eq!(error.kind(), McpErrorKind::Connect, "{error:?}");
    let source = std::error::Error::source(&error);
    assert!(
        source.is_some_and(|source| source.is::<McpAuthError>()),
        "an McpAuthError as source: {error:?}"
    );
    format!("{error}\n{error:?}")
}

#[tokio::test]
async fn a_failed_authorization_says_which_step_failed() {
    let Some(peers) = peers() else { return };
    let (_suite, url) = conformance_scenario_servers(&peers, "auth/pre-registration").await;

    // The token endpoint refuses the client: the secret given is not the one it knows.
    let wrong_secret = "not-the-pre-registered-secret";
    let oauth = McpOAuth::authorization_code(REDIRECT_URI, approve)
        .client_id(CLIENT_ID)
        .client_secret(wrong_secret);
    let shown = failed(&url, oauth).await;
    assert!(
        shown.contains("exchanging the authorization code for a token"),
        "{shown}"
    );
    assert!(shown.contains("invalid_client"), "{shown}");
    assert!(
        !shown.contains(wrong_secret),
        "the error shows the secret: {shown}"
    );

    // The host could not get the person's approval.
    let oauth = McpOAuth::authorization_code(REDIRECT_URI, |_url| async {
        Err::<String, BoxError>("the person closed the browser".into())
    })
    .client_id(CLIENT_ID)
    .client_secret(CLIENT_SECRET);
    let shown = failed(&url, oauth).await;
    assert!(
        shown.contains("in the host's authorize function"),
        "{shown}"
    );
    assert!(shown.contains("the person closed the browser"), "{shown}");

    // The person said no: the authorization server redirects with an error (RFC 6749).
    let oauth = McpOAuth::authorization_code(REDIRECT_URI, |_url| async {
        Ok::<_, BoxError>(format!(
            "{REDIRECT_URI}?error=access_denied&error_description=not%20today&state=s"
        ))
    })
    .client_id(CLIENT_ID)
    .client_secret(CLIENT_SECRET);
    let shown = failed(&url, oauth).await;
    assert!(
        shown.contains("at the authorization server: access_denied not today"),
        "{shown}"
    );
    assert!(
        !shown.contains(CLIENT_SECRET),
        "the error shows the secret: {shown}"
    );
}

#[tokio::test]
async fn a_client_secret_needs_its_client_id() {
    let oauth = McpOAuth::authorization_code(REDIRECT_URI, approve).client_secret("lonely-secret");
    // Refused before anything is sent: no server is needed.
    let shown = failed("http://127.0.0.1:9/mcp", oauth).await;
    assert!(shown.contains("without the client id"), "{shown}");
    assert!(!shown.contains("lonely-secret"), "{shown}");
}

/// A P-256 key the suite's authorization servers do not know (made for these tests, and
/// used nowhere else).
const UNKNOWN_EC_KEY: &str = "-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg6gBKSsBxHvXDvmlo
bKAja/8xP/qMjKJj43uq0QfPjP+hRANCAAQ0LbbeufDmq6wEIbRg3Gfo6c5oEYeg
px6vJTpluG/5/4ppwyWt0eEoFUy7b2GEX73edZiE4ykB6yWzNBVWIaZi
-----END PRIVATE KEY-----";

/// The client id the `auth/client-credentials-jwt` scenario's authorization server expects.
const JWT_CLIENT_ID: &str = "conformance-test-client";

// On the test's one thread, where the log capture is installed.
#[tokio::test]
async fn a_private_key_that_does_not_sign_fails_the_client_credentials_saying_why() {
    let Some(peers) = peers() else { return };
    let (_suite, url) = conformance_scenario_servers(&peers, "auth/client-credentials-jwt").await;
    let logs = Logs::default();
    let _capture = tracing::subscriber::set_default(logs.clone());

    // Not a key: rmcp cannot sign the assertion, and nothing is sent.
    let not_a_key = "-----BEGIN PRIVATE KEY-----\nbm90LWEta2V5\n-----END PRIVATE KEY-----";
    let oauth = McpOAuth::private_key_jwt(JWT_CLIENT_ID, not_a_key, JwtSigningAlgorithm::ES256);
    let shown = failed(&url, oauth).await;
    assert!(
        shown.contains("getting a token with the client credentials"),
        "{shown}"
    );
    assert!(shown.contains("signing key"), "{shown}");
    assert!(
        !shown.contains("bm90LWEta2V5"),
        "the error shows the key: {shown}"
    );

    // A key the authorization server does not know: it refuses the assertion.
    let oauth =
        McpOAuth::private_key_jwt(JWT_CLIENT_ID, UNKNOWN_EC_KEY, JwtSigningAlgorithm::ES256);
    let shown = failed(&url, oauth).await;
    assert!(shown.contains("invalid_client"), "{shown}");
    assert!(
        !shown.contains("MIGHAgEA"),
        "the error shows the key: {shown}"
    );

    // Nor do the logs, rmcp's included, show either key.
    let all = logs.text();
    assert!(all.contains("rmcp"), "the capture saw rmcp's lines: {all}");
    for key in ["bm90LWEta2V5", "MIGHAgEA"] {
        assert!(!all.contains(key), "the logs show a key: {all}");
    }
}

#[tokio::test]
async fn a_refused_workload_assertion_fails_once_naming_the_oauth_error() {
    let Some(peers) = peers() else { return };
    let (_suite, url) = conformance_next_scenario_servers(&peers, "auth/wif-jwt-bearer").await;

    // An assertion the authorization server cannot verify: `invalid_grant`, once. The
    // function returning it is called once: the grant is not tried again.
    let asked = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&asked);
    let oauth = McpOAuth::jwt_bearer(move || {
        counter.fetch_add(1, Ordering::SeqCst);
        async { Ok::<_, BoxError>(Secret::new("eyJub3QiOiJ2ZXJpZmlhYmxlIn0.e30.c2ln")) }
    });
    let shown = failed(&url, oauth).await;
    assert!(
        shown.contains("getting a token with the JWT bearer grant"),
        "{shown}"
    );
    assert!(shown.contains("invalid_grant"), "{shown}");
    assert!(
        !shown.contains("eyJub3Qi"),
        "the error shows the assertion: {shown}"
    );
    assert_eq!(asked.load(Ordering::SeqCst), 1);

    // The host has no assertion to give.
    let oauth = McpOAuth::jwt_bearer(|| async {
        Err::<Secret, BoxError>("the workload token file is missing".into())
    });
    let shown = failed(&url, oauth).await;
    assert!(
        shown.contains("in the host's function that returns the assertion"),
        "{shown}"
    );
    assert!(
        shown.contains("the workload token file is missing"),
        "{shown}"
    );
}

#[tokio::test]
async fn enterprise_managed_authorization_needs_its_client_id() {
    let idp = EnterpriseIdp::new("https://idp.example", "https://idp.example/token", "at-idp");
    let oauth = McpOAuth::enterprise_managed(idp, || async { Ok(Secret::new("id-t0ken")) });
    // Refused before anything is sent: no server is needed.
    let shown = failed("http://127.0.0.1:9/mcp", oauth).await;
    assert!(shown.contains("needs the client id"), "{shown}");
    assert!(!shown.contains("id-t0ken"), "{shown}");
}

// On the test's one thread, where the log capture is installed.
#[tokio::test]
async fn the_token_request_logs_where_the_caller_does_and_shows_no_token() {
    let Some(peers) = peers() else { return };
    let (_suite, url) = conformance_scenario_servers(&peers, "auth/client-credentials-basic").await;
    let logs = Logs::default();
    let _capture = tracing::subscriber::set_default(logs.clone());

    // The scenario's client (fixed by the suite).
    let secret = "conformance-test-secret";
    let oauth = McpOAuth::client_credentials("conformance-test-client", secret);
    let client = bounded(McpClient::connect_http_with_oauth(&url, oauth))
        .await
        .expect("authorized with the client credentials");
    let tools = bounded(client.tools(None)).await.expect("the tools");
    assert!(!tools.tools().is_empty());

    // rmcp's token request runs on a thread of its own (its future is not `Send`); its lines
    // reach the caller's subscriber all the same, the token in them redacted.
    let all = logs.text();
    assert!(all.contains("client credentials token result"), "{all}");
    assert!(all.contains("AccessToken("), "{all}");
    assert!(!all.contains("cc-token"), "the logs show the token: {all}");
    assert!(!all.contains(secret), "the logs show the secret: {all}");
}
