//! What a Codex session remembers between turns (codex.md §2.1) and the context a turn
//! records from it: the whole initial context without a baseline, else only the settings
//! that changed; after a compaction, the replacement history with the initial context where
//! the phase puts it (§2.6, §4.3).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::codex::agents_md::{load_agents_md, AgentsMdRules};
use crate::codex::compact::remote_v2::build_v2_history;
use crate::codex::compact::{
    build_compacted_history_within, collect_user_messages, insert_initial_context,
    process_remote_compacted_history, InitialContextPlacement,
};
use crate::codex::context::{initial_context, BaseInstructions, Skill, TurnSettings};
use crate::codex::items::{Item, Part, Role};
use crate::codex::rules::CodexRules;
use crate::codex::settings_diff::turn_context_items;
use crate::codex::truncate::approx_token_count;
use crate::codex::wording::{agents_md_instructions, AGENTS_MD_SUPERSEDES, AGENTS_MD_WITHDRAWN};
use crate::vfs::Vfs;
use crate::vocabulary::{Decision, Verdict};

crate::vocabulary::named_enum! {
    /// Where a turn's context items come from (codex.md §1, §2).
    pub enum ContextSource {
    /// The whole initial context: the first turn, or the first after the baseline was
    /// cleared.
    InitialContext => "initial-context",
    /// Only the settings that changed since the baseline.
    SettingsUpdate => "settings-update",
    }
}

/// What a Codex session remembers between turns.
#[derive(Debug, Clone, Default)]
pub struct CodexState {
    /// The settings the host changed (model, approval, sandbox, personality…).
    settings: TurnSettings,
    /// The settings last recorded in the history; `None`: the next turn sends everything.
    baseline: Option<TurnSettings>,
    /// The model of the previous regular turn (`previous_turn_settings.model`).
    previous_model: Option<String>,
    /// AGENTS.md, loaded on the first turn and kept for the session (§7.7).
    agents_md: Option<Option<String>>,
    /// That AGENTS.md is the user's global doc alone ([`TurnSettings::agents_md_global_only`]).
    agents_md_global_only: bool,
    /// What the base instructions were rendered for, fixed at the first turn (§0.7).
    base_instructions: Option<BaseInstructions>,
    /// The settings each regular turn recorded (the rollout's `TurnContext`s), oldest
    /// first; a rollback removes the turns it drops.
    turn_log: Vec<TurnSettings>,
    /// The AGENTS.md text the history last received (`None` inside: none was sent), for
    /// \[C\]'s diff (§10.8); `None`: nothing recorded yet.
    agents_md_sent: Option<Option<String>>,
    /// How many turns of [`Self::turn_log`] the last compaction replaced: a fork cannot
    /// start before them (their items are gone).
    compacted_turns: usize,
}

/// The session's own parts of a turn's settings: Codex's `TurnContext` takes these from the
/// session, not from the host's settings.
#[derive(Debug, Clone)]
pub struct SessionFacts {
    /// The working directory.
    pub cwd: String,
    /// The user's home (`~/.codex` is under it).
    pub home: String,
    /// The local date of the turn.
    pub current_date: String,
    /// The model's context window.
    pub context_window: u64,
    /// The skills the session offers.
    pub skills: Vec<Skill>,
}

/// The items one turn records before its prompt, and where they come from.
#[derive(Debug)]
pub struct TurnContext {
    /// The whole initial context (no baseline) or a settings update.
    pub source: ContextSource,
    /// The items, in the order they are recorded.
    pub items: Vec<Item>,
    /// Why each was included or left out.
    pub decisions: Vec<Decision>,
}

impl CodexState {
    /// The settings the host set for the next turns.
    pub fn settings(&self) -> &TurnSettings {
        &self.settings
    }

    /// Changes the settings of the next turns.
    pub fn set_settings(&mut self, settings: TurnSettings) {
        self.settings = settings;
    }

