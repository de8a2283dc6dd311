//! What comes back after a full compaction (spec claude-code.md §9.4, §9.5, §6.5): the most
//! recent files of the file state, within a slot count and a token budget, and the skills
//! invoked in the session, each cut to fit.
//!
//! Both are pure selections: the host reads the files and knows the skills; these functions
//! decide which go back, which become a reference, and which are left out, with a
//! [`Decision`] for each.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::rules::CompactionRules;
use crate::tokens::{estimate_tokens, TokenMethod};
use crate::vocabulary::{Decision, Verdict};

/// Files restored at most (`POST_COMPACT_MAX_FILES_TO_RESTORE`).
pub const POST_COMPACT_MAX_FILES_TO_RESTORE: usize = 5;

/// Tokens all restored files may use together (`POST_COMPACT_TOKEN_BUDGET`).
pub const POST_COMPACT_TOKEN_BUDGET: u64 = 50_000;

/// Tokens of one restored file; a larger file comes back as a reference to its path
/// (`compact_file_reference`).
pub const POST_COMPACT_MAX_TOKENS_PER_FILE: u64 = 5_000;

/// Tokens of one re-injected skill before it is cut (`POST_COMPACT_MAX_TOKENS_PER_SKILL`).
pub const POST_COMPACT_MAX_TOKENS_PER_SKILL: u64 = 5_000;

/// Tokens all re-injected skills may use together (`POST_COMPACT_SKILLS_TOKEN_BUDGET`).
pub const POST_COMPACT_SKILLS_TOKEN_BUDGET: u64 = 25_000;

/// Ends a skill that was cut to fit (`SKILL_TRUNCATION_MARKER`; the shape
/// `\n\n[... …]` is the original's, the words are ours).
pub const SKILL_TRUNCATION_MARKER: &str =
    "\n\n[... the rest of this skill was cut to fit after compaction; Read the skill's file for all of it]";

/// A file of the pre-compaction file state that might be restored.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct RestoreCandidate {
    /// The file-state key (an absolute path).
    pub path: String,
    /// The entry's timestamp (mostly the file's mtime; Q60).
    pub timestamp: u64,
    /// Its order within the timestamp's millisecond, which breaks timestamp ties: a nested
    /// memory file stamped by a later step of its walk is newer in the original, whose
    /// stamps are finer than our logical milliseconds (see `file_state::Entry::stamp_order`).
    #[cfg_attr(feature = "serde", serde(default))]
    pub stamp_order: u32,
    /// When the session last used the entry (a counter; larger is more recent).
    pub last_access: u64,
    /// A memory file (CLAUDE.md at any level, a rule, a relevant memory).
    pub is_memory_file: bool,
    /// The session edited or wrote the file.
    pub was_edited: bool,
    /// Tokens of the file's content as the restore's Read gate estimates them (§3.3, by
    /// file type); above [`POST_COMPACT_MAX_TOKENS_PER_FILE`] it becomes a reference. The
    /// call note, the line numbers and the reminder around it do not count here.
    pub content_tokens: u64,
    /// Tokens of what would be attached, as rendered: the file, or the reference to it when
    /// its content is over the limit.
    pub tokens_rendered: u64,
    /// Tokens of that attachment's JSON-escaped record with its metadata (§6.5, Q46).
    pub record_json_tokens: u64,
    /// The file can be read now: false when it was deleted, is denied, or is binary.
    pub readable: bool,
    /// A Read of it is among the messages the compaction keeps (§9.4 item 1).
    pub preserved_in_tail: bool,
}

/// What the restored files may take: Claude Code's fixed budgets, or (ours) a share of the
/// effective window, never more than the original's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct RestoreBudget {
    /// Tokens all restored files may use together.
    pub total: u64,
    /// Tokens one restored file's content may have; a larger one becomes a reference.
    pub per_file: u64,
}

impl RestoreBudget {
    /// The original's budgets (§9.4): 50,000 together, 5,000 a file, whatever the window.
    pub const ORIGINAL: RestoreBudget = RestoreBudget {
        total: POST_COMPACT_TOKEN_BUDGET,
        per_file: POST_COMPACT_MAX_TOKENS_PER_FILE,
    };

