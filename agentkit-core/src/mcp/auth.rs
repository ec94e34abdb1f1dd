//! Bearer authentication for the HTTP service: a tower layer that maps a request's bearer
//! token to a [`Principal`], or refuses it (401 with `WWW-Authenticate`, 403 for a missing
//! scope), and serves the OAuth 2.0 protected resource metadata (RFC 9728) that clients read
//! to find the authorization server.

use std::convert::Infallible;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::Bytes;
use http::{HeaderValue, Method, Request, Response, StatusCode, header};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use serde_json::{Value, json};
use tower_layer::Layer;
use tower_service::Service;

use crate::principal::Principal;

/// The response body of the HTTP service and its layers.
pub(super) type Body = BoxBody<Bytes, Infallible>;

/// A boxed future of a response.
type Responding = Pin<Box<dyn Future<Output = Result<Response<Body>, Infallible>> + Send>>;

/// Decides whom a bearer token belongs to: the server's check of each HTTP request.
///
/// Implemented by any `Fn(&str) -> Result<Principal, Unauthorized>`; implement the trait
/// for a check that awaits (a token introspection endpoint, a JWKS fetch). Check what an
/// OAuth resource server must: the signature or the introspection answer, the expiry, and
/// that the token was issued for this server (its audience, RFC 8707's `resource`).
///
/// ```
/// use agentkit_core::Principal;
/// use agentkit_core::mcp::{Authenticate, Unauthorized};
///
/// fn check(token: &str) -> Result<Principal, Unauthorized> {
///     match token {
///         "alice-token" => Ok(Principal::new("alice").with_scopes(["tools"])),
///         _ => Err(Unauthorized::invalid_token()),
///     }
/// }
/// fn is_authenticator(_: impl Authenticate) {}
/// is_authenticator(check);
/// ```
pub trait Authenticate: Send + Sync + 'static {
    /// The principal `token` belongs to, or why it is refused.
    fn authenticate<'a>(
        &'a self,
        token: &'a str,
    ) -> Pin<Box<dyn Future<Output = Result<Principal, Unauthorized>> + Send + 'a>>;
}

impl<F> Authenticate for F
where
    F: Fn(&str) -> Result<Principal, Unauthorized> + Send + Sync + 'static,
{
    fn authenticate<'a>(
        &'a self,
        token: &'a str,
    ) -> Pin<Box<dyn Future<Output = Result<Principal, Unauthorized>> + Send + 'a>> {
        Box::pin(std::future::ready(self(token)))
    }
}

/// Why a request's token was refused: answered with 401 and `error="invalid_token"`, or
/// with 403 and `error="insufficient_scope"` naming the scope the request needs (RFC 6750).
#[derive(Clone, PartialEq, Eq)]
pub struct Unauthorized {
    scope: Option<String>,
    description: Option<String>,
}

impl Unauthorized {
    /// The token is not valid here: unknown, expired, revoked, or issued for another
    /// resource.
    pub fn invalid_token() -> Self {
        Unauthorized {
            scope: None,
            description: None,
        }
    }

    /// The token is valid, but lacks `scope` (space-separated scopes, as OAuth writes them).
    pub fn insufficient_scope(scope: impl Into<String>) -> Self {
        Unauthorized {
            scope: Some(scope.into()),
            description: None,
        }
    }

    /// Says why, to the client (`error_description`): its printable ASCII is kept, at most
    /// 200 characters of it. Never put the token or a secret in it.
    #[must_use]
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// The scope the request needs, for an insufficient scope.
    pub fn scope(&self) -> Option<&str> {
        self.scope.as_deref()
    }
}

impl fmt::Debug for Unauthorized {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Unauthorized")
            .field("scope", &self.scope)
            .field("description", &self.description)
            .finish()
    }
}

/// The OAuth 2.0 protected resource metadata of the server (RFC 9728): the resource's URL
/// and the authorization servers that issue tokens for it, which a client reads to know
/// where to get one.
///
/// ```
/// use agentkit_core::mcp::ProtectedResource;
///
/// let metadata = ProtectedResource::new("https://mcp.example.com/mcp")
///     .authorization_server("https://auth.example.com")
///     .scopes(["tools"]);
/// assert_eq!(metadata.well_known_path(), "/.well-known/oauth-protected-resource/mcp");
/// assert_eq!(
///     metadata.metadata_url(),
///     "https://mcp.example.com/.well-known/oauth-protected-resource/mcp",
/// );
/// assert_eq!(metadata.to_json()["authorization_servers"][0], "https://auth.example.com");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProtectedResource {
    resource: String,
    authorization_servers: Vec<String>,
    scopes: Vec<String>,
    name: Option<String>,
}

impl ProtectedResource {
    /// The metadata of the resource at `resource`: the URL clients reach the MCP endpoint
    /// at, such as `https://mcp.example.com/mcp`.
    pub fn new(resource: impl Into<String>) -> Self {
        ProtectedResource {
            resource: resource.into(),
            authorization_servers: Vec::new(),
            scopes: Vec::new(),
            name: None,
        }
    }