    /// The settings the previous regular turn recorded (Codex's `previous_turn_settings`,
    /// with that turn's window); `None` before the first turn.
    pub fn previous_turn_settings(&self) -> Option<&TurnSettings> {
        self.turn_log.last()
    }

    /// The personality the base instructions were rendered for; `None` before the first turn.
    pub fn base_personality(&self) -> Option<&str> {
        self.base_instructions
            .as_ref()
            .map(|base| base.personality.as_str())
    }

    /// The settings of a turn now: the host's, with the session's cwd, date, window and
    /// skills, and the base instructions fixed at the first turn.
    pub fn turn_settings(&self, facts: &SessionFacts) -> TurnSettings {
        let mut settings = self.settings.clone();
        settings.cwd.clone_from(&facts.cwd);
        settings.current_date.clone_from(&facts.current_date);
        settings.context_window = Some(facts.context_window);
        settings
            .base_instructions
            .clone_from(&self.base_instructions);
        settings.skills.clone_from(&facts.skills);
        settings.previous_realtime_active = self.turn_log.last().map(|turn| turn.realtime_active);
        settings.agents_md_global_only = self.agents_md_global_only;
        settings
    }

    /// The turn's context items; the baseline moves to this turn's settings (§2.1: every
    /// turn, even when nothing changed).
    pub fn record_turn(
        &mut self,
        rules: &CodexRules,
        facts: &SessionFacts,
        vfs: &Vfs,
    ) -> TurnContext {
        self.render_base_instructions(facts);
        let mut decisions = Vec::new();
        // Loaded first: the settings say whether it is the global doc alone.
        let agents_md = self.agents_md(vfs, facts, &mut decisions);
        let settings = self.turn_settings(facts);
        if rules.resend_full_context {
            self.baseline = None;
        }
        let source = match self.baseline {
            Some(_) => ContextSource::SettingsUpdate,
            None => ContextSource::InitialContext,
        };
        let (mut items, context_decisions) = turn_context_items(
            &rules.context,
            self.baseline.as_ref(),
            &settings,
            self.previous_model.as_deref(),
            agents_md.as_deref(),
        );
        decisions.extend(context_decisions);
        if source == ContextSource::SettingsUpdate && rules.agents_md_world_state {
            self.diff_agents_md(
                &settings.cwd,
                agents_md.as_deref(),
                &mut items,
                &mut decisions,
            );
        }
        self.agents_md_sent = Some(agents_md);
        self.previous_model = Some(settings.model.clone());
        self.turn_log.push(settings.clone());
        self.baseline = Some(settings);
        TurnContext {
            source,
            items,
            decisions,
        }
    }

    /// \[C\]'s capture before a request inside a turn (§10.5): what changed since the
    /// baseline, which moves to now; `None` without a baseline (the next human turn sends
    /// everything) or when nothing changed.
    pub fn record_step(&mut self, rules: &CodexRules, facts: &SessionFacts) -> Option<TurnContext> {
        let baseline = self.baseline.as_ref()?;
        let settings = self.turn_settings(facts);
        let agents_md = self.agents_md.clone().flatten();
        let (mut items, mut decisions) = turn_context_items(
            &rules.context,
            Some(baseline),
            &settings,
            self.previous_model.as_deref(),
            None,
        );
        if rules.agents_md_world_state {
            self.diff_agents_md(
                &settings.cwd,
                agents_md.as_deref(),
                &mut items,
                &mut decisions,
            );
            self.agents_md_sent = Some(agents_md);
        }
        self.baseline = Some(settings);
        (!items.is_empty()).then_some(TurnContext {
            source: ContextSource::SettingsUpdate,
            items,
            decisions,
        })
    }

