//! A call from a client of MCP 2026-07-28, whose tool asks the client (its user, its model,
//! its roots): no request goes to the client while the call runs; the call is answered with
//! the questions (an `InputRequiredResult`), and the client calls again with the answers
//! (SEP-2322, "multi round-trip requests").
//!
//! Each round runs the tool from its start, through the executor, with an [`InputSession`]
//! as its client: a question already answered (in an earlier round, carried by the sealed
//! `requestState`, or by this round's `inputResponses`) is answered at once; one that is not
//! is kept, and its answer never comes. The server polls the call itself: once the call
//! waits and has asked something unanswered, every question asked so far is what the round
//! returns, and the call's future is dropped (for observers, the round ends cancelled).
//! The tool code is the same as for a client of 2025-11-25, which is sent each request
//! while the call runs.
//!
//! A call that becomes a task once its rounds are done (see `tasks::compose`) is driven the
//! same way, but at the first moment its tool waits on anything but an unanswered question
//! (or when it ends), the round stops and the call goes on as a task: the session is then
//! handed the task's client, which the questions asked from then on go to.
//!
//! rmcp marks sampling and roots deprecated (SEP-2577); clients still ask for them, and they
//! are served.
#![allow(deprecated)]

use std::collections::{BTreeSet, HashMap, HashSet};
use std::future::{Future, poll_fn};
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Poll, Waker};

use rmcp::ErrorData;
use rmcp::model::{
    ClientCapabilities as McpClientCapabilities, CreateMessageResult, ElicitResult, InputRequest,
    InputRequests, InputRequiredResult, InputResponses, ListRootsResult,
};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use super::input_state::{Answered, Carried, Question, StateKey, binding, digest};
use super::peer::{elicit_params, elicitation, roots, sample_params, sampled};
use crate::principal::Principal;
use crate::result::ToolResult;
use crate::schema::JsonObject;
use crate::session::{
    Answer, ClientCapabilities, ClientError, ClientSession, Elicitation, ElicitationRequest, Root,
    Sampled, SamplingRequest,
};

/// What a round of a call comes to.
pub(super) enum Round {
    /// The tool finished: its result.
    Done(ToolResult),
    /// The tool asked what the client has not answered yet.
    InputRequired(InputRequiredResult),
    /// The tool waits on something else, with every question it asked answered: the call
    /// goes on as a task (only when the round was driven to become one).
    Working,
}

/// The call a round runs, as the state binds it.
pub(super) struct Retry<'a> {
    pub(super) tool: &'a str,
    pub(super) arguments: &'a JsonObject,
    pub(super) responses: Option<InputResponses>,
    pub(super) state: Option<String>,
}

/// The client of one round of a call, answering the tool's questions from the answers the
/// client has given.
pub(super) struct InputSession {
    capabilities: ClientCapabilities,
    principal: Option<Principal>,
    /// The answers of earlier rounds, by key: the digest of their question and the answer.
    earlier: HashMap<String, (String, Value)>,
    /// The questions the last round asked, by key: their digests.
    asked_before: Option<HashMap<String, String>>,
    /// This round's answers.
    responses: InputResponses,
    /// Ended when the round stops: the questions left unanswered fail then, for a tool
    /// blocking on one in a thread of its own.
    stopped: CancellationToken,
    /// The client of the task the call became, once it is one: what the tool asks from then
    /// on goes to it.
    task: watch::Sender<Option<Arc<dyn ClientSession>>>,
    round: Mutex<Asking>,
}

/// What became of a question the tool asked.
enum Asked {
    /// Answered by the client, under this key.
    Answered(String, Value),
    /// Kept for the round's result.
    Waiting,
    /// The call is a task now: the question is the task's.
    Handed,
}

/// Why the round stopped polling the call.
enum Stop {
    Ended(ToolResult),
    Asked,
    Working,
}

