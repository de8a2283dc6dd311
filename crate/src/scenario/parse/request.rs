//! A request as a host gives it back in JSON (a trace step's `turn.request`, a session's
//! answer) and the options of its export as an API body (the JS API's `toApiRequest`).
//!
//! Only what a body needs is read: every block's type, text, source, tool call id, error
//! flag and cache boundary, the messages' roles, and where the user context goes. The
//! counts (`tokens`, `window`, a block's `tokens`) are accepted and not read: a body
//! carries none.

use alloc::format;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

use super::json::Json;
use super::parse_tree;
use super::path::{Path, Quoted};
use super::read::{boolean, each, list, mismatch, name, natural, string, Fields, MAX_WHOLE};
use crate::codex::items::Role;
use crate::request::{
    ApiBodyOptions, ApiName, Block, BlockType, Category, Channel, Message, Request,
    RequestDiffOptions, Splice, StandIn,
};
use crate::{Error, Profile, ProfileName};

/// The keys of a serialised [`Request`].
const REQUEST_KEYS: [&str; 7] = [
    "system",
    "tools",
    "userContext",
    "userContextAt",
    "messages",
    "tokens",
    "window",
];

/// The keys of a serialised [`Block`].
const BLOCK_KEYS: [&str; 14] = [
    "type",
    "source",
    "channel",
    "category",
    "frequency",
    "text",
    "tokens",
    "mediaTokens",
    "reminder",
    "cacheBoundary",
    "toolUseId",
    "isError",
    "parts",
    "standIn",
];

/// Reads a request from its JSON, as the engine serialises it.
///
/// # Errors
/// Invalid JSON, or a value that is not a request's: the message names the field and what
/// it allows (`request.messages[0].content[1].type: unknown block type "image": expected
/// one of …`).
///
/// # Example
/// ```
/// use context_assembly::scenario::parse_request;
/// let request = parse_request(r#"{ "messages": [{ "role": "user", "content": [{ "type": "text", "text": "hi" }] }] }"#).unwrap();
/// assert_eq!(request.messages[0].content[0].text, "hi");
/// let error = parse_request(r#"{ "messages": [{ "role": "robot", "content": [] }] }"#).unwrap_err();
/// assert!(error.to_string().starts_with("request.messages[0].role: unknown role \"robot\""));
/// ```
pub fn parse_request(json: &str) -> Result<Request, Error> {
    let path = Path::Root.key("request");
    let tree = parse_tree(json, &path)?;
    let fields = Fields::new(&tree, &path, &REQUEST_KEYS)?;
    let blocks = |channel| move |value: &Json, path: &Path<'_>| each(value, path, block(channel));
    Ok(Request {
        system: fields.or("system", Vec::new(), blocks(Channel::System))?,
        tools: fields.or("tools", Vec::new(), blocks(Channel::Tools))?,
        user_context: fields.or("userContext", Vec::new(), blocks(Channel::UserContext))?,
        user_context_at: fields.or("userContextAt", Splice::default(), splice)?,
        messages: fields.required("messages", |value, path| each(value, path, message))?,
        ..Request::default()
    })
}

/// Reads the options of a request diff, `{ "elapsedMs"?: number, "cacheTtlMs"?: number,
/// "compacted"?: boolean }` (see [`RequestDiffOptions`]).
///
/// # Errors
/// Invalid JSON, an unknown key, or a value of the wrong kind or out of range.
///
/// # Example
/// ```
/// use context_assembly::scenario::parse_request_diff_options;
/// let options = parse_request_diff_options(r#"{ "elapsedMs": 360000, "compacted": true }"#).unwrap();
/// assert_eq!((options.elapsed_ms, options.compacted), (Some(360_000), true));
/// let error = parse_request_diff_options(r#"{ "ttl": 5 }"#).unwrap_err();
/// assert!(error.to_string().starts_with("options.ttl: unknown field"), "{error}");
/// ```
pub fn parse_request_diff_options(json: &str) -> Result<RequestDiffOptions, Error> {
    let path = Path::Root.key("options");
    let tree = parse_tree(json, &path)?;
    let fields = Fields::new(&tree, &path, &["elapsedMs", "cacheTtlMs", "compacted"])?;
    let millis = natural(0, MAX_WHOLE.unsigned_abs());
    let defaults = RequestDiffOptions::default();
    Ok(RequestDiffOptions {
        elapsed_ms: fields.optional("elapsedMs", &millis)?,
        cache_ttl_ms: fields.or("cacheTtlMs", defaults.cache_ttl_ms, &millis)?,
        compacted: fields.or("compacted", false, boolean)?,
    })
}