    /// \[C\]'s AGENTS.md section (§10.8): when the text differs from what the history last
    /// received, a block goes first in the turn's contextual user message — the new text
    /// after a sentence saying it supersedes the earlier blocks, or, when the files are gone,
    /// a sentence withdrawing them.
    fn diff_agents_md(
        &self,
        cwd: &str,
        agents_md: Option<&str>,
        items: &mut Vec<Item>,
        decisions: &mut Vec<Decision>,
    ) {
        let sent = self.agents_md_sent.as_ref().and_then(Option::as_deref);
        if sent == agents_md {
            return;
        }
        let (text, reason) = match agents_md {
            Some(text) => (
                format!("{AGENTS_MD_SUPERSEDES}\n\n{text}"),
                "changed since the history received it: the new text supersedes it (§10.8)",
            ),
            None => (
                String::from(AGENTS_MD_WITHDRAWN),
                "gone since the history received it: the earlier text is withdrawn (§10.8)",
            ),
        };
        let part = Part::InputText {
            text: agents_md_instructions(cwd, &text),
        };
        let contextual_user = items.iter_mut().find_map(|item| match item {
            Item::Message {
                role: Role::User,
                content,
            } => Some(content),
            _ => None,
        });
        match contextual_user {
            Some(content) => content.insert(0, part),
            None => items.push(Item::Message {
                role: Role::User,
                content: alloc::vec![part],
            }),
        }
        decisions.push(Decision::new("AGENTS.md", Verdict::Included, reason));
    }

    /// Codex renders its base instructions once, for the first turn's model and personality
    /// (§0.7): later turns keep them whatever the settings say.
    fn render_base_instructions(&mut self, facts: &SessionFacts) {
        if self.base_instructions.is_some() {
            return;
        }
        let first = self.turn_settings(facts);
        self.base_instructions = Some(BaseInstructions {
            personality: first.effective_personality().into(),
            model: first.model,
        });
    }

    /// Loads AGENTS.md if this thread has not yet (a resumed thread reads it again); the
    /// decisions of that load, none when it was loaded already.
    pub fn load_agents_md(&mut self, vfs: &Vfs, facts: &SessionFacts) -> Vec<Decision> {
        let mut decisions = Vec::new();
        self.agents_md(vfs, facts, &mut decisions);
        decisions
    }

    /// AGENTS.md from `~/.codex` and the project, loaded once (§7).
    fn agents_md(
        &mut self,
        vfs: &Vfs,
        facts: &SessionFacts,
        decisions: &mut Vec<Decision>,
    ) -> Option<String> {
        if let Some(loaded) = &self.agents_md {
            return loaded.clone();
        }
        let codex_home = format!("{}/.codex", facts.home.trim_end_matches('/'));
        let loaded = load_agents_md(vfs, &codex_home, &facts.cwd, &AgentsMdRules::default());
        decisions.extend(loaded.decisions.iter().cloned());
        let text = loaded.text();
        self.agents_md = Some(text.clone());
        self.agents_md_global_only = loaded.global.is_some() && loaded.project_docs.is_empty();
        text
    }

    /// A compaction of `history`: its replacement
    /// history (§4.3 step 7; remote: §4.6, v2: §4.7), with the initial context before the last
    /// user message mid-turn, or left to the next turn otherwise.
    pub fn replacement_history(
        &self,
        rules: &CodexRules,
        facts: &SessionFacts,
        history: &[Item],
        summary_text: &str,
        remote: bool,
        mid_turn: bool,
    ) -> Vec<Item> {
        let opaque = || Item::Compaction {
            encrypted_content: "x".repeat(summary_text.len()),
        };
        let users = collect_user_messages(history);
        let history = match (remote, rules.remote_compaction_v2) {
            (false, _) => retained_history(rules, &users, summary_text),
            (true, true) => build_v2_history(history, opaque()).items,
            (true, false) => {
                // The server's answer is opaque: modelled as the kept messages and one
                // `compaction` item the size of the summary.
                let mut output: Vec<Item> =
                    users.iter().map(|u| Item::text(Role::User, u)).collect();
                output.push(opaque());
                process_remote_compacted_history(output).items
            }
        };
        let placement = match mid_turn {
            true => InitialContextPlacement::BeforeLastUserMessage,
            false => InitialContextPlacement::DoNotInject,
        };
        let agents_md = self.agents_md.clone().flatten();
        let context = initial_context(
            &rules.context,
            &self.turn_settings(facts),
            self.previous_model.as_deref(),
            agents_md.as_deref(),
        );
        insert_initial_context(history, context.items, placement)
    }