/// What the tool has asked in this round.
#[derive(Default)]
struct Asking {
    /// Questions asked so far, by kind, to name those the tool did not.
    counts: HashMap<&'static str, usize>,
    keys: HashSet<String>,
    /// The answers this round used, in the order asked: carried to the next round.
    used: Vec<Answered>,
    /// The questions without an answer, in the order asked.
    waiting: Vec<(Question, InputRequest)>,
    /// An answer that is not what its question asked for.
    invalid: Option<String>,
    /// Capabilities the client did not declare, which the tool asked for.
    refused: BTreeSet<&'static str>,
    /// The task polling the round, to wake when a tool in a thread of its own asks.
    waker: Option<Waker>,
    /// Whether the call has become a task: its questions are the task's from then on.
    handed: bool,
}

impl InputSession {
    /// The client of a round of `retry`, which declared `declared`, for `principal`: opens
    /// the state, refused when it was forged, changed, sealed for another call or expired.
    pub(super) fn open(
        key: &StateKey,
        retry: &mut Retry<'_>,
        declared: Option<&McpClientCapabilities>,
        principal: Option<Principal>,
    ) -> Result<Self, ErrorData> {
        let carried = match &retry.state {
            Some(sealed) => {
                let bound = binding(
                    retry.tool,
                    retry.arguments,
                    principal.as_ref().map(Principal::subject),
                );
                // One answer for every failure, as rmcp asks: which check failed is no
                // business of the client's.
                Some(key.open(sealed, &bound).map_err(|_| {
                    ErrorData::invalid_params(
                        "the requestState is not valid for this call: changed, expired, or \
                         sealed for another tool, other arguments or another principal",
                        None,
                    )
                })?)
            }
            None => None,
        };
        let (earlier, asked_before) = match carried {
            Some(carried) => (
                carried
                    .answers
                    .into_iter()
                    .map(|a| (a.key, (a.digest, a.response)))
                    .collect(),
                Some(
                    carried
                        .asked
                        .into_iter()
                        .map(|q| (q.key, q.digest))
                        .collect(),
                ),
            ),
            None => (HashMap::new(), None),
        };
        Ok(InputSession {
            capabilities: super::peer::our_capabilities(declared),
            principal,
            earlier,
            asked_before,
            responses: retry.responses.take().unwrap_or_default(),
            stopped: CancellationToken::new(),
            task: watch::Sender::new(None),
            round: Mutex::default(),
        })
    }

