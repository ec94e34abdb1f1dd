//! [`ExecutionRecorder`]: keeps every call an executor makes, and replays the outputs later.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::credentials::Credentials;
use crate::error::{BoxError, ErrorKind};
use crate::events::{ToolEvent, ToolObserver};
use crate::registry::ToolRegistry;
use crate::schema::JsonObject;
use crate::tool::{Tool, ToolSpec};

/// One recorded call.
///
/// Holds the inputs and the output or error message, never credentials: what a tool receives
/// as a credential is not part of its inputs, and errors name credentials without their
/// values. Serialisable, so recordings can be saved as test fixtures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Recording {
    /// The tool name as called.
    pub tool_name: String,
    /// The call id.
    pub call_id: String,
    /// The validated inputs, or `None` when the arguments were not a JSON object.
    pub inputs: Option<JsonObject>,
    /// The output or the error.
    pub outcome: RecordedOutcome,
    /// How long the call took.
    #[serde(with = "duration_micros")]
    pub duration: Duration,
}

/// How a recorded call ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RecordedOutcome {
    /// The validated output.
    Output(JsonObject),
    /// The error's kind and message.
    Error {
        /// The kind of error.
        kind: ErrorKind,
        /// The error's `Display`.
        message: String,
    },
}

/// An observer that keeps every call: attach it with
/// [`ToolExecutorBuilder::observer`](crate::ToolExecutorBuilder::observer), read the
/// [`recordings`](Self::recordings), or [`replay`](Self::replay) them.
///
/// Clones share one log.
///
/// ```
/// use agentkit_core::{ExecutionRecorder, ToolExecutor, ToolRegistry, block_on, ToolCall};
///
/// let recorder = ExecutionRecorder::new();
/// let executor = ToolExecutor::builder(ToolRegistry::new())
///     .observer(recorder.clone())
///     .build();
/// let result = block_on(executor.dispatch(&ToolCall::new("1", "nope", "{}")));
/// assert!(!result.is_success());
/// assert_eq!(recorder.recordings().len(), 1);
/// ```
#[derive(Debug, Clone, Default)]
pub struct ExecutionRecorder {
    log: Arc<Mutex<Vec<Recording>>>,
}

impl ExecutionRecorder {
    /// An empty recorder.
    pub fn new() -> Self {
        ExecutionRecorder::default()
    }

    /// A copy of every call recorded so far, in completion order.
    pub fn recordings(&self) -> Vec<Recording> {
        self.lock().clone()
    }

    /// Forgets every recorded call.
    pub fn clear(&self) {
        self.lock().clear();
    }

    /// A [`Replay`] of the calls recorded so far.
    pub fn replay(&self) -> Replay {
        Replay::new(self.recordings())
    }

    fn lock(&self) -> MutexGuard<'_, Vec<Recording>> {
        // A poisoned log is still a log: recording is append-only.
        self.log.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl ToolObserver for ExecutionRecorder {
    fn on_event(&self, event: &ToolEvent<'_>) {
        let recording = match *event {
            ToolEvent::Started { .. } => return,
            ToolEvent::Completed {
                tool_name,
                call_id,
                inputs,
                output,
                duration,
            } => Recording {
                tool_name: tool_name.to_owned(),
                call_id: call_id.to_owned(),
                inputs: Some(inputs.clone()),
                outcome: RecordedOutcome::Output(output.clone()),
                duration,
            },
            ToolEvent::Failed {
                tool_name,
                call_id,
                inputs,
                error,
                duration,
            } => Recording {
                tool_name: tool_name.to_owned(),
                call_id: call_id.to_owned(),
                inputs: inputs.cloned(),
                outcome: RecordedOutcome::Error {
                    kind: error.kind(),
                    message: error.to_string(),
                },
                duration,
            },
        };
        self.lock().push(recording);
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

/// A recorded tool failure, replayed.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct ReplayedFailure(String);

impl Tool for ReplayTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    async fn execute(&self, inputs: &JsonObject, _: &Credentials) -> Result<JsonObject, BoxError> {
        let mut recordings = self
            .recordings
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let position = recordings.iter().position(|r| {
            r.tool_name == self.spec.name()
                && r.inputs.as_ref() == Some(inputs)
                && matches!(
                    r.outcome,
                    RecordedOutcome::Output(_)
                        | RecordedOutcome::Error {
                            kind: ErrorKind::Execution
                                | ErrorKind::Panic
                                | ErrorKind::OutputValidation,
                            ..
                        }
                )
        });
        let Some(position) = position else {
            return Err(NoRecording {
                tool_name: self.spec.name().to_owned(),
            }
            .into());
        };
        match recordings.remove(position).outcome {
            RecordedOutcome::Output(output) => Ok(output),
            RecordedOutcome::Error { message, .. } => Err(ReplayedFailure(message).into()),
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
