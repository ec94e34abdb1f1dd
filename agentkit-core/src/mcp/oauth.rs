//! [`McpOAuth`]: how an [`McpClient`](super::McpClient) gets authorized by an OAuth-protected
//! MCP server (feature `mcp-oauth`), and [`McpAuthError`], what it says when that fails.
//!
//! The protocol is rmcp's OAuth client (`rmcp::transport::auth`); this module chooses what to
//! give it and when, in `flow`, and runs the grants that need no person, in `grants` (the
//! JWT bearer grant's one token request agentkit's own: rmcp 3.11 has that grant only inside
//! its enterprise-managed exchange).

use std::fmt;
use std::future::Future;
use std::sync::Arc;

use crate::credentials::Secret;
use crate::error::BoxError;
use crate::tool::BoxFuture;

mod flow;
mod grants;

pub(super) use flow::authorizing;

#[cfg(feature = "mcp-oauth-jwt")]
pub use rmcp::transport::auth::JwtSigningAlgorithm;

/// The host's part of the authorization code flow: given the authorization URL, it returns the
/// URL the authorization server redirected to.
pub(super) type Authorize =
    dyn Fn(String) -> BoxFuture<'static, Result<String, BoxError>> + Send + Sync;

/// The host's part of the assertion grants: returns the assertion to present now (an ID token,
/// a workload's JWT), read afresh each time the client authorizes, as such tokens expire.
pub(super) type Assertion = dyn Fn() -> BoxFuture<'static, Result<Secret, BoxError>> + Send + Sync;

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
///    for the client itself ([`client_credentials`](Self::client_credentials), authenticated
///    with a secret, or `private_key_jwt`, with a signed JWT, feature `mcp-oauth-jwt`), for
///    a workload with its identity token ([`jwt_bearer`](Self::jwt_bearer), workload identity
///    federation), or for a person signed in at their enterprise's identity provider
///    ([`enterprise_managed`](Self::enterprise_managed)). It asks
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
/// The client secret, the private key and the assertions are [`Secret`]s, and neither they
/// nor a token appear in this type's `Debug`, in an error, or in anything agentkit logs or
/// emits.
///
/// DPoP (RFC 9449: tokens bound to a key the client proves it holds on each request) is not
/// supported: rmcp 3.11, which runs the protocol, has no DPoP proofs.
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
    /// It authorizes itself, with its pre-registered id and secret, or private key.
    ClientCredentials { private_key: Option<PrivateKey> },
    /// It presents a JWT it is given (RFC 7523's JWT bearer grant).
    JwtBearer { assertion: Arc<Assertion> },
    /// It exchanges an ID token for an ID-JAG at the identity provider (RFC 8693), then
    /// presents that (the JWT bearer grant).
    EnterpriseManaged {
        idp: EnterpriseIdp,
        id_token: Arc<Assertion>,
    },
}

/// The key `private_key_jwt` signs the client's assertions with.
#[cfg(feature = "mcp-oauth-jwt")]
#[derive(Clone)]
pub(super) struct PrivateKey {
    pub(super) pem: Secret,
    pub(super) algorithm: JwtSigningAlgorithm,
}

