//! A replayed scenario's trace, with its requests stored so that its size grows with the
//! steps, not with their square.
//!
//! Each request repeats the previous one's messages and adds one or two at the end, so a
//! trace that kept every request whole would hold the first message once per step (a
//! 10,000-step scenario held gigabytes). Here a request keeps its messages as a
//! [`MessageList`]: how many of an earlier request's messages it starts with, and the
//! messages that follow, which are shared (`Rc`) with the session. The system prompt, the
//! tools and the user context are shared with the previous request whenever they are
//! equal. [`Trace::request`] materialises a step's request on demand; the trace serialises
//! in full (each step with its request, as a [`Turn`] does) or, for the wasm boundary,
//! shared ([`Trace::shared`]).
//!
//! What a trace may hold is bounded: [`MAX_TRACE_BYTES`] of message blocks in all.

use alloc::collections::BTreeMap;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

use serde::ser::{SerializeSeq, SerializeStruct};
use serde::{Serialize, Serializer};

use super::parse::{parse_json, Json};
use crate::request::{Block, Message, Request, RequestTokens, Splice, Window};
use crate::session::{PermissionMode, Turn};

/// The most a trace holds of message blocks: 256 MiB, counting each block of each message
/// the first time a request carries it, as its text's bytes plus [`BLOCK_OVERHEAD`] for
/// its other fields. Far above a real session's need; it exists so that a pathological
/// scenario (thousands of prompts with no assistant step between them merge into one
/// message that grows every step) ends in an error that names it, not in a module that
/// runs out of memory.
pub const MAX_TRACE_BYTES: usize = 256 * 1024 * 1024;

/// What a block's fields besides its text cost in a trace, held and written as JSON.
pub const BLOCK_OVERHEAD: usize = 128;

/// The bytes a block counts for against [`MAX_TRACE_BYTES`].
fn block_bytes(block: &Block) -> usize {
    let parts: usize = block.parts.iter().map(block_bytes).sum();
    block.text.len() + BLOCK_OVERHEAD + parts
}

/// The trace of a replayed scenario: one entry per step.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Trace {
    /// One entry per step, in order. A step's `turn.request` is `None` here: the request is
    /// kept shared with its neighbours; [`Trace::request`] gives it.
    pub steps: Vec<StepTrace>,
    requests: Vec<Option<SharedRequest>>,
    /// The latest request's messages as the session sent them: the next request shares most
    /// of them by pointer, so comparing with these is cheap.
    latest_messages: Vec<Rc<Message>>,
    bytes_held: usize,
}

/// One step of a trace: what was given, when, and what it produced.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StepTrace {
    /// The step as given, compact JSON.
    pub input: String,
    /// The logical clock when the step ran.
    pub at_ms: u64,
    /// The permission mode after the step.
    pub mode: PermissionMode,
    /// What the step produced, but for its request ([`Trace::request`]).
    pub turn: Turn,
}

/// A request as the trace keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct SharedRequest {
    system: Rc<Vec<Block>>,
    tools: Rc<Vec<Block>>,
    user_context: Rc<Vec<Block>>,
    user_context_at: Splice,
    messages: MessageList,
    tokens: RequestTokens,
    window: Window,
}

/// A request's messages: the first `keep` messages of step `base`'s request, then `tail`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct MessageList {
    base: Option<usize>,
    keep: usize,
    tail: Vec<Rc<Message>>,
}

impl Trace {
    /// Records a step; its request (if any) is stored shared with the previous request.
    ///
    /// # Errors
    /// The trace would pass [`MAX_TRACE_BYTES`]; the message says why and what to do.
    pub(super) fn push(&mut self, mut step: StepTrace) -> Result<(), String> {
        let request = step.turn.request.take().map(|request| {
            let messages = request.messages.clone();
            let shared = self.share(request);
            self.latest_messages = messages;
            shared
        });
        if let Some(shared) = &request {
            let added: usize = (shared.messages.tail.iter())
                .flat_map(|message| message.content.iter())
                .map(block_bytes)
                .sum();
            self.bytes_held = self.bytes_held.saturating_add(added);
            if self.bytes_held > MAX_TRACE_BYTES {
                return Err(alloc::format!(
                    "the trace would hold {} bytes of messages, more than its limit of \
                     {MAX_TRACE_BYTES} (256 MiB): prompts with no assistant step between them \
                     merge into one message that is sent again whole at every step; add \
                     assistant steps, or split the scenario",
                    self.bytes_held
                ));
            }
        }
        self.steps.push(step);
        self.requests.push(request);
        Ok(())
    }

