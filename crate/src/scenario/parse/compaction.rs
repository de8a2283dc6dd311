//! Compaction options, as the `compact` step and `Session.planCompaction` take them:
//! `{ policy?, trigger?, instructions?, summary?, pivot?, direction?, params? }`, where
//! `params` holds the chosen policy's knobs under their camelCase names.

use alloc::string::String;
use alloc::vec::Vec;

use super::json::Json;
use super::path::Path;
use super::read::{boolean, names, natural, one_of, string, Fields, MAX_WHOLE};
use crate::compact::microcompact::MicrocompactRules;
use crate::compact::partial::PartialDirection;
use crate::compact::policies::aider_budgets::AiderBudgetsParams;
use crate::compact::policies::clear_thinking::{ClearThinkingParams, KeepThinking};
use crate::compact::policies::clear_tool_uses::{
    ClearToolInputs, ClearToolUsesParams, Trigger as ClearTrigger,
};
use crate::compact::policies::cline_condense::{CondenseParams, CondenseVariant};
use crate::compact::policies::continue_counting::ContinueCountingParams;
use crate::compact::policies::dedupe_reads::DedupeReadsParams;
use crate::compact::policies::masking::MaskingParams;
use crate::compact::policies::openai_compaction::OpenaiCompactionParams;
use crate::compact::policies::opencode_summary::OpencodeSummaryParams;
use crate::compact::policies::prune::PruneParams;
use crate::compact::policies::truncate::{TruncateParams, TruncationMode};
use crate::compact::tool_result_budget::ToolResultBudgetRules;
use crate::session::{CompactionOptions, Policy, PolicyId, Trigger};
use crate::Error;

/// The keys of a compaction request (after a step's `kind`).
pub(crate) const COMPACTION_KEYS: &[&str] = &[
    "policy",
    "trigger",
    "instructions",
    "summary",
    "pivot",
    "direction",
    "params",
];

const TRIGGERS: [(&str, Trigger); 2] = [
    (Trigger::Auto.as_str(), Trigger::Auto),
    (Trigger::Manual.as_str(), Trigger::Manual),
];

const DIRECTIONS: [(&str, PartialDirection); 2] = [
    ("from", PartialDirection::From),
    ("upTo", PartialDirection::UpTo),
];

const VARIANTS: [(&str, CondenseVariant); 2] = [
    ("classic", CondenseVariant::Classic),
    ("sdk", CondenseVariant::Sdk),
];

const MODES: [(&str, TruncationMode); 4] = [
    ("half", TruncationMode::Half),
    ("quarter", TruncationMode::Quarter),
    ("lastTwo", TruncationMode::LastTwo),
    ("none", TruncationMode::None),
];

/// The options and the host's summary text, if it gave one.
pub(crate) fn compaction(
    fields: &Fields<'_, '_>,
) -> Result<(CompactionOptions, Option<String>), Error> {
    let policies: Vec<(&str, PolicyId)> =
        PolicyId::ALL.iter().map(|id| (id.as_str(), *id)).collect();
    let id = fields.or("policy", PolicyId::Full, one_of("policy", &policies))?;
    let policy = policy(id, fields)?;
    if !matches!(policy, Policy::Partial { .. }) {
        for key in ["pivot", "direction"] {
            if fields.get(key).is_some() {
                return Err(Path::Root.key(key).error(alloc::format!(
                    "only the partial policy ({}) takes a pivot and a direction",
                    PolicyId::Partial
                )));
            }
        }
    }
    let options = CompactionOptions {
        policy,
        trigger: fields.or("trigger", Trigger::Manual, one_of("trigger", &TRIGGERS))?,
        instructions: fields.optional("instructions", string)?,
    };
    Ok((options, fields.optional("summary", string)?))
}

