//! The tasks of a server: which tools may run as tasks, the limits, and the tasks
//! themselves (running, asking the client, or ended and kept for a while), each its owner's.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use rmcp::ErrorData;
use rmcp::model::{DetailedTask, ErrorCode, InputRequest, Task, TaskPayload, TaskStatus};
use rmcp::task_manager::current_timestamp;
use serde_json::Value;
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

use crate::mcp::deferred::new_id;
use crate::tool::{TaskSupport, ToolSpec};

/// How many tasks a server runs at once, by default.
pub const DEFAULT_MAX_TASKS: usize = 100;

/// How long a task is kept once it ends, by default: 5 minutes.
pub const DEFAULT_TASK_TTL: Duration = Duration::from_secs(300);

/// How often a client is asked to poll a task, at most.
const POLL_INTERVAL: Duration = Duration::from_secs(1);

/// The tasks of a server: which tools may run as tasks, the limits, and the tasks themselves,
/// shared by every session of the server.
#[derive(Clone)]
pub(crate) struct Tasks {
    pub(crate) support: HashMap<String, TaskSupport>,
    /// The tools that gather their input in rounds before they become tasks (see
    /// `McpServer::with_input_before_task`).
    pub(crate) input_first: HashSet<String>,
    pub(crate) max_live: usize,
    pub(crate) ttl: Duration,
    store: Arc<Mutex<Store>>,
}

impl Default for Tasks {
    fn default() -> Self {
        Tasks {
            support: HashMap::new(),
            input_first: HashSet::new(),
            max_live: DEFAULT_MAX_TASKS,
            ttl: DEFAULT_TASK_TTL,
            store: Arc::default(),
        }
    }
}

/// The tasks a server holds, by id: those running, and those ended, until their time is up.
#[derive(Default)]
struct Store {
    tasks: HashMap<String, Entry>,
    /// How many tasks have ended: the order they ended in.
    ends: u64,
}

/// One task.
pub(crate) struct Entry {
    /// Who created it (the subject of its principal, none for an unauthenticated client):
    /// only they can see it.
    owner: Option<String>,
    pub(crate) task: Task,
    /// The result or error, once the task has ended: when, and how many had ended before.
    pub(crate) ended: Option<(TaskPayload, Instant, u64)>,
    /// Ends the call (its deadline), on `tasks/cancel`.
    pub(crate) cancel: CancellationToken,
    /// What the tool asks the client and waits for, by key: the task is `input_required`
    /// while one waits.
    pub(crate) asked: BTreeMap<String, (InputRequest, oneshot::Sender<Value>)>,
    /// How many questions the task has asked: the next one's key.
    questions: u64,
}

impl Tasks {
    /// The tasks of a server of `specs`, each tool as its spec declares it.
    pub(crate) fn of<'a>(specs: impl Iterator<Item = &'a ToolSpec>) -> Self {
        let support = specs
            .filter(|spec| spec.task_support() != TaskSupport::Forbidden)
            .map(|spec| (spec.name().to_owned(), spec.task_support()))
            .collect();
        Tasks {
            support,
            ..Tasks::default()
        }
    }

    /// Whether any tool may run as a task: the server then declares the extension.
    pub(crate) fn enabled(&self) -> bool {
        self.support
            .values()
            .any(|support| *support != TaskSupport::Forbidden)
    }

    pub(crate) fn support(&self, name: &str) -> TaskSupport {
        self.support.get(name).copied().unwrap_or_default()
    }

    fn lock(&self) -> MutexGuard<'_, Store> {
        // A panic while the lock is held leaves the map whole (every change is one insert,
        // remove or assignment), so a poisoned lock is still usable.
        self.store
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Whether the tool called `name` gathers its input in rounds before it becomes a task.
    pub(crate) fn input_first(&self, name: &str) -> bool {
        self.input_first.contains(name)
    }

    /// Makes a task for `owner`, when there is room for one.
    pub(crate) fn create(
        &self,
        owner: Option<String>,
    ) -> Result<(Task, CancellationToken), ErrorData> {
        self.create_with(owner, CancellationToken::new())
    }

    /// Makes a task for `owner`, when there is room for one, ended by `cancel`
    /// (`tasks/cancel` cancels it): the deadline of a call already running.
    pub(crate) fn create_with(
        &self,
        owner: Option<String>,
        cancel: CancellationToken,
    ) -> Result<(Task, CancellationToken), ErrorData> {
        let mut store = self.lock();
        store.sweep(self.ttl, self.max_live);
        let live = store.tasks.values().filter(|e| e.ended.is_none()).count();
        if live >= self.max_live {
            return Err(ErrorData::new(
                ErrorCode(-32000),
                format!(
                    "the server runs its maximum of {} tasks; try again later",
                    self.max_live
                ),
                None,
            ));
        }
        let now = current_timestamp();
        let task = Task::new(new_id(), TaskStatus::Working, now.clone(), now)
            .with_ttl_ms(millis(self.ttl))
            .with_poll_interval_ms(millis(POLL_INTERVAL));
        store.tasks.insert(
            task.task_id.clone(),
            Entry {
                owner,
                task: task.clone(),
                ended: None,
                cancel: cancel.clone(),
                asked: BTreeMap::new(),
                questions: 0,
            },
        );
        Ok((task, cancel))
    }

    /// Records how task `id` ended.
    pub(crate) fn end(&self, id: &str, payload: TaskPayload) {
        let mut store = self.lock();
        let order = store.ends;
        store.ends += 1;
        if let Some(entry) = store.tasks.get_mut(id) {
            entry.task.status = payload.status();
            entry.task.last_updated_at = current_timestamp();
            entry.ended = Some((payload, Instant::now(), order));
            entry.asked.clear();
        }
    }

    /// Asks the client `request` for task `id`, which is `input_required` until the client
    /// answers it with `tasks/update`: the answer, or `None` when the task has ended or been
    /// cancelled before it came.
    pub(crate) fn ask(&self, id: &str, request: InputRequest) -> Option<oneshot::Receiver<Value>> {
        let mut store = self.lock();
        let entry = store.tasks.get_mut(id)?;
        if entry.ended.is_some() || entry.cancel.is_cancelled() {
            return None;
        }
        entry.questions += 1;
        let key = format!("input-{}", entry.questions);
        let (answer, answered) = oneshot::channel();
        entry.asked.insert(key, (request, answer));
        entry.task.last_updated_at = current_timestamp();
        Some(answered)
    }

    /// Task `id` as `owner` may see it: another principal's task is one that does not exist.
    pub(crate) fn with_entry<T>(
        &self,
        id: &str,
        owner: Option<&str>,
        then: impl FnOnce(&mut Entry) -> T,
    ) -> Result<T, ErrorData> {
        let mut store = self.lock();
        store.sweep(self.ttl, self.max_live);
        match store.tasks.get_mut(id) {
            Some(entry) if entry.owner.as_deref() == owner => Ok(then(entry)),
            _ => Err(ErrorData::invalid_params("no task with that id", None)),
        }
    }
}