    /// The budgets `rules` give a session whose effective window is `effective_window`.
    /// A restored file is read into every later request, so its cost grows with the
    /// conversation; a share of the window keeps a small window from being refilled by
    /// restores (the original's 50,000 would take most of a 64K window).
    ///
    /// ```
    /// use context_assembly::compact::restore::RestoreBudget;
    /// use context_assembly::compact::rules::CompactionRules;
    /// assert_eq!(RestoreBudget::for_window(&CompactionRules::claude_code(), 52_000), RestoreBudget::ORIGINAL);
    /// let ours = RestoreBudget::for_window(&CompactionRules::recommended(), 52_000);
    /// assert_eq!((ours.total, ours.per_file), (2_600, 2_600));
    /// ```
    pub fn for_window(rules: &CompactionRules, effective_window: u64) -> RestoreBudget {
        match rules.restore_budget_percent {
            0 => RestoreBudget::ORIGINAL,
            percent => {
                let total = (effective_window / 100)
                    .saturating_mul(u64::from(percent))
                    .min(POST_COMPACT_TOKEN_BUDGET);
                RestoreBudget {
                    total,
                    per_file: POST_COMPACT_MAX_TOKENS_PER_FILE.min(total),
                }
            }
        }
    }
}

/// The files that come back after a compaction.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct RestorePlan {
    /// Files restored in full, in restore order, with the tokens they cost against
    /// [`POST_COMPACT_TOKEN_BUDGET`] (the rendered text with Q46 fixed, else the record).
    pub restored: Vec<(String, u64)>,
    /// Files whose content is over [`POST_COMPACT_MAX_TOKENS_PER_FILE`], restored as a
    /// reference to their path, with what the reference costs against the budget (the
    /// original's filter measures every record it restores, references included).
    pub references: Vec<(String, u64)>,
    /// Every path of `restored` and `references`, in the order they are attached: the
    /// ranking's order, a reference in its file's place (§9.4 steps 3-4: the original maps
    /// the ranked candidates one by one, so a reference can come first or between restored
    /// files).
    pub order: Vec<String>,
    /// One decision per candidate.
    pub decisions: Vec<Decision>,
}

/// Chooses the files to restore after a compaction (§9.4), from the file state's entries,
/// most recently used first.
///
/// Left out, in this order: the plan file (it has its own reference), the memory paths in
/// `excluded_exact_paths` (matched exactly; with Q59 fixed every memory file), files a kept
/// Read already shows. The rest are ranked newest first by timestamp, then stamp order (Q60
/// fixed: by last access; with `restore_edited_first`, edited files before read ones), ties
/// keeping their order, and the first [`POST_COMPACT_MAX_FILES_TO_RESTORE`] take the slots.
/// An unreadable file loses its slot (Q61 fixed: the next candidate gets it). A file whose
/// content is over [`POST_COMPACT_MAX_TOKENS_PER_FILE`] becomes a reference; files and
/// references are kept while the budget allows, skipping one that does not fit and trying
/// the next.
///
/// # Example
/// ```
/// use context_assembly::compact::restore::{select_restores, RestoreBudget, RestoreCandidate};
/// use context_assembly::compact::rules::CompactionRules;
/// let file = |path: &str, timestamp, readable| RestoreCandidate {
///     path: path.into(), timestamp, stamp_order: 0, last_access: 0, is_memory_file: false,
///     was_edited: false,
///     content_tokens: 80, tokens_rendered: 100, record_json_tokens: 130, readable,
///     preserved_in_tail: false,
/// };
/// let mut files: Vec<_> = (0..5).map(|i| file(&format!("/w/{i}"), 10, true)).collect();
/// files[0].readable = false; // deleted since it was read
/// files.push(file("/w/5", 1, true));
/// // Claude Code loses the slot of the deleted file; candidate 6 is never tried (Q61).
/// let budget = RestoreBudget::ORIGINAL;
/// let original = select_restores(&files, &[], None, &CompactionRules::claude_code(), budget);
/// assert_eq!(original.restored.len(), 4);
/// let fixed = select_restores(&files, &[], None, &CompactionRules::recommended(), budget);
/// assert_eq!(fixed.restored.len(), 5);
/// assert_eq!(fixed.restored[4], ("/w/5".to_string(), 100));
/// ```
pub fn select_restores(
    candidates_mru_first: &[RestoreCandidate],
    excluded_exact_paths: &[String],
    plan_file: Option<&str>,
    rules: &CompactionRules,
    budget: RestoreBudget,
) -> RestorePlan {
    let mut plan = RestorePlan::default();
    let mut eligible = Vec::new();
    for candidate in candidates_mru_first {
        match exclusion(candidate, excluded_exact_paths, plan_file, rules) {
            Some((verdict, reason)) => plan.decide(candidate, verdict, reason.into()),
            None => eligible.push(candidate),
        }
    }
    // Last access is a counter, never tied; a timestamp ties within its millisecond, where
    // the stamp order says which came later.
    let rank = |c: &RestoreCandidate| match rules.rank_by_last_access {
        true => (c.last_access, 0),
        false => (c.timestamp, c.stamp_order),
    };
    crate::sort::sort_by(&mut eligible, |a, b| {
        let edited = rules.restore_edited_first && a.was_edited != b.was_edited;
        match edited {
            true => b.was_edited.cmp(&a.was_edited),
            false => rank(b).cmp(&rank(a)),
        }
    });
    let mut slots = 0;
    let mut used = 0u64;
    for candidate in eligible {
        if slots >= POST_COMPACT_MAX_FILES_TO_RESTORE {
            let reason = format!("only {POST_COMPACT_MAX_FILES_TO_RESTORE} files are restored, and newer ones took the slots");
            plan.decide(candidate, Verdict::Skipped, reason);
            continue;
        }
        if !candidate.readable {
            if !rules.backfill_failed_slots {
                slots += 1;
            }
            let reason = "it could not be read (deleted, denied or binary)".into();
            plan.decide(candidate, Verdict::Failed, reason);
            continue;
        }
        slots += 1;
        plan.place(candidate, &mut used, rules, budget);
    }
    plan
}

