//! One of our requests as the provider's HTTP API would receive it: the JSON body of an
//! Anthropic Messages call (`POST /v1/messages`) or of an OpenAI Responses call
//! (`POST /v1/responses`), built from what the request holds and nothing else (feature
//! `serde`).
//!
//! # Anthropic Messages
//! `model`, `max_tokens`, `system` (one text block per system block), `tools` (each tool's
//! definition as the tools channel holds it), `messages` and `stream`. The user context is
//! spliced into the messages where the request places it ([`Request::user_context_at`]), as
//! Claude Code merges its meta user message into the next one. A Codex `developer` message
//! travels as a `user` message: the Messages API has no such role. Blocks become `text`,
//! `tool_use` (its input parsed from the block's text), `tool_result` (`is_error` only when
//! true) and `thinking` (without the signature the model returned, which we do not keep; a
//! live call would need it).
//!
//! Prompt-cache breakpoints (`cache_control: {"type": "ephemeral"}`) sit where the cache
//! model of the profile comparison puts them, as Claude Code does: on the last system block
//! before the cache boundary ([`Request::static_system_len`]), and on the last block of the
//! last message.
//!
//! # OpenAI Responses
//! `model`, `instructions` (the system blocks' texts joined by a blank line), `input`,
//! `tools` (`function` tools with the definition's schema as `parameters`), `tool_choice`,
//! `store` and `stream`, as Codex sends them (codex.md §0.6). Each message becomes input
//! items in order: runs of text parts a `message` item (`input_text`; `output_text` for
//! the assistant), each tool call a `function_call`, each tool result a
//! `function_call_output`, each thinking block a `reasoning` item with the text as its
//! summary. The user context is spliced in as for Anthropic.
//!
//! The model is not part of a request: it comes from [`ApiBodyOptions::model`], or the
//! API's default ([`ApiName::default_model`]).

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;
use serde_json::value::RawValue;

use super::prefix::ClaudePrefix;
use super::{Block, BlockType, Request};
use crate::codex::items::Role;
use crate::compact::thresholds::DEFAULT_MAX_OUTPUT_TOKENS;
use crate::Error;

crate::vocabulary::named_enum! {
    /// A provider's HTTP API a request can be exported for.
    pub enum ApiName {
    /// Anthropic's Messages API, which Claude Code calls.
    AnthropicMessages => "anthropic-messages",
    /// OpenAI's Responses API, which Codex calls.
    OpenAiResponses => "openai-responses",
    }
}

impl ApiName {
    /// The model a body names when the options give none: a current model of the client
    /// that calls this API.
    pub const fn default_model(self) -> &'static str {
        match self {
            ApiName::AnthropicMessages => "claude-sonnet-4-6",
            ApiName::OpenAiResponses => "gpt-5.3-codex",
        }
    }
}

impl core::str::FromStr for ApiName {
    type Err = Error;

    fn from_str(name: &str) -> Result<Self, Error> {
        ApiName::ALL
            .iter()
            .copied()
            .find(|api| api.as_str() == name)
            .ok_or_else(|| Error::InvalidConfig {
                field: "api".into(),
                reason: format!(
                    "unknown API {name:?}: expected \"anthropic-messages\" or \"openai-responses\""
                ),
            })
    }
}

/// How to export a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiBodyOptions {
    /// The API whose body to build.
    pub api: ApiName,
    /// The model to name; `None`: [`ApiName::default_model`].
    pub model: Option<String>,
    /// Anthropic's `max_tokens`; `None`: the release's ([`ReleaseFields::max_tokens`]), else
    /// [`DEFAULT_MAX_OUTPUT_TOKENS`] (32,000, Claude Code 2.1.88's). The Responses body has
    /// no such field.
    pub max_tokens: Option<u64>,
    /// The Claude Code release whose own fields a Messages body carries ([`ReleaseFields`]:
    /// its default model and output cap, adaptive thinking, the context-management edit and
    /// the effort); `None`: a plain body of the fields above.
    pub release: Option<ClaudePrefix>,
}

/// The fields a Claude Code release adds to its Messages body, as the lab recorded them
/// with the release's default model (`thinking`, `context_management`, `output_config`);
/// `metadata`, which identifies the user and the session, is left out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReleaseFields {
    /// The model the release names by default.
    pub model: &'static str,
    /// Its `max_tokens`.
    pub max_tokens: u64,
    /// `thinking.display`, when the release sends one.
    pub thinking_display: Option<&'static str>,
}

