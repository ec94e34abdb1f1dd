//! [`ExecutionRecorder`]: keeps every call an executor makes, and replays the outputs later.

use std::borrow::Cow;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::content::{Content, ToolOutput};
use crate::context::ToolContext;
use crate::error::{
    BoxError, Direction, Error, ErrorKind, ToolExecutionError, ToolValidationError,
};
use crate::events::{ToolEvent, ToolObserver};
use crate::model_text::capture;
use crate::registry::ToolRegistry;
use crate::schema::{JsonObject, ValidationIssue};
use crate::tool::{Tool, ToolSpec};

/// One recorded call.
///
/// Holds the inputs and the output or error, never credentials: what a tool receives as a
/// credential is not part of its inputs, errors name credentials without their values, and a
/// tool's error or panic message has the call's secrets replaced before it is recorded.
/// Serialisable, so recordings can be saved as test fixtures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Recording {
    /// The tool name as called (at most 256 bytes of it).
    pub tool_name: String,
    /// The call id (at most 256 bytes of it).
    pub call_id: String,
    /// The validated inputs, or `None` when the arguments were not a JSON object.
    pub inputs: Option<JsonObject>,
    /// The output or the error.
    pub outcome: RecordedOutcome,
    /// How long the call took, as [`ToolResult::duration`](crate::ToolResult::duration): zero
    /// for a call refused before its tool ran.
    #[serde(with = "duration_micros")]
    pub duration: Duration,
    /// Whether the tool finished after the call had ended (a timeout, a dropped call), and
    /// what it returned was discarded.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub discarded_late_finish: bool,
}

/// How a recorded call ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum RecordedOutcome {
    /// The validated structured output: any JSON value (an object unless the tool declares
    /// another output).
    Output(Value),
    /// Content parts, with the structured output when there was one. The parts are kept
    /// whole, binary data in base64, so that a replay returns them as the tool did (size a
    /// recorder's capacity with that in mind).
    Content {
        /// The validated structured output, when there was one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        output: Option<Value>,
        /// The parts.
        content: Vec<Content>,
    },
    /// The error.
    Error(RecordedError),
    /// The approval policy deferred the call; the tool did not run.
    Deferred,
}

/// A recorded failure: enough to replay it as the same kind of error, with the same text for
/// the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecordedError {
    /// The kind of error.
    pub kind: ErrorKind,
    /// The error's `Display`, for people reading the recording.
    pub message: String,
    /// For a failure of the tool itself, its error's message
    /// ([`ToolExecutionError::message`](crate::ToolExecutionError::message)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cause: Option<String>,
    /// For a validation failure, the issues found.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub issues: Vec<ValidationIssue>,
    /// For a validation failure, how many more issues were found than recorded.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub omitted: usize,
    /// What the model was told beyond the kind's sentence: a retry's feedback, a denial's
    /// reason, a failure's model message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_message: Option<String>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl RecordedError {
    fn new(error: &Error) -> Self {
        let (cause, issues, omitted, model_message) = match error {
            Error::Validation(e) => (None, e.errors().to_vec(), e.omitted(), None),
            Error::Execution(e) => (
                Some(e.message().to_owned()),
                Vec::new(),
                0,
                e.model_message().map(str::to_owned),
            ),
            _ => (None, Vec::new(), 0, None),
        };
        RecordedError {
            kind: error.kind(),
            message: error.to_string(),
            cause,
            issues,
            omitted,
            model_message,
        }
    }

    /// Whether replaying the call reproduces this failure, rather than the executor: input
    /// validation and unknown tools are decided again, the same way, before any tool runs.
    fn is_replayed(&self) -> bool {
        !matches!(
            self.kind,
            ErrorKind::InputValidation
                | ErrorKind::UnknownTool
                | ErrorKind::Semantic
                | ErrorKind::AwaitingApproval
        )
    }
}

/// How many calls an [`ExecutionRecorder`] keeps unless told otherwise.
pub const DEFAULT_RECORDER_CAPACITY: usize = 10_000;

/// An observer that keeps the calls an executor makes: attach it with
/// [`ToolExecutorBuilder::observer`](crate::ToolExecutorBuilder::observer), read the
/// [`recordings`](Self::recordings), or [`replay`](Self::replay) them.
///
/// It keeps at most [`capacity`](Self::capacity) calls (10 000 unless built
/// [`with_capacity`](Self::with_capacity)): past that, the oldest is dropped and counted in
/// [`dropped`](Self::dropped), so a long-running agent's recorder does not grow without
/// bound. Clones share one log.
///
/// ```
/// use agentkit_core::{ExecutionRecorder, ToolExecutor, ToolRegistry, block_on, ToolCall};
///
/// let recorder = ExecutionRecorder::with_capacity(2);
/// let executor = ToolExecutor::builder(ToolRegistry::new())
///     .observer(recorder.clone())
///     .build();
/// for id in ["1", "2", "3"] {
///     let result = block_on(executor.dispatch(&ToolCall::new(id, "nope", "{}")));
///     assert!(!result.is_success());
/// }
/// assert_eq!(recorder.len(), 2);
/// assert_eq!(recorder.dropped(), 1);
/// // Read without copying the log.
/// recorder.for_each(|r| assert_eq!(r.tool_name, "nope"));
/// ```
#[derive(Debug, Clone)]
pub struct ExecutionRecorder {
    log: Arc<Mutex<Log>>,
}

