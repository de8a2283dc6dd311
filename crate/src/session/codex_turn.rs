//! A human turn the way Codex runs one (codex.md §1.7): compaction first if the context
//! reached the limit, then the context items — the whole initial context when there is no
//! baseline, else only the settings that changed — then the user's message. Codex keeps no
//! file state and sends no reminders.

use alloc::string::String;
use alloc::vec::Vec;

use super::turn::{Round, Turn};
use super::{local_date, Session};
use crate::attachment::{Collected, Verdict};
use crate::codex::agents_md::{load_agents_md, AgentsMdRules};
use crate::codex::context::{BaseInstructions, Skill as CodexSkill, SkillScope, TurnSettings};
use crate::codex::history_tokens::estimate_item_tokens;
use crate::codex::items::{Item, Role};
use crate::codex::settings_diff::turn_context_items;
use crate::codex::truncate::check_user_input;
use crate::request::BlockType;
use crate::transcript::{AssistantBlock, Record};

/// `message` with each block counted as the Responses API item it travels as (§3.5): a text
/// part as a message of its own, a call as a `function_call`, a result as a
/// `function_call_output`. A developer bundle's envelope is counted once per part.
pub(super) fn counted_as_items(message: &crate::request::Message) -> crate::request::Message {
    let role = message.role;
    let mut counted = message.clone();
    for block in &mut counted.content {
        let item = match block.block_type {
            BlockType::ToolUse => Item::FunctionCall {
                name: block.source.clone(),
                arguments: block.text.clone(),
                call_id: block.tool_use_id.clone().unwrap_or_default(),
            },
            BlockType::ToolResult => Item::FunctionCallOutput {
                call_id: block.tool_use_id.clone().unwrap_or_default(),
                output: block.text.clone(),
            },
            BlockType::Text | BlockType::Thinking | BlockType::ToolDefinition => {
                Item::text(role, &block.text)
            }
        };
        block.tokens = estimate_item_tokens(&item) + block.media_tokens;
    }
    counted
}

/// What a Codex session remembers between turns (codex.md §2.1).
#[derive(Debug, Clone, Default)]
pub(super) struct CodexState {
    /// The settings the host changed (model, approval, sandbox, personality…).
    pub(super) settings: TurnSettings,
    /// The settings last recorded in the history; `None`: the next turn sends everything.
    pub(super) baseline: Option<TurnSettings>,
    /// The model of the previous regular turn (`previous_turn_settings.model`).
    pub(super) previous_model: Option<String>,
    /// AGENTS.md, loaded on the first turn and kept for the session (§7.7).
    pub(super) agents_md: Option<Option<String>>,
    /// What the base instructions were rendered for, fixed at the first turn (§0.7).
    pub(super) base_instructions: Option<BaseInstructions>,
}

impl Session {
    /// The settings the next turn's context is built from (Codex's `TurnContext`): the
    /// model, approval policy, sandbox, personality… The cwd, date, skills and window are
    /// the session's.
    pub fn turn_settings(&self) -> &TurnSettings {
        &self.conversation.codex.settings
    }

    /// Changes the settings of the next turns; a Codex session records only what changed
    /// (codex.md §2).
    pub fn set_turn_settings(&mut self, settings: TurnSettings) {
        self.conversation.codex.settings = settings;
    }

    /// A human turn under Codex's rules.
    pub(super) fn codex_submit(&mut self, prompt: &str, at_ms: u64) -> Turn {
        let mut out = Collected::default();
        if let Err(error) = check_user_input(prompt) {
            out.decide("prompt", Verdict::Failed, alloc::format!("{error}"), None);
            return Turn::from_collected(Round::Event, out);
        }
        // Pre-turn compaction runs before the context and the message are recorded, so the
        // incoming message is never summarised (X9).
        let tokens = self.peek_request(at_ms).tokens.total;
        let compaction = self.auto_compact(tokens, at_ms, false, &mut out);
        self.record_turn_context(at_ms, &mut out);
        // Codex attaches nothing for an `@path` (the path is plain text, §6.2); the
        // mention pass says so for each one.
        self.file_context().mentioned_files(prompt, &mut out);
        self.conversation.transcript.push(Record::Prompt {
            text: prompt.into(),
        });
        let mut turn = Turn::from_collected(Round::HumanTurn, out);
        turn.compaction = compaction;
        turn.request = Some(self.request(at_ms));
        turn
    }

