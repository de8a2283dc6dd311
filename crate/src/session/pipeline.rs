//! The attachment pipeline (spec §7.2): on a human turn the prompt's mentions (phase 1),
//! then the all-thread collectors (phase 2), then the main-thread collectors (phase 3), in
//! the original's emission order; then the relevant-memory prefetch; then the request.
//!
//! Each collector runs isolated: a failure inside one becomes a `failed` decision and an
//! empty result while the others go on. File work is counted against a deterministic
//! budget standing in for the original's 1000 ms deadline.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::conversation::UserContext;
use super::turn::{Round, Turn};
use super::{local_date, Session};
use crate::attachment::{AttachmentKind, Collected, Verdict};
use crate::codex::context::SandboxMode;
use crate::codex::prefix::WebSearch;
use crate::collectors::file_context::FileContext;
use crate::collectors::relevant_memories::MemoryPrefetch;
use crate::collectors::reminders::{self, PassInput, Producer};
use crate::collectors::{CollectorId, Phase, EMISSION_ORDER};
use crate::compact::thresholds::WindowThresholds;
use crate::memory::render_claude_md;
use crate::request::prefix::{ClaudePrefix, StandInMarks, StandInsUsed};
use crate::request::{
    build_request, offered_tools, Environment, Request, RequestContext, RequestParts,
    ToolDefinition,
};
use crate::transcript::Record;
use crate::vfs::EntryKind;
use crate::wording;
use crate::wording::context::{environment_note, EnvironmentFacts, SYSTEM_PROMPT};

/// Why a pass sends 2.1.332's environment note.
const ENVIRONMENT_IN_PASS: &str = "the session's context is built (its first pass, or the first \
     after a compaction): this release sends the environment as a note, not in the system prompt";

/// Why a typed `/compact` sends it with its summary.
pub(super) const ENVIRONMENT_WITH_SUMMARY: &str = "a typed /compact announces the environment \
     again after the tools and agents it lists in full, before the next prompt's own notes \
     (2.1.332)";

/// What the reminder collectors of one pass read, computed once for the pass.
pub(super) struct PassFacts {
    /// The names of the tools offered in full (not deferred).
    tool_names: Vec<String>,
    plan_file: String,
    plan_exists: bool,
    today: String,
    effective_window: u64,
    /// The context's size as the thresholds read it (§6.3): the last reported usage plus
    /// the estimate after it, or the last request's size.
    context_tokens: u64,
    /// The deferred tools the listing announces: the release's own, then the host's.
    deferred_tools: Vec<String>,
    /// The agent types the listing announces: the release's built-in ones, then the host's.
    agents: Vec<String>,
}

impl Session {
    /// A human turn: the prompt's mentions, every collector, the relevant memories, and the
    /// request with the prompt (§7.2).
    pub fn submit(&mut self, prompt: &str, at_ms: u64) -> Turn {
        self.submit_with_memories(prompt, None, at_ms)
    }

    /// A human turn whose relevant memories the host chose (absolute paths); `None` lets
    /// the built-in keyword scorer choose.
    pub fn submit_with_memories(
        &mut self,
        prompt: &str,
        memories: Option<&[String]>,
        at_ms: u64,
    ) -> Turn {
        self.conversation
            .interrupt_pending_calls(&self.profile.codex);
        self.conversation.breaker.on_human_turn();
        if self.profile.codex.turn_context {
            return self.codex_submit(prompt, at_ms);
        }
        let mut out = self.run_pass(Some(prompt), at_ms);
        self.conversation.transcript.push(Record::Prompt {
            text: prompt.into(),
        });
        self.conversation
            .transcript
            .push_attachments(&out.attachments);
        let surfaced = self.collect_memories(prompt, memories, at_ms);
        (self.conversation.transcript).push_attachments(&surfaced.attachments);
        out.attachments.extend(surfaced.attachments);
        out.decisions.extend(surfaced.decisions);
        let (compaction, request) = self.compacted_request(at_ms, false, &mut out);
        let mut turn = Turn::from_collected(Round::HumanTurn, out);
        turn.compaction = compaction;
        turn.request = Some(request);
        turn
    }

