//! What can end a streamed reply other than its terminal event: a malformed event, an error
//! the provider sent, a body that is not a stream, or the stream stopping short.

use std::fmt;

use crate::call::ToolCall;
use crate::model_text::EscapedText;
use crate::provider::parse::ParseError;

/// How many characters of a provider's error code a [`ProviderError`] keeps.
pub const MAX_CODE_CHARS: usize = 128;
/// How many characters of a provider's error message a [`ProviderError`] keeps.
pub const MAX_MESSAGE_CHARS: usize = 1024;

/// Why a streamed reply's calls cannot be taken as the whole reply.
///
/// Every `CallStream` (such as [`openai_chat::CallStream`](super::super::openai_chat::CallStream))
/// returns it from `push`, `push_str`, `push_bytes` and `finish`. Each variant is a different
/// thing for an agent loop to do: a [`Malformed`](Self::Malformed) stream is a bug (of the
/// server or a proxy), a [`Provider`](Self::Provider) error may be retried (an overloaded
/// model), a [`Cut`](Self::Cut) stream lost its connection (the calls that had completed are
/// there, to run or to drop), and a [`Body`](Self::Body) error is bytes that are not a stream.
///
/// A stream that failed stays failed: every later push, and `finish`, give the same error.
///
/// ```
/// use agentkit_core::provider::{StreamError, anthropic::CallStream};
///
/// let mut stream = CallStream::new();
/// let error = stream
///     .push_str(r#"{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}"#)
///     .unwrap_err();
/// let StreamError::Provider(provider) = &error else { panic!("{error}") };
/// assert_eq!(provider.code(), "overloaded_error");
/// assert_eq!(provider.message(), "Overloaded");
/// assert_eq!(error.to_string(), "Anthropic Messages sent an error: overloaded_error: Overloaded");
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum StreamError {
    /// An event without the API's documented shape.
    #[error(transparent)]
    Malformed(#[from] ParseError),
    /// The provider reported an error in the stream: its own error event or chunk.
    #[error(transparent)]
    Provider(#[from] ProviderError),
    /// The stream ended before the API's terminal event.
    #[error(transparent)]
    Cut(#[from] CutStream),
    /// Bytes that are not a stream (see [`BodyError`]).
    #[error(transparent)]
    Body(#[from] BodyError),
}

impl StreamError {
    /// The API whose stream this was, such as `"Anthropic Messages"`.
    pub fn api(&self) -> &'static str {
        match self {
            StreamError::Malformed(error) => error.api(),
            StreamError::Provider(error) => error.api,
            StreamError::Cut(error) => error.api,
            StreamError::Body(error) => error.api,
        }
    }

    /// The [`ParseError`] of a malformed stream; `None` for the other kinds.
    pub fn as_malformed(&self) -> Option<&ParseError> {
        match self {
            StreamError::Malformed(error) => Some(error),
            _ => None,
        }
    }
}

/// An error the provider sent in its stream: Anthropic's `error` event, OpenAI Responses'
/// `error` event or `response.failed`, a Gemini chunk `{"error": {...}}`, an OpenAI Chat
/// Completions `{"error": {...}}` object.
///
/// The code and message are the provider's, cut to [`MAX_CODE_CHARS`] and
/// [`MAX_MESSAGE_CHARS`] characters and escaped (control and invisible characters become
/// `\n` or `\u{..}`), so that they can be logged as they are. A provider that gives no code
/// has the code `""`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{api} sent an error: {}", self.shown())]
pub struct ProviderError {
    api: &'static str,
    code: String,
    message: String,
}

impl ProviderError {
    pub(crate) fn new(api: &'static str, code: &str, message: &str) -> Self {
        ProviderError {
            api,
            code: EscapedText(code, MAX_CODE_CHARS).to_string(),
            message: EscapedText(message, MAX_MESSAGE_CHARS).to_string(),
        }
    }

    /// The API that sent it.
    pub fn api(&self) -> &'static str {
        self.api
    }

    /// The provider's code, such as `overloaded_error` (Anthropic), `server_error` (OpenAI),
    /// `503` or `UNAVAILABLE` (Gemini's `code` or `status`).
    pub fn code(&self) -> &str {
        &self.code
    }

    /// The provider's message.
    pub fn message(&self) -> &str {
        &self.message
    }

    fn shown(&self) -> String {
        match (self.code.is_empty(), self.message.is_empty()) {
            (true, true) => "no code, no message".to_owned(),
            (true, false) => self.message.clone(),
            (false, true) => self.code.clone(),
            (false, false) => format!("{}: {}", self.code, self.message),
        }
    }
}

/// A stream that ended before the API's terminal event (OpenAI Chat Completions' `[DONE]` or
/// `finish_reason`, Anthropic's `message_stop`, OpenAI Responses' `response.completed`,
/// Gemini's `finishReason`): the connection dropped, and the calls are not the whole reply.
///
/// The calls that had completed are kept: an agent loop may run them, or drop the turn and
/// ask again.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error(
    "{api} stream was cut: it ended before {terminal}, with {} complete call(s) and {} unfinished",
    completed.len(),
    unfinished.len()
)]
pub struct CutStream {
    api: &'static str,
    terminal: &'static str,
    completed: Vec<ToolCall>,
    unfinished: Vec<String>,
}