    /// Records the turn's context items and advances the baseline (§2.1: every turn, even
    /// when nothing changed).
    fn record_turn_context(&mut self, at_ms: u64, out: &mut Collected) {
        self.render_base_instructions(at_ms);
        let settings = self.current_turn_settings(at_ms);
        let agents_md = self.agents_md(out);
        if self.profile.codex.resend_full_context {
            self.conversation.codex.baseline = None;
        }
        let codex = &self.conversation.codex;
        let source = match codex.baseline {
            Some(_) => "settings-update",
            None => "initial-context",
        };
        let (items, decisions) = turn_context_items(
            &self.profile.codex.context,
            codex.baseline.as_ref(),
            &settings,
            codex.previous_model.as_deref(),
            agents_md.as_deref(),
        );
        for item in items {
            self.conversation
                .transcript
                .push(Record::Context { source, item });
        }
        out.decisions.extend(decisions);
        let codex = &mut self.conversation.codex;
        codex.previous_model = Some(settings.model.clone());
        codex.baseline = Some(settings);
    }

    /// Codex renders its base instructions once, for the first turn's model and personality
    /// (§0.7): later turns keep them whatever the settings say.
    fn render_base_instructions(&mut self, at_ms: u64) {
        if self.conversation.codex.base_instructions.is_some() {
            return;
        }
        let first = self.current_turn_settings(at_ms);
        self.conversation.codex.base_instructions = Some(BaseInstructions {
            personality: first.effective_personality().into(),
            model: first.model,
        });
    }

    /// The settings of a turn now: the host's, with the session's cwd, the local date, the
    /// configured skills and window, and the session's base instructions.
    pub(super) fn current_turn_settings(&self, at_ms: u64) -> TurnSettings {
        let mut settings = self.conversation.codex.settings.clone();
        settings.cwd = self.workspace.cwd.clone();
        settings.current_date = local_date(at_ms, self.config.utc_offset_minutes);
        settings.context_window = Some(self.config.context_window);
        settings
            .base_instructions
            .clone_from(&self.conversation.codex.base_instructions);
        settings.skills = self
            .config
            .skills
            .iter()
            .map(|skill| CodexSkill {
                name: skill.name.clone(),
                description: skill.description.clone(),
                path: self.skill_path(&skill.name),
                scope: SkillScope::Repo,
            })
            .collect();
        settings
    }

    /// AGENTS.md from `~/.codex` and the project, loaded once (§7).
    fn agents_md(&mut self, out: &mut Collected) -> Option<String> {
        if let Some(loaded) = &self.conversation.codex.agents_md {
            return loaded.clone();
        }
        let codex_home = alloc::format!("{}/.codex", self.workspace.home.trim_end_matches('/'));
        let loaded = load_agents_md(
            &self.workspace.vfs,
            &codex_home,
            &self.workspace.cwd,
            &AgentsMdRules::default(),
        );
        out.decisions.extend(loaded.decisions.iter().cloned());
        let text = loaded.text();
        self.conversation.codex.agents_md = Some(text.clone());
        text
    }

    /// The transcript as Codex's history items (reasoning is not modelled).
    pub(super) fn codex_items(&self) -> Vec<Item> {
        let mut items = Vec::new();
        for message in self.conversation.transcript.messages() {
            match &message.record {
                Record::Prompt { text }
                | Record::Summary { text }
                | Record::LocalCommand { text, .. } => {
                    items.push(Item::text(Role::User, text));
                }
                Record::Interruption => {
                    let marker = crate::transcript::INTERRUPTED_FOR_TOOL_USE;
                    items.push(Item::text(Role::User, marker));
                }
                Record::Context { item, .. } => items.push(item.clone()),
                Record::Assistant { block, .. } => match block {
                    AssistantBlock::Text { text } => items.push(Item::text(Role::Assistant, text)),
                    AssistantBlock::ToolUse(call) => items.push(Item::FunctionCall {
                        name: call.name.clone(),
                        arguments: call.input.clone(),
                        call_id: call.id.clone(),
                    }),
                    AssistantBlock::Thinking { .. } => {}
                },
                Record::ToolResults { results } => {
                    items.extend(results.iter().map(|r| Item::FunctionCallOutput {
                        call_id: r.tool_use_id.clone(),
                        output: r.content.clone(),
                    }));
                }
                Record::Attachment(_) | Record::CompactBoundary { .. } => {}
            }
        }
        items
    }
}