/// The policy called `id`, with the knobs given in `params`.
fn policy(id: PolicyId, fields: &Fields<'_, '_>) -> Result<Policy, Error> {
    let max = MAX_WHOLE.unsigned_abs();
    let empty = Json::Object(Vec::new());
    let params_value = fields.get("params").unwrap_or(&empty);
    let params_path = Path::Root.key("params");
    let read = |allowed: &[&str]| Fields::new(params_value, &params_path, allowed);
    let policy = match id {
        PolicyId::Full => {
            read(&[])?;
            Policy::Full
        }
        PolicyId::SessionMemory => {
            read(&[])?;
            Policy::SessionMemory
        }
        PolicyId::Partial => {
            read(&[])?;
            Policy::Partial {
                pivot: fields.required("pivot", natural(0, max))?,
                direction: fields.or(
                    "direction",
                    PartialDirection::UpTo,
                    one_of("direction", &DIRECTIONS),
                )?,
            }
        }
        PolicyId::Microcompact => {
            let p = read(&["gapMinutes", "keepRecent"])?;
            let base = MicrocompactRules::recommended();
            Policy::Microcompact(MicrocompactRules {
                gap_threshold_minutes: p.or(
                    "gapMinutes",
                    base.gap_threshold_minutes,
                    natural(0, max),
                )?,
                keep_recent: p.or("keepRecent", base.keep_recent, natural(0, max))?,
                ..base
            })
        }
        PolicyId::ToolResultBudget => {
            let p = read(&["perMessageChars", "previewChars"])?;
            let base = ToolResultBudgetRules::claude_code();
            Policy::ToolResultBudget(ToolResultBudgetRules {
                per_message_chars: p.or(
                    "perMessageChars",
                    base.per_message_chars,
                    natural(1, max),
                )?,
                preview_chars: p.or("previewChars", base.preview_chars, natural(1, max))?,
                ..base
            })
        }
        PolicyId::Prune => {
            let p = read(&[
                "minimumTokens",
                "protectRecentTokens",
                "protectRecentUserTurns",
                "protectedTools",
            ])?;
            let base = PruneParams::default();
            Policy::Prune(PruneParams {
                minimum_tokens: p.or("minimumTokens", base.minimum_tokens, natural(0, max))?,
                protect_recent_tokens: p.or(
                    "protectRecentTokens",
                    base.protect_recent_tokens,
                    natural(0, max),
                )?,
                protect_recent_user_turns: p.or(
                    "protectRecentUserTurns",
                    base.protect_recent_user_turns as u64,
                    natural(0, 1_000_000),
                )? as usize,
                protected_tools: p.or("protectedTools", base.protected_tools, names)?,
            })
        }
        PolicyId::ObservationMask => {
            let p = read(&[
                "n",
                "keepFirstObservation",
                "alwaysKeepTools",
                "alwaysRemoveTools",
            ])?;
            let base = MaskingParams::default();
            Policy::Masking(MaskingParams {
                n: p.or("n", base.n as u64, natural(0, 1_000_000))? as usize,
                keep_first_observation: p.or(
                    "keepFirstObservation",
                    base.keep_first_observation,
                    boolean,
                )?,
                always_keep_tools: p.or("alwaysKeepTools", base.always_keep_tools, names)?,
                always_remove_tools: p.or("alwaysRemoveTools", base.always_remove_tools, names)?,
                ..base
            })
        }
        PolicyId::ClearToolUses => clear_tool_uses(&read(&[
            "triggerInputTokens",
            "triggerToolUses",
            "keepToolUses",
            "clearAtLeast",
            "excludeTools",
            "clearToolInputs",
            "memoryTool",
        ])?)?,
        PolicyId::ClearThinking => {
            let p = read(&["keepThinkingTurns", "keepAll"])?;
            let keep = match (
                p.optional("keepThinkingTurns", natural(0, max))?,
                p.or("keepAll", false, boolean)?,
            ) {
                (Some(_), true) => {
                    return Err(p.error("give keepThinkingTurns or keepAll, not both"))
                }
                (_, true) => KeepThinking::All,
                (Some(turns), false) => KeepThinking::ThinkingTurns(turns),
                (None, false) => ClearThinkingParams::default().keep,
            };
            Policy::ClearThinking(ClearThinkingParams { keep })
        }
        PolicyId::CodexLocal | PolicyId::CodexRemote => {
            let p = read(&["midTurn"])?;
            Policy::Codex {
                remote: id == PolicyId::CodexRemote,
                mid_turn: p.or("midTurn", false, boolean)?,
            }
        }
        PolicyId::Truncate => {
            let p = read(&["mode", "minSavingsPercent"])?;
            let dedupe = DedupeReadsParams::default();
            Policy::Truncate {
                params: TruncateParams {
                    mode: p.optional("mode", one_of("mode", &MODES))?,
                    ..TruncateParams::default()
                },
                dedupe: DedupeReadsParams {
                    min_savings_fraction_percent: p.or(
                        "minSavingsPercent",
                        dedupe.min_savings_fraction_percent,
                        natural(0, 100),
                    )?,
                },
            }
        }
        PolicyId::OpencodeSummary => opencode_summary(&read(&[
            "tailTurns",
            "preserveRecentTokens",
            "preserveRecentTokensMax",
            "reservedTokens",
            "toolOutputMaxChars",
        ])?)?,
        PolicyId::FileTracker => {
            read(&[])?;
            Policy::FileTracker
        }
        PolicyId::ReadGuard => {
            read(&[])?;
            Policy::ReadGuard
        }
        PolicyId::AiderBudgets => {
            let p = read(&["maxChatHistoryTokens", "mapTokens"])?;
            Policy::AiderBudgets(AiderBudgetsParams {
                max_chat_history_tokens: p.optional("maxChatHistoryTokens", natural(1, max))?,
                map_tokens: p.optional("mapTokens", natural(0, max))?,
                ..AiderBudgetsParams::default()
            })
        }
        PolicyId::ContinueCounting => {
            let p = read(&["model", "maxTokens"])?;
            let base = ContinueCountingParams::default();
            Policy::ContinueCounting(ContinueCountingParams {
                model: p.or("model", base.model, string)?,
                max_tokens: p.or("maxTokens", base.max_tokens, natural(0, max))?,
                ..ContinueCountingParams::default()
            })
        }
        PolicyId::ClineCondense => {
            let p = read(&["variant"])?;
            Policy::ClineCondense(CondenseParams {
                variant: p.or(
                    "variant",
                    CondenseVariant::Classic,
                    one_of("variant", &VARIANTS),
                )?,
                ..CondenseParams::default()
            })
        }
        PolicyId::OpenaiCompaction => {
            let p = read(&["compactThreshold"])?;
            let base = OpenaiCompactionParams::default();
            Policy::OpenaiCompaction(OpenaiCompactionParams {
                compact_threshold: p.or(
                    "compactThreshold",
                    base.compact_threshold,
                    natural(1, max),
                )?,
                ..base
            })
        }
    };
    Ok(policy)
}