    /// Adds an authorization server (its issuer URL) that issues tokens for the resource.
    #[must_use]
    pub fn authorization_server(mut self, issuer: impl Into<String>) -> Self {
        self.authorization_servers.push(issuer.into());
        self
    }

    /// The scopes the resource knows (`scopes_supported`); the first is what a request
    /// without a token is told to ask for.
    #[must_use]
    pub fn scopes<S: Into<String>>(mut self, scopes: impl IntoIterator<Item = S>) -> Self {
        self.scopes.extend(scopes.into_iter().map(Into::into));
        self
    }

    /// A name for people (`resource_name`).
    #[must_use]
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// The resource's URL.
    pub fn resource(&self) -> &str {
        &self.resource
    }

    /// The path the metadata is served at: `/.well-known/oauth-protected-resource` followed
    /// by the resource URL's path (RFC 9728, section 3.1).
    pub fn well_known_path(&self) -> String {
        let (_, path) = split_url(&self.resource);
        format!(
            "/.well-known/oauth-protected-resource{}",
            path.trim_end_matches('/')
        )
    }

    /// The URL of the metadata, which a 401 names (`resource_metadata`).
    pub fn metadata_url(&self) -> String {
        let (origin, _) = split_url(&self.resource);
        format!("{origin}{}", self.well_known_path())
    }

    /// The metadata document.
    pub fn to_json(&self) -> Value {
        let mut document = json!({
            "resource": self.resource,
            "authorization_servers": self.authorization_servers,
            "bearer_methods_supported": ["header"],
        });
        if !self.scopes.is_empty() {
            document["scopes_supported"] = json!(self.scopes);
        }
        if let Some(name) = &self.name {
            document["resource_name"] = json!(name);
        }
        document
    }
}

/// `https://host:port/path?q` as its origin (`https://host:port`) and its path (`/path`).
fn split_url(url: &str) -> (&str, &str) {
    let after_scheme = url.find("://").map_or(0, |i| i + 3);
    let path_start = url[after_scheme..]
        .find(['/', '?', '#'])
        .map_or(url.len(), |i| after_scheme + i);
    let path = &url[path_start..];
    let path = &path[..path.find(['?', '#']).unwrap_or(path.len())];
    (&url[..path_start], path)
}

/// A tower layer that authenticates every request by its bearer token (see
/// [`Authenticate`]), hands the [`Principal`] on in the request's extensions (where the
/// [`McpServer`](super::McpServer) finds it for its tools and policies), and serves the
/// protected resource metadata when given one.
///
/// [`McpServer::with_auth`](super::McpServer::with_auth) puts it around the server's own
/// HTTP service; use it directly around [`McpServer::streamable_http_service`](super::McpServer::streamable_http_service)
/// when you mount that yourself.
#[derive(Clone)]
pub struct BearerAuthLayer {
    check: Arc<Check>,
}

struct Check {
    authenticate: Box<dyn Authenticate>,
    metadata: Option<ProtectedResource>,
    /// The metadata document and its paths, made once.
    served: Option<(Bytes, Vec<String>)>,
}

impl fmt::Debug for BearerAuthLayer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BearerAuthLayer")
            .field("metadata", &self.check.metadata)
            .finish_non_exhaustive()
    }
}

impl BearerAuthLayer {
    /// A layer that checks tokens with `authenticate`.
    pub fn new(authenticate: impl Authenticate) -> Self {
        BearerAuthLayer {
            check: Arc::new(Check {
                authenticate: Box::new(authenticate),
                metadata: None,
                served: None,
            }),
        }
    }

    /// Serves `metadata` (without a token) and names it in every 401.
    #[must_use]
    pub fn with_metadata(self, metadata: ProtectedResource) -> Self {
        let check = Arc::into_inner(self.check).expect("the layer is not shared yet");
        let document = Bytes::from(metadata.to_json().to_string());
        let path = metadata.well_known_path();
        let mut paths = vec![path.clone()];
        if path != "/.well-known/oauth-protected-resource" {
            // Clients of the spec's earlier drafts ask at the root.
            paths.push("/.well-known/oauth-protected-resource".to_owned());
        }
        BearerAuthLayer {
            check: Arc::new(Check {
                authenticate: check.authenticate,
                metadata: Some(metadata),
                served: Some((document, paths)),
            }),
        }
    }
}

impl<S> Layer<S> for BearerAuthLayer {
    type Service = BearerAuth<S>;

    fn layer(&self, inner: S) -> Self::Service {
        BearerAuth {
            inner,
            check: Arc::clone(&self.check),
        }
    }
}

/// The service [`BearerAuthLayer`] makes.
#[derive(Clone)]
pub struct BearerAuth<S> {
    inner: S,
    check: Arc<Check>,
}

impl<S> fmt::Debug for BearerAuth<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BearerAuth").finish_non_exhaustive()
    }
}