    /// A tool round without new tool results (the host ran its tools itself): every
    /// collector but the mentions, and the request.
    pub fn tool_round(&mut self, at_ms: u64) -> Turn {
        let mut out = self.run_pass(None, at_ms);
        if self.profile.codex.world_state_step_capture {
            self.codex_step_capture(at_ms, &mut out);
        }
        self.conversation
            .transcript
            .push_attachments(&out.attachments);
        let (compaction, request) = self.compacted_request(at_ms, true, &mut out);
        let mut turn = Turn::from_collected(Round::ToolRound, out);
        turn.compaction = compaction;
        turn.request = Some(request);
        turn
    }

    /// One pass of the collectors, in emission order.
    pub(super) fn run_pass(&mut self, prompt: Option<&str>, at_ms: u64) -> Collected {
        let mut out = Collected::default();
        // The session's start: the user context is computed (and memory seeded) once. A
        // human turn begins with the context a compaction in the last turn left expired.
        if prompt.is_some() && core::mem::take(&mut self.conversation.user_context_expired) {
            self.conversation.user_context = None;
        }
        if !self.profile.codex.turn_context {
            self.user_context(at_ms);
            out.decisions
                .append(&mut self.conversation.context_decisions);
        }
        // What the session's policies decided since the last pass (a refused write, a
        // deletion the tracker does not list).
        out.decisions
            .append(&mut self.conversation.policies.decisions);
        self.workspace
            .start_pass(self.profile.attachments.work_budget);
        if self.config.disable_attachments {
            let facts = self.pass_facts(at_ms);
            self.run_reminder(reminders::queued_commands, prompt, &facts, &mut out);
            out.decide(
                "attachments",
                Verdict::Skipped,
                "attachments are switched off (CLAUDE_CODE_DISABLE_ATTACHMENTS or --bare): only \
                 queued commands are delivered"
                    .into(),
                None,
            );
            self.conversation.queued.clear();
            return out;
        }
        if prompt.is_some() {
            self.run_phase(Phase::Prompt, prompt, at_ms, None, &mut out);
            self.policies_saw_mentions(&out, at_ms);
            if !self.profile.attachments.reminders {
                out.decide(
                    "reminders",
                    Verdict::Skipped,
                    "this profile sends no reminder attachments (Codex CLI has none of Claude \
                     Code's)"
                        .into(),
                    None,
                );
            }
        }
        let facts = self.pass_facts(at_ms);
        self.run_phase(Phase::AllThreads, prompt, at_ms, Some(&facts), &mut out);
        self.run_phase(Phase::MainThread, prompt, at_ms, Some(&facts), &mut out);
        // Events are delivered once: the pass consumed them.
        self.conversation.queued.clear();
        self.conversation.diagnostics.clear();
        self.conversation.task_statuses.clear();
        if self.workspace.out_of_work() {
            out.decide(
                "attachment pass",
                Verdict::OverBudget,
                "the pass's work budget ran out (it stands in for the original's 1000 ms \
                 deadline); file work after that point was cancelled"
                    .into(),
                Some(format!(
                    "{} work units",
                    self.profile.attachments.work_budget
                )),
            );
        }
        out
    }

