//! [`Sessions`]: rmcp's in-memory sessions, capped in number and closed when idle, each
//! call's response stream carrying its reports (`request_stream`).
//!
//! rmcp's `LocalSessionManager` ends an idle session's worker but keeps its handle in its map
//! until a client sends `DELETE`, so a flood of `initialize` requests holds memory for good,
//! and nothing caps how many sessions live at once. This wraps it: a session past the cap is
//! refused, and a sweeper closes (and so removes) every session idle past the timeout.
//!
//! The maps of sessions are made up front for twice the cap (up to a bound): a map grown
//! during a flood is allocated late in it and outlives the flood's sessions, high in the
//! allocator's heap, where it keeps all the free memory below it from being given back to the
//! system (`tests/mcp/tests/mcp_session_memory.rs` measures it).

use std::cell::Cell;
use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::{Duration, Instant};

use futures_util::future::Either;
use futures_util::{FutureExt as _, Stream};
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::WorkerTransport;
use rmcp::transport::streamable_http_server::SessionManager;
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError, LocalSessionWorker,
};
use rmcp::transport::streamable_http_server::session::{ServerSseMessage, SessionId};

use super::request_stream::{self, FIRST_MESSAGE_WAIT, FirstMessage, ReportsFirst};

/// The most sessions the maps are made for up front; past it they grow as needed.
const PREALLOCATED_MAX: usize = 16_384;

tokio::task_local! {
    /// Whether the cap refused the session the request being served asked for.
    static REFUSED: Cell<bool>;
}

/// The sessions of one HTTP service.
#[derive(Clone)]
pub(super) struct Sessions {
    shared: Arc<Shared>,
}

#[derive(Default)]
struct State {
    /// When each live session last received a request.
    seen: HashMap<SessionId, Instant>,
    /// Sessions being created: counted against the cap before they exist, so that a
    /// flood's concurrent requests cannot all pass it.
    pending: usize,
}

struct Shared {
    inner: LocalSessionManager,
    max: usize,
    idle: Duration,
    /// The live sessions and those being created.
    state: Mutex<State>,
    /// Whether the sweeper runs (started with the first session, on its runtime).
    sweeping: Mutex<bool>,
}

/// Why a session could not be served.
#[derive(Debug, thiserror::Error)]
pub(super) enum SessionsError {
    /// The cap is reached.
    #[error("the server holds its maximum of {0} sessions")]
    Full(usize),
    /// rmcp's session manager failed.
    #[error(transparent)]
    Inner(#[from] LocalSessionManagerError),
}

impl Sessions {
    /// At most `max` sessions at once, each closed after `idle` without a request.
    pub(super) fn new(max: usize, idle: Duration) -> Self {
        let mut inner = LocalSessionManager::default();
        // The worker's own timer is the fallback; the sweeper removes the handle.
        inner.session_config.keep_alive = Some(idle);
        // Room for twice the cap, so that neither map ever grows: the tombstones that removals
        // leave are then cleared in place rather than by a larger table.
        let room = 2 * max.min(PREALLOCATED_MAX);
        inner.sessions = tokio::sync::RwLock::new(HashMap::with_capacity(room));
        Sessions {
            shared: Arc::new(Shared {
                inner,
                max,
                idle,
                state: Mutex::new(State {
                    seen: HashMap::with_capacity(room),
                    pending: 0,
                }),
                sweeping: Mutex::new(false),
            }),
        }
    }

    /// How many sessions are live.
    pub(super) fn len(&self) -> usize {
        self.shared.state().seen.len()
    }

    /// Whether a new session would be refused.
    pub(super) fn is_full(&self) -> bool {
        let state = self.shared.state();
        state.seen.len() + state.pending >= self.shared.max
    }

    /// The cap.
    pub(super) fn max(&self) -> usize {
        self.shared.max
    }

    /// Serves a request through `serving`, and tells whether the cap refused the session it
    /// asked for: a refusal rmcp would answer 500, once another request took the last place
    /// between [`is_full`](Self::is_full) and the session's creation.
    pub(super) async fn refusing<F: Future>(serving: F) -> (F::Output, bool) {
        REFUSED
            .scope(Cell::new(false), async move {
                let output = serving.await;
                (output, REFUSED.with(Cell::get))
            })
            .await
    }

    /// Marks session `id` seen now; and how many sessions are live.
    fn touch(&self, id: &SessionId) -> usize {
        let mut state = self.shared.state();
        if let Some(seen) = state.seen.get_mut(id) {
            *seen = Instant::now();
        }
        state.seen.len()
    }