fn opencode_summary(p: &Fields<'_, '_>) -> Result<Policy, Error> {
    let max = MAX_WHOLE.unsigned_abs();
    let base = OpencodeSummaryParams::default();
    Ok(Policy::OpencodeSummary(OpencodeSummaryParams {
        tail_turns: p.or("tailTurns", base.tail_turns as u64, natural(0, 1_000_000))? as usize,
        preserve_recent_tokens: p.optional("preserveRecentTokens", natural(0, max))?,
        preserve_recent_tokens_max: p.or(
            "preserveRecentTokensMax",
            base.preserve_recent_tokens_max,
            natural(0, max),
        )?,
        reserved_tokens: p.or("reservedTokens", base.reserved_tokens, natural(0, max))?,
        tool_output_max_chars: p.or(
            "toolOutputMaxChars",
            base.tool_output_max_chars as u64,
            natural(1, 1_000_000_000),
        )? as usize,
        ..base
    }))
}

fn clear_tool_uses(p: &Fields<'_, '_>) -> Result<Policy, Error> {
    let max = MAX_WHOLE.unsigned_abs();
    let base = ClearToolUsesParams::default();
    let trigger = match (
        p.optional("triggerInputTokens", natural(0, max))?,
        p.optional("triggerToolUses", natural(0, max))?,
    ) {
        (Some(_), Some(_)) => {
            return Err(p.error("give triggerInputTokens or triggerToolUses, not both"))
        }
        (Some(tokens), None) => ClearTrigger::InputTokens(tokens),
        (None, Some(uses)) => ClearTrigger::ToolUses(uses),
        (None, None) => base.trigger,
    };
    let clear_inputs = match p.or("clearToolInputs", false, boolean)? {
        true => ClearToolInputs::Always,
        false => ClearToolInputs::Never,
    };
    Ok(Policy::ClearToolUses {
        params: ClearToolUsesParams {
            trigger,
            keep_tool_uses: p.or(
                "keepToolUses",
                base.keep_tool_uses as u64,
                natural(0, 1_000_000),
            )? as usize,
            clear_at_least: p.optional("clearAtLeast", natural(0, max))?,
            exclude_tools: p.or("excludeTools", base.exclude_tools, names)?,
            clear_tool_inputs: clear_inputs,
            base_input_tokens: 0,
        },
        memory_tool: p.or("memoryTool", false, boolean)?,
    })
}

/// Reads compaction options from JSON text (the playground's and the host's entry).
///
/// # Errors
/// Invalid JSON, an unknown key, policy or knob, a value of the wrong type: each names the
/// key and what is allowed.
///
/// # Example
/// ```
/// use context_assembly::scenario::parse_compaction_options;
/// let error = parse_compaction_options(r#"{"policy":"swe.observation_mask","params":{"keep":3}}"#).unwrap_err();
/// assert!(error.to_string().starts_with("params.keep: unknown field; expected one of \"n\""));
/// ```
pub fn parse_compaction_options(json: &str) -> Result<(CompactionOptions, Option<String>), Error> {
    let tree: Json = serde_json::from_str(json)
        .map_err(|err| Path::Root.error(alloc::format!("invalid JSON: {err}")))?;
    let fields = Fields::new(&tree, &Path::Root, COMPACTION_KEYS)?;
    compaction(&fields)
}
