//! [`McpOAuth`]: how an [`McpClient`](super::McpClient) gets authorized by an OAuth-protected
//! MCP server (feature `mcp-oauth`), and [`McpAuthError`], what it says when that fails.
//!
//! The protocol is rmcp's OAuth client (`rmcp::transport::auth`); this module chooses what to
//! give it and when, in `flow`.

use std::fmt;
use std::future::Future;
use std::sync::Arc;

use crate::credentials::Secret;
use crate::error::BoxError;
use crate::tool::BoxFuture;

mod flow;

pub(super) use flow::authorizing;

/// The host's part of the authorization code flow: given the authorization URL, it returns the
/// URL the authorization server redirected to.
pub(super) type Authorize =
    dyn Fn(String) -> BoxFuture<'static, Result<String, BoxError>> + Send + Sync;

/// How an [`McpClient`](super::McpClient) gets authorized by an MCP server that wants OAuth
/// ([`McpClient::connect_http_with_oauth`](super::McpClient::connect_http_with_oauth)), as MCP's
/// authorization specification (revision 2025-11-25) describes it.
///
/// Nothing happens until the server asks: the client talks to it without a token, and when
/// the server answers `401 Unauthorized`, it authorizes and sends the request again.
/// Authorizing means:
///
/// 1. finding the authorization server: the protected resource metadata (RFC 9728) named by
///    the 401's `WWW-Authenticate` challenge, or at its well-known URLs, then that server's
///    metadata (RFC 8414, or OpenID Connect discovery);
/// 2. a client id: the pre-registered one ([`client_id`](Self::client_id)), else the
///    [client metadata document](Self::client_metadata_url) when the server accepts those,
///    else one from dynamic client registration (RFC 7591);
/// 3. a token: through the host ([`authorization_code`](Self::authorization_code), with PKCE),
///    or for the client itself ([`client_credentials`](Self::client_credentials)). It asks
///    for the [scopes](Self::scopes) given, else those of the challenge, else all of those
///    the protected resource metadata lists, else none; it names the server as the token's
///    `resource` (RFC 8707), and authenticates at the token endpoint as the authorization
///    server's metadata says it takes (`client_secret_basic`, `client_secret_post`, or
///    `none` for a public client).
///
/// The token is sent on every request after that, and refreshed before it expires when the
/// authorization server gave a refresh token (or when the server refuses it). When the server
/// answers `403 Forbidden` with `error="insufficient_scope"` for scopes the token lacks, the
/// client asks for them on top of those it has (step-up authorization) and sends the request
/// again; it does not ask again for scopes the token already has, so a server that keeps
/// refusing ends in an error, not a loop of authorizations.
///
/// The client secret is a [`Secret`], and neither it nor a token appears in this type's
/// `Debug`, in an error, or in anything agentkit logs or emits.
///
/// # Logs
///
/// rmcp's OAuth client, which runs the protocol, logs through `tracing` too, under the
/// target `rmcp` (`rmcp::transport::auth`), and at `DEBUG` it writes the authorization code
/// it exchanges (short-lived and single-use, but a secret until then). Keep rmcp at `INFO`
/// or above wherever logs are kept, whatever level the rest of the app logs at: with
/// `tracing-subscriber`, a directive `rmcp=info` (as in `RUST_LOG=debug,rmcp=info`, or
/// `EnvFilter::new("debug,rmcp=info")`), or `Targets::new().with_target("rmcp",
/// Level::INFO)`. agentkit's own targets (`agentkit_core`) never carry a code, a token or the
/// secret at any level (`tests/mcp/tests/mcp_oauth.rs` holds both to it).
///
/// ```no_run
/// use agentkit_core::mcp::{McpClient, McpOAuth};
/// use agentkit_core::BoxError;
///
/// /// Opens `url` in the user's browser, and returns the URL the authorization server then
/// /// redirected the browser to (`http://127.0.0.1:8976/callback?code=...&state=...`), as
/// /// received by a listener on that port.
/// async fn ask_the_user(url: String) -> Result<String, BoxError> {
///     # let _ = url;
///     todo!()
/// }
///
/// # async fn run() -> Result<(), agentkit_core::mcp::McpError> {
/// let oauth = McpOAuth::authorization_code("http://127.0.0.1:8976/callback", ask_the_user)
///     .client_name("my-agent");
/// let client = McpClient::connect_http_with_oauth("https://mcp.example.com/mcp", oauth).await?;
/// # let _ = client;
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct McpOAuth {
    pub(super) grant: Grant,
    pub(super) client_id: Option<String>,
    pub(super) client_secret: Option<Secret>,
    pub(super) client_metadata_url: Option<String>,
    pub(super) client_name: Option<String>,
    pub(super) scopes: Vec<String>,
}

/// How the client gets its tokens.
#[derive(Clone)]
pub(super) enum Grant {
    /// A person authorizes it, through the host.
    AuthorizationCode {
        redirect_uri: String,
        authorize: Arc<Authorize>,
    },
    /// It authorizes itself, with its pre-registered id and secret.
    ClientCredentials,
}

