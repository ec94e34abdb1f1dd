//! The streamable HTTP client of [`McpClient::connect_http`](super::McpClient::connect_http)
//! and `connect_http_with_oauth`: any of rmcp's [`StreamableHttpClient`]s, whose SSE events
//! the client reads before rmcp parses them (for what a 2025-11-25 server says of tasks that
//! rmcp's types leave out, see `legacy_tasks`).
//!
//! Every method is the inner client's own, so its limits (the size of an event, of a JSON
//! body) stay enforced where they are, before any event is read here. A response the server
//! sends as a JSON body rather than an SSE stream reaches this client already parsed by the
//! inner one, into rmcp's types: what they leave out is gone, and is not read.

use std::collections::HashMap;
use std::sync::Arc;

use futures_util::StreamExt;
use http::{HeaderName, HeaderValue};
use rmcp::model::ClientJsonRpcMessage;
use rmcp::transport::common::client_side_sse::BoxedSseResponse;
use rmcp::transport::streamable_http_client::{
    StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse,
    StreamableHttpResponseLimits,
};

use super::legacy_tasks::LegacyTasks;

/// `inner`, with the data of each SSE event it receives read by `tasks` first.
#[derive(Clone)]
pub(super) struct Reading<C> {
    inner: C,
    tasks: Arc<LegacyTasks>,
}

impl<C> Reading<C> {
    pub(super) fn new(inner: C, tasks: Arc<LegacyTasks>) -> Self {
        Reading { inner, tasks }
    }

    /// `stream`, each event's data read by `tasks` as it passes.
    fn stream(&self, stream: BoxedSseResponse) -> BoxedSseResponse {
        let tasks = Arc::clone(&self.tasks);
        stream
            .inspect(move |event| {
                if let Ok(event) = event
                    && let Some(data) = &event.data
                {
                    tasks.read(data.as_bytes());
                }
            })
            .boxed()
    }

    fn response(&self, response: StreamableHttpPostResponse) -> StreamableHttpPostResponse {
        match response {
            StreamableHttpPostResponse::Sse(stream, session) => {
                StreamableHttpPostResponse::Sse(self.stream(stream), session)
            }
            // A JSON body is parsed already (see the module docs); nothing to read.
            other => other,
        }
    }
}

/// The HTTP client rmcp's `StreamableHttpClientTransport::from_uri` makes (which it keeps
/// private): no idle connections kept (a reused one can stall on the server's delayed ACK),
/// and redirects followed only where they keep the request.
pub(in crate::mcp) fn http_client() -> Result<reqwest::Client, reqwest::Error> {
    reqwest::Client::builder()
        .pool_max_idle_per_host(0)
        .redirect(same_origin_redirects())
        .build()
}

/// rmcp's streamable HTTP client's redirect policy (private too): same-origin `307` and `308`
/// only, at most ten. Neither the session nor a token is ever sent to another origin.
fn same_origin_redirects() -> reqwest::redirect::Policy {
    reqwest::redirect::Policy::custom(|attempt| {
        let keeps_the_request = matches!(
            attempt.status(),
            reqwest::StatusCode::TEMPORARY_REDIRECT | reqwest::StatusCode::PERMANENT_REDIRECT
        );
        let same_origin = attempt
            .previous()
            .first()
            .is_some_and(|first| first.origin() == attempt.url().origin());
        if keeps_the_request && same_origin && attempt.previous().len() <= 10 {
            attempt.follow()
        } else {
            attempt.stop()
        }
    })
}

type Posted<E> = Result<StreamableHttpPostResponse, StreamableHttpError<E>>;

impl<C: StreamableHttpClient + Sync> StreamableHttpClient for Reading<C> {
    type Error = C::Error;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Posted<C::Error> {
        let posted = self
            .inner
            .post_message(uri, message, session_id, auth_header, custom_headers)
            .await;
        posted.map(|response| self.response(response))
    }

    async fn post_message_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Posted<C::Error> {
        let posted = self
            .inner
            .post_message_with_max_sse_event_size(
                uri,
                message,
                session_id,
                auth_header,
                custom_headers,
                max_sse_event_size,
            )
            .await;
        posted.map(|response| self.response(response))
    }

    async fn post_message_with_response_limits(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        limits: StreamableHttpResponseLimits,
    ) -> Posted<C::Error> {
        let posted = self
            .inner
            .post_message_with_response_limits(
                uri,
                message,
                session_id,
                auth_header,
                custom_headers,
                limits,
            )
            .await;
        posted.map(|response| self.response(response))
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), StreamableHttpError<C::Error>> {
        self.inner
            .delete_session(uri, session_id, auth_header, custom_headers)
            .await
    }

    /// The server's own stream, and the one a dropped response is resumed on: the results it
    /// replays are read too.
    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<BoxedSseResponse, StreamableHttpError<C::Error>> {
        let stream = self
            .inner
            .get_stream(uri, session_id, last_event_id, auth_header, custom_headers)
            .await?;
        Ok(self.stream(stream))
    }