/// Without `mcp-oauth-jwt` there is no `private_key_jwt`, so no key: a type with no value.
#[cfg(not(feature = "mcp-oauth-jwt"))]
#[derive(Clone)]
pub(super) enum PrivateKey {}

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
        McpOAuth::new(Grant::ClientCredentials { private_key: None })
            .client_id(client_id)
            .client_secret(client_secret)
    }

    /// The client credentials grant, the client authenticating with a JWT it signs with its
    /// private key (`private_key_jwt`, RFC 7523 §2.2) rather than with a secret: the
    /// authorization server knows its public key.
    ///
    /// `private_key_pem` is the PEM of an EC key in PKCS#8 (`BEGIN PRIVATE KEY`; P-256 for
    /// `ES256`, P-384 for `ES384`) or of an RSA key (`RS256`, `RS384`, `RS512`), and
    /// `algorithm` the one the client was registered with. Each token request carries a fresh assertion (`iss` and `sub` the
    /// client id, `aud` the authorization server's issuer, five minutes' lifetime, a unique
    /// `jti`), signed by rmcp. A key that cannot be read fails the authorization, saying so.
    ///
    /// Feature `mcp-oauth-jwt` (rmcp's JWT signing, which brings `jsonwebtoken` and
    /// `aws-lc-rs`, a C build): the other grants do not need it.
    ///
    /// ```no_run
    /// use agentkit_core::mcp::{JwtSigningAlgorithm, McpClient, McpOAuth};
    ///
    /// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
    /// let key = std::fs::read_to_string("/run/secrets/agent-key.pem")?;
    /// let oauth = McpOAuth::private_key_jwt("my-agent", key, JwtSigningAlgorithm::ES256);
    /// let client = McpClient::connect_http_with_oauth("https://mcp.example.com/mcp", oauth).await?;
    /// # let _ = client;
    /// # Ok(())
    /// # }
    /// ```
    #[cfg(feature = "mcp-oauth-jwt")]
    pub fn private_key_jwt(
        client_id: impl Into<String>,
        private_key_pem: impl Into<Secret>,
        algorithm: JwtSigningAlgorithm,
    ) -> Self {
        let private_key = PrivateKey {
            pem: private_key_pem.into(),
            algorithm,
        };
        McpOAuth::new(Grant::ClientCredentials {
            private_key: Some(private_key),
        })
        .client_id(client_id)
    }

    /// The JWT bearer grant (RFC 7523 §2.1) for workload identity federation: the client
    /// presents a JWT its platform issued to it (a Kubernetes service account token, a cloud
    /// workload identity token), whose audience is the authorization server, and gets an
    /// access token for it.
    ///
    /// `assertion` returns the JWT; it is called each time the client authorizes, so that it
    /// can read a token the platform rotates. The client is public unless given a
    /// [`client_id`](Self::client_id) and [`client_secret`](Self::client_secret) (then sent as
    /// the authorization server's metadata says it takes them); a client id alone is sent in
    /// the request. A refused assertion (`invalid_grant`, `invalid_scope`,
    /// `unauthorized_client`) fails the authorization with that error: it is not sent again,
    /// nor is another grant tried.
    ///
    /// rmcp finds the authorization server; the token request is agentkit's, as rmcp 3.11
    /// has this grant only inside its enterprise-managed exchange.
    ///
    /// ```no_run
    /// use agentkit_core::mcp::{McpClient, McpOAuth};
    /// use agentkit_core::{BoxError, Secret};
    ///
    /// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
    /// let oauth = McpOAuth::jwt_bearer(|| async {
    ///     let jwt = std::fs::read_to_string("/var/run/secrets/tokens/mcp-token")?;
    ///     Ok::<_, BoxError>(Secret::new(jwt.trim()))
    /// });
    /// let client = McpClient::connect_http_with_oauth("https://mcp.example.com/mcp", oauth).await?;
    /// # let _ = client;
    /// # Ok(())
    /// # }
    /// ```
    pub fn jwt_bearer<F, Fut>(assertion: F) -> Self
    where
        F: Fn() -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Secret, BoxError>> + Send + 'static,
    {
        McpOAuth::new(Grant::JwtBearer {
            assertion: assertion_source(assertion),
        })
    }

    /// Enterprise-managed authorization (MCP's extension, the Identity Assertion
    /// Authorization Grant): the person signed in at their enterprise's identity provider,
    /// and the client holds the ID token it issued. The client exchanges it there for an
    /// identity assertion JWT authorization grant (an ID-JAG, by RFC 8693 token exchange,
    /// naming the MCP server's authorization server and the server), then presents that to
    /// the MCP server's authorization server (RFC 7523's JWT bearer grant), as its
    /// pre-registered [`client_id`](Self::client_id), authenticated with its
    /// [`client_secret`](Self::client_secret) if it has one.
    ///
    /// `id_token` returns the ID token; it is called each time the client authorizes (the
    /// host keeps it fresh). Both exchanges are rmcp's (`enterprise`), which checks the ID-JAG
    /// it gets is bound to this client, authorization server and MCP server before sending it
    /// on; neither is retried.
    ///
    /// ```no_run
    /// use agentkit_core::mcp::{EnterpriseIdp, McpClient, McpOAuth};
    /// use agentkit_core::{BoxError, Secret};
    ///
    /// # async fn signed_in_id_token() -> Result<Secret, BoxError> { todo!() }
    /// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
    /// let idp = EnterpriseIdp::new(
    ///     "https://login.example.com",
    ///     "https://login.example.com/oauth2/token",
    ///     "agent-at-the-idp",
    /// );
    /// let oauth = McpOAuth::enterprise_managed(idp, signed_in_id_token)
    ///     .client_id("agent-at-the-mcp-server")
    ///     .client_secret(std::env::var("MCP_CLIENT_SECRET")?);
    /// let client = McpClient::connect_http_with_oauth("https://mcp.example.com/mcp", oauth).await?;
    /// # let _ = client;
    /// # Ok(())
    /// # }
    /// ```
    pub fn enterprise_managed<F, Fut>(idp: EnterpriseIdp, id_token: F) -> Self
    where
        F: Fn() -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Secret, BoxError>> + Send + 'static,
    {
        McpOAuth::new(Grant::EnterpriseManaged {
            idp,
            id_token: assertion_source(id_token),
        })
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

fn assertion_source<F, Fut>(source: F) -> Arc<Assertion>
where
    F: Fn() -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<Secret, BoxError>> + Send + 'static,
{
    Arc::new(move || Box::pin(source()))
}

/// The enterprise identity provider of [`McpOAuth::enterprise_managed`]: where the client
/// exchanges the person's ID token for an ID-JAG, as the client registered there.
///
/// Its `Debug` shows the issuer, token endpoint and client id, never the client secret.
///
/// ```
/// use agentkit_core::mcp::EnterpriseIdp;
///
/// let idp = EnterpriseIdp::new(
///     "https://login.example.com",
///     "https://login.example.com/oauth2/token",
///     "agent-at-the-idp",
/// )
/// .client_secret("idp-s3cret");
/// assert!(!format!("{idp:?}").contains("idp-s3cret"));
/// ```
#[derive(Clone)]
pub struct EnterpriseIdp {
    pub(super) issuer: String,
    pub(super) token_endpoint: String,
    pub(super) client_id: String,
    pub(super) client_secret: Option<Secret>,
}

impl EnterpriseIdp {
    /// The identity provider whose issuer identifier is `issuer` (the `iss` of its ID tokens
    /// and ID-JAGs), with its token endpoint (from its metadata, which the host has approved),
    /// for the client registered there as `client_id`, a public client until given a
    /// [`client_secret`](Self::client_secret).
    pub fn new(
        issuer: impl Into<String>,
        token_endpoint: impl Into<String>,
        client_id: impl Into<String>,
    ) -> Self {
        EnterpriseIdp {
            issuer: issuer.into(),
            token_endpoint: token_endpoint.into(),
            client_id: client_id.into(),
            client_secret: None,
        }
    }

    /// The client's secret at the identity provider, sent with HTTP Basic authentication
    /// (`client_secret_basic`).
    pub fn client_secret(mut self, client_secret: impl Into<Secret>) -> Self {
        self.client_secret = Some(client_secret.into());
        self
    }
}

impl fmt::Debug for EnterpriseIdp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EnterpriseIdp")
            .field("issuer", &self.issuer)
            .field("token_endpoint", &self.token_endpoint)
            .field("client_id", &self.client_id)
            .field("client_secret", &self.client_secret)
            .finish()
    }
}

