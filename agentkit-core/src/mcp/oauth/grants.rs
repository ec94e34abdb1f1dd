//! The grants of [`McpOAuth`] that need no person: the client credentials grant (with a secret
//! or `private_key_jwt`), rmcp's; the JWT bearer grant (RFC 7523 §2.1) for workload identity
//! federation; and enterprise-managed authorization (the person's ID token exchanged for an
//! ID-JAG at their identity provider, RFC 8693, then presented with the JWT bearer grant),
//! through rmcp's `enterprise` module. Each starts from scratch, with discovery, and returns
//! the `AuthorizationManager` holding its token.
//!
//! The last two end with a token rmcp's `AuthorizationManager` did not get itself, handed to
//! it as the one it holds, so that the client sends it and, once it expires or is refused,
//! authorizes anew.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use oauth2::basic::BasicTokenType;
use oauth2::{AccessToken, ClientSecret, Scope, TokenResponse};
use reqwest::Url;
use reqwest::header::{ACCEPT, CONTENT_TYPE};
use rmcp::transport::auth::enterprise::{
    EmaAuthorizationServer, EmaClientAuthentication, EmaExchangeRequest,
};
use rmcp::transport::auth::{
    AuthError, AuthorizationManager, AuthorizationMetadata, ClientCredentialsConfig,
    CredentialStore, InMemoryCredentialStore, OAuthTokenResponse, StoredCredentials,
    VendorExtraTokenFields, default_oauth_http_client,
};

use super::flow::DISCOVERING;
use super::{Assertion, EnterpriseIdp, McpAuthError, McpOAuth, PrivateKey};
use crate::credentials::Secret;

const JWT_BEARER: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";

const CLIENT_CREDENTIALS: &str = "getting a token with the client credentials";
const ASSERTING: &str = "in the host's function that returns the assertion";
const JWT_BEARER_GRANT: &str = "getting a token with the JWT bearer grant";
const ENTERPRISE: &str = "exchanging the ID token for an ID-JAG, and that for a token";
const KEEPING: &str = "keeping the token";

/// How long the token request may take, as rmcp bounds its own.
const TOKEN_REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// The client credentials grant, asking for `more_scopes` on top of those it selects; the
/// client authenticates with its private key when it has one, else with its secret.
pub(super) async fn client_credentials(
    url: &str,
    oauth: &McpOAuth,
    private_key: Option<&PrivateKey>,
    challenge: Option<&str>,
    more_scopes: &[String],
) -> Result<AuthorizationManager, McpAuthError> {
    let Some(client_id) = &oauth.client_id else {
        return Err(McpAuthError::new(
            CLIENT_CREDENTIALS,
            "the client credentials grant needs a client id",
        ));
    };
    let (mut manager, _, scopes) = discovered(url, oauth, challenge, more_scopes).await?;
    let (client_id, resource) = (client_id.clone(), Some(url.to_owned()));
    let config = match (private_key, &oauth.client_secret) {
        #[cfg(not(feature = "mcp-oauth-jwt"))]
        (Some(key), _) => match *key {},
        #[cfg(feature = "mcp-oauth-jwt")]
        (Some(key), _) => ClientCredentialsConfig::PrivateKeyJwt {
            client_id,
            signing_key: key.pem.expose().as_bytes().to_vec(),
            signing_algorithm: key.algorithm,
            token_endpoint_audience: None,
            scopes,
            resource,
        },
        (None, Some(secret)) => ClientCredentialsConfig::ClientSecret {
            client_id,
            client_secret: secret.expose().to_owned(),
            scopes,
            resource,
        },
        (None, None) => {
            return Err(McpAuthError::new(
                CLIENT_CREDENTIALS,
                "the client credentials grant needs a client secret or a private key",
            ));
        }
    };
    let failed = |e| McpAuthError::new(CLIENT_CREDENTIALS, e);
    manager
        .validate_client_credentials_metadata(&config)
        .map_err(failed)?;
    manager
        .configure_client_credentials(&config)
        .map_err(failed)?;
    exchange_client_credentials(manager, config)
        .await
        .map_err(failed)
}

