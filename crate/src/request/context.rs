//! The channels around the messages: the system prompt, the tool definitions and the
//! prepended user context (spec §7.11).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::prefix::{GUIDANCE_SOURCE, STATIC_SOURCE};
use super::{Block, BlockType, Category, Channel};
use crate::attachment::AttachmentRules;
use crate::host::ToolDefinition;
use crate::tokens::TokenMethod;
use crate::wording::context::{current_date, USER_CONTEXT_CAUTION, USER_CONTEXT_INTRO};
use crate::wording::json_string;

/// What the system prompt's dynamic part reports (after the cache boundary).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Environment<'a> {
    /// The working directory.
    pub cwd: &'a str,
    /// `linux`, `darwin`, `win32`.
    pub platform: &'a str,
    /// The local date at the start of the session, `YYYY-MM-DD`.
    pub date: &'a str,
    /// `git status` at the start of the session; `None`: not a repository.
    pub git_status: Option<&'a str>,
}

/// The system prompt: the static part, then after the cache boundary the session's guidance
/// when a release's prefix has one (`request::prefix`) and the environment; the static
/// part alone when `env` is `None` (2.1.332, which sends the environment as an attachment:
/// [`environment_note`](crate::wording::context::environment_note)).
pub fn system_blocks(
    static_prompt: &str,
    guidance: Option<&str>,
    env: Option<&Environment<'_>>,
    method: TokenMethod,
) -> Vec<Block> {
    let static_part = Block::text(
        STATIC_SOURCE,
        Category::System,
        static_prompt.into(),
        method,
    );
    let mut blocks = Vec::from([static_part.in_channel(Channel::System)]);
    let Some(env) = env else {
        return blocks;
    };
    // The session's part starts after the cache boundary, as 2.1.88 marks only its static
    // prompt for the cache: with the guidance, there.
    if let Some(guidance) = guidance {
        let mut block = Block::text(GUIDANCE_SOURCE, Category::System, guidance.into(), method);
        block.cache_boundary = true;
        blocks.push(block.in_channel(Channel::System));
    }
    let mut lines = format!(
        "<env>\nWorking directory: {}\nPlatform: {}\nToday's date: {}\n</env>",
        env.cwd, env.platform, env.date
    );
    if let Some(status) = env.git_status {
        lines.push_str(
            "\n\nGit status when the conversation began (a snapshot; it is not updated):\n",
        );
        lines.push_str(status);
    }
    let mut dynamic = Block::text("environment", Category::System, lines, method);
    dynamic.cache_boundary = guidance.is_none();
    blocks.push(dynamic.in_channel(Channel::System));
    blocks
}

/// One block per tool that is not deferred: `{"name","description","input_schema"}`.
pub fn tool_blocks(tools: &[ToolDefinition], method: TokenMethod) -> Vec<Block> {
    tools
        .iter()
        .filter(|tool| !tool.deferred)
        .map(|tool| {
            let json = format!(
                "{{\"name\":{},\"description\":{},\"input_schema\":{}}}",
                json_string(&tool.name),
                json_string(&tool.description),
                tool.input_schema
            );
            let mut block = Block::text(&tool.name, Category::Tools, json, method);
            block.block_type = BlockType::ToolDefinition;
            block.in_channel(Channel::Tools)
        })
        .collect()
}

/// The user context (§7.11): the CLAUDE.md text when there is one, and the date sentence,
/// in one `<system-reminder>`. `claude_md` is the rendered memory, preamble included.
pub fn user_context_block(
    claude_md: Option<&str>,
    date: &str,
    rules: &AttachmentRules,
    method: TokenMethod,
) -> Block {
    let mut text = String::from("<system-reminder>\n");
    text.push_str(USER_CONTEXT_INTRO);
    text.push('\n');
    if let Some(claude_md) = claude_md {
        text.push_str("# claudeMd\n");
        text.push_str(claude_md);
        text.push('\n');
    }
    text.push_str("# currentDate\n");
    text.push_str(&current_date(date));
    text.push_str("\n\n");
    if !rules.user_context_without_indent {
        text.push_str("      "); // the original's template indentation (Q51)
    }
    text.push_str(USER_CONTEXT_CAUTION);
    text.push_str("\n</system-reminder>\n");
    // Without CLAUDE.md files the block holds only the date: context, not memory.
    let category = if claude_md.is_some() {
        Category::Memory
    } else {
        Category::System
    };
    Block::text("user_context", category, text, method).in_channel(Channel::UserContext)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_context_keeps_the_format_facts() {
        let rules = AttachmentRules::claude_code();
        let block = user_context_block(Some("md"), "2026-11-29", &rules, TokenMethod::Codex);
        assert!(block.text.starts_with("<system-reminder>\n"));
        assert!(block.text.contains("\n# claudeMd\nmd\n# currentDate\n"));
        assert!(block.text.contains("2026-11-29.\n\n      IMPORTANT"));
        assert!(block.text.ends_with("</system-reminder>\n"));
        let fixed = user_context_block(
            None,
            "2026-11-29",
            &AttachmentRules::recommended(),
            TokenMethod::Codex,
        );
        assert!(!fixed.text.contains("# claudeMd"));
        assert!(fixed.text.contains(".\n\nIMPORTANT"));
    }

    #[test]
    fn deferred_tools_stay_out_of_the_tools_channel() {
        let tool = |name: &str, deferred| ToolDefinition {
            name: name.into(),
            description: "d".into(),
            input_schema: "{}".into(),
            deferred,
        };
        let blocks = tool_blocks(
            &[tool("Read", false), tool("Slack", true)],
            TokenMethod::Codex,
        );
        assert_eq!(blocks.len(), 1);
        assert_eq!(
            blocks[0].text,
            r#"{"name":"Read","description":"d","input_schema":{}}"#
        );
    }
}