impl Store {
    /// Drops the ended tasks whose time is up, and the oldest ended ones past `max`.
    fn sweep(&mut self, ttl: Duration, max: usize) {
        self.tasks.retain(|_, entry| {
            entry
                .ended
                .as_ref()
                .is_none_or(|(_, at, _)| at.elapsed() < ttl)
        });
        let mut ended: Vec<(u64, String)> = self
            .tasks
            .iter()
            .filter_map(|(id, entry)| Some((entry.ended.as_ref()?.2, id.clone())))
            .collect();
        if ended.len() > max {
            ended.sort_unstable();
            for (_, id) in &ended[..ended.len() - max] {
                self.tasks.remove(id);
            }
        }
    }
}

impl Entry {
    pub(crate) fn detailed(&self) -> DetailedTask {
        let payload = match &self.ended {
            Some((payload, _, _)) => payload.clone(),
            None if !self.asked.is_empty() => TaskPayload::InputRequired {
                input_requests: self
                    .asked
                    .iter()
                    .map(|(key, (request, _))| (key.clone(), request.clone()))
                    .collect(),
            },
            None => TaskPayload::Working,
        };
        DetailedTask::new(self.task.clone(), payload)
    }
}

/// A duration in whole milliseconds, at least 1.
fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis())
        .unwrap_or(u64::MAX)
        .max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tasks(max: usize, ttl: Duration) -> Tasks {
        Tasks {
            max_live: max,
            ttl,
            ..Tasks::default()
        }
    }

    fn create(tasks: &Tasks) -> String {
        tasks.create(None).expect("room for a task").0.task_id
    }

    fn kept(tasks: &Tasks, id: &str) -> bool {
        tasks.with_entry(id, None, |_| ()).is_ok()
    }

    #[test]
    fn an_ended_task_is_dropped_when_its_time_is_up_and_a_running_one_is_kept() {
        let tasks = tasks(10, Duration::ZERO);
        let (running, ended) = (create(&tasks), create(&tasks));
        tasks.end(&ended, TaskPayload::Cancelled);
        assert!(!kept(&tasks, &ended));
        assert!(kept(&tasks, &running));
    }

    #[test]
    fn ended_tasks_past_the_cap_are_dropped_oldest_first_and_running_ones_are_capped() {
        let tasks = tasks(2, Duration::from_secs(3600));
        let ids: Vec<String> = (0..3)
            .map(|_| {
                let id = create(&tasks);
                tasks.end(&id, TaskPayload::Cancelled);
                id
            })
            .collect();
        let _ = create(&tasks); // Sweeps.
        assert!(!kept(&tasks, &ids[0]));
        assert!(kept(&tasks, &ids[1]) && kept(&tasks, &ids[2]));
        // One runs; one more may, then no more.
        let _ = create(&tasks);
        let refused = tasks.create(None).unwrap_err();
        assert_eq!(refused.code, ErrorCode(-32000));
    }

    #[test]
    fn a_task_is_only_its_owners() {
        let tasks = tasks(10, Duration::from_secs(3600));
        let (task, _) = tasks.create(Some("alice".into())).unwrap();
        let id = task.task_id;
        assert!(tasks.with_entry(&id, Some("alice"), |_| ()).is_ok());
        assert!(tasks.with_entry(&id, Some("bob"), |_| ()).is_err());
        assert!(tasks.with_entry(&id, None, |_| ()).is_err());
    }
}