    /// Runs the collectors of one phase, in emission order ([`EMISSION_ORDER`]). The
    /// reminders need the pass's facts; the prompt phase runs before they are computed.
    fn run_phase(
        &mut self,
        phase: Phase,
        prompt: Option<&str>,
        at_ms: u64,
        facts: Option<&PassFacts>,
        out: &mut Collected,
    ) {
        for entry in EMISSION_ORDER.iter().filter(|entry| entry.phase == phase) {
            match entry.collector {
                CollectorId::Mentions => {
                    if let Some(prompt) = prompt {
                        self.file_context().mentioned_files(prompt, out);
                    }
                }
                CollectorId::ChangedFiles => self.file_context().changed_files(out),
                CollectorId::NestedMemory => self.file_context().nested_memory(at_ms, out),
                CollectorId::OpenedFileMemory => {
                    if let Some(opened_file) = self.conversation.opened_file_shown() {
                        self.file_context()
                            .opened_file_memory(&opened_file, at_ms, out);
                    }
                }
                CollectorId::Environment
                    if self.session_context_due()
                        && !self.conversation.environment_sent_with_summary =>
                {
                    self.environment(out, ENVIRONMENT_IN_PASS);
                }
                CollectorId::SessionContext if self.session_context_due() => {
                    self.session_context(at_ms, out);
                }
                CollectorId::Environment | CollectorId::SessionContext => {}
                CollectorId::RecentlyModifiedFiles => self.recently_modified_files(out),
                reminder => {
                    if let (Some(producer), Some(facts)) = (reminder.reminder(), facts) {
                        self.run_reminder(producer, prompt, facts, out);
                    }
                }
            }
        }
    }

    /// Whether this pass sends the session's context as attachments (2.1.332,
    /// [`AttachmentRules::context_as_attachments`]): the first pass after the user context
    /// was computed, on the session's start or after a compaction expired it.
    ///
    /// [`AttachmentRules::context_as_attachments`]: crate::attachment::AttachmentRules
    fn session_context_due(&self) -> bool {
        let rules = &self.profile.attachments;
        rules.context_as_attachments && rules.reminders && self.conversation.user_context_unsent
    }

    /// Whether a compaction that did not send the session's context with its summary
    /// attaches the environment note after it (2.1.332, which sends the context as notes):
    /// the next prompt's own notes, a mention's reference among them, then follow it.
    pub(super) fn environment_follows_summary(&self) -> bool {
        let rules = &self.profile.attachments;
        rules.context_as_attachments && rules.reminders
    }

    /// The session's context computed afresh for an auto-compaction's summary
    /// (`compaction.contextWithAutoSummary`, 2.1.332): the environment note, then the
    /// CLAUDE.md files and rules, the repository's state, the date and the attribution; the
    /// next pass has nothing left to send.
    pub(super) fn context_with_summary(&mut self, at_ms: u64) -> Collected {
        self.conversation.user_context = None;
        let mut out = Collected::default();
        self.environment(&mut out, ENVIRONMENT_IN_PASS);
        self.session_context(at_ms, &mut out);
        out
    }

    /// 2.1.332's environment note: the working directory, whether it is a repository, the
    /// platform; `reason` says why it is sent now.
    pub(super) fn environment(&self, out: &mut Collected, reason: &str) {
        let facts = EnvironmentFacts {
            cwd: &self.workspace.cwd,
            platform: &self.config.platform,
            git_repository: self.config.git_status.is_some(),
        };
        let method = self.profile.token_method;
        out.attach(
            AttachmentKind::Environment,
            None,
            environment_note(&facts),
            method,
        );
        out.decide("environment", Verdict::Included, reason.into(), None);
    }

    /// 2.1.332's session context: the CLAUDE.md files and rules, the repository's state,
    /// the date and the commit attribution, each an attachment of its own. Computing it
    /// fixes the user context until the next compaction (§7.7).
    fn session_context(&mut self, at_ms: u64, out: &mut Collected) {
        let method = self.profile.token_method;
        let context = self.user_context(at_ms);
        self.conversation.user_context_unsent = false;
        self.conversation.environment_sent_with_summary = false;
        let reason = "the session's context is built (its first pass, or the first after a \
                      compaction)";
        match &context.claude_md {
            Some(claude_md) => {
                let text = wording::context::instructions_note(claude_md);
                out.attach(AttachmentKind::Instructions, None, text, method);
                out.decide("instructions", Verdict::Included, reason.into(), None);
            }
            None => out.decide(
                "instructions",
                Verdict::Skipped,
                "no CLAUDE.md or rules file with content was loaded".into(),
                None,
            ),
        }
        match self.config.git_status.as_deref() {
            Some(status) => {
                let text = wording::context::session_context_note(status);
                out.attach(AttachmentKind::SessionContext, None, text, method);
                out.decide("session_context", Verdict::Included, reason.into(), None);
            }
            None => out.decide(
                "session_context",
                Verdict::Skipped,
                "the working directory is not in a git repository".into(),
                None,
            ),
        }
        // The date note says what the user context's date section says (§7.7).
        let date = wording::context::current_date(&context.date);
        out.attach(AttachmentKind::Date, None, date, method);
        out.decide("date", Verdict::Included, reason.into(), None);
        let attribution = wording::context::attribution_note();
        out.attach(
            AttachmentKind::RemoteSessionChange,
            None,
            attribution,
            method,
        );
        out.decide(
            "remote_session_change",
            Verdict::Included,
            reason.into(),
            None,
        );
    }