    /// The latest request before the one being added, and its step.
    fn latest(&self) -> Option<(usize, &SharedRequest)> {
        self.requests
            .iter()
            .enumerate()
            .rev()
            .find_map(|(index, request)| request.as_ref().map(|r| (index, r)))
    }

    fn share(&self, request: Request) -> SharedRequest {
        let latest = self.latest();
        let reuse = |new: Vec<Block>, old: Option<&Rc<Vec<Block>>>| match old {
            Some(old) if **old == new => Rc::clone(old),
            _ => Rc::new(new),
        };
        let messages = match latest {
            None => MessageList {
                base: None,
                keep: 0,
                tail: request.messages,
            },
            Some((index, _)) => {
                let keep = (self.latest_messages.iter())
                    .zip(&request.messages)
                    .take_while(|(a, b)| Rc::ptr_eq(a, b) || a == b)
                    .count();
                // A new vector of the tail's own size: draining the request's would keep its
                // whole capacity, and the trace would grow with the square of the steps again.
                let tail = request.messages[keep..].to_vec();
                MessageList {
                    base: Some(index),
                    keep,
                    tail,
                }
            }
        };
        SharedRequest {
            system: reuse(request.system, latest.map(|(_, r)| &r.system)),
            tools: reuse(request.tools, latest.map(|(_, r)| &r.tools)),
            user_context: reuse(request.user_context, latest.map(|(_, r)| &r.user_context)),
            user_context_at: request.user_context_at,
            messages,
            tokens: request.tokens,
            window: request.window,
        }
    }

    /// The messages of a list, by walking back through the lists it starts from.
    fn messages_of(&self, list: &MessageList) -> Vec<Rc<Message>> {
        let mut parts: Vec<&[Rc<Message>]> = Vec::new();
        let mut limit = list.keep + list.tail.len();
        let mut current = Some(list);
        while let Some(list) = current.filter(|_| limit > 0) {
            let from_tail = limit.saturating_sub(list.keep).min(list.tail.len());
            parts.push(&list.tail[..from_tail]);
            limit = limit.min(list.keep);
            current = list
                .base
                .and_then(|base| self.requests.get(base))
                .and_then(Option::as_ref)
                .map(|request| &request.messages);
        }
        parts
            .iter()
            .rev()
            .flat_map(|part| part.iter().cloned())
            .collect()
    }

    /// The request step `index` sent, materialised; `None` when it sent none.
    ///
    /// # Example
    /// ```
    /// use context_assembly::scenario::{parse_scenario, run_scenario};
    /// let scenario = parse_scenario(r#"{"steps": [
    ///   {"kind": "user", "prompt": "one"},
    ///   {"kind": "assistant", "blocks": [{"type": "text", "text": "ok"}]},
    ///   {"kind": "user", "prompt": "two"}
    /// ]}"#).unwrap();
    /// let trace = run_scenario(&scenario).unwrap();
    /// assert!(trace.request(1).is_none()); // the end of a turn sends nothing
    /// let last = trace.request(2).unwrap();
    /// assert_eq!(last.messages.len(), 3); // the first prompt is stored once, and shared
    /// ```
    pub fn request(&self, index: usize) -> Option<Request> {
        let shared = self.requests.get(index)?.as_ref()?;
        Some(Request {
            system: shared.system.to_vec(),
            tools: shared.tools.to_vec(),
            user_context: shared.user_context.to_vec(),
            user_context_at: shared.user_context_at,
            messages: self.messages_of(&shared.messages),
            tokens: shared.tokens.clone(),
            window: shared.window,
        })
    }

    /// The trace with its requests shared rather than repeated, for the wasm boundary: every
    /// message and every distinct block list once, and each step's request naming them by
    /// index (the format is `SharedTrace` in the wasm package's TypeScript types).
    pub fn shared(&self) -> impl Serialize + '_ {
        SharedTraceView { trace: self }
    }
}

impl Serialize for Trace {
    /// The full trace: each step with its request in its turn, as a [`Turn`] serialises.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut state = serializer.serialize_struct("Trace", 1)?;
        state.serialize_field("steps", &FullSteps { trace: self })?;
        state.end()
    }
}