/// The JWT bearer grant: discovers the authorization server, and presents the assertion the
/// host returns at its token endpoint, for the server at `url`, once.
pub(super) async fn jwt_bearer(
    url: &str,
    oauth: &McpOAuth,
    assertion: &Assertion,
    challenge: Option<&str>,
    more_scopes: &[String],
) -> Result<AuthorizationManager, McpAuthError> {
    let (manager, metadata, scopes) = discovered(url, oauth, challenge, more_scopes).await?;
    let refused = |e: &'static str| McpAuthError::new(JWT_BEARER_GRANT, e);
    let endpoint = Url::parse(&metadata.token_endpoint)
        .map_err(|_| refused("the authorization server's token endpoint is not a URL"))?;
    let resource = Url::parse(url).map_err(|_| refused("the server's URL is not a URL"))?;
    if !allowed_token_endpoint(&resource, &endpoint) {
        return Err(refused(
            "the token endpoint is not HTTPS (plain HTTP is taken only on the loopback \
             interface, for a server there too)",
        ));
    }
    let assertion = assertion()
        .await
        .map_err(|e| McpAuthError::new(ASSERTING, e))?;

    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(TOKEN_REQUEST_TIMEOUT)
        .build()
        .map_err(|e| McpAuthError::new(JWT_BEARER_GRANT, e))?;
    let mut request = http
        .post(endpoint)
        .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
        .header(ACCEPT, "application/json");
    // The form is built apart: its serializer is not `Send`, and must not live across an
    // `await`.
    let body = {
        let mut form = form_urlencoded::Serializer::new(String::new());
        form.append_pair("grant_type", JWT_BEARER)
            .append_pair("assertion", assertion.expose())
            .append_pair("resource", url);
        if !scopes.is_empty() {
            form.append_pair("scope", &scopes.join(" "));
        }
        match (&oauth.client_id, &oauth.client_secret) {
            (Some(id), Some(secret)) if takes_only_post(&metadata) => {
                form.append_pair("client_id", id)
                    .append_pair("client_secret", secret.expose());
            }
            // `client_secret_basic`: both form-encoded first (RFC 6749 §2.3.1).
            (Some(id), Some(secret)) => {
                request = request.basic_auth(form_encoded(id), Some(form_encoded(secret.expose())));
            }
            (Some(id), None) => {
                form.append_pair("client_id", id);
            }
            (None, _) => {}
        }
        form.finish()
    };
    let response = request
        .body(body)
        .send()
        .await
        .map_err(|e| McpAuthError::new(JWT_BEARER_GRANT, e.without_url()))?;
    let status = response.status();
    let body = response
        .bytes()
        .await
        .map_err(|e| McpAuthError::new(JWT_BEARER_GRANT, e.without_url()))?;
    if !status.is_success() {
        return Err(McpAuthError::new(JWT_BEARER_GRANT, refusal(status, &body)));
    }
    // Not serde's message: it can quote the response, token included.
    let token: OAuthTokenResponse = serde_json::from_slice(&body)
        .map_err(|_| refused("the token endpoint's answer is not a token response"))?;
    let client_id = oauth.client_id.clone().unwrap_or_default();
    held(manager, &metadata, client_id, token).await
}

/// Enterprise-managed authorization: discovers the authorization server, then rmcp exchanges
/// the host's ID token for an ID-JAG at the identity provider, and that for a token at the
/// authorization server.
pub(super) async fn enterprise_managed(
    url: &str,
    oauth: &McpOAuth,
    idp: &EnterpriseIdp,
    id_token: &Assertion,
    challenge: Option<&str>,
    more_scopes: &[String],
) -> Result<AuthorizationManager, McpAuthError> {
    let refused = |e: &'static str| McpAuthError::new(ENTERPRISE, e);
    // `authorizing` refuses an `McpOAuth` without one before anything is sent.
    let Some(client_id) = oauth.client_id.clone() else {
        return Err(refused("no client id"));
    };
    let (manager, metadata, scopes) = discovered(url, oauth, challenge, more_scopes).await?;
    let Some(issuer) = metadata.issuer.clone() else {
        return Err(refused(
            "the authorization server's metadata names no issuer, the ID-JAG's audience",
        ));
    };
    let authentication = match &oauth.client_secret {
        Some(secret) if takes_only_post(&metadata) => {
            EmaClientAuthentication::ClientSecretPost(client_secret(secret))
        }
        Some(secret) => EmaClientAuthentication::ClientSecretBasic(client_secret(secret)),
        None => EmaClientAuthentication::None,
    };
    let resource_as =
        EmaAuthorizationServer::new(issuer, metadata.token_endpoint.clone(), client_id.clone())
            .with_client_authentication(authentication);
    let identity_provider = EmaAuthorizationServer::new(
        idp.issuer.clone(),
        idp.token_endpoint.clone(),
        idp.client_id.clone(),
    )
    .with_client_authentication(match &idp.client_secret {
        Some(secret) => EmaClientAuthentication::ClientSecretBasic(client_secret(secret)),
        None => EmaClientAuthentication::None,
    });
    let id_token = id_token()
        .await
        .map_err(|e| McpAuthError::new(ASSERTING, e))?;
    let http = default_oauth_http_client().map_err(|e| McpAuthError::new(ENTERPRISE, e))?;
    let token = EmaExchangeRequest::new_with_id_token(
        identity_provider,
        resource_as,
        url,
        id_token.expose(),
    )
    .with_scopes(scopes)
    .exchange(&http, &http)
    .await
    .map_err(|e| McpAuthError::new(ENTERPRISE, e))?;

    let mut response = OAuthTokenResponse::new(
        AccessToken::new(token.access_token.secret().clone()),
        BasicTokenType::Bearer,
        VendorExtraTokenFields::default(),
    );
    response.set_expires_in(token.expires_in.as_ref());
    if !token.scopes.is_empty() {
        response.set_scopes(Some(token.scopes.into_iter().map(Scope::new).collect()));
    }
    held(manager, &metadata, client_id, response).await
}

