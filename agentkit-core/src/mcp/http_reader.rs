//! The streamable HTTP client of [`McpClient::connect_http`](super::McpClient::connect_http)
//! and `connect_http_with_oauth`: any of rmcp's [`StreamableHttpClient`]s, whose answers the
//! client reads before rmcp parses them (for what a 2025-11-25 server says of tasks that
//! rmcp's types leave out, see `legacy_tasks`).
//!
//! Every method is the inner client's own, so its limits (the size of an event, of a JSON
//! body) stay enforced where they are, before anything is read here. The data of each SSE
//! event is read as it passes. A response the server sends as a JSON body rather than an SSE
//! stream (a server's choice, such as the TypeScript SDK's `enableJsonResponse`) reaches this
//! client already parsed by the inner one, into rmcp's types, so what they leave out is gone:
//! for the two answers that say anything of tasks, `initialize` and `tools/list`, the client
//! then asks again itself ([`Again`]) and reads the second answer's body. `tools/list` is a
//! read; the second `initialize` opens a session of its own, ended as soon as it is read
//! (`DELETE`), and a server that keeps no sessions opens none. Neither costs a server that
//! answers with SSE anything.
//!
//! Under OAuth, this client sits inside rmcp's `AuthClient`, so each request reaches it with
//! its token, which the second request carries too.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use http::{HeaderName, HeaderValue};
use rmcp::model::{ClientJsonRpcMessage, ClientRequest, JsonRpcMessage};
use rmcp::transport::common::client_side_sse::BoxedSseResponse;
use rmcp::transport::common::http_header::{
    EVENT_STREAM_MIME_TYPE, HEADER_SESSION_ID, JSON_MIME_TYPE,
};
use rmcp::transport::streamable_http_client::{
    StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse,
    StreamableHttpResponseLimits,
};

use super::legacy_tasks::LegacyTasks;

/// `inner`, with the data of each SSE event it receives read by `tasks` first, and the two
/// answers that say anything of tasks asked again with `http` when they came as JSON bodies.
#[derive(Clone)]
pub(super) struct Reading<C> {
    inner: C,
    tasks: Arc<LegacyTasks>,
    http: reqwest::Client,
}

impl<C> Reading<C> {
    /// `inner`, read by `tasks`; `http` sends what is asked again (the inner client itself,
    /// where that is a `reqwest::Client`).
    pub(super) fn new(inner: C, tasks: Arc<LegacyTasks>, http: reqwest::Client) -> Self {
        Reading { inner, tasks, http }
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

    /// What `posting` answered, read: its SSE events as they pass, and when it was a JSON
    /// body, `again`'s second answer (read before the first is handed on, so that what it
    /// says of tasks is known before rmcp's client acts on the first).
    async fn posted<E: std::error::Error + Send + Sync + 'static>(
        &self,
        posting: impl Future<Output = Posted<E>>,
        again: Option<Again>,
        max_body: usize,
    ) -> Posted<E> {
        match posting.await? {
            StreamableHttpPostResponse::Sse(stream, session) => Ok(
                StreamableHttpPostResponse::Sse(self.stream(stream), session),
            ),
            json @ StreamableHttpPostResponse::Json(..) => {
                if let Some(again) = again {
                    again.read(&self.http, &self.tasks, max_body).await;
                }
                Ok(json)
            }
            other => Ok(other),
        }
    }
}

/// Whether a request with `headers` is of MCP 2026-07-28 or later: rmcp names the revision in
/// each request's `MCP-Protocol-Version` once it is agreed.
fn speaks_2026(headers: &HashMap<HeaderName, HeaderValue>) -> bool {
    headers
        .get(&HeaderName::from_static("mcp-protocol-version"))
        .is_some_and(|version| version.as_bytes() >= b"2026-07-28".as_slice())
}

/// A request to send again when its answer came as a JSON body: `initialize` or `tools/list`
/// (see the module docs), with what the first one was sent with.
struct Again {
    uri: Arc<str>,
    message: ClientJsonRpcMessage,
    session_id: Option<Arc<str>>,
    auth_header: Option<String>,
    custom_headers: HashMap<HeaderName, HeaderValue>,
}

impl Again {
    /// `message`'s, when it is one of the two requests whose answers say anything of tasks;
    /// the rest are not copied.
    fn of(
        uri: &Arc<str>,
        message: &ClientJsonRpcMessage,
        session_id: &Option<Arc<str>>,
        auth_header: &Option<String>,
        custom_headers: &HashMap<HeaderName, HeaderValue>,
    ) -> Option<Again> {
        let JsonRpcMessage::Request(request) = message else {
            return None;
        };
        let initialize = match &request.request {
            ClientRequest::InitializeRequest(_) => true,
            // rmcp models what a server of 2026-07-28 says of tasks: its lists are read once.
            ClientRequest::ListToolsRequest(_) if !speaks_2026(custom_headers) => false,
            _ => return None,
        };
        Some(Again {
            uri: Arc::clone(uri),
            message: message.clone(),
            // A second `initialize` opens its own session rather than joining one.
            session_id: if initialize { None } else { session_id.clone() },
            auth_header: auth_header.clone(),
            custom_headers: custom_headers.clone(),
        })
    }

    /// Whether this is a second `initialize` (which opens a session of its own).
    fn initializes(&self) -> bool {
        matches!(
            &self.message,
            JsonRpcMessage::Request(request)
                if matches!(request.request, ClientRequest::InitializeRequest(_))
        )
    }