impl fmt::Debug for McpOAuth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = f.debug_struct("McpOAuth");
        match &self.grant {
            Grant::AuthorizationCode { redirect_uri, .. } => out
                .field("grant", &"authorization_code")
                .field("redirect_uri", redirect_uri),
            Grant::ClientCredentials { private_key: None } => {
                out.field("grant", &"client_credentials")
            }
            #[cfg(feature = "mcp-oauth-jwt")]
            Grant::ClientCredentials {
                private_key: Some(key),
            } => out
                .field("grant", &"client_credentials")
                .field("private_key", &key.pem)
                .field("algorithm", &key.algorithm),
            #[cfg(not(feature = "mcp-oauth-jwt"))]
            Grant::ClientCredentials {
                private_key: Some(key),
            } => match *key {},
            Grant::JwtBearer { .. } => out.field("grant", &"jwt_bearer"),
            Grant::EnterpriseManaged { idp, .. } => {
                out.field("grant", &"enterprise_managed").field("idp", idp)
            }
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

    #[cfg(feature = "mcp-oauth-jwt")]
    #[test]
    fn debug_shows_no_private_key_assertion_or_identity_provider_secret() {
        let pem = "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMG-k3y-bytes\n-----END PRIVATE KEY-----";
        let oauth = McpOAuth::private_key_jwt("agent-7", pem, JwtSigningAlgorithm::ES256);
        let shown = format!("{oauth:?}");
        assert!(!shown.contains("k3y-bytes"), "{shown}");
        assert!(!shown.contains("BEGIN PRIVATE KEY"), "{shown}");
        for part in ["client_credentials", "agent-7", "ES256", "REDACTED"] {
            assert!(shown.contains(part), "{part} in {shown}");
        }

        // The assertion is behind the host's function, which showing the grant does not call.
        let called = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = Arc::clone(&called);
        let oauth = McpOAuth::jwt_bearer(move || {
            flag.store(true, std::sync::atomic::Ordering::SeqCst);
            async { Ok(Secret::new("w0rkload-jwt")) }
        });
        let shown = format!("{oauth:?}");
        assert!(shown.contains("jwt_bearer"), "{shown}");
        assert!(!called.load(std::sync::atomic::Ordering::SeqCst));

        let idp = EnterpriseIdp::new("https://idp.example", "https://idp.example/token", "at-idp")
            .client_secret("idp-s3cret");
        let oauth = McpOAuth::enterprise_managed(idp, || async { Ok(Secret::new("id-t0ken")) })
            .client_id("at-as")
            .client_secret("as-s3cret");
        let shown = format!("{oauth:?}");
        for secret in ["idp-s3cret", "as-s3cret", "id-t0ken"] {
            assert!(!shown.contains(secret), "{secret} in {shown}");
        }
        for part in [
            "enterprise_managed",
            "https://idp.example/token",
            "at-idp",
            "at-as",
        ] {
            assert!(shown.contains(part), "{part} in {shown}");
        }
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