/// Why a candidate is left out before ranking, if it is.
fn exclusion(
    candidate: &RestoreCandidate,
    excluded_exact_paths: &[String],
    plan_file: Option<&str>,
    rules: &CompactionRules,
) -> Option<(Verdict, &'static str)> {
    if plan_file == Some(candidate.path.as_str()) {
        Some((
            Verdict::Excluded,
            "the plan file comes back as its own reference",
        ))
    } else if excluded_exact_paths.contains(&candidate.path) {
        Some((
            Verdict::Excluded,
            "memory files at these paths are loaded again, not restored",
        ))
    } else if rules.exclude_all_memory_files && candidate.is_memory_file {
        Some((
            Verdict::Excluded,
            "memory files are loaded again by the memory loader, not restored",
        ))
    } else if candidate.preserved_in_tail {
        Some((
            Verdict::AlreadyInContext,
            "a Read of it is among the kept messages",
        ))
    } else {
        None
    }
}

impl RestorePlan {
    /// Restores a readable file in a slot: as a reference when its content is too large,
    /// in full otherwise, either way only while the budget allows.
    fn place(
        &mut self,
        candidate: &RestoreCandidate,
        used: &mut u64,
        rules: &CompactionRules,
        budget: RestoreBudget,
    ) {
        let RestoreBudget {
            total: budget_total,
            per_file,
        } = budget;
        let too_large = candidate.content_tokens > per_file;
        let what = match too_large {
            true => "its reference",
            false => "it",
        };
        let cost = match rules.measure_rendered_text {
            true => candidate.tokens_rendered,
            false => candidate.record_json_tokens,
        };
        let total = used.saturating_add(cost);
        if total > budget_total {
            let reason = format!(
                "{cost} tokens for {what} would bring the restored files to {total}, over the budget of {budget_total}"
            );
            self.decide(candidate, Verdict::OverBudget, reason);
            return;
        }
        *used = total;
        self.order.push(candidate.path.clone());
        if too_large {
            self.references.push((candidate.path.clone(), cost));
            let reason = format!(
                "its content is {} tokens, over the {per_file} a restored file may hold; its path is given instead ({cost} tokens; {total} of {budget_total} used)",
                candidate.content_tokens
            );
            self.decide(candidate, Verdict::TooLarge, reason);
            return;
        }
        self.restored.push((candidate.path.clone(), cost));
        let reason = format!("restored ({cost} tokens; {total} of {budget_total} used)");
        self.decide(candidate, Verdict::Included, reason);
    }

    fn decide(&mut self, candidate: &RestoreCandidate, verdict: Verdict, reason: String) {
        self.decisions
            .push(Decision::new(candidate.path.clone(), verdict, reason));
    }
}

/// The skills that come back after a compaction.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SkillSelection {
    /// `(name, content, tokens)` newest first; a content over
    /// [`POST_COMPACT_MAX_TOKENS_PER_SKILL`] is cut and ends with [`SKILL_TRUNCATION_MARKER`].
    pub skills: Vec<(String, String, u64)>,
    /// One decision per invoked skill.
    pub decisions: Vec<Decision>,
}