    /// Starts the sweeper, once, on the runtime of the first session.
    fn sweep_from_now_on(&self) {
        let mut sweeping = self
            .shared
            .sweeping
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if !*sweeping {
            *sweeping = true;
            tokio::spawn(sweep(Arc::downgrade(&self.shared)));
        }
    }
}

impl Shared {
    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A place under the cap, held while a session is created: given back if the creation fails
/// or its future is dropped.
struct Reservation<'a> {
    shared: &'a Shared,
}

impl<'a> Reservation<'a> {
    fn take(shared: &'a Shared) -> Result<Self, SessionsError> {
        let mut state = shared.state();
        if state.seen.len() + state.pending >= shared.max {
            return Err(SessionsError::Full(shared.max));
        }
        state.pending += 1;
        Ok(Reservation { shared })
    }

    /// The session `id` now holds the place.
    fn fulfil(self, id: SessionId) {
        self.shared.state().seen.insert(id, Instant::now());
        // Dropped here: the pending count goes down as the session is counted.
    }
}

impl Drop for Reservation<'_> {
    fn drop(&mut self) {
        self.shared.state().pending -= 1;
    }
}

/// Closes the sessions idle past the timeout, a few times per timeout, until the sessions
/// are dropped.
async fn sweep(shared: Weak<Shared>) {
    let period = match shared.upgrade() {
        Some(shared) => (shared.idle / 4).clamp(Duration::from_millis(50), Duration::from_secs(30)),
        None => return,
    };
    loop {
        tokio::time::sleep(period).await;
        let Some(shared) = shared.upgrade() else {
            return;
        };
        let now = Instant::now();
        let idle: Vec<SessionId> = shared
            .state()
            .seen
            .iter()
            .filter(|(_, seen)| now.duration_since(**seen) >= shared.idle)
            .map(|(id, _)| id.clone())
            .collect();
        for id in idle {
            shared.state().seen.remove(&id);
            // A worker that ended on its own timer is already gone: nothing to report.
            let _ = shared.inner.close_session(&id).await;
        }
    }
}

impl SessionManager for Sessions {
    type Error = SessionsError;
    type Transport = WorkerTransport<LocalSessionWorker>;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        let reservation = Reservation::take(&self.shared).inspect_err(|_| {
            // For `refusing`: answered 503 then, not rmcp's 500.
            let _ = REFUSED.try_with(|refused| refused.set(true));
        })?;
        let (id, transport) = self.shared.inner.create_session().await?;
        reservation.fulfil(id.clone());
        self.sweep_from_now_on();
        Ok((id, transport))
    }

    // The methods a request runs are not `async fn`s: their futures, inside rmcp's request
    // future, would keep the message beside the inner manager's future that holds it too
    // (752 bytes more a request than rmcp's own manager, for `create_stream`).
    fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> impl Future<Output = Result<ServerJsonRpcMessage, Self::Error>> + Send {
        self.touch(id);
        self.shared
            .inner
            .initialize_session(id, message)
            .map(|initialized| Ok(initialized?))
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        Ok(self.shared.inner.has_session(id).await?)
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        self.shared.state().seen.remove(id);
        Ok(self.shared.inner.close_session(id).await?)
    }

    fn create_stream(
        &self,
        id: &SessionId,
        mut message: ClientJsonRpcMessage,
    ) -> impl Future<
        Output = Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error>,
    > + Send {
        // With other sessions live, the headers wait for the first message, to go out with it
        // (see `request_stream`).
        let wait = (self.touch(id) > 1).then_some(FIRST_MESSAGE_WAIT);
        // The request's reports ride its own stream, before its response (rmcp sends log
        // messages to the standalone one): see `request_stream`.
        let queued = request_stream::open(&mut message);
        self.shared
            .inner
            .create_stream(id, message)
            .then(move |stream| match stream {
                Ok(stream) => {
                    Either::Left(FirstMessage::new(ReportsFirst::new(queued, stream), wait).map(Ok))
                }
                Err(error) => Either::Right(std::future::ready(Err(error.into()))),
            })
    }

    fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.touch(id);
        self.shared
            .inner
            .accept_message(id, message)
            .map(|accepted| Ok(accepted?))
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id);
        Ok(self.shared.inner.create_standalone_stream(id).await?)
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id);
        Ok(self.shared.inner.resume(id, last_event_id).await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A request that passed the service's check while another took the last place is
    /// refused by the session manager: `refusing` tells the service so (to answer 503).
    #[tokio::test]
    async fn a_session_refused_past_the_cap_is_told_to_the_request_that_asked() {
        let sessions = Sessions::new(1, Duration::from_secs(60));
        let (first, refused) = Sessions::refusing(sessions.create_session()).await;
        assert!(first.is_ok() && !refused);
        assert!(sessions.is_full());
        let (second, refused) = Sessions::refusing(sessions.create_session()).await;
        assert!(matches!(second, Err(SessionsError::Full(1))));
        assert!(refused);
        // Outside a request's scope the refusal is only the error.
        assert!(matches!(
            sessions.create_session().await,
            Err(SessionsError::Full(1))
        ));
    }
}