#[derive(Debug)]
struct Log {
    recordings: VecDeque<Recording>,
    capacity: usize,
    dropped: u64,
}

impl Default for ExecutionRecorder {
    fn default() -> Self {
        ExecutionRecorder::with_capacity(DEFAULT_RECORDER_CAPACITY)
    }
}

impl ExecutionRecorder {
    /// An empty recorder keeping the last [`DEFAULT_RECORDER_CAPACITY`] calls.
    pub fn new() -> Self {
        ExecutionRecorder::default()
    }

    /// An empty recorder keeping the last `capacity` calls (at least one).
    pub fn with_capacity(capacity: usize) -> Self {
        let capacity = capacity.max(1);
        ExecutionRecorder {
            log: Arc::new(Mutex::new(Log {
                recordings: VecDeque::with_capacity(capacity.min(1024)),
                capacity,
                dropped: 0,
            })),
        }
    }

    /// How many calls it keeps at most.
    pub fn capacity(&self) -> usize {
        self.lock().capacity
    }

    /// How many calls it holds.
    pub fn len(&self) -> usize {
        self.lock().recordings.len()
    }

    /// Whether it holds no call.
    pub fn is_empty(&self) -> bool {
        self.lock().recordings.is_empty()
    }

    /// How many of the oldest calls were dropped to stay within the capacity.
    pub fn dropped(&self) -> u64 {
        self.lock().dropped
    }

    /// A copy of every call held, oldest first. This clones the log; to read it without a
    /// copy, use [`for_each`](Self::for_each) or [`take`](Self::take).
    pub fn recordings(&self) -> Vec<Recording> {
        self.lock().recordings.iter().cloned().collect()
    }

    /// Calls `f` on every call held, oldest first, without copying them. The log is locked
    /// meanwhile: `f` should be quick, and must not use this recorder.
    pub fn for_each(&self, mut f: impl FnMut(&Recording)) {
        self.lock().recordings.iter().for_each(&mut f);
    }

    /// Takes every call held out of the recorder, oldest first, leaving it empty.
    pub fn take(&self) -> Vec<Recording> {
        self.lock().recordings.drain(..).collect()
    }

    /// Forgets every call held (the count of dropped calls stays).
    pub fn clear(&self) {
        self.lock().recordings.clear();
    }

    /// A [`Replay`] of the calls held.
    pub fn replay(&self) -> Replay {
        Replay::new(self.recordings())
    }

    fn lock(&self) -> MutexGuard<'_, Log> {
        // A poisoned log is still a log: recording is append-only.
        self.log.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl ToolObserver for ExecutionRecorder {
    fn on_event(&self, event: &ToolEvent<'_>) {
        let recording = match *event {
            ToolEvent::Discarded {
                tool_name, call_id, ..
            } => {
                let (tool_name, call_id) = (capture(tool_name), capture(call_id));
                let mut log = self.lock();
                let ended = log
                    .recordings
                    .iter_mut()
                    .rev()
                    .find(|r| r.call_id == call_id && r.tool_name == tool_name);
                if let Some(recording) = ended {
                    recording.discarded_late_finish = true;
                }
                return;
            }
            ToolEvent::Deferred {
                tool_name,
                call_id,
                inputs,
                duration,
            } => Recording {
                tool_name: capture(tool_name),
                call_id: capture(call_id),
                inputs: Some(inputs.clone()),
                outcome: RecordedOutcome::Deferred,
                duration,
                discarded_late_finish: false,
            },
            // They do not end a call.
            ToolEvent::Started { .. } | ToolEvent::Progress { .. } | ToolEvent::Log { .. } => {
                return;
            }
            ToolEvent::Completed {
                tool_name,
                call_id,
                inputs,
                output,
                content,
                duration,
            } => Recording {
                tool_name: capture(tool_name),
                call_id: capture(call_id),
                inputs: Some(inputs.clone()),
                outcome: match (output, content) {
                    (Some(output), []) => RecordedOutcome::Output(output.clone()),
                    (output, content) => RecordedOutcome::Content {
                        output: output.cloned(),
                        content: content.to_vec(),
                    },
                },
                duration,
                discarded_late_finish: false,
            },
            ToolEvent::Failed {
                tool_name,
                call_id,
                inputs,
                error,
                duration,
            } => Recording {
                tool_name: capture(tool_name),
                call_id: capture(call_id),
                inputs: inputs.cloned(),
                outcome: RecordedOutcome::Error(RecordedError::new(error)),
                duration,
                discarded_late_finish: false,
            },
        };
        let mut log = self.lock();
        if log.recordings.len() >= log.capacity {
            log.recordings.pop_front();
            log.dropped += 1;
        }
        log.recordings.push_back(recording);
    }
}

/// Recorded calls, served back in place of the real tools.
///
/// [`registry_for`](Self::registry_for) builds a registry with the same specs as the original,
/// whose tools answer each call with the recorded output of a call with equal inputs (each
/// recording is used once, in order). A test can thus replay an agent run without the
/// network, the credentials or the side effects of the real tools.
///
/// ```
/// use agentkit_core::{Replay, Recording, RecordedOutcome, ToolRegistry};
///
/// let replay = Replay::new(Vec::new());
/// let registry = replay.registry_for(&ToolRegistry::new());
/// assert!(registry.is_empty());
/// ```
#[derive(Debug, Clone)]
pub struct Replay {
    recordings: Arc<Mutex<Vec<Recording>>>,
}

impl Replay {
    /// A replay of `recordings` (for instance, loaded from a JSON fixture).
    pub fn new(recordings: Vec<Recording>) -> Self {
        Replay {
            recordings: Arc::new(Mutex::new(recordings)),
        }
    }

