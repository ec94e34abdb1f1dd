//! [`HttpOptions`]: the limits of a server's HTTP service, with their defaults.

use std::time::Duration;

use super::auth::BearerAuthLayer;
use super::origins::Allowed;

/// The limits of the HTTP service, with their defaults.
#[derive(Debug, Clone)]
pub(super) struct HttpOptions {
    pub(super) allowed: Allowed,
    pub(super) max_sessions: usize,
    pub(super) session_idle: Duration,
    pub(super) max_body_bytes: usize,
    pub(super) stateless: bool,
    pub(super) auth: Option<BearerAuthLayer>,
    pub(super) header_timeout: Duration,
    pub(super) shutdown_grace: Duration,
}

/// The default cap on live sessions.
pub(super) const DEFAULT_MAX_SESSIONS: usize = 1_000;

/// The default time a session lives without a request.
pub(super) const DEFAULT_SESSION_IDLE: Duration = Duration::from_secs(300);

/// The default largest request body: 4 MiB, rmcp's.
pub(super) const DEFAULT_MAX_BODY_BYTES: usize = 4 * 1024 * 1024;

/// The default time a connection has to send a request's headers.
pub(super) const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(30);

/// The default time calls in flight have to finish when the server shuts down.
pub(super) const DEFAULT_SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

impl Default for HttpOptions {
    fn default() -> Self {
        HttpOptions {
            allowed: Allowed::default(),
            max_sessions: DEFAULT_MAX_SESSIONS,
            session_idle: DEFAULT_SESSION_IDLE,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            stateless: false,
            auth: None,
            header_timeout: DEFAULT_HEADER_TIMEOUT,
            shutdown_grace: DEFAULT_SHUTDOWN_GRACE,
        }
    }
}