/// `manager`, holding `token` as the one it got: it puts it on each request, and when it
/// expires, finds it cannot refresh it (no refresh token), so the client authorizes anew.
async fn held(
    mut manager: AuthorizationManager,
    metadata: &AuthorizationMetadata,
    client_id: String,
    token: OAuthTokenResponse,
) -> Result<AuthorizationManager, McpAuthError> {
    let keeping = |e| McpAuthError::new(KEEPING, e);
    let scopes = token
        .scopes()
        .map(|scopes| scopes.iter().map(|scope| scope.to_string()).collect())
        .unwrap_or_default();
    let received = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|since| since.as_secs())
        .ok();
    // rmcp refreshes with a client of its own, without which an expired token is an error
    // rather than a reason to authorize anew.
    manager.configure_client_id(&client_id).map_err(keeping)?;
    let store = InMemoryCredentialStore::new();
    let credentials = StoredCredentials::new(client_id, Some(token), scopes, received)
        .with_issuer(metadata.issuer.clone());
    store.save(credentials).await.map_err(keeping)?;
    manager.set_credential_store(store);
    Ok(manager)
}

/// A manager for the server at `url` that found its authorization server from `challenge`,
/// with that server's metadata, and the scopes to ask for: those given, else those MCP's
/// scope selection strategy picks (the challenge's, else the protected resource metadata's),
/// with `more_scopes` on top.
pub(super) async fn discovered(
    url: &str,
    oauth: &McpOAuth,
    challenge: Option<&str>,
    more_scopes: &[String],
) -> Result<(AuthorizationManager, AuthorizationMetadata, Vec<String>), McpAuthError> {
    let discovering = |e| McpAuthError::new(DISCOVERING, e);
    let mut manager = AuthorizationManager::new(url).await.map_err(discovering)?;
    let resolution = manager
        .resolve_metadata_from_challenge(challenge)
        .await
        .map_err(discovering)?;
    let metadata = resolution.metadata;
    manager.set_metadata(metadata.clone());
    let mut scopes = if oauth.scopes.is_empty() {
        manager.select_initial_scopes(&[]).await
    } else {
        oauth.scopes.clone()
    };
    for scope in more_scopes {
        if !scopes.contains(scope) {
            scopes.push(scope.clone());
        }
    }
    Ok((manager, metadata, scopes))
}

/// rmcp's `exchange_client_credentials`, on a blocking thread of the runtime: with rmcp's
/// `auth-client-credentials-jwt` feature its future is not `Send` (rmcp 3.11 keeps a
/// `form_urlencoded::Serializer` alive across an `await` in its `private_key_jwt` path),
/// and a transport's futures must be. The runtime's handle drives it there; the thread is
/// held for the one token request, which rmcp bounds with its 30 s timeout. rmcp's log lines
/// go where the caller's would, in its span: the subscriber and span go along.
async fn exchange_client_credentials(
    manager: AuthorizationManager,
    config: ClientCredentialsConfig,
) -> Result<AuthorizationManager, AuthError> {
    let runtime = tokio::runtime::Handle::current();
    let subscriber = tracing::dispatcher::get_default(Clone::clone);
    let span = tracing::Span::current();
    tokio::task::spawn_blocking(move || {
        tracing::dispatcher::with_default(&subscriber, || {
            span.in_scope(|| {
                runtime.block_on(async {
                    manager.exchange_client_credentials(&config).await?;
                    Ok(manager)
                })
            })
        })
    })
    .await
    .map_err(|_| AuthError::InternalError("the token request's thread ended early".into()))?
}

