//! The HTTP client behind [`McpOAuth`]: rmcp's `AuthClient` (which puts the token on each
//! request and refreshes it), wrapped so that a `401` or a `403 insufficient_scope` runs the
//! authorization and sends the request again.
//!
//! rmcp has every step (discovery, registration, PKCE, the token requests, scope selection and
//! upgrade); what it leaves to its caller, and this module does, is reacting to the server's
//! challenges in the middle of a session: when to authorize anew and when to step up, one
//! authorization at a time for all the requests that hit the same challenge, and when to stop.
//! The authorization code grant is here; the grants that need no person are in `grants`.

use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use reqwest::Url;
use reqwest::header::{HeaderName, HeaderValue};
use rmcp::model::ClientJsonRpcMessage;
use rmcp::transport::auth::{
    AuthClient, AuthError, AuthorizationCallback, AuthorizationManager, AuthorizationRequest,
    OAuthState, WWWAuthenticateParams,
};
use rmcp::transport::common::client_side_sse::BoxedSseResponse;
use rmcp::transport::streamable_http_client::{
    StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse,
    StreamableHttpResponseLimits,
};

use super::grants;
use super::{Authorize, Grant, McpAuthError, McpOAuth};
use crate::mcp::http_reader::{Reading, http_client};
use crate::mcp::legacy_tasks::LegacyTasks;

type HttpError = StreamableHttpError<reqwest::Error>;
type Manager = Arc<tokio::sync::Mutex<AuthorizationManager>>;

pub(super) const DISCOVERING: &str =
    "discovering the authorization server or registering the client";
const AUTHORIZING: &str = "in the host's authorize function";
const REDIRECTED: &str = "at the authorization server";
const EXCHANGING: &str = "exchanging the authorization code for a token";
const STEPPING_UP: &str = "asking for the scopes the server wants";

/// The streamable HTTP client of an [`McpClient`](crate::mcp::McpClient) connected with
/// [`McpOAuth`].
#[derive(Clone)]
pub(in crate::mcp) struct Authorizing {
    inner: AuthClient<Reading<reqwest::Client>>,
    flow: Arc<Flow>,
}

/// A client for the server at `url`, not yet authorized, whose answers `legacy` reads.
pub(in crate::mcp) async fn authorizing(
    url: &str,
    oauth: McpOAuth,
    legacy: Arc<LegacyTasks>,
) -> Result<Authorizing, McpAuthError> {
    if oauth.client_secret.is_some() && oauth.client_id.is_none() {
        return Err(McpAuthError::new(
            "before it started",
            "a client secret was given without the client id it belongs to",
        ));
    }
    if matches!(oauth.grant, Grant::EnterpriseManaged { .. }) && oauth.client_id.is_none() {
        return Err(McpAuthError::new(
            "before it started",
            "enterprise-managed authorization needs the client id registered at the MCP \
             server's authorization server",
        ));
    }
    let manager = AuthorizationManager::new(url)
        .await
        .map_err(|e| McpAuthError::new(DISCOVERING, e))?;
    // As rmcp's own client: a token is never sent to another origin.
    let http = http_client().map_err(|e| McpAuthError::new(DISCOVERING, e))?;
    Ok(Authorizing {
        inner: AuthClient::new(Reading::new(http.clone(), legacy, http), manager),
        flow: Arc::new(Flow {
            url: url.to_owned(),
            oauth,
            one_at_a_time: tokio::sync::Mutex::new(()),
            generation: AtomicU64::new(0),
            authorized: AtomicBool::new(false),
            failure: Mutex::new(None),
        }),
    })
}

impl Authorizing {
    /// Why the last authorization failed, once.
    pub(in crate::mcp) fn take_failure(&self) -> Option<McpAuthError> {
        let mut failure = self
            .flow
            .failure
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        failure.take()
    }