    fn round(&self) -> MutexGuard<'_, Asking> {
        self.round.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Runs `call` (a round of the call through the executor, with this session as its
    /// client) until it ends or waits on a question unanswered, or, when `to_task`, waits on
    /// anything else (`Round::Working`: the caller goes on polling it, as a task, and
    /// [hands](Self::hand_to) the session the task's client); then seals what the next round
    /// needs for `retry`. Unless the call is `Working`, the caller drops it.
    pub(super) async fn drive<F: Future<Output = ToolResult> + ?Sized>(
        &self,
        mut call: Pin<&mut F>,
        key: &StateKey,
        retry: &Retry<'_>,
        to_task: bool,
    ) -> Result<Round, ErrorData> {
        let stop = poll_fn(|cx| {
            // Set before the poll: a tool in a thread of its own may ask during it.
            self.round().waker = Some(cx.waker().clone());
            match call.as_mut().poll(cx) {
                Poll::Ready(result) => Poll::Ready(Stop::Ended(result)),
                Poll::Pending => {
                    let mut round = self.round();
                    if !round.waiting.is_empty() {
                        Poll::Ready(Stop::Asked)
                    } else if to_task {
                        // Under the lock that questions take: one asked from now on is the
                        // task's, none is left behind in the round.
                        round.handed = true;
                        Poll::Ready(Stop::Working)
                    } else {
                        Poll::Pending
                    }
                }
            }
        })
        .await;
        let mut round = self.round();
        if let Some(invalid) = round.invalid.take() {
            self.stopped.cancel();
            return Err(ErrorData::invalid_params(invalid, None));
        }
        let ended = match stop {
            Stop::Working => return Ok(Round::Working),
            Stop::Ended(result) => Some(result),
            Stop::Asked => None,
        };
        // The questions left unanswered fail now, for a tool blocking on one.
        self.stopped.cancel();
        match ended {
            Some(result) if !result.is_success() && !round.refused.is_empty() => {
                // The tool failed after asking for what the client did not declare: MCP
                // 2026-07-28 has the server say which capabilities the call needs.
                let needed: serde_json::Map<String, Value> = round
                    .refused
                    .iter()
                    .map(|capability| ((*capability).to_owned(), json!({})))
                    .collect();
                let needed = serde_json::from_value(Value::Object(needed)).unwrap_or_default();
                Err(ErrorData::missing_required_client_capability(needed))
            }
            Some(result) => Ok(Round::Done(result)),
            None => {
                let waiting = std::mem::take(&mut round.waiting);
                let carried = Carried {
                    answers: std::mem::take(&mut round.used),
                    asked: waiting
                        .iter()
                        .map(|(question, _)| question.clone())
                        .collect(),
                };
                let bound = binding(
                    retry.tool,
                    retry.arguments,
                    self.principal.as_ref().map(Principal::subject),
                );
                let state = key.seal(&carried, &bound).map_err(|_| {
                    ErrorData::internal_error("the call's state could not be sealed", None)
                })?;
                let requests: InputRequests = waiting
                    .into_iter()
                    .map(|(question, request)| (question.key, request))
                    .collect();
                Ok(Round::InputRequired(InputRequiredResult::new(
                    Some(requests),
                    Some(state),
                )))
            }
        }
    }

    /// Fails the questions the tool waits on: the call stops.
    pub(super) fn stop(&self) {
        self.stopped.cancel();
    }

    /// Hands the session `client`, the client of the task the call became: the questions
    /// asked from now on (and any asked since the round stopped) go to it.
    pub(super) fn hand_to(&self, client: Arc<dyn ClientSession>) {
        self.task.send_replace(Some(client));
    }

    /// The tool asks `params` of `method`: the answer, when the client has given one;
    /// else the question kept for the round's result, or, once the call is a task, the
    /// task's.
    fn ask(
        &self,
        method: &'static str,
        kind: &'static str,
        key: Option<&str>,
        params: Value,
    ) -> Result<Asked, ClientError> {
        let request = json!({"method": method, "params": params});
        // The request as the client will get it: one rmcp cannot carry fails now.
        let typed: InputRequest = serde_json::from_value(request.clone())
            .map_err(|e| ClientError::Invalid(e.to_string()))?;
        let digest = digest(&request);
        let mut round = self.round();
        let key = round.name(kind, key);
        let earlier = self
            .earlier
            .get(&key)
            .filter(|(asked, _)| *asked == digest)
            .map(|(_, response)| response.clone());
        // This round's answer to a question of the last round (the same question), or, on a
        // call without a state, to a question of that name.
        let answered_now = || {
            let same = match &self.asked_before {
                Some(asked) => asked.get(&key) == Some(&digest),
                None => true,
            };
            self.responses.get(&key).filter(|_| same).cloned()
        };
        match earlier.or_else(answered_now) {
            Some(response) => {
                round.used.push(Answered {
                    key: key.clone(),
                    digest,
                    response: response.clone(),
                });
                Ok(Asked::Answered(key, response))
            }
            None if round.handed => Ok(Asked::Handed),
            None => {
                round.waiting.push((Question { key, digest }, typed));
                if let Some(waker) = &round.waker {
                    waker.wake_by_ref();
                }
                Ok(Asked::Waiting)
            }
        }
    }

    /// The client's answer `response` to the question `key`, read as `T`: a client that
    /// answered something else has the call refused.
    fn read<T: DeserializeOwned>(
        &self,
        key: &str,
        what: &str,
        response: Value,
    ) -> Result<T, ClientError> {
        serde_json::from_value(response).map_err(|e| {
            let message = format!("the input response `{}` is not {what}: {e}", clip(key));
            self.round().invalid.get_or_insert(message.clone());
            ClientError::Invalid(message)
        })
    }

    /// A question for the task the call became, asked of its client by `ask` once the
    /// session has it; failed when the call stops first.
    fn handed<T: Send + 'static>(
        &self,
        ask: impl FnOnce(&dyn ClientSession) -> Answer<T> + Send + 'static,
    ) -> Answer<T> {
        let mut task = self.task.subscribe();
        let stopped = self.stopped.clone();
        Box::pin(async move {
            let client = tokio::select! {
                client = task.wait_for(Option::is_some) => client.ok().and_then(|c| c.clone()),
                () = stopped.cancelled() => None,
            };
            match client {
                Some(client) => ask(&*client).await,
                None => Err(ClientError::Failed(
                    "the call stopped before it became a task".into(),
                )),
            }
        })
    }