impl<S, B> Service<Request<B>> for BearerAuth<S>
where
    S: Service<Request<B>, Response = Response<Body>, Error = Infallible> + Clone + Send + 'static,
    S::Future: Send,
    B: Send + 'static,
{
    type Response = Response<Body>;
    type Error = Infallible;
    type Future = Responding;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let check = Arc::clone(&self.check);
        // The clone that was made ready is the one to call (tower's rule).
        let clone = self.inner.clone();
        let mut inner = std::mem::replace(&mut self.inner, clone);
        Box::pin(async move {
            // The head alone is checked: the body need not be shared across the check.
            let (parts, body) = request.into_parts();
            let mut head = Request::from_parts(parts, ());
            match check.admit(&mut head).await {
                Some(answer) => Ok(answer),
                None => {
                    let (parts, ()) = head.into_parts();
                    inner.call(Request::from_parts(parts, body)).await
                }
            }
        })
    }
}

impl BearerAuthLayer {
    /// The answer to `request` when the layer gives one (the metadata, or a refusal); else
    /// `None`, the request carrying its [`Principal`] on.
    pub(super) async fn admit(&self, request: &mut Request<()>) -> Option<Response<Body>> {
        self.check.admit(request).await
    }
}

impl Check {
    async fn admit(&self, request: &mut Request<()>) -> Option<Response<Body>> {
        if let Some(document) = self.metadata_for(request) {
            return Some(document);
        }
        match self.principal(request).await {
            Ok(principal) => {
                request.extensions_mut().insert(principal);
                None
            }
            Err(refused) => Some(refused),
        }
    }

    /// The metadata document, for a `GET` of its path.
    fn metadata_for(&self, request: &Request<()>) -> Option<Response<Body>> {
        let (document, paths) = self.served.as_ref()?;
        if request.method() != Method::GET || !paths.iter().any(|p| p == request.uri().path()) {
            return None;
        }
        let mut response = Response::new(full(document.clone()));
        let headers = response.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        // Browser-based clients read it from another origin; it holds nothing secret.
        headers.insert(
            header::ACCESS_CONTROL_ALLOW_ORIGIN,
            HeaderValue::from_static("*"),
        );
        Some(response)
    }

    /// The principal of the request's token, or the response refusing it.
    async fn principal(&self, request: &Request<()>) -> Result<Principal, Response<Body>> {
        let token = request
            .headers()
            .get(header::AUTHORIZATION)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| {
                let (scheme, token) = value.split_once(' ')?;
                scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
            })
            .filter(|token| !token.is_empty());
        let Some(token) = token else {
            return Err(self.refuse(None));
        };
        self.authenticate
            .authenticate(token)
            .await
            .map_err(|refused| self.refuse(Some(&refused)))
    }

    /// 401 for a missing or invalid token, 403 for a missing scope, with the
    /// `WWW-Authenticate` challenge naming the metadata.
    fn refuse(&self, refused: Option<&Unauthorized>) -> Response<Body> {
        let mut challenge = String::from("Bearer");
        let mut params: Vec<String> = Vec::new();
        if let Some(metadata) = &self.metadata {
            params.push(format!(
                "resource_metadata=\"{}\"",
                quoted(&metadata.metadata_url())
            ));
        }
        let status = match refused {
            None => {
                if let Some(scope) = self.metadata.as_ref().and_then(|m| m.scopes.first()) {
                    params.push(format!("scope=\"{}\"", quoted(scope)));
                }
                StatusCode::UNAUTHORIZED
            }
            Some(refused) => {
                let (status, error) = match &refused.scope {
                    Some(scope) => {
                        params.push(format!("scope=\"{}\"", quoted(scope)));
                        (StatusCode::FORBIDDEN, "insufficient_scope")
                    }
                    None => (StatusCode::UNAUTHORIZED, "invalid_token"),
                };
                params.push(format!("error=\"{error}\""));
                if let Some(description) = &refused.description {
                    params.push(format!("error_description=\"{}\"", quoted(description)));
                }
                status
            }
        };
        if !params.is_empty() {
            challenge.push(' ');
            challenge.push_str(&params.join(", "));
        }
        let mut response = Response::new(full(Bytes::from_static(b"")));
        *response.status_mut() = status;
        if let Ok(value) = HeaderValue::from_str(&challenge) {
            response
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, value);
        }
        response
    }
}

/// `text` fit for a quoted header parameter: printable ASCII without quotes or
/// backslashes, at most 200 characters.
fn quoted(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_ascii_graphic() || *c == ' ')
        .filter(|c| *c != '"' && *c != '\\')
        .take(200)
        .collect()
}

/// A response body of `bytes`.
pub(super) fn full(bytes: Bytes) -> Body {
    Full::new(bytes).boxed()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_split_into_origin_and_path() {
        assert_eq!(
            split_url("https://a.example:8443/mcp?x=1"),
            ("https://a.example:8443", "/mcp")
        );
        assert_eq!(split_url("http://127.0.0.1:9"), ("http://127.0.0.1:9", ""));
        let metadata = ProtectedResource::new("http://127.0.0.1:9/");
        assert_eq!(
            metadata.well_known_path(),
            "/.well-known/oauth-protected-resource"
        );
    }

    #[test]
    fn header_parameters_keep_printable_ascii_only() {
        assert_eq!(quoted("a \"b\"\\\r\nc"), "a bc");
        assert_eq!(quoted(&"x".repeat(500)).len(), 200);
    }
}