impl McpOAuth {
    /// The authorization code grant, with PKCE: a person authorizes the client.
    ///
    /// `redirect_uri` is where the authorization server sends the person's browser back to
    /// (registered as the client's only redirect URI). `authorize` is the host's part: it is
    /// given the authorization URL to open in the person's browser (or to show them), and
    /// returns the full URL the authorization server redirected to, query included
    /// (`{redirect_uri}?code=...&state=...`), typically as received by a listener at
    /// `redirect_uri`. It is called each time the client needs authorizing: when connecting,
    /// when its tokens can no longer be refreshed, and for step-up authorization; one at a
    /// time, the connection's other refused requests waiting for its outcome. The request
    /// that needed it waits too: a tool call that needs a step-up does so within the
    /// executor's timeout for the call. An error it returns fails that request (with an
    /// [`McpAuthError`]).
    pub fn authorization_code<F, Fut>(redirect_uri: impl Into<String>, authorize: F) -> Self
    where
        F: Fn(String) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<String, BoxError>> + Send + 'static,
    {
        let authorize: Arc<Authorize> = Arc::new(move |url| Box::pin(authorize(url)));
        McpOAuth::new(Grant::AuthorizationCode {
            redirect_uri: redirect_uri.into(),
            authorize,
        })
    }

    /// The client credentials grant: the client authorizes itself, with the id and secret it
    /// was registered with (for machine-to-machine access, with no person involved).
    ///
    /// The secret is sent to the token endpoint as its metadata says it takes it: in the
    /// `Authorization` header (`client_secret_basic`) when that is the only way it lists,
    /// in the request body (`client_secret_post`) otherwise.
    pub fn client_credentials(
        client_id: impl Into<String>,
        client_secret: impl Into<Secret>,
    ) -> Self {
        McpOAuth::new(Grant::ClientCredentials)
            .client_id(client_id)
            .client_secret(client_secret)
    }

    fn new(grant: Grant) -> Self {
        McpOAuth {
            grant,
            client_id: None,
            client_secret: None,
            client_metadata_url: None,
            client_name: None,
            scopes: Vec::new(),
        }
    }

    /// Uses the client id registered with the authorization server beforehand, rather than
    /// registering a client.
    pub fn client_id(mut self, client_id: impl Into<String>) -> Self {
        self.client_id = Some(client_id.into());
        self
    }

    /// The secret of the pre-registered [`client_id`](Self::client_id), for a confidential
    /// client. (A client registered dynamically gets its secret, if any, from the
    /// registration.) Authorizing fails if it is given without a client id.
    pub fn client_secret(mut self, client_secret: impl Into<Secret>) -> Self {
        self.client_secret = Some(client_secret.into());
        self
    }

    /// The HTTPS URL of the client's metadata document, to use as its client id with an
    /// authorization server that accepts those (`client_id_metadata_document_supported`),
    /// instead of registering a client.
    pub fn client_metadata_url(mut self, url: impl Into<String>) -> Self {
        self.client_metadata_url = Some(url.into());
        self
    }

    /// The client name sent to dynamic client registration.
    pub fn client_name(mut self, name: impl Into<String>) -> Self {
        self.client_name = Some(name.into());
        self
    }

    /// The scopes to ask for, instead of those the server's challenge and metadata name.
    pub fn scopes<I, S>(mut self, scopes: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }
}

impl fmt::Debug for McpOAuth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = f.debug_struct("McpOAuth");
        match &self.grant {
            Grant::AuthorizationCode { redirect_uri, .. } => out
                .field("grant", &"authorization_code")
                .field("redirect_uri", redirect_uri),
            Grant::ClientCredentials => out.field("grant", &"client_credentials"),
        };
        out.field("client_id", &self.client_id)
            .field("client_secret", &self.client_secret)
            .field("client_metadata_url", &self.client_metadata_url)
            .field("client_name", &self.client_name)
            .field("scopes", &self.scopes)
            .finish()
    }
}

/// Authorizing with an OAuth-protected MCP server failed: the
/// [`source`](std::error::Error::source) of the [`McpError`](super::McpError) that
/// [`McpClient::connect_http_with_oauth`](super::McpClient::connect_http_with_oauth) returns
/// then. Its message says which step failed; its source is rmcp's error, or the error the
/// host's `authorize` function returned. It holds no token and no secret.
#[derive(Debug)]
pub struct McpAuthError {
    step: &'static str,
    source: BoxError,
}

impl McpAuthError {
    pub(super) fn new(step: &'static str, source: impl Into<BoxError>) -> Self {
        McpAuthError {
            step,
            source: source.into(),
        }
    }
}

impl McpAuthError {
    /// The step that failed, and why: what rmcp's error says once the request fails.
    pub(super) fn cause(&self) -> String {
        format!("{}: {}", self.step, self.source)
    }
}

impl fmt::Display for McpAuthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "OAuth authorization failed {}", self.cause())
    }
}

impl std::error::Error for McpAuthError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&*self.source)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_shows_the_configuration_but_not_the_secret() {
        let oauth = McpOAuth::client_credentials("agent-7", "s3cr3t-value").scopes(["mcp:read"]);
        let shown = format!("{oauth:?}");
        assert!(!shown.contains("s3cr3t-value"), "{shown}");
        for part in ["client_credentials", "agent-7", "mcp:read", "REDACTED"] {
            assert!(shown.contains(part), "{part} in {shown}");
        }

        let oauth = McpOAuth::authorization_code("http://127.0.0.1:1/cb", |url| async { Ok(url) })
            .client_id("pre")
            .client_secret(String::from("other-s3cr3t"));
        let shown = format!("{oauth:?}");
        assert!(!shown.contains("other-s3cr3t"), "{shown}");
        assert!(shown.contains("http://127.0.0.1:1/cb"), "{shown}");
    }

    #[test]
    fn the_error_names_the_step_and_keeps_its_source() {
        let error = McpAuthError::new("registering the client", "HTTP 400");
        assert_eq!(
            error.to_string(),
            "OAuth authorization failed registering the client: HTTP 400"
        );
        assert!(std::error::Error::source(&error).is_some());
    }
}