    /// A question left for the client: its answer never comes in this round.
    fn unanswered<T: Send + 'static>(&self) -> Answer<T> {
        let stopped = self.stopped.clone();
        Box::pin(async move {
            stopped.cancelled().await;
            Err(ClientError::Failed(
                "the call stopped to wait for the client's answer".into(),
            ))
        })
    }
}

impl Asking {
    /// The key of a question of `kind`: the tool's, or the kind and its rank; a key used
    /// already gets a rank of its own (`KEY-2`).
    fn name(&mut self, kind: &'static str, key: Option<&str>) -> String {
        let count = self.counts.entry(kind).or_default();
        *count += 1;
        let base = key.map_or_else(|| format!("{kind}-{count}"), str::to_owned);
        let mut key = base.clone();
        let mut rank = 1;
        while self.keys.contains(&key) {
            rank += 1;
            key = format!("{base}-{rank}");
        }
        self.keys.insert(key.clone());
        key
    }
}

/// `key` cut to 100 characters, for an error message.
fn clip(key: &str) -> String {
    key.chars().take(100).collect()
}

impl ClientSession for InputSession {
    fn capabilities(&self) -> ClientCapabilities {
        self.capabilities
    }

    fn principal(&self) -> Option<&Principal> {
        self.principal.as_ref()
    }

    fn refused(&self, capability: &'static str) {
        self.round().refused.insert(capability);
    }

    fn elicit(&self, request: ElicitationRequest) -> Answer<Elicitation> {
        let params = elicit_params(&request);
        match self.ask("elicitation/create", "elicitation", request.key(), params) {
            Ok(Asked::Answered(key, response)) => {
                let answer = self
                    .read::<ElicitResult>(&key, "an elicitation result", response)
                    .map(elicitation);
                Box::pin(std::future::ready(answer))
            }
            Ok(Asked::Handed) => self.handed(move |client| client.elicit(request)),
            Ok(Asked::Waiting) => self.unanswered(),
            Err(error) => Box::pin(std::future::ready(Err(error))),
        }
    }

    fn sample(&self, request: SamplingRequest) -> Answer<Sampled> {
        let params = sample_params(&request);
        match self.ask("sampling/createMessage", "sampling", request.key(), params) {
            Ok(Asked::Answered(key, response)) => {
                let answer = self
                    .read::<CreateMessageResult>(&key, "a sampling result", response)
                    .map(sampled);
                Box::pin(std::future::ready(answer))
            }
            Ok(Asked::Handed) => self.handed(move |client| client.sample(request)),
            Ok(Asked::Waiting) => self.unanswered(),
            Err(error) => Box::pin(std::future::ready(Err(error))),
        }
    }

    fn list_roots(&self) -> Answer<Vec<Root>> {
        match self.ask("roots/list", "roots", None, json!({})) {
            Ok(Asked::Answered(key, response)) => {
                let answer = self
                    .read::<ListRootsResult>(&key, "a roots result", response)
                    .map(roots);
                Box::pin(std::future::ready(answer))
            }
            Ok(Asked::Handed) => self.handed(|client| client.list_roots()),
            Ok(Asked::Waiting) => self.unanswered(),
            Err(error) => Box::pin(std::future::ready(Err(error))),
        }
    }
}