    /// A registry with a replaying tool for every tool of `original`, same specs, same order.
    pub fn registry_for(&self, original: &ToolRegistry) -> ToolRegistry {
        let mut registry = ToolRegistry::new();
        for spec in original.specs() {
            let tool = ReplayTool {
                // A replay needs no credentials: the outputs are recorded.
                spec: spec.without_credentials(),
                recordings: Arc::clone(&self.recordings),
            };
            // Names in `original` are unique, so registration cannot fail.
            let _ = registry.register(tool);
        }
        registry
    }

    /// How many recordings have not been replayed yet.
    pub fn remaining(&self) -> usize {
        self.recordings
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }
}

struct ReplayTool {
    spec: ToolSpec,
    recordings: Arc<Mutex<Vec<Recording>>>,
}

/// A call for which no recording matches; the replaying tool's error.
#[derive(Debug, thiserror::Error)]
#[error("no recorded call of tool '{tool_name}' has these inputs")]
pub struct NoRecording {
    tool_name: String,
}

/// A recorded tool failure, replayed: the executor turns it back into the error of the
/// recorded kind, so that the replay tells the model what the live call did.
#[derive(Debug, thiserror::Error)]
#[error("{}", .0.message)]
pub(crate) struct ReplayedFailure(RecordedError);

impl ReplayedFailure {
    pub(crate) fn into_error(self, tool_name: Cow<'static, str>) -> Error {
        let recorded = self.0;
        match recorded.kind {
            ErrorKind::OutputValidation => {
                ToolValidationError::new(tool_name, Direction::Output, recorded.issues)
                    .with_omitted(recorded.omitted)
                    .into()
            }
            kind => {
                let cause = recorded.cause.as_deref().unwrap_or(&recorded.message);
                let model_message = recorded.model_message.as_deref();
                ToolExecutionError::replayed(tool_name, kind, cause, model_message).into()
            }
        }
    }
}

impl Tool for ReplayTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    async fn execute(
        &self,
        inputs: &JsonObject,
        _: &ToolContext<'_>,
    ) -> Result<ToolOutput, BoxError> {
        let mut recordings = self
            .recordings
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let position = recordings.iter().position(|r| {
            r.tool_name == self.spec.name()
                && r.inputs.as_ref() == Some(inputs)
                && match &r.outcome {
                    RecordedOutcome::Output(_) | RecordedOutcome::Content { .. } => true,
                    RecordedOutcome::Error(error) => error.is_replayed(),
                    RecordedOutcome::Deferred => false,
                }
        });
        let Some(position) = position else {
            return Err(NoRecording {
                tool_name: self.spec.name().to_owned(),
            }
            .into());
        };
        match recordings.remove(position).outcome {
            RecordedOutcome::Output(output) => Ok(output.into()),
            RecordedOutcome::Content { output, content } => {
                let parts = ToolOutput::content_only(content);
                Ok(match output {
                    Some(output) => parts.with_structured(output),
                    None => parts,
                })
            }
            RecordedOutcome::Error(error) => Err(ReplayedFailure(error).into()),
            // Never chosen above: a deferred call's tool did not run.
            RecordedOutcome::Deferred => Err(NoRecording {
                tool_name: self.spec.name().to_owned(),
            }
            .into()),
        }
    }
}

mod duration_micros {
    use std::time::Duration;

    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(u64::try_from(d.as_micros()).unwrap_or(u64::MAX))
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        u64::deserialize(d).map(Duration::from_micros)
    }
}
