//! Deferred calls over MCP: kept in a [`DeferredStore`] shared by the server's replicas while
//! a person decides, and resumed on whichever replica the client reaches next.

use std::fmt;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::approval::Approval;
use crate::error::BoxError;
use crate::result::DeferredCall;

/// The `_meta` key of a deferred call's result: the id to resume it by.
pub const DEFERRED_META: &str = "io.agentkit/deferred";

/// The `_meta` key of a `tools/call` request that resumes a deferred call: its id.
pub const RESUME_META: &str = "io.agentkit/resume";

/// Where an [`McpServer`](super::McpServer) keeps the calls its approval policy deferred,
/// until a person decides (see [`McpServer::with_deferred_store`](super::McpServer::with_deferred_store)).
///
/// Shared by the replicas of a server, it lets a call deferred on one resume on another: a
/// deferred call's result carries an id (`_meta["io.agentkit/deferred"]`); an operator
/// records a decision with [`decide`](Self::decide); the client calls the same tool again
/// with `_meta["io.agentkit/resume"]` set to the id, and the replica that answers runs the
/// call (allowed: validated again, then run), ends it (denied), or says it still waits.
///
/// [`DirectoryStore`] keeps them as files in a directory the replicas share; implement the
/// trait over your database for more.
pub trait DeferredStore: Send + Sync + 'static {
    /// Keeps `call`, made by `principal` (the subject, if the request was authenticated),
    /// under `id`.
    fn keep(&self, id: &str, call: &DeferredCall, principal: Option<&str>) -> Result<(), BoxError>;

    /// Records the decision on call `id`. An unknown id is an error.
    fn decide(&self, id: &str, decision: &Approval) -> Result<(), BoxError>;

    /// The call `id` with its decision, taken out of the store once decided (so that it runs
    /// once, whichever replica asks first). A call of another tool than `tool_name`, or made
    /// by another principal than `principal`, is [`Lookup::Unknown`] to the asker, and stays.
    fn take_decided(
        &self,
        id: &str,
        tool_name: &str,
        principal: Option<&str>,
    ) -> Result<Lookup, BoxError>;
}

/// What a [`DeferredStore`] holds under an id.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Lookup {
    /// No call under that id (or it was taken).
    Unknown,
    /// The call waits for a decision (it stays in the store).
    Pending(DeferredCall),
    /// The call and its decision, now out of the store.
    Decided {
        /// The call.
        call: DeferredCall,
        /// The decision.
        decision: Approval,
    },
}

/// A deferred call as a [`DirectoryStore`] writes it.
#[derive(Serialize, Deserialize)]
struct Record {
    call: DeferredCall,
    principal: Option<String>,
    decision: Option<Decision>,
}

/// A decision as stored: allow, or deny with the message for the model.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Decision {
    Allow,
    Deny(String),
}

/// A [`DeferredStore`] of JSON files in a directory (one per call), which replicas on one
/// machine, or on a shared volume, use together. Writes are atomic (a file is written aside
/// and renamed), and taking a decided call renames its file first, so that only one
/// replica takes it.
///
/// ```
/// use agentkit_core::mcp::{DeferredStore, DirectoryStore, Lookup};
/// # let dir = std::env::temp_dir().join(format!("agentkit-doc-{}", std::process::id()));
/// let store = DirectoryStore::new(&dir)?;
/// assert_eq!(store.take_decided("unknown", "deploy", None)?, Lookup::Unknown);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
/// ```
#[derive(Clone)]
pub struct DirectoryStore {
    dir: PathBuf,
}

impl fmt::Debug for DirectoryStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DirectoryStore")
            .field("dir", &self.dir)
            .finish()
    }
}

impl DirectoryStore {
    /// The store in `dir`, created if need be.
    pub fn new(dir: impl AsRef<Path>) -> io::Result<Self> {
        fs::create_dir_all(dir.as_ref())?;
        Ok(DirectoryStore {
            dir: dir.as_ref().to_owned(),
        })
    }

    /// The file of call `id`: ids are the server's (UUIDs), but a client sends them back, so
    /// anything but `[A-Za-z0-9-]` is refused rather than joined to a path.
    fn path(&self, id: &str) -> Result<PathBuf, BoxError> {
        let valid = !id.is_empty()
            && id.len() <= 64
            && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
        if !valid {
            return Err("not a deferred call id".into());
        }
        Ok(self.dir.join(format!("{id}.json")))
    }

    fn write(&self, path: &Path, record: &Record) -> Result<(), BoxError> {
        let aside = path.with_extension(format!("tmp-{}", std::process::id()));
        let mut file = fs::File::create(&aside)?;
        file.write_all(&serde_json::to_vec(record)?)?;
        file.sync_all()?;
        fs::rename(&aside, path)?;
        Ok(())
    }

    fn read(path: &Path) -> Result<Option<Record>, BoxError> {
        match fs::read(path) {
            Ok(bytes) => Ok(Some(serde_json::from_slice(&bytes)?)),
            Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(error) => Err(error.into()),
        }
    }
}

impl DeferredStore for DirectoryStore {
    fn keep(&self, id: &str, call: &DeferredCall, principal: Option<&str>) -> Result<(), BoxError> {
        let record = Record {
            call: call.clone(),
            principal: principal.map(str::to_owned),
            decision: None,
        };
        self.write(&self.path(id)?, &record)
    }

    fn decide(&self, id: &str, decision: &Approval) -> Result<(), BoxError> {
        let path = self.path(id)?;
        let Some(mut record) = Self::read(&path)? else {
            return Err(format!("no deferred call '{id}'").into());
        };
        record.decision = match decision {
            Approval::Allow => Some(Decision::Allow),
            Approval::Deny(message) => Some(Decision::Deny(message.clone())),
            // Not a decision: the call goes on waiting.
            _ => None,
        };
        self.write(&path, &record)
    }

    fn take_decided(
        &self,
        id: &str,
        tool_name: &str,
        principal: Option<&str>,
    ) -> Result<Lookup, BoxError> {
        let path = self.path(id)?;
        let Some(record) = Self::read(&path)? else {
            return Ok(Lookup::Unknown);
        };
        if record.call.tool_name() != tool_name || record.principal.as_deref() != principal {
            return Ok(Lookup::Unknown);
        }
        let Some(decision) = record.decision else {
            return Ok(Lookup::Pending(record.call));
        };
        // Claimed by renaming: of two replicas asking at once, one rename succeeds.
        let claimed = path.with_extension(format!("taken-{}", std::process::id()));
        match fs::rename(&path, &claimed) {
            Ok(()) => {}
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(Lookup::Unknown),
            Err(error) => return Err(error.into()),
        }
        let _ = fs::remove_file(&claimed);
        let decision = match decision {
            Decision::Allow => Approval::Allow,
            Decision::Deny(message) => Approval::deny(message),
        };
        Ok(Lookup::Decided {
            call: record.call,
            decision,
        })
    }
}

/// A new id for a deferred call: a random UUID, which a client cannot guess.
pub(super) fn new_id() -> String {
    rmcp::transport::common::server_side_http::session_id().to_string()
}