    /// `call`, authorizing and calling again when the server asks for it: at most once anew
    /// and once for more scopes, so a request is sent at most three times.
    async fn authorized<T, Fut>(&self, call: impl Fn() -> Fut) -> Result<T, HttpError>
    where
        Fut: Future<Output = Result<T, HttpError>>,
    {
        let (mut anew, mut stepped_up) = (false, false);
        loop {
            let seen = self.flow.generation.load(Ordering::Acquire);
            let error = match call().await {
                Err(error) => error,
                done => return done,
            };
            let challenge = match &error {
                StreamableHttpError::AuthRequired(e) => {
                    Challenge::Unauthorized(Some(e.www_authenticate_header.clone()))
                }
                // A 401 without a challenge: discovery starts from the well-known URLs.
                StreamableHttpError::HttpStatus(e) if e.status == 401 => {
                    Challenge::Unauthorized(None)
                }
                StreamableHttpError::InsufficientScope(e) => {
                    Challenge::InsufficientScope(e.www_authenticate_header.clone())
                }
                _ => return Err(error),
            };
            let once = match challenge {
                Challenge::Unauthorized(_) => &mut anew,
                Challenge::InsufficientScope(_) => &mut stepped_up,
            };
            if std::mem::replace(once, true) {
                return Err(error);
            }
            match self
                .flow
                .authorize(&self.inner.auth_manager, challenge, seen)
                .await
            {
                Ok(true) => {}
                Ok(false) => return Err(error),
                Err(failed) => return Err(StreamableHttpError::Auth(failed)),
            }
        }
    }
}

/// What the server answered a request with.
enum Challenge {
    /// `401`: no token, or one it no longer takes; with its `WWW-Authenticate` header.
    Unauthorized(Option<String>),
    /// `403` with a `WWW-Authenticate` header (`error="insufficient_scope"` if it is one).
    InsufficientScope(String),
}

/// The authorization state a connection's requests share.
struct Flow {
    url: String,
    oauth: McpOAuth,
    /// Held while authorizing: the requests refused meanwhile wait, then use its token.
    one_at_a_time: tokio::sync::Mutex<()>,
    /// Counts the authorizations done, so that a request refused before the last one tries
    /// again with its token rather than authorizing once more.
    generation: AtomicU64,
    /// Whether the client holds a token it got (to step up from).
    authorized: AtomicBool,
    /// Why the last authorization failed, for `connect_http_with_oauth` to report in full.
    failure: Mutex<Option<McpAuthError>>,
}

impl Flow {
    /// Meets `challenge`, answered to a request sent at `seen`: `Ok(true)` when the request is
    /// worth sending again, `Ok(false)` when it is not (the server wants scopes the token
    /// has), the failure otherwise.
    async fn authorize(
        &self,
        manager: &Manager,
        challenge: Challenge,
        seen: u64,
    ) -> Result<bool, AuthError> {
        let _alone = self.one_at_a_time.lock().await;
        if self.generation.load(Ordering::Acquire) != seen {
            return Ok(true);
        }
        let outcome = match challenge {
            Challenge::InsufficientScope(header) if self.authorized.load(Ordering::Acquire) => {
                self.step_up(manager, &header).await
            }
            Challenge::InsufficientScope(header) => self.anew(manager, Some(&header)).await,
            Challenge::Unauthorized(header) => self.anew(manager, header.as_deref()).await,
        };
        match outcome {
            Ok(retry) => {
                if retry {
                    self.authorized.store(true, Ordering::Release);
                    self.generation.fetch_add(1, Ordering::AcqRel);
                }
                Ok(retry)
            }
            Err(failure) => {
                // rmcp's error, "OAuth authorization failed: {cause}", is what the request
                // fails with; the failure itself, with its source, is kept for
                // `connect_http_with_oauth` to return.
                let cause = failure.cause();
                *self.failure.lock().unwrap_or_else(PoisonError::into_inner) = Some(failure);
                Err(AuthError::AuthorizationFailed(cause))
            }
        }
    }