impl CutStream {
    pub(crate) fn new(
        api: &'static str,
        terminal: &'static str,
        completed: Vec<ToolCall>,
        unfinished: impl IntoIterator<Item = String>,
    ) -> Self {
        CutStream {
            api,
            terminal,
            completed,
            unfinished: unfinished.into_iter().collect(),
        }
    }

    /// The API whose stream it was.
    pub fn api(&self) -> &'static str {
        self.api
    }

    /// The calls that had completed before the stream ended, in reply order.
    pub fn completed(&self) -> &[ToolCall] {
        &self.completed
    }

    /// The completed calls, taken.
    pub fn into_completed(self) -> Vec<ToolCall> {
        self.completed
    }

    /// The ids of the calls that had started and not completed (a Gemini call without an id
    /// has the id `calls` would have given it).
    pub fn unfinished(&self) -> &[String] {
        &self.unfinished
    }
}

/// Bytes that are not a stream of the API: text that is not UTF-8, a line or event longer
/// than the limit, a JSON body that is not an array of chunks.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{api} stream body: {kind}")]
pub struct BodyError {
    api: &'static str,
    kind: BodyErrorKind,
}

impl BodyError {
    pub(crate) fn new(api: &'static str, kind: BodyErrorKind) -> Self {
        BodyError { api, kind }
    }

    /// The API whose stream it was.
    pub fn api(&self) -> &'static str {
        self.api
    }

    /// What was wrong with the bytes.
    pub fn kind(&self) -> &BodyErrorKind {
        &self.kind
    }
}

/// What was wrong with a stream's bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum BodyErrorKind {
    /// A line (or event, or JSON chunk) longer than the limit, in bytes.
    TooLong {
        /// The limit it passed.
        limit: usize,
    },
    /// Bytes that are not UTF-8 (a split character is not this: it is joined first).
    NotUtf8,
    /// A JSON body that is not an array of chunks: `found` is what stood where one was
    /// expected.
    NotJson {
        /// What was found, such as "a byte after the array's end".
        found: &'static str,
    },
}

impl fmt::Display for BodyErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BodyErrorKind::TooLong { limit } => {
                write!(f, "a line or event longer than the limit of {limit} bytes")
            }
            BodyErrorKind::NotUtf8 => f.write_str("bytes that are not UTF-8"),
            BodyErrorKind::NotJson { found } => {
                write!(f, "not a JSON array of chunks: found {found}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{MAX_CODE_CHARS, ProviderError};

    #[test]
    fn a_provider_error_shows_what_it_has() {
        let shown = |code: &str, message: &str| ProviderError::new("X", code, message).to_string();
        assert_eq!(shown("c", "m"), "X sent an error: c: m");
        assert_eq!(shown("", "m"), "X sent an error: m");
        assert_eq!(shown("c", ""), "X sent an error: c");
        assert_eq!(shown("", ""), "X sent an error: no code, no message");
    }

    #[test]
    fn a_provider_error_is_cut_and_escaped() {
        let error = ProviderError::new("X", &"c".repeat(1000), "a\u{1b}[2Jb\r\nc");
        assert_eq!(error.code().chars().count(), MAX_CODE_CHARS + 1); // and `…`
        assert_eq!(error.message(), "a\\u{1b}[2Jb\\r\\nc");
    }
}
