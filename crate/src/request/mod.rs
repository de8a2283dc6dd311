//! The request the model receives on one round, assembled from the session's state (spec
//! claude-code.md §7.1, §7.11).
//!
//! Four channels: the system prompt (a static part, then after a cache boundary a dynamic
//! part with the environment), the tool definitions, the user context prepended to the
//! messages (CLAUDE.md files and the date; never stored in the transcript), and the
//! messages themselves (the transcript with its attachments placed and merged as the
//! original places and merges them). Every block carries its token count, its channel and
//! its category, and the totals per channel and per category each sum exactly to the total.

#[cfg(feature = "serde")]
mod api_body;
mod assemble;
mod build;
mod context;
mod diff;
pub mod prefix;
mod release_offer;
mod tools;

use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

/// The tools a host declares, as the `tools` channel carries them (declared in `host`, below the
/// layers that count them).
pub use crate::host::ToolDefinition;
#[cfg(feature = "serde")]
pub use api_body::{
    api_body, AnthropicBody, ApiBody, ApiBodyOptions, ApiName, OpenAiBody, ReleaseFields,
};
pub use assemble::{assemble_messages, MessageCache};
pub use build::{build_request, RequestContext, RequestParts};
pub use context::{system_blocks, tool_blocks, user_context_block, Environment};
pub use diff::{
    request_diff, AlignedBlock, BlockChange, CacheBreak, CacheVerdict, PrefixKept, RequestDiff,
    RequestDiffOptions, WordOp, WordSpan, MAX_INLINE_WORDS,
};
pub use tools::{default_tools, offered_tools};

use crate::attachment::Frequency;
use crate::codex::items::Role;
use crate::compact::thresholds::WindowThresholds;
use crate::tokens::{estimate_tokens, TokenMethod};

pub use crate::vocabulary::{Category, Channel};

crate::vocabulary::named_enum! {
    /// The API type of a request's block.
    pub enum BlockType {
    /// Text: a prompt, an answer, an attachment, a system or context part.
    Text => "text",
    /// The model's thinking.
    Thinking => "thinking",
    /// A tool call.
    ToolUse => "tool_use",
    /// A tool's result.
    ToolResult => "tool_result",
    /// A tool's definition.
    ToolDefinition => "tool_definition",
    }
}

/// One content block of a request.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Block {
    /// The API block type.
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    pub block_type: BlockType,
    /// What produced it: `prompt`, `assistant`, `tool`, `interruption` (the user stopped the
    /// turn), `user_context`, `system_static`, `environment`, a tool's name, or an attachment
    /// kind.
    pub source: String,
    /// Which channel of the request it travels in: see [`Channel`].
    pub channel: Channel,
    /// What its tokens are spent on: see [`Category`].
    pub category: Category,
    /// An attachment's frequency class.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub frequency: Option<Frequency>,
    /// The text the model sees (a tool call: its input JSON).
    pub text: String,
    /// Tokens under the profile's counter; for a block with parts, the sum of the parts.
    pub tokens: u64,
    /// Tokens of the images or documents the block carries besides its text (included in
    /// `tokens`).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_zero"))]
    pub media_tokens: u64,
    /// The text is a `<system-reminder>`.
    pub reminder: bool,
    /// The prompt cache's boundary lies before this block (the system prompt's static
    /// part ends here).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "core::ops::Not::not"))]
    pub cache_boundary: bool,
    /// The id of a tool call, or of the call a result answers.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub tool_use_id: Option<String>,
    /// A tool result reporting a failure.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "core::ops::Not::not"))]
    pub is_error: bool,
    /// A tool result with attachments folded into its text (Q50): the tool's output, then
    /// each folded attachment, in order; `text` is what the model sees of them together.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub parts: Vec<Block>,
    /// The block stands in for text a client release sends that we may not copy (its system
    /// prompt, its tools' descriptions): `text` is ours, `tokens` the size measured on that
    /// release, so meters, caches and costs see the real prefix.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub stand_in: Option<StandIn>,
}