impl ReleaseFields {
    /// What `release` sends: 2.1.88 with `claude-sonnet-4-6` and 32,000 output tokens, 2.1.332
    /// with `claude-opus-5-5`, 128,000 and thinking shown as `updates`; both adaptive thinking,
    /// one context-management edit that clears no thinking (`keep: all`) and medium effort.
    ///
    /// # Example
    /// ```
    /// use context_assembly::request::prefix::ClaudePrefix;
    /// use context_assembly::request::ReleaseFields;
    /// assert_eq!(ReleaseFields::of(ClaudePrefix::ClaudeCode2332).max_tokens, 128_000);
    /// ```
    pub const fn of(release: ClaudePrefix) -> ReleaseFields {
        match release {
            ClaudePrefix::ClaudeCode2188 => ReleaseFields {
                model: "claude-sonnet-4-6",
                max_tokens: DEFAULT_MAX_OUTPUT_TOKENS,
                thinking_display: None,
            },
            ClaudePrefix::ClaudeCode2332 => ReleaseFields {
                model: "claude-opus-5-5",
                max_tokens: 128_000,
                thinking_display: Some("updates"),
            },
        }
    }
}

impl ApiBodyOptions {
    /// The options for `api` with every default.
    pub fn new(api: ApiName) -> ApiBodyOptions {
        ApiBodyOptions {
            api,
            model: None,
            max_tokens: None,
            release: None,
        }
    }
}

/// The body of one API call.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum ApiBody {
    /// An Anthropic Messages body.
    Anthropic(AnthropicBody),
    /// An OpenAI Responses body.
    OpenAi(OpenAiBody),
}

/// An Anthropic Messages body.
#[derive(Debug, Serialize)]
pub struct AnthropicBody {
    model: String,
    max_tokens: u64,
    system: Vec<AnthropicBlock>,
    tools: Vec<Box<RawValue>>,
    messages: Vec<AnthropicMessage>,
    #[serde(skip_serializing_if = "Option::is_none")]
    thinking: Option<Thinking>,
    #[serde(skip_serializing_if = "Option::is_none")]
    context_management: Option<ContextManagement>,
    #[serde(skip_serializing_if = "Option::is_none")]
    output_config: Option<OutputConfig>,
    stream: bool,
}

/// `thinking`: the model decides how much to think.
#[derive(Debug, Serialize)]
struct Thinking {
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    display: Option<&'static str>,
}

/// `context_management`: the edits the API applies before the model reads the request.
#[derive(Debug, Serialize)]
struct ContextManagement {
    edits: [ContextEdit; 1],
}

/// One edit: which blocks it clears, and what it keeps.
#[derive(Debug, Serialize)]
struct ContextEdit {
    #[serde(rename = "type")]
    kind: &'static str,
    keep: &'static str,
}

/// `output_config`: how much effort the model spends.
#[derive(Debug, Serialize)]
struct OutputConfig {
    effort: &'static str,
}

#[derive(Debug, Serialize)]
struct AnthropicMessage {
    role: Role,
    content: Vec<AnthropicBlock>,
}

/// A content block, with its breakpoint when it carries one.
#[derive(Debug, Serialize)]
struct AnthropicBlock {
    #[serde(flatten)]
    content: AnthropicContent,
    #[serde(skip_serializing_if = "Option::is_none")]
    cache_control: Option<CacheControl>,
}

#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum AnthropicContent {
    Text {
        text: String,
    },
    Thinking {
        thinking: String,
    },
    ToolUse {
        id: String,
        name: String,
        input: Box<RawValue>,
    },
    ToolResult {
        tool_use_id: String,
        content: String,
        #[serde(skip_serializing_if = "core::ops::Not::not")]
        is_error: bool,
    },
}

#[derive(Debug, Serialize)]
struct CacheControl {
    #[serde(rename = "type")]
    kind: &'static str,
}

/// An OpenAI Responses body.
#[derive(Debug, Serialize)]
pub struct OpenAiBody {
    model: String,
    instructions: String,
    input: Vec<InputItem>,
    tools: Vec<FunctionTool>,
    tool_choice: &'static str,
    store: bool,
    stream: bool,
}

#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum InputItem {
    Message {
        role: Role,
        content: Vec<InputPart>,
    },
    FunctionCall {
        call_id: String,
        name: String,
        arguments: String,
    },
    FunctionCallOutput {
        call_id: String,
        output: String,
    },
    Reasoning {
        summary: Vec<InputPart>,
    },
}

#[derive(Debug, Serialize)]
#[serde(tag = "type")]
enum InputPart {
    #[serde(rename = "input_text")]
    Input { text: String },
    #[serde(rename = "output_text")]
    Output { text: String },
    #[serde(rename = "summary_text")]
    Summary { text: String },
}

#[derive(Debug, Serialize)]
struct FunctionTool {
    #[serde(rename = "type")]
    kind: &'static str,
    name: String,
    description: String,
    strict: bool,
    parameters: Box<RawValue>,
}

/// A tool definition as the tools channel writes it (`request::tool_blocks`).
#[derive(serde::Deserialize)]
struct ToolDefinitionJson {
    name: String,
    description: String,
    input_schema: Box<RawValue>,
}