    /// Authorizes from scratch (discovery, registration, a token), from the server's
    /// challenge, and makes the new authorization the client's.
    async fn anew(&self, manager: &Manager, challenge: Option<&str>) -> Result<bool, McpAuthError> {
        let fresh = match &self.oauth.grant {
            Grant::AuthorizationCode {
                redirect_uri,
                authorize,
            } => {
                self.code_grant(redirect_uri, &**authorize, challenge)
                    .await?
            }
            _ => self.without_a_person(challenge, &[]).await?,
        };
        *manager.lock().await = fresh;
        Ok(true)
    }

    /// The authorization code grant with PKCE, through rmcp's `OAuthState`.
    async fn code_grant(
        &self,
        redirect_uri: &str,
        authorize: &Authorize,
        challenge: Option<&str>,
    ) -> Result<AuthorizationManager, McpAuthError> {
        let oauth = &self.oauth;
        let discovering = |e| McpAuthError::new(DISCOVERING, e);
        // The scopes of the challenge, else of the protected resource metadata, else none:
        // MCP's scope selection strategy.
        let mut request = AuthorizationRequest::new(redirect_uri).with_initial_scope_selection();
        if let Some(challenge) = challenge {
            request = request.with_challenge(challenge);
        }
        if !oauth.scopes.is_empty() {
            request = request.with_scopes(oauth.scopes.iter().cloned());
        }
        if let Some(client_id) = &oauth.client_id {
            request = request.with_preregistered_client(client_id.clone());
        }
        if let Some(secret) = &oauth.client_secret {
            request = request.with_client_secret(secret.expose());
        }
        if let Some(url) = &oauth.client_metadata_url {
            request = request.with_client_metadata_url(url.clone());
        }
        if let Some(name) = &oauth.client_name {
            request = request.with_client_name(name.clone());
        }
        let mut state = OAuthState::new(self.url.as_str(), None)
            .await
            .map_err(discovering)?;
        state
            .start_authorization(request)
            .await
            .map_err(discovering)?;
        let url = state.get_authorization_url().await.map_err(discovering)?;
        let callback = redirected(authorize(url).await)?;
        state
            .handle_callback_with_issuer(
                &callback.code,
                &callback.csrf_token,
                callback.issuer.as_deref(),
            )
            .await
            .map_err(|e| McpAuthError::new(EXCHANGING, e))?;
        state
            .into_authorization_manager()
            .ok_or_else(|| McpAuthError::new(EXCHANGING, "rmcp kept no authorization"))
    }

    /// A fresh authorization by one of the grants that need no person, from the server's
    /// challenge, asking for `more_scopes` on top of those it selects.
    async fn without_a_person(
        &self,
        challenge: Option<&str>,
        more_scopes: &[String],
    ) -> Result<AuthorizationManager, McpAuthError> {
        let (url, oauth) = (self.url.as_str(), &self.oauth);
        match &oauth.grant {
            Grant::ClientCredentials { private_key } => {
                let private_key = private_key.as_ref();
                grants::client_credentials(url, oauth, private_key, challenge, more_scopes).await
            }
            Grant::JwtBearer { assertion } => {
                grants::jwt_bearer(url, oauth, &**assertion, challenge, more_scopes).await
            }
            Grant::EnterpriseManaged { idp, id_token } => {
                let id_token = &**id_token;
                grants::enterprise_managed(url, oauth, idp, id_token, challenge, more_scopes).await
            }
            Grant::AuthorizationCode { .. } => Err(McpAuthError::new(
                AUTHORIZING,
                "the authorization code grant needs the host's authorize function",
            )),
        }
    }