/// What a stand-in block stands for: the client release whose text it models, and that
/// text's size as measured on the release.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct StandIn {
    /// The client and its version, as a reader names it (`Claude Code 2.1.332`).
    pub release: String,
    /// Tokens the release's own text measured.
    pub tokens: u64,
}

impl Block {
    /// A text block counted with `method`.
    pub fn text(source: &str, category: Category, text: String, method: TokenMethod) -> Block {
        let mut block = Block::uncounted(source, category, text);
        block.tokens = estimate_tokens(&block.text, method, None);
        block
    }

    /// A text block whose `tokens` are not counted yet (0): the caller counts it when its
    /// text is final.
    pub(crate) fn uncounted(source: &str, category: Category, text: String) -> Block {
        Block {
            block_type: BlockType::Text,
            source: source.into(),
            channel: Channel::Messages,
            category,
            frequency: None,
            tokens: 0,
            media_tokens: 0,
            reminder: text.starts_with("<system-reminder>"),
            text,
            cache_boundary: false,
            tool_use_id: None,
            is_error: false,
            parts: Vec::new(),
            stand_in: None,
        }
    }

    /// The block (and its parts) placed in `channel`.
    pub(crate) fn in_channel(mut self, channel: Channel) -> Block {
        self.channel = channel;
        for part in &mut self.parts {
            part.channel = channel;
        }
        self
    }

    /// Recounts `tokens` after `text` changed, `count` counting a text: the block's own, or
    /// for a tool call its name followed by its input's JSON, as the original counts a call
    /// (§6.2).
    pub(crate) fn recount_with(&mut self, count: impl FnOnce(&str) -> u64) {
        self.tokens = if !self.parts.is_empty() {
            self.parts.iter().map(|part| part.tokens).sum()
        } else if self.block_type == BlockType::ToolUse {
            let mut call = String::with_capacity(self.source.len() + self.text.len());
            call.push_str(&self.source);
            call.push_str(&self.text);
            count(&call)
        } else {
            count(&self.text) + self.media_tokens
        };
    }
}

#[cfg(feature = "serde")]
fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// A block's identity for the prompt cache: who sends it (a message's role, else the
/// block's channel) and its text. Equal content in the same place keys alike; see
/// [`content_key`](crate::cache::content_key).
pub fn cache_key(role: Option<Role>, block: &Block) -> u64 {
    let mut key_text = String::from(role.map_or(block.channel.as_str(), Role::as_str));
    key_text.push('\u{0}');
    key_text.push_str(&block.text);
    crate::cache::content_key(&key_text)
}

/// A message of the request.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Message {
    /// Who it is from: `user` or `assistant` (and `developer` for Codex's context).
    pub role: Role,
    /// Its blocks.
    pub content: Vec<Block>,
}

/// Where the user context sits among the messages: before block `block` of message
/// `message` (after the first turn's attachments, which float above it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Splice {
    /// The message.
    pub message: usize,
    /// The block within it.
    pub block: usize,
}

/// Tokens of a request, by channel and by category; each breakdown sums to `total`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct RequestTokens {
    /// Every block of every channel.
    pub total: u64,
    /// Per channel.
    pub by_channel: ByChannel,
    /// Per category.
    pub by_category: ByCategory,
}

/// Tokens per channel.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct ByChannel {
    /// The system prompt.
    pub system: u64,
    /// Tool definitions.
    pub tools: u64,
    /// The prepended user context.
    pub user_context: u64,
    /// The messages.
    pub messages: u64,
}

/// Tokens per category.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct ByCategory {
    /// The system prompt.
    pub system: u64,
    /// Tool definitions.
    pub tools: u64,
    /// Memory files and memories.
    pub memory: u64,
    /// Other attachments.
    pub attachments: u64,
    /// The conversation.
    pub conversation: u64,
}