    async fn get_stream_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<BoxedSseResponse, StreamableHttpError<C::Error>> {
        let stream = self
            .inner
            .get_stream_with_max_sse_event_size(
                uri,
                session_id,
                last_event_id,
                auth_header,
                custom_headers,
                max_sse_event_size,
            )
            .await?;
        Ok(self.stream(stream))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use futures_util::Stream;
    use rmcp::model::{ClientRequest, PingRequest};

    use super::*;
    use crate::tool::TaskSupport;

    /// rmcp's SSE event (`sse_stream::Sse`), which rmcp does not name publicly.
    type Event = <<BoxedSseResponse as Stream>::Item as Outcome>::Ok;

    trait Outcome {
        type Ok;
    }

    impl<T, E> Outcome for Result<T, E> {
        type Ok = T;
    }

    const LISTED: &str = r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"research","inputSchema":{"type":"object"},"execution":{"taskSupport":"required"}}]}}"#;
    const INITIALIZED: &str = r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tasks":{"requests":{"tools":{"call":{}}}}},"serverInfo":{"name":"s","version":"1"}}}"#;

    /// Answers every request with one SSE event, `data`; records which method was called.
    #[derive(Clone)]
    struct Canned {
        data: &'static str,
        called: Arc<Mutex<Vec<&'static str>>>,
    }

    impl Canned {
        fn answer(&self, method: &'static str) -> BoxedSseResponse {
            self.called.lock().unwrap().push(method);
            let event = Event {
                data: Some(self.data.to_owned()),
                ..Default::default()
            };
            futures_util::stream::iter([Ok(event)]).boxed()
        }
    }

    impl StreamableHttpClient for Canned {
        type Error = std::io::Error;

        async fn post_message(
            &self,
            _: Arc<str>,
            _: ClientJsonRpcMessage,
            _: Option<Arc<str>>,
            _: Option<String>,
            _: HashMap<HeaderName, HeaderValue>,
        ) -> Posted<Self::Error> {
            Ok(StreamableHttpPostResponse::Sse(self.answer("post"), None))
        }

        async fn post_message_with_response_limits(
            &self,
            _: Arc<str>,
            _: ClientJsonRpcMessage,
            _: Option<Arc<str>>,
            _: Option<String>,
            _: HashMap<HeaderName, HeaderValue>,
            _: StreamableHttpResponseLimits,
        ) -> Posted<Self::Error> {
            Ok(StreamableHttpPostResponse::Sse(
                self.answer("limited post"),
                None,
            ))
        }

        async fn delete_session(
            &self,
            _: Arc<str>,
            _: Arc<str>,
            _: Option<String>,
            _: HashMap<HeaderName, HeaderValue>,
        ) -> Result<(), StreamableHttpError<Self::Error>> {
            Ok(())
        }

        async fn get_stream(
            &self,
            _: Arc<str>,
            _: Option<Arc<str>>,
            _: Option<String>,
            _: Option<String>,
            _: HashMap<HeaderName, HeaderValue>,
        ) -> Result<BoxedSseResponse, StreamableHttpError<Self::Error>> {
            Ok(self.answer("get"))
        }

        async fn get_stream_with_max_sse_event_size(
            &self,
            _: Arc<str>,
            _: Option<Arc<str>>,
            _: Option<String>,
            _: Option<String>,
            _: HashMap<HeaderName, HeaderValue>,
            _: usize,
        ) -> Result<BoxedSseResponse, StreamableHttpError<Self::Error>> {
            Ok(self.answer("limited get"))
        }
    }

    fn reading(data: &'static str) -> (Reading<Canned>, Arc<LegacyTasks>, Canned) {
        let canned = Canned {
            data,
            called: Arc::default(),
        };
        let tasks = Arc::new(LegacyTasks::default());
        (
            Reading::new(canned.clone(), Arc::clone(&tasks)),
            tasks,
            canned,
        )
    }

    /// The data of every event of `stream`, as rmcp would see it.
    async fn drain(stream: BoxedSseResponse) -> Vec<String> {
        stream
            .map(|event| event.unwrap().data.unwrap_or_default())
            .collect()
            .await
    }

    #[tokio::test]
    async fn the_events_of_a_post_are_read_and_passed_on_and_the_limits_kept() {
        let (client, tasks, canned) = reading(LISTED);
        let ping = ClientJsonRpcMessage::request(
            ClientRequest::PingRequest(PingRequest::default()),
            rmcp::model::RequestId::Number(1),
        );
        let limits = StreamableHttpResponseLimits::default();
        let posted = client
            .post_message_with_response_limits(
                "http://x/mcp".into(),
                ping,
                None,
                None,
                HashMap::new(),
                limits,
            )
            .await
            .unwrap();
        let StreamableHttpPostResponse::Sse(stream, _) = posted else {
            panic!("an SSE stream: {posted:?}");
        };
        // Read as it passes, not before.
        assert_eq!(tasks.support("research"), TaskSupport::Forbidden);
        assert_eq!(drain(stream).await, [LISTED]);
        assert_eq!(tasks.support("research"), TaskSupport::Required);
        // The inner client's own limited method, not its plain one.
        assert_eq!(*canned.called.lock().unwrap(), ["limited post"]);
    }

    #[tokio::test]
    async fn the_events_of_the_servers_stream_are_read_and_the_limits_kept() {
        let (client, tasks, canned) = reading(INITIALIZED);
        let stream = client
            .get_stream_with_max_sse_event_size(
                "http://x/mcp".into(),
                None,
                None,
                None,
                HashMap::new(),
                1024,
            )
            .await
            .unwrap();
        assert_eq!(drain(stream).await, [INITIALIZED]);
        assert!(tasks.tools_call());
        assert_eq!(*canned.called.lock().unwrap(), ["limited get"]);
    }
}