struct FullSteps<'a> {
    trace: &'a Trace,
}

impl Serialize for FullSteps<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.trace.steps.len()))?;
        for (index, step) in self.trace.steps.iter().enumerate() {
            // One request at a time is materialised, so the memory stays that of one step.
            let mut turn = step.turn.clone();
            turn.request = self.trace.request(index);
            seq.serialize_element(&StepView {
                step,
                turn: &turn,
                request: None,
            })?;
        }
        seq.end()
    }
}

/// A step as it serialises: the input as the JSON it was, then the turn; in the shared
/// form, the request's shape beside it.
struct StepView<'a> {
    step: &'a StepTrace,
    turn: &'a Turn,
    request: Option<SharedRequestView<'a>>,
}

impl Serialize for StepView<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // The input is shown as the JSON it was, not as a string of JSON.
        let input = parse_json(&self.step.input).unwrap_or(Json::Null);
        let fields = if self.request.is_some() { 5 } else { 4 };
        let mut state = serializer.serialize_struct("StepTrace", fields)?;
        state.serialize_field("input", &input)?;
        state.serialize_field("atMs", &self.step.at_ms)?;
        state.serialize_field("mode", &self.step.mode)?;
        state.serialize_field("turn", self.turn)?;
        if let Some(request) = &self.request {
            state.serialize_field("request", request)?;
        }
        state.end()
    }
}

/// Indexes that name each shared value once.
#[derive(Default)]
struct SharedTables<'a> {
    block_lists: Vec<&'a [Block]>,
    block_list_ids: BTreeMap<usize, usize>,
    messages: Vec<&'a Message>,
}

impl<'a> SharedTables<'a> {
    fn block_list(&mut self, list: &'a Rc<Vec<Block>>) -> usize {
        let key = Rc::as_ptr(list) as usize;
        let next = self.block_lists.len();
        let id = *self.block_list_ids.entry(key).or_insert(next);
        if id == next {
            self.block_lists.push(list.as_slice());
        }
        id
    }
}

struct SharedTraceView<'a> {
    trace: &'a Trace,
}

/// A request in the shared form: block lists and messages by index.
struct SharedRequestView<'a> {
    request: &'a SharedRequest,
    system: usize,
    tools: usize,
    user_context: usize,
    tail: Vec<usize>,
}

impl Serialize for SharedRequestView<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let request = self.request;
        let mut state = serializer.serialize_struct("SharedRequest", 7)?;
        state.serialize_field("system", &self.system)?;
        state.serialize_field("tools", &self.tools)?;
        state.serialize_field("userContext", &self.user_context)?;
        state.serialize_field("userContextAt", &request.user_context_at)?;
        state.serialize_field(
            "messages",
            &MessageListView {
                base: request.messages.base,
                keep: request.messages.keep,
                tail: &self.tail,
            },
        )?;
        state.serialize_field("tokens", &request.tokens)?;
        state.serialize_field("window", &request.window)?;
        state.end()
    }
}

#[derive(Serialize)]
struct MessageListView<'a> {
    base: Option<usize>,
    keep: usize,
    tail: &'a [usize],
}

impl Serialize for SharedTraceView<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let trace = self.trace;
        let mut tables = SharedTables::default();
        let mut views = Vec::with_capacity(trace.steps.len());
        for request in &trace.requests {
            views.push(request.as_ref().map(|request| {
                let tail = (request.messages.tail.iter())
                    .map(|message| {
                        tables.messages.push(message);
                        tables.messages.len() - 1
                    })
                    .collect();
                SharedRequestView {
                    request,
                    system: tables.block_list(&request.system),
                    tools: tables.block_list(&request.tools),
                    user_context: tables.block_list(&request.user_context),
                    tail,
                }
            }));
        }
        let mut state = serializer.serialize_struct("SharedTrace", 3)?;
        let steps: Vec<StepView<'_>> = (trace.steps.iter().zip(views))
            .map(|(step, request)| StepView {
                step,
                turn: &step.turn,
                request,
            })
            .collect();
        state.serialize_field("steps", &steps)?;
        state.serialize_field("messages", &tables.messages)?;
        state.serialize_field("blockLists", &tables.block_lists)?;
        state.end()
    }
}