/// Whether the authorization server's metadata lists `client_secret_post` but not
/// `client_secret_basic`: then the secret goes in the request body, else (RFC 6749's default)
/// in the `Authorization` header.
fn takes_only_post(metadata: &AuthorizationMetadata) -> bool {
    let Some(methods) = metadata
        .additional_fields
        .get("token_endpoint_auth_methods_supported")
        .and_then(|methods| methods.as_array())
    else {
        return false;
    };
    let lists = |method: &str| methods.iter().any(|m| m.as_str() == Some(method));
    lists("client_secret_post") && !lists("client_secret_basic")
}

fn client_secret(secret: &Secret) -> ClientSecret {
    ClientSecret::new(secret.expose().to_owned())
}

fn form_encoded(value: &str) -> String {
    form_urlencoded::byte_serialize(value.as_bytes()).collect()
}

/// A token endpoint the assertion may be sent to: HTTPS, or plain HTTP on the loopback
/// interface for a server there too (a local test setup), as rmcp's client credentials grant
/// allows.
fn allowed_token_endpoint(resource: &Url, endpoint: &Url) -> bool {
    endpoint.scheme() == "https"
        || (endpoint.scheme() == "http" && is_loopback(resource) && is_loopback(endpoint))
}

/// What a token endpoint's refusal says, bounded: its status and OAuth error code
/// (`invalid_grant`), never its description or anything else it sent.
fn refusal(status: reqwest::StatusCode, body: &[u8]) -> String {
    #[derive(serde::Deserialize)]
    struct Refusal {
        error: String,
    }
    let code = serde_json::from_slice::<Refusal>(body)
        .ok()
        .map(|refusal| refusal.error)
        .filter(|code| {
            !code.is_empty()
                && code.len() <= 64
                && code
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        });
    match code {
        Some(code) => format!("the token endpoint refused it ({status}): {code}"),
        None => format!("the token endpoint refused it ({status})"),
    }
}

/// Whether `url`'s host is `localhost` or a loopback address.
fn is_loopback(url: &Url) -> bool {
    let Some(host) = url.host_str() else {
        return false;
    };
    host.eq_ignore_ascii_case("localhost")
        || host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_shows_the_error_code_and_nothing_else_it_sent() {
        let status = reqwest::StatusCode::BAD_REQUEST;
        let body = br#"{"error":"invalid_grant","error_description":"assertion eyJh.b.c expired"}"#;
        let shown = refusal(status, body);
        assert!(shown.contains("invalid_grant"), "{shown}");
        assert!(shown.contains("400"), "{shown}");
        assert!(!shown.contains("eyJh"), "{shown}");
        // A code that is not one (it could carry anything) is left out.
        let shown = refusal(status, br#"{"error":"token eyJh.b.c is bad"}"#);
        assert!(!shown.contains("eyJh"), "{shown}");
        let shown = refusal(status, b"<html>oops</html>");
        assert_eq!(shown, "the token endpoint refused it (400 Bad Request)");
    }

    #[test]
    fn an_assertion_goes_over_https_or_within_the_loopback_interface() {
        let url = |s: &str| Url::parse(s).expect("a URL");
        let local = url("http://localhost:3000/mcp");
        let remote = url("https://mcp.example.com/mcp");
        assert!(allowed_token_endpoint(
            &remote,
            &url("https://as.example.com/token")
        ));
        assert!(allowed_token_endpoint(
            &local,
            &url("http://127.0.0.1:4000/token")
        ));
        assert!(allowed_token_endpoint(
            &local,
            &url("http://[::1]:4000/token")
        ));
        assert!(!allowed_token_endpoint(
            &remote,
            &url("http://localhost:4000/token")
        ));
        assert!(!allowed_token_endpoint(
            &local,
            &url("http://as.example.com/token")
        ));
    }

    #[test]
    fn a_secret_goes_in_the_body_only_where_basic_is_not_listed() {
        let metadata = |methods: serde_json::Value| {
            let mut metadata = AuthorizationMetadata::default();
            metadata
                .additional_fields
                .insert("token_endpoint_auth_methods_supported".into(), methods);
            metadata
        };
        assert!(takes_only_post(&metadata(serde_json::json!([
            "client_secret_post"
        ]))));
        assert!(!takes_only_post(&metadata(serde_json::json!([
            "client_secret_post",
            "client_secret_basic"
        ]))));
        assert!(!takes_only_post(&metadata(serde_json::json!([
            "client_secret_basic"
        ]))));
        assert!(!takes_only_post(&AuthorizationMetadata::default()));
    }
}