impl ByCategory {
    fn add(&mut self, category: Category, tokens: u64) {
        let slot = match category {
            Category::System => &mut self.system,
            Category::Tools => &mut self.tools,
            Category::Memory => &mut self.memory,
            Category::Attachments => &mut self.attachments,
            Category::Conversation => &mut self.conversation,
        };
        *slot += tokens;
    }
}

/// The model's context window, as the meter shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Window {
    /// The model's context window.
    pub context: u64,
    /// What is left of it after the request: `context - total`, or 0 when over.
    pub free: u64,
    /// How far the request is over the window (0 when it fits).
    pub over: u64,
    /// What the model may fill with input: the window less the output reserve (§9.1).
    pub effective: u64,
    /// Auto-compaction fires when a request reaches this many tokens (Aider's strategy,
    /// `AutoPolicy::Aider`, measures the history against its budget instead).
    pub autocompact: u64,
}

/// The assembled request.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Request {
    /// The system prompt: static part, cache boundary, dynamic part.
    pub system: Vec<Block>,
    /// Tool definitions (deferred tools are not here; only their names, as a reminder).
    pub tools: Vec<Block>,
    /// The user context, sent as a meta user message and never stored.
    pub user_context: Vec<Block>,
    /// Where the user context sits among the messages.
    pub user_context_at: Splice,
    /// The messages; shared with the session's cache, so a request costs what is new.
    pub messages: Vec<Rc<Message>>,
    /// Token totals.
    pub tokens: RequestTokens,
    /// The window and what is left of it.
    pub window: Window,
}

impl Request {
    /// Builds a request and its totals.
    pub fn new(
        system: Vec<Block>,
        tools: Vec<Block>,
        user_context: Vec<Block>,
        (messages, user_context_at): (Vec<Rc<Message>>, Splice),
        thresholds: &WindowThresholds,
        context_window: u64,
    ) -> Request {
        let mut tokens = RequestTokens::default();
        let mut count = |blocks: &[Block], channel: &mut u64| {
            for block in blocks {
                *channel += block.tokens;
                if block.parts.is_empty() {
                    tokens.by_category.add(block.category, block.tokens);
                } else {
                    for part in &block.parts {
                        tokens.by_category.add(part.category, part.tokens);
                    }
                }
            }
        };
        let mut by_channel = ByChannel::default();
        count(&system, &mut by_channel.system);
        count(&tools, &mut by_channel.tools);
        count(&user_context, &mut by_channel.user_context);
        for message in &messages {
            count(&message.content, &mut by_channel.messages);
        }
        tokens.total =
            by_channel.system + by_channel.tools + by_channel.user_context + by_channel.messages;
        tokens.by_channel = by_channel;
        let window = Window {
            context: context_window,
            free: context_window.saturating_sub(tokens.total),
            over: tokens.total.saturating_sub(context_window),
            effective: thresholds.effective_window,
            autocompact: thresholds.autocompact,
        };
        Request {
            system,
            tools,
            user_context,
            user_context_at,
            messages,
            tokens,
            window,
        }
    }

    /// Every block with who sends it, in the order the prompt cache reads them: the tools,
    /// the system prompt, the user context, then the messages' blocks (with their role).
    /// The cost model and the request diff both read a request this way.
    pub fn cache_order(&self) -> impl Iterator<Item = (Option<Role>, &Block)> {
        let context = self
            .tools
            .iter()
            .chain(&self.system)
            .chain(&self.user_context);
        context
            .map(|block| (None, block))
            .chain(self.messages.iter().flat_map(|message| {
                message
                    .content
                    .iter()
                    .map(|block| (Some(message.role), block))
            }))
    }

    /// How many system blocks come before the prompt cache's boundary (all of them when
    /// none carries it): the static part, which ends at Claude Code's first breakpoint.
    pub fn static_system_len(&self) -> usize {
        self.system.iter().take_while(|b| !b.cache_boundary).count()
    }
}
