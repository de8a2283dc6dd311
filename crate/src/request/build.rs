//! One request from its parts: the system channel, the tools, the user context and the
//! transcript's messages, counted the way the profile counts them. Claude Code sends its
//! static prompt and, after the cache boundary, the environment, then the user context
//! (CLAUDE.md, the date); Codex sends its base instructions alone and keeps the rest of its
//! context in the history (codex.md §0.7), its blocks counted as the Responses API items
//! they travel as (§3.5).

use alloc::vec::Vec;

use super::prefix::{StandInMarks, BASE_INSTRUCTIONS_SOURCE};
use super::{
    system_blocks, tool_blocks, user_context_block, Block, Category, Channel, Environment,
    MessageCache, Request, ToolDefinition,
};
use crate::attachment::AttachmentRules;
use crate::compact::thresholds::WindowThresholds;
use crate::tokens::TokenMethod;
use crate::transcript::Transcript;

/// The context around the messages, by the profile's family.
#[derive(Debug, Clone)]
pub enum RequestContext<'a> {
    /// Claude Code: the environment block after the cache boundary, and the user context.
    ClaudeCode {
        /// The environment block's facts.
        env: Environment<'a>,
        /// The rendered CLAUDE.md files, if any.
        claude_md: Option<&'a str>,
    },
    /// Codex: the base instructions alone; its context items are in the transcript.
    Codex {
        /// Count every message block as the Responses API item it travels as.
        item_tokens: bool,
    },
}

/// What one request is built from besides the transcript.
#[derive(Debug, Clone)]
pub struct RequestParts<'a> {
    /// The system prompt's static part (Codex: the base instructions).
    pub static_prompt: &'a str,
    /// The session's guidance before the environment (a release's stand-in), if any.
    pub guidance: Option<&'a str>,
    /// The blocks that stand in for a client release's text, marked with what they stand
    /// for.
    pub stand_ins: Option<&'a StandInMarks>,
    /// The tools offered ([`super::offered_tools`]).
    pub tools: &'a [ToolDefinition],
    /// The family's context around the messages.
    pub context: RequestContext<'a>,
    /// How attachments become messages.
    pub attachments: &'a AttachmentRules,
    /// How tokens are counted.
    pub method: TokenMethod,
    /// The window's thresholds, for the request's window figures.
    pub thresholds: &'a WindowThresholds,
    /// The model's context window.
    pub context_window: u64,
}

/// The request for `transcript` now; `cache` keeps the assembled messages of earlier
/// requests, so only what changed is assembled again.
pub fn build_request(
    parts: &RequestParts<'_>,
    transcript: &Transcript,
    cache: &mut MessageCache,
) -> Request {
    let method = parts.method;
    let mut tools = tool_blocks(parts.tools, method);
    let (mut system, user_context) = match &parts.context {
        // 2.1.332 sends the environment, CLAUDE.md and the date as attachments instead.
        RequestContext::ClaudeCode { .. } if parts.attachments.context_as_attachments => (
            system_blocks(parts.static_prompt, None, None, method),
            Vec::new(),
        ),
        RequestContext::ClaudeCode { env, claude_md } => {
            let user_context = user_context_block(*claude_md, env.date, parts.attachments, method);
            (
                system_blocks(parts.static_prompt, parts.guidance, Some(env), method),
                Vec::from([user_context]),
            )
        }
        RequestContext::Codex { .. } => {
            let block = Block::text(
                BASE_INSTRUCTIONS_SOURCE,
                Category::System,
                parts.static_prompt.into(),
                method,
            );
            (Vec::from([block.in_channel(Channel::System)]), Vec::new())
        }
    };
    if let Some(marks) = parts.stand_ins {
        marks.apply(&mut system, method);
        marks.apply(&mut tools, method);
    }
    let as_items = matches!(parts.context, RequestContext::Codex { item_tokens: true });
    let messages = cache.assemble(transcript.messages(), parts.attachments, method, as_items);
    Request::new(
        system,
        tools,
        user_context,
        messages,
        parts.thresholds,
        parts.context_window,
    )
}