    /// Step-up authorization after a `403`: asks for the scopes the challenge names on top of
    /// those the token has, unless it has them all already (then asking again cannot help).
    async fn step_up(&self, manager: &Manager, header: &str) -> Result<bool, McpAuthError> {
        let Ok(base) = Url::parse(&self.url) else {
            return Ok(false);
        };
        let params = WWWAuthenticateParams::parse(header, &base);
        let Some(required) = params
            .scope
            .clone()
            .filter(|_| params.is_insufficient_scope())
        else {
            return Ok(false);
        };
        let held = manager.lock().await.get_current_scopes().await;
        if required
            .split_whitespace()
            .all(|scope| held.iter().any(|h| h == scope))
        {
            return Ok(false);
        }
        match &self.oauth.grant {
            Grant::AuthorizationCode { authorize, .. } => {
                let stepping_up = |e| McpAuthError::new(STEPPING_UP, e);
                let url = manager
                    .lock()
                    .await
                    .request_scope_upgrade(&required)
                    .await
                    .map_err(stepping_up)?;
                let callback = redirected(authorize(url).await)?;
                manager
                    .lock()
                    .await
                    .exchange_code_for_token_with_issuer(
                        &callback.code,
                        &callback.csrf_token,
                        callback.issuer.as_deref(),
                    )
                    .await
                    .map_err(|e| McpAuthError::new(EXCHANGING, e))?;
            }
            _ => {
                let mut scopes = held;
                scopes.extend(required.split_whitespace().map(str::to_owned));
                let fresh = self.without_a_person(Some(header), &scopes).await?;
                *manager.lock().await = fresh;
            }
        }
        Ok(true)
    }
}

/// The authorization response in the URL the host's `authorize` function returned: the code,
/// or the authorization server's refusal (RFC 6749 §4.1.2.1) as the error.
fn redirected(
    returned: Result<String, crate::error::BoxError>,
) -> Result<AuthorizationCallback, McpAuthError> {
    let url = returned.map_err(|e| McpAuthError::new(AUTHORIZING, e))?;
    let parsed = Url::parse(&url).map_err(|e| McpAuthError::new(AUTHORIZING, e))?;
    let param = |name: &str| {
        parsed
            .query_pairs()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.into_owned())
    };
    if let Some(error) = param("error") {
        let description = param("error_description").unwrap_or_default();
        return Err(McpAuthError::new(
            REDIRECTED,
            format!("{error} {description}").trim_end().to_owned(),
        ));
    }
    AuthorizationCallback::from_redirect_url(&url).map_err(|e| McpAuthError::new(AUTHORIZING, e))
}

impl StreamableHttpClient for Authorizing {
    type Error = reqwest::Error;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse, HttpError> {
        self.authorized(|| {
            self.inner.post_message(
                uri.clone(),
                message.clone(),
                session_id.clone(),
                auth_header.clone(),
                custom_headers.clone(),
            )
        })
        .await
    }

    async fn post_message_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<StreamableHttpPostResponse, HttpError> {
        self.authorized(|| {
            self.inner.post_message_with_max_sse_event_size(
                uri.clone(),
                message.clone(),
                session_id.clone(),
                auth_header.clone(),
                custom_headers.clone(),
                max_sse_event_size,
            )
        })
        .await
    }

    async fn post_message_with_response_limits(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        limits: StreamableHttpResponseLimits,
    ) -> Result<StreamableHttpPostResponse, HttpError> {
        self.authorized(|| {
            self.inner.post_message_with_response_limits(
                uri.clone(),
                message.clone(),
                session_id.clone(),
                auth_header.clone(),
                custom_headers.clone(),
                limits,
            )
        })
        .await
    }

    /// Closing a session authorizes nothing: a refused `DELETE` is left at that.
    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), HttpError> {
        self.inner
            .delete_session(uri, session_id, auth_header, custom_headers)
            .await
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<BoxedSseResponse, HttpError> {
        self.authorized(|| {
            self.inner.get_stream(
                uri.clone(),
                session_id.clone(),
                last_event_id.clone(),
                auth_header.clone(),
                custom_headers.clone(),
            )
        })
        .await
    }

    async fn get_stream_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<BoxedSseResponse, HttpError> {
        self.authorized(|| {
            self.inner.get_stream_with_max_sse_event_size(
                uri.clone(),
                session_id.clone(),
                last_event_id.clone(),
                auth_header.clone(),
                custom_headers.clone(),
                max_sse_event_size,
            )
        })
        .await
    }
}