/// The body `options.api` would receive for `request`.
///
/// # Errors
/// A tool definition or a tool call's input that is not the JSON the engine writes
/// (`request.tools[2].text: …`, `request.messages[3].content[1].text: …`): possible only
/// for a request built or edited by hand.
///
/// # Example
/// ```
/// use context_assembly::request::{api_body, ApiBodyOptions, ApiName, Request};
/// let body = api_body(&Request::default(), &ApiBodyOptions::new(ApiName::AnthropicMessages)).unwrap();
/// let json = serde_json::to_string(&body).unwrap();
/// // An empty request still names a model and an output cap.
/// assert!(json.starts_with(r#"{"model":"claude-sonnet-4-6","max_tokens":32000,"system":[]"#));
/// ```
pub fn api_body(request: &Request, options: &ApiBodyOptions) -> Result<ApiBody, Error> {
    let release = (options.api == ApiName::AnthropicMessages)
        .then_some(options.release)
        .flatten()
        .map(ReleaseFields::of);
    let model = (options.model.clone()).unwrap_or_else(|| match release {
        Some(fields) => fields.model.into(),
        None => options.api.default_model().into(),
    });
    let messages = spliced_messages(request);
    Ok(match options.api {
        ApiName::AnthropicMessages => ApiBody::Anthropic(AnthropicBody {
            model,
            max_tokens: (options.max_tokens)
                .unwrap_or(release.map_or(DEFAULT_MAX_OUTPUT_TOKENS, |f| f.max_tokens)),
            system: anthropic_system(request),
            tools: tools_of(request, Ok)?,
            messages: anthropic_messages(&messages)?,
            thinking: release.map(|fields| Thinking {
                kind: "adaptive",
                display: fields.thinking_display,
            }),
            context_management: release.map(|_| ContextManagement {
                edits: [ContextEdit {
                    kind: "clear_thinking_20251015",
                    keep: "all",
                }],
            }),
            output_config: release.map(|_| OutputConfig { effort: "medium" }),
            stream: true,
        }),
        ApiName::OpenAiResponses => ApiBody::OpenAi(OpenAiBody {
            model,
            instructions: instructions(request),
            input: input_items(&messages)?,
            tools: tools_of(request, |tool| function_tool(&tool))?,
            tool_choice: "auto",
            store: false,
            stream: true,
        }),
    })
}

/// A message of the body: its role and its blocks, each with its place in the request.
struct Spliced<'r> {
    role: Role,
    blocks: Vec<(&'r Block, Origin)>,
}

/// Where a block sits in the request, for the path of an error.
#[derive(Clone, Copy)]
enum Origin {
    /// `messages[message].content[block]`.
    Message(usize, usize),
    /// `userContext[block]`.
    UserContext(usize),
}

impl Origin {
    fn text_field(self) -> String {
        match self {
            Origin::Message(message, block) => {
                format!("request.messages[{message}].content[{block}].text")
            }
            Origin::UserContext(block) => format!("request.userContext[{block}].text"),
        }
    }
}

/// The messages with the user context inserted where the request places it; a request
/// whose splice lies past its messages gets the user context as a message of its own.
fn spliced_messages(request: &Request) -> Vec<Spliced<'_>> {
    let mut messages: Vec<Spliced<'_>> = request
        .messages
        .iter()
        .enumerate()
        .map(|(m, message)| Spliced {
            role: message.role,
            blocks: message
                .content
                .iter()
                .enumerate()
                .map(|(b, block)| (block, Origin::Message(m, b)))
                .collect(),
        })
        .collect();
    if request.user_context.is_empty() {
        return messages;
    }
    let splice = request.user_context_at;
    let context = request
        .user_context
        .iter()
        .enumerate()
        .map(|(b, block)| (block, Origin::UserContext(b)));
    match messages.get_mut(splice.message) {
        Some(message) => {
            let at = splice.block.min(message.blocks.len());
            message.blocks.splice(at..at, context);
        }
        None => messages.push(Spliced {
            role: Role::User,
            blocks: context.collect(),
        }),
    }
    messages
}

fn ephemeral(marked: bool) -> Option<CacheControl> {
    marked.then_some(CacheControl { kind: "ephemeral" })
}

fn anthropic_system(request: &Request) -> Vec<AnthropicBlock> {
    let breakpoint = request.static_system_len().checked_sub(1);
    request
        .system
        .iter()
        .enumerate()
        .map(|(i, block)| AnthropicBlock {
            content: AnthropicContent::Text {
                text: block.text.clone(),
            },
            cache_control: ephemeral(breakpoint == Some(i)),
        })
        .collect()
}