    /// After a fork (§2.7): with X26's `fork_full_context`, the fork's first turn sends the
    /// whole initial context.
    pub fn after_fork(&mut self, rules: &CodexRules) {
        if rules.fork_full_context {
            self.baseline = None;
        }
    }

    /// After a compaction (§2.6): mid-turn compaction re-injected the context, so the
    /// baseline is the current settings; every other compaction clears it and the next turn
    /// sends everything.
    pub fn after_compaction(&mut self, facts: &SessionFacts, mid_turn: bool) {
        self.baseline = mid_turn.then(|| self.turn_settings(facts));
        self.compacted_turns = self.turn_log.len();
        if mid_turn {
            // The replacement history carries the initial context, AGENTS.md included, and
            // the switch to the model in force: a turn after it has no switch to announce
            // (a compaction before the turn's first request, under 0.171.0's layout).
            self.agents_md_sent = Some(self.agents_md.clone().flatten());
            self.previous_model = self
                .baseline
                .as_ref()
                .map(|settings| settings.model.clone());
        }
    }

    /// The regular turns recorded since the last compaction (the ones a fork can start
    /// at), and how many came before them.
    pub fn live_turns(&self) -> (usize, usize) {
        let live = self.turn_log.len().saturating_sub(self.compacted_turns);
        (self.compacted_turns, live)
    }

    /// After a rollback that dropped `live_turns_dropped` of the live turns (§2.8): the
    /// baseline stays — the settings of a turn whose context items were dropped — unless the
    /// cut went through the initial context's mixed bundle (§2.6 item 4).
    pub fn after_rollback(&mut self, live_turns_dropped: usize, clears_baseline: bool) {
        let kept = self.turn_log.len().saturating_sub(live_turns_dropped);
        self.turn_log.truncate(kept.max(self.compacted_turns));
        if clears_baseline {
            self.baseline = None;
        }
    }

    /// A resume (§2.7): the history is rebuilt from the rollout as it was. The baseline is
    /// the newest surviving turn's settings, unless a compaction cleared it after that turn;
    /// the previous model is that turn's; the base instructions are the recorded ones;
    /// AGENTS.md is read again from disk by the new process (used only if the whole initial
    /// context is sent again).
    pub fn resume(&mut self) {
        let newest = self.turn_log.last().cloned();
        if self.baseline.is_some() {
            self.baseline.clone_from(&newest);
        }
        if let Some(newest) = newest {
            self.previous_model = Some(newest.model);
        }
        self.agents_md = None;
    }

    /// A fork before the live turn `turn` (0-based among [`Self::live_turns`], §2.7, X26):
    /// the rollout is cut before that turn's user message, so that turn's context items and
    /// settings survive and become the baseline; the turns after it are gone.
    pub fn fork_before_live_turn(&mut self, turn: usize) {
        let index = self.compacted_turns + turn;
        self.turn_log.truncate(index + 1);
        self.resume();
    }
}

/// Local compaction's kept user messages and summary (§4.3 step 7) under the X5 options: the
/// budget, and the first message pinned ahead of the newest-first fill.
fn retained_history(rules: &CodexRules, users: &[String], summary_text: &str) -> Vec<Item> {
    let budget = rules.retained_user_budget_tokens;
    match (rules.pin_first_user_message, users.split_first()) {
        (true, Some((first, rest))) => {
            let left = budget.saturating_sub(approx_token_count(first));
            let mut items = alloc::vec![Item::text(Role::User, first)];
            items.extend(build_compacted_history_within(rest, summary_text, left).items);
            items
        }
        _ => build_compacted_history_within(users, summary_text, budget).items,
    }
}