/// Chooses the invoked skills to re-inject (§9.5): each cut to
/// [`POST_COMPACT_MAX_TOKENS_PER_SKILL`] tokens, then kept newest first while the running
/// total stays within [`POST_COMPACT_SKILLS_TOKEN_BUDGET`] (a skill that does not fit is
/// skipped, and a smaller one after it may still fit).
///
/// A cut skill is its first `5000 × 4 − marker` UTF-16 units and the marker, as in the
/// original; when `method` counts that prefix as more than the limit (CJK text under `codex`
/// or `calibrated`), the prefix is shortened until it fits.
///
/// # Example
/// ```
/// use context_assembly::compact::restore::{select_skills, SKILL_TRUNCATION_MARKER};
/// use context_assembly::tokens::TokenMethod;
/// let big = ("big".to_string(), "x".repeat(30_000));
/// let chosen = select_skills(&[big], TokenMethod::ClaudeCode);
/// let (_, content, tokens) = &chosen.skills[0];
/// // Cut to exactly 20,000 UTF-16 units, marker included: 5,000 tokens.
/// assert_eq!(content.encode_utf16().count(), 20_000);
/// assert!(content.ends_with(SKILL_TRUNCATION_MARKER));
/// assert_eq!(*tokens, 5_000);
/// ```
pub fn select_skills(
    invoked_newest_first: &[(String, String)],
    method: TokenMethod,
) -> SkillSelection {
    let mut selection = SkillSelection::default();
    let mut used = 0u64;
    for (name, content) in invoked_newest_first {
        let (content, tokens, cut) =
            truncate_to_tokens(content, POST_COMPACT_MAX_TOKENS_PER_SKILL, method);
        let total = used.saturating_add(tokens);
        let subject = format!("skill {name}");
        let (verdict, reason) = if total > POST_COMPACT_SKILLS_TOKEN_BUDGET {
            (Verdict::OverBudget, format!("{tokens} tokens would bring the skills to {total}, over the budget of {POST_COMPACT_SKILLS_TOKEN_BUDGET}"))
        } else if cut {
            (Verdict::Truncated, format!("cut to {tokens} tokens, within the {POST_COMPACT_MAX_TOKENS_PER_SKILL} a skill may use"))
        } else {
            (Verdict::Included, format!("re-injected ({tokens} tokens)"))
        };
        if verdict != Verdict::OverBudget {
            used = total;
            selection.skills.push((name.clone(), content, tokens));
        }
        selection.decisions.push(Decision {
            subject,
            verdict,
            reason,
            detail: None,
        });
    }
    selection
}

/// `content` within `max` tokens: unchanged when it fits, else a prefix and the marker.
/// Returns the text, its tokens, and whether it was cut.
fn truncate_to_tokens(content: &str, max: u64, method: TokenMethod) -> (String, u64, bool) {
    let tokens = estimate_tokens(content, method, None);
    if tokens <= max {
        return (content.into(), tokens, false);
    }
    let marker_units = SKILL_TRUNCATION_MARKER.encode_utf16().count() as u64;
    let mut prefix_units = max.saturating_mul(4).saturating_sub(marker_units);
    // Char boundaries of the original's prefix; a surrogate pair that would straddle the
    // limit is left out whole.
    let mut ends = Vec::new();
    for (at, c) in content.char_indices() {
        let units = c.len_utf16() as u64;
        if units > prefix_units {
            break;
        }
        prefix_units -= units;
        ends.push(at + c.len_utf8());
    }
    let with_marker = |chars: usize| {
        let end = match chars {
            0 => 0,
            n => ends.get(n - 1).copied().unwrap_or(0),
        };
        let mut text = String::from(content.get(..end).unwrap_or(""));
        text.push_str(SKILL_TRUNCATION_MARKER);
        let tokens = estimate_tokens(&text, method, None);
        (text, tokens)
    };
    let full = with_marker(ends.len());
    if full.1 <= max {
        return (full.0, full.1, true);
    }
    // `lo` always fits (the marker alone does, for any real limit), `hi` never does.
    let (mut lo, mut hi) = (0usize, ends.len());
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        match with_marker(mid).1 <= max {
            true => lo = mid,
            false => hi = mid,
        }
    }
    let (text, tokens) = with_marker(lo);
    (text, tokens, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cjk_skills_are_shortened_until_they_fit() {
        let cjk = "日本語".repeat(10_000);
        for method in TokenMethod::ALL {
            let (text, tokens, cut) = truncate_to_tokens(&cjk, 5_000, method);
            assert!(cut);
            assert!(tokens <= 5_000, "{method:?}");
            assert_eq!(tokens, estimate_tokens(&text, method, None));
            assert!(text.ends_with(SKILL_TRUNCATION_MARKER));
        }
    }

    #[test]
    fn a_pair_straddling_the_limit_is_left_out() {
        let marker = SKILL_TRUNCATION_MARKER.encode_utf16().count();
        let content = "a".repeat(20_000 - marker - 1) + &"😀".repeat(100);
        let (text, _, _) = truncate_to_tokens(&content, 5_000, TokenMethod::ClaudeCode);
        assert_eq!(text.encode_utf16().count(), 19_999);
    }
}
