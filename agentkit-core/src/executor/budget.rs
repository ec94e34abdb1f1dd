//! What the calls of one turn share, and a call reads while it runs: the turn's deadline and
//! each tool's retry count. (The [`Turn`](super::Turn) that holds it is the caller's handle.)

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Instant;

/// The deadline and retry counts of one turn.
#[derive(Debug, Default)]
pub(super) struct TurnBudget {
    pub(super) deadline: Option<Instant>,
    retries: Mutex<HashMap<String, u32>>,
}

impl TurnBudget {
    pub(super) fn new(deadline: Option<Instant>) -> Self {
        TurnBudget {
            deadline,
            retries: Mutex::default(),
        }
    }

    /// How many times `tool_name` has asked for a retry.
    pub(super) fn retries_used(&self, tool_name: &str) -> u32 {
        self.lock_retries().get(tool_name).copied().unwrap_or(0)
    }

    /// Counts one more retry of `tool_name`; returns how many it has used.
    pub(super) fn spend_retry(&self, tool_name: &str) -> u32 {
        let mut retries = self.lock_retries();
        let used = retries.entry(tool_name.to_owned()).or_insert(0);
        *used = used.saturating_add(1);
        *used
    }

    pub(super) fn lock_retries(&self) -> MutexGuard<'_, HashMap<String, u32>> {
        // The counts stay consistent across a panic: each change is one increment.
        self.retries.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