fn anthropic_messages(messages: &[Spliced<'_>]) -> Result<Vec<AnthropicMessage>, Error> {
    let mut out = Vec::with_capacity(messages.len());
    for message in messages {
        let mut content = Vec::with_capacity(message.blocks.len());
        for &(block, origin) in &message.blocks {
            content.push(AnthropicBlock {
                content: anthropic_content(block, || origin.text_field())?,
                cache_control: None,
            });
        }
        out.push(AnthropicMessage {
            role: match message.role {
                Role::Assistant => Role::Assistant,
                Role::System => Role::System,
                Role::User | Role::Developer => Role::User,
            },
            content,
        });
    }
    if let Some(last) = out.iter_mut().rev().find_map(|m| m.content.last_mut()) {
        last.cache_control = ephemeral(true);
    }
    Ok(out)
}

fn anthropic_content(block: &Block, field: impl Fn() -> String) -> Result<AnthropicContent, Error> {
    Ok(match block.block_type {
        BlockType::Text | BlockType::ToolDefinition => AnthropicContent::Text {
            text: block.text.clone(),
        },
        BlockType::Thinking => AnthropicContent::Thinking {
            thinking: block.text.clone(),
        },
        BlockType::ToolUse => AnthropicContent::ToolUse {
            id: block.tool_use_id.clone().unwrap_or_default(),
            name: block.source.clone(),
            input: json_text(&block.text, field)?,
        },
        BlockType::ToolResult => AnthropicContent::ToolResult {
            tool_use_id: block.tool_use_id.clone().unwrap_or_default(),
            content: block.text.clone(),
            is_error: block.is_error,
        },
    })
}

/// The system blocks' texts as one `instructions` string.
fn instructions(request: &Request) -> String {
    let texts: Vec<&str> = request.system.iter().map(|b| b.text.as_str()).collect();
    texts.join("\n\n")
}

fn input_items(messages: &[Spliced<'_>]) -> Result<Vec<InputItem>, Error> {
    let mut items = Vec::new();
    for message in messages {
        let mut parts: Vec<InputPart> = Vec::new();
        for &(block, origin) in &message.blocks {
            let text = block.text.clone();
            let item = match block.block_type {
                BlockType::Text | BlockType::ToolDefinition => {
                    parts.push(match message.role {
                        Role::Assistant => InputPart::Output { text },
                        Role::User | Role::Developer | Role::System => InputPart::Input { text },
                    });
                    continue;
                }
                BlockType::Thinking => InputItem::Reasoning {
                    summary: Vec::from([InputPart::Summary { text }]),
                },
                BlockType::ToolUse => {
                    // Arguments travel as a string, but must be the JSON of an input.
                    json_text(&text, || origin.text_field())?;
                    InputItem::FunctionCall {
                        call_id: block.tool_use_id.clone().unwrap_or_default(),
                        name: block.source.clone(),
                        arguments: text,
                    }
                }
                BlockType::ToolResult => InputItem::FunctionCallOutput {
                    call_id: block.tool_use_id.clone().unwrap_or_default(),
                    output: text,
                },
            };
            flush_message(&mut items, message.role, &mut parts);
            items.push(item);
        }
        flush_message(&mut items, message.role, &mut parts);
    }
    Ok(items)
}

/// Ends the run of text parts gathered so far as one `message` item.
fn flush_message(items: &mut Vec<InputItem>, role: Role, parts: &mut Vec<InputPart>) {
    if !parts.is_empty() {
        items.push(InputItem::Message {
            role,
            content: core::mem::take(parts),
        });
    }
}

/// Each tool definition of the tools channel, checked as JSON and shaped by `shape`.
fn tools_of<T>(
    request: &Request,
    shape: impl Fn(Box<RawValue>) -> Result<T, serde_json::Error>,
) -> Result<Vec<T>, Error> {
    let mut tools = Vec::with_capacity(request.tools.len());
    for (i, block) in request.tools.iter().enumerate() {
        let field = || format!("request.tools[{i}].text");
        let tool = json_text(&block.text, field)?;
        tools.push(shape(tool).map_err(|error| Error::InvalidConfig {
            field: field(),
            reason: format!(
                "expected a tool definition {{name, description, input_schema}}: {error}"
            ),
        })?);
    }
    Ok(tools)
}

fn function_tool(definition: &RawValue) -> Result<FunctionTool, serde_json::Error> {
    let tool: ToolDefinitionJson = serde_json::from_str(definition.get())?;
    Ok(FunctionTool {
        kind: "function",
        name: tool.name,
        description: tool.description,
        strict: false,
        parameters: tool.input_schema,
    })
}

/// `text` as embedded JSON, or an error naming `field`.
fn json_text(text: &str, field: impl Fn() -> String) -> Result<Box<RawValue>, Error> {
    RawValue::from_string(String::from(text)).map_err(|error| Error::InvalidConfig {
        field: field(),
        reason: format!("expected JSON text: {error}"),
    })
}