    fn with_headers(&self, mut request: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        if let Some(token) = &self.auth_header {
            request = request.bearer_auth(token);
        }
        // The inner client sent the first request with these, so they are valid ones.
        for (name, value) in &self.custom_headers {
            request = request.header(name, value);
        }
        request
    }

    /// Sends the request again with `http`, and has `tasks` read the answer's body, of at
    /// most `max_body` bytes. Best effort, within [`AGAIN_TIMEOUT`] a request: an answer that
    /// does not come, or not as a whole JSON body within the limit, is not read, and the
    /// tools are then taken as the first answer gave them (no tasks).
    async fn read(self, http: &reqwest::Client, tasks: &LegacyTasks, max_body: usize) {
        let mut request = self
            .with_headers(http.post(&*self.uri))
            .header(
                http::header::ACCEPT,
                format!("{JSON_MIME_TYPE}, {EVENT_STREAM_MIME_TYPE}"),
            )
            .timeout(AGAIN_TIMEOUT);
        if let Some(session) = &self.session_id {
            request = request.header(HEADER_SESSION_ID, &**session);
        }
        let Ok(mut response) = request.json(&self.message).send().await else {
            return;
        };
        let opened = self
            .initializes()
            .then(|| response.headers().get(HEADER_SESSION_ID).cloned())
            .flatten();
        let json = response
            .headers()
            .get(http::header::CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.split(';').next())
            .is_some_and(|essence| essence.trim().eq_ignore_ascii_case(JSON_MIME_TYPE));
        if response.status().is_success() && json {
            let mut body = Vec::new();
            let whole = loop {
                match response.chunk().await {
                    Ok(Some(chunk)) if body.len() + chunk.len() <= max_body => {
                        body.extend_from_slice(&chunk);
                    }
                    Ok(None) => break true,
                    // Too large, or cut: not read.
                    Ok(Some(_)) | Err(_) => break false,
                }
            };
            if whole {
                tasks.read(&body);
            }
        }
        drop(response);
        if let Some(session) = opened {
            let ended = self
                .with_headers(http.delete(&*self.uri))
                .header(HEADER_SESSION_ID, session)
                .timeout(AGAIN_TIMEOUT);
            // A server that cannot end it ends it when it expires.
            let _ = ended.send().await;
        }
    }
}

/// How long each request of [`Again::read`] may take: it is not the application's request,
/// and it must not hold the application's up for long.
const AGAIN_TIMEOUT: Duration = Duration::from_secs(10);

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
        let again = Again::of(&uri, &message, &session_id, &auth_header, &custom_headers);
        let max_body = StreamableHttpResponseLimits::default().max_json_response_size;
        let posting =
            self.inner
                .post_message(uri, message, session_id, auth_header, custom_headers);
        self.posted(posting, again, max_body).await
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
        let again = Again::of(&uri, &message, &session_id, &auth_header, &custom_headers);
        let max_body = StreamableHttpResponseLimits::default().max_json_response_size;
        let posting = self.inner.post_message_with_max_sse_event_size(
            uri,
            message,
            session_id,
            auth_header,
            custom_headers,
            max_sse_event_size,
        );
        self.posted(posting, again, max_body).await
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
        let again = Again::of(&uri, &message, &session_id, &auth_header, &custom_headers);
        let max_body = limits.max_json_response_size;
        let posting = self.inner.post_message_with_response_limits(
            uri,
            message,
            session_id,
            auth_header,
            custom_headers,
            limits,
        );
        self.posted(posting, again, max_body).await
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
            Reading::new(canned.clone(), Arc::clone(&tasks), reqwest::Client::new()),
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

    #[test]
    fn only_the_two_answers_that_say_anything_of_tasks_are_asked_again() {
        let uri: Arc<str> = "http://x/mcp".into();
        let session = Some(Arc::<str>::from("s1"));
        let token = Some("t".to_owned());
        let headers = HashMap::new();
        let message = |request: &str| -> ClientJsonRpcMessage {
            serde_json::from_str(&format!(r#"{{"jsonrpc":"2.0","id":3,{request}}}"#)).unwrap()
        };
        let again =
            |message: &ClientJsonRpcMessage| Again::of(&uri, message, &session, &token, &headers);

        let listed = again(&message(r#""method":"tools/list""#)).expect("tools/list");
        assert!(!listed.initializes());
        // Asked again in the same session, with the same token.
        assert_eq!(listed.session_id.as_deref(), Some("s1"));
        assert_eq!(listed.auth_header.as_deref(), Some("t"));

        let initialize = message(
            r#""method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}"#,
        );
        let initialize = again(&initialize).expect("initialize");
        assert!(initialize.initializes());
        // A session of its own.
        assert_eq!(initialize.session_id, None);

        // A list of 2026-07-28, whose tasks rmcp reads itself, is not asked again; one of
        // 2025-11-25 is.
        let list = message(r#""method":"tools/list""#);
        let at = |version: &'static str| {
            let name = HeaderName::from_static("mcp-protocol-version");
            HashMap::from([(name, HeaderValue::from_static(version))])
        };
        assert!(Again::of(&uri, &list, &session, &token, &at("2026-07-28")).is_none());
        assert!(Again::of(&uri, &list, &session, &token, &at("2025-11-25")).is_some());

        // A call, a ping and a notification are never copied.
        let call = message(r#""method":"tools/call","params":{"name":"echo","arguments":{}}"#);
        assert!(again(&call).is_none());
        assert!(again(&message(r#""method":"ping""#)).is_none());
        let initialized: ClientJsonRpcMessage =
            serde_json::from_str(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
                .unwrap();
        assert!(again(&initialized).is_none());
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