    /// The file collectors' input for this session.
    pub(super) fn file_context(&mut self) -> FileContext<'_> {
        FileContext {
            workspace: &mut self.workspace,
            rules: &self.profile.file_context,
            mentions: &self.profile.mentions,
            change_snippets: self.profile.change_snippets.as_ref(),
            file_parts_as_messages: self.profile.attachments.file_parts_as_messages,
            token_method: self.profile.token_method,
            mcp_resources: &self.config.mcp_resources,
            agents: &self.config.agents,
        }
    }

    /// What every reminder collector of one pass reads besides the session itself: computed
    /// once per pass, not once per collector (none of it changes during a pass).
    pub(super) fn pass_facts(&self, at_ms: u64) -> PassFacts {
        let plan_file = self.plan_file();
        PassFacts {
            plan_exists: matches!(self.workspace.vfs.stat(&plan_file), Ok(stat) if stat.kind == EntryKind::File),
            plan_file,
            tool_names: (self.tool_definitions().into_iter())
                .filter(|tool| !tool.deferred)
                .map(|tool| tool.name)
                .collect(),
            today: local_date(at_ms, self.config.utc_offset_minutes),
            effective_window: self.thresholds().effective_window,
            context_tokens: (self.context_size(self.conversation.last_own_estimate.unwrap_or(0)))
                .tokens,
            deferred_tools: self.listed_deferred_tools(),
            agents: self.listed_agents(),
        }
    }

    /// The release's deferred tools (when its tools are offered: the host declared none),
    /// then the host's.
    fn listed_deferred_tools(&self) -> Vec<String> {
        let print_mode = self.config.print_mode;
        let release = (self.release_offering())
            .map_or_else(Vec::new, |release| release.deferred_tools(print_mode));
        (release.into_iter().map(String::from))
            .chain(self.config.deferred_tools.iter().cloned())
            .collect()
    }

    /// The release's built-in agent types, then the host's agents.
    fn listed_agents(&self) -> Vec<String> {
        let print_mode = self.config.print_mode;
        let release = (self.release_offering())
            .map_or_else(Vec::new, |release| release.agent_entries(print_mode));
        release
            .into_iter()
            .chain(self.config.agents.iter().cloned())
            .collect()
    }

    /// The Claude Code release whose offer (deferred tools, agent types, tools dropped) the
    /// session follows: only a profile that reproduces a release follows one, and none when
    /// the host declared its own tools.
    pub(super) fn release_offering(&self) -> Option<ClaudePrefix> {
        let reproduces_release = self.profile.name.release().is_some();
        (self.profile.claude_prefix).filter(|_| reproduces_release && self.config.tools.is_empty())
    }

    /// Runs one reminder collector over a snapshot of the session.
    pub(super) fn run_reminder(
        &mut self,
        collector: Producer,
        prompt: Option<&str>,
        facts: &PassFacts,
        out: &mut Collected,
    ) {
        if !self.profile.attachments.reminders {
            return;
        }
        let tool_names: Vec<&str> = facts.tool_names.iter().map(String::as_str).collect();
        let workspace = &self.workspace;
        let is_denied = |path: &str| workspace.denial_rule(path);
        let conversation = &mut self.conversation;
        let input = PassInput {
            transcript: &conversation.transcript,
            prompt,
            is_sub_agent: false,
            mode: conversation.mode,
            plan_file: &facts.plan_file,
            plan_exists: facts.plan_exists,
            interview_mode: self.config.interview_mode,
            today: &facts.today,
            tool_names: &tool_names,
            deferred_tools: &facts.deferred_tools,
            agents: &facts.agents,
            mcp_servers: &self.config.mcp_servers,
            skills: &self.config.skills,
            context_window: self.config.context_window,
            skill_char_budget: self.config.skill_listing_char_budget,
            effective_window: facts.effective_window,
            context_tokens: facts.context_tokens,
            last_request_tokens: conversation.last_request_tokens,
            todos: &conversation.todos,
            tasks: &conversation.tasks,
            critical_reminder: conversation.critical_reminder.as_deref(),
            output_style: self.config.output_style.as_deref(),
            token_usage_reminder: self.config.token_usage_reminder,
            budget_usd_cents: self.config.budget_usd_cents,
            spent_usd_cents: conversation.spent_usd_cents,
            output_token_budget: self.config.output_token_budget,
            output_tokens: conversation.output_tokens,
            auto_mode_available: self.config.auto_mode_available,
            compaction_reminders: self.config.compaction_reminders,
            queued: &conversation.queued,
            selection: conversation.selection.as_ref(),
            opened_file: conversation.opened_file.as_deref(),
            diagnostics: &conversation.diagnostics,
            task_statuses: &conversation.task_statuses,
            is_denied: &is_denied,
        };
        collector(
            &input,
            &mut conversation.reminders,
            &self.profile.attachments,
            self.profile.token_method,
            out,
        );
    }

    /// The relevant-memory prefetch, consumed after the pass (§7.9).
    fn collect_memories(
        &mut self,
        prompt: &str,
        selection: Option<&[String]>,
        at_ms: u64,
    ) -> Collected {
        let Some(dir) = self.config.memory_dir.clone() else {
            return Collected::default();
        };
        if !self.profile.attachments.reminders || self.config.disable_attachments {
            return Collected::default();
        }
        let mut prefetch = MemoryPrefetch {
            workspace: &mut self.workspace,
            file_context: &self.profile.file_context,
            attachments: &self.profile.attachments,
            token_method: self.profile.token_method,
            transcript: &self.conversation.transcript,
            surfaced: &mut self.conversation.surfaced_memories,
        };
        prefetch.collect(&dir, prompt, selection, at_ms)
    }

    /// The request the model receives now.
    pub(super) fn request(&mut self, at_ms: u64) -> Request {
        // A host's own prompt wins; a client release's profile sends the stand-in of its
        // measured base instructions.
        let claude_prefix = self.profile.claude_prefix;
        let print_mode = self.config.print_mode;
        let personality = self.conversation.codex.base_personality();
        let static_prompt = match (&self.config.system_prompt, self.profile.codex.prefix) {
            (Some(prompt), _) => prompt.clone(),
            (None, Some(prefix)) => prefix.base_instructions(personality),
            (None, None) => claude_prefix.map_or_else(
                || SYSTEM_PROMPT.into(),
                |prefix| prefix.static_prompt(print_mode),
            ),
        };
        let used = StandInsUsed {
            system: self.config.system_prompt.is_none(),
            tools: self.config.tools.is_empty(),
        };
        let guidance = claude_prefix
            .filter(|_| used.system)
            .and_then(|prefix| prefix.guidance(print_mode));
        let stand_ins = match (self.profile.codex.prefix, claude_prefix) {
            (Some(prefix), _) => Some(StandInMarks::codex(prefix, personality, used)),
            (None, Some(prefix)) => Some(StandInMarks::claude_code(prefix, print_mode, used)),
            (None, None) => None,
        };
        let tools = self.tool_definitions();
        // Codex records its context (the environment, AGENTS.md) in the history.
        let user_context = match self.profile.codex.turn_context {
            true => None,
            false => Some(self.user_context(at_ms)),
        };
        let context = match &user_context {
            None => RequestContext::Codex {
                item_tokens: self.profile.codex.item_tokens,
            },
            Some(context) => RequestContext::ClaudeCode {
                env: Environment {
                    cwd: &self.workspace.cwd,
                    platform: &self.config.platform,
                    date: &context.date,
                    git_status: self.config.git_status.as_deref(),
                },
                claude_md: context.claude_md.as_deref(),
            },
        };
        let parts = RequestParts {
            static_prompt: &static_prompt,
            guidance: guidance.as_deref(),
            stand_ins: stand_ins.as_ref(),
            tools: &tools,
            context,
            attachments: &self.profile.attachments,
            method: self.profile.token_method,
            thresholds: &self.thresholds(),
            context_window: self.config.context_window,
        };
        let conversation = &mut self.conversation;
        let request = build_request(&parts, &conversation.transcript, &mut conversation.messages);
        conversation.last_request_tokens = Some(request.tokens.total);
        self.conversation.last_own_estimate = Some(self.own_estimate(&request));
        request
    }

    /// The user context, computed on the first request and kept (§7.7, §7.11) until a
    /// compaction clears it (§9.11, [`Session::expire_user_context`]).
    fn user_context(&mut self, at_ms: u64) -> UserContext {
        if let Some(context) = &self.conversation.user_context {
            return context.clone();
        }
        // The decisions wait for the next pass or request to report them: the context is
        // computed where no turn is being collected.
        let mut gated = Collected::default();
        let mut seeded = self.conversation.memory_seeded;
        let files = self
            .file_context()
            .eager_memory(at_ms, &mut seeded, &mut gated);
        self.conversation.memory_seeded = seeded;
        self.conversation
            .context_decisions
            .append(&mut gated.decisions);
        let context = UserContext {
            claude_md: render_claude_md(&files),
            date: local_date(at_ms, self.config.utc_offset_minutes),
        };
        self.conversation.user_context = Some(context.clone());
        self.conversation.user_context_unsent = true;
        context
    }

    /// A compaction clears the cached user context ([`Conversation::expire_user_context`]).
    pub(super) fn expire_user_context(&mut self, inside_turn: bool) {
        let kept_through_turn = self.profile.attachments.user_context_kept_through_turn;
        (self.conversation).expire_user_context(inside_turn && kept_through_turn);
    }

    /// The tools the model has ([`offered_tools`]): the host's, else the stand-ins of a client
    /// release's measured tools, else the built-in set.
    pub(super) fn tool_definitions(&self) -> Vec<ToolDefinition> {
        let config = &self.config;
        let settings = self.conversation.codex.settings();
        let web_search = WebSearch {
            web_access: settings.sandbox_mode == SandboxMode::DangerFullAccess,
            image_search: (self.profile.codex.context.catalogue).searches_images(&settings.model),
        };
        let stand_ins: Vec<ToolDefinition> =
            match (config.tools.is_empty(), self.profile.codex.prefix) {
                (true, None) => {
                    let print_mode = config.print_mode;
                    (self.profile.claude_prefix)
                        .map_or_else(Vec::new, |prefix| prefix.tools(print_mode))
                }
                (true, Some(prefix)) => (prefix.tools(web_search).into_iter())
                    .map(|tool| ToolDefinition {
                        name: tool.name,
                        description: tool.description,
                        input_schema: tool.input_schema,
                        deferred: false,
                    })
                    .collect(),
                _ => Vec::new(),
            };
        let configured = match stand_ins.is_empty() {
            true => &config.tools,
            false => &stand_ins,
        };
        offered_tools(configured, &config.deferred_tools, &self.workspace.deny)
    }

    /// The compaction thresholds of the configured window, by the profile's formula and the
    /// strategy its auto-compaction follows.
    pub(super) fn thresholds(&self) -> WindowThresholds {
        self.thresholds_for(self.config.context_window)
    }

    /// [`Session::thresholds`] of a model whose window is `context_window`, the output
    /// reserve staying the session's.
    pub(super) fn thresholds_for(&self, context_window: u64) -> WindowThresholds {
        super::session_thresholds(
            &self.profile,
            &self.config.window_overrides,
            context_window,
            self.config.output_reserve,
        )
    }
}