/// Reads the options of an export, `{ "api": "anthropic-messages" | "openai-responses",
/// "model"?: string, "maxTokens"?: number, "profile"?: string }`: with a profile whose client
/// is a Claude Code release, a Messages body carries that release's own fields
/// ([`ReleaseFields`](crate::request::ReleaseFields)).
///
/// # Errors
/// Invalid JSON, a missing or unknown `api` (the message lists the allowed ones), or a bad
/// `model` or `maxTokens`.
///
/// # Example
/// ```
/// use context_assembly::scenario::parse_api_body_options;
/// let error = parse_api_body_options(r#"{ "api": "openai-chat" }"#).unwrap_err();
/// assert_eq!(error.to_string(), r#"options.api: unknown API "openai-chat": expected one of "anthropic-messages", "openai-responses""#);
/// ```
pub fn parse_api_body_options(json: &str) -> Result<ApiBodyOptions, Error> {
    let path = Path::Root.key("options");
    let tree = parse_tree(json, &path)?;
    let fields = Fields::new(&tree, &path, &["api", "model", "maxTokens", "profile"])?;
    let profile = fields.optional(
        "profile",
        named("profile", &ProfileName::ALL, |profile: ProfileName| {
            profile.as_str()
        }),
    )?;
    Ok(ApiBodyOptions {
        api: fields.required("api", named("API", ApiName::ALL, |api| api.as_str()))?,
        model: fields.optional("model", name)?,
        max_tokens: fields.optional("maxTokens", natural(1, MAX_WHOLE.unsigned_abs()))?,
        release: profile.and_then(|profile| Profile::preset(profile).claude_prefix),
    })
}

fn message(value: &Json, path: &Path<'_>) -> Result<Rc<Message>, Error> {
    let fields = Fields::new(value, path, &["role", "content"])?;
    Ok(Rc::new(Message {
        role: fields.required("role", named("role", Role::ALL, |role| role.as_str()))?,
        content: fields.required("content", |value, path| {
            each(value, path, block(Channel::Messages))
        })?,
    }))
}

/// A block of `channel` (the one its place implies, unless it names its own).
fn block(channel: Channel) -> impl Fn(&Json, &Path<'_>) -> Result<Block, Error> {
    move |value, path| {
        let fields = Fields::new(value, path, &BLOCK_KEYS)?;
        let block_type =
            fields.required("type", named("block type", BlockType::ALL, |t| t.as_str()))?;
        // A tool call's source is the tool it calls: the body names it.
        let source = match block_type {
            BlockType::ToolUse => fields.required("source", name)?,
            _ => fields.or("source", String::new(), string)?,
        };
        let text = fields.required("text", string)?;
        Ok(Block {
            block_type,
            source,
            channel: fields.or(
                "channel",
                channel,
                named("channel", Channel::ALL, |c| c.as_str()),
            )?,
            category: fields.or(
                "category",
                Category::Conversation,
                named("category", Category::ALL, |c| c.as_str()),
            )?,
            frequency: None,
            tokens: fields.or("tokens", 0, natural(0, MAX_WHOLE.unsigned_abs()))?,
            media_tokens: fields.or("mediaTokens", 0, natural(0, MAX_WHOLE.unsigned_abs()))?,
            reminder: fields.or("reminder", text.starts_with("<system-reminder>"), boolean)?,
            cache_boundary: fields.or("cacheBoundary", false, boolean)?,
            tool_use_id: fields.optional("toolUseId", string)?,
            is_error: fields.or("isError", false, boolean)?,
            parts: fields.or("parts", Vec::new(), |value, path| {
                each(value, path, block(channel))
            })?,
            stand_in: fields.optional("standIn", stand_in)?,
            text,
        })
    }
}

fn stand_in(value: &Json, path: &Path<'_>) -> Result<StandIn, Error> {
    let fields = Fields::new(value, path, &["release", "tokens"])?;
    Ok(StandIn {
        release: fields.required("release", string)?,
        tokens: fields.required("tokens", natural(0, MAX_WHOLE.unsigned_abs()))?,
    })
}

fn splice(value: &Json, path: &Path<'_>) -> Result<Splice, Error> {
    let fields = Fields::new(value, path, &["message", "block"])?;
    let index = natural(0, MAX_WHOLE.unsigned_abs());
    let as_index = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
    Ok(Splice {
        message: as_index(fields.required("message", &index)?),
        block: as_index(fields.required("block", &index)?),
    })
}

/// One of a closed vocabulary's names; `what` names the vocabulary in the message.
fn named<T: Copy + 'static>(
    what: &'static str,
    all: &'static [T],
    as_str: fn(T) -> &'static str,
) -> impl Fn(&Json, &Path<'_>) -> Result<T, Error> {
    move |value, path| {
        let names = || {
            let names: Vec<&str> = all.iter().map(|v| as_str(*v)).collect();
            list(&names)
        };
        match value {
            Json::String(s) => all
                .iter()
                .copied()
                .find(|v| as_str(*v) == s)
                .ok_or_else(|| {
                    path.error(format!(
                        "unknown {what} {}: expected one of {}",
                        Quoted(s),
                        names()
                    ))
                }),
            other => Err(mismatch(path, &format!("one of {}", names()), other)),
        }
    }
}
