//! Relevant memories: notes from the auto-memory directory surfaced for a prompt (spec
//! claude-code.md §7.9).
//!
//! Claude Code starts a prefetch once per user turn: a small model picks up to five memory
//! files whose names and descriptions fit the prompt, and each is sent as its own reminder,
//! headed by its age. [`relevant_memories`] does the same with the host's choice, or with a
//! deterministic keyword scorer when the host has none.
//!
//! # Steps
//!
//! 1. **Gate.** Nothing is prefetched when the prompt, trimmed, holds no whitespace (a
//!    single word, [`Verdict::Skipped`]) or when the relevant memories still in the
//!    transcript reach `memory_session_cap` UTF-16 units ([`Verdict::OverBudget`]).
//! 2. **Scan.** The candidates are ordered newest first (mtime descending, then path) and
//!    the first [`MAX_SCANNED_FILES`] `.md` files are scanned; the auto-memory index
//!    `MEMORY.md` is not a candidate (it is loaded with the system prompt). Paths surfaced
//!    earlier in the session and paths in the read-file state are [`Verdict::Excluded`].
//! 3. **Choose** at most `memories_per_turn` (5):
//!    * the host's selection, in the host's order; a path that is not a candidate is
//!      [`Verdict::NotFound`], candidates it did not name are [`Verdict::Skipped`];
//!    * otherwise the keyword scorer (below).
//! 4. **Read** each chosen file as `readFileInRange(path, 0, 200, 4096,
//!    {truncateOnByteLimit})` does ([`memory_excerpt`]): whole lines that fit in 200 lines
//!    and 4096 bytes, then, when cut, `\n\n> ` and a note naming the reason (`4096 byte
//!    limit` or `first 200 lines`) and the path.
//! 5. **Budget.** The session cap counts the UTF-16 units of memory contents: a memory
//!    that would take the session past it is left out ([`Verdict::OverBudget`]). Claude
//!    Code only checks the cap before the prefetch, so it can end a turn over it; here the
//!    cap is never exceeded.
//! 6. **Emit** one `relevant_memories` attachment per memory, text
//!    `wrap("{header}\n\n{content}")` with the header of [`memory_header`] computed now,
//!    and `payload_units` = the UTF-16 length of the content.
//!
//! # The keyword scorer
//!
//! * **Terms**: the prompt's words (maximal runs of Unicode letters and digits), lowercased,
//!   of at least 3 characters, minus a short list of stop words (`the`, `and`, `this`,
//!   `what`, `please`…); each once, the first [`scorer::MAX_TERMS`] in prompt order.
//! * **Fields**, from the first [`SCAN_LINES`] lines of each file: the frontmatter's `name`
//!   (weight 4) and `description` (weight 3), the file name without `.md` (weight 2), and
//!   the lines after the frontmatter (weight 1), each split into words the same way.
//! * **Match**: a term matches a field when the field holds the same word, or a word that
//!   is a prefix of it or that it is a prefix of, the shorter having at least 4 characters
//!   (`deploy` matches `deployment`, `test` matches `tests`).
//! * **Score**: for each term, the weights of the fields it matches, summed over the terms.
//! * **Choice**: the highest scores first, ties broken newest first then by path (the scan
//!   order); a score of 0 is never chosen. Every scanned memory gets a decision giving its
//!   score.
//!
//! The host supplies the candidates of the right directory: Claude Code searches only an
//! @-mentioned agent's memory directory when there is one. It also records the returned
//! paths as surfaced and writes each one's read-file-state entry
//! (`Entry::from_relevant_memory` with the [`memory_excerpt`] of the file and its mtime).

mod excerpt;
mod prefetch;
pub mod scorer;

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::cmp::Reverse;

use crate::attachment::{AttachmentKind, AttachmentRules, Collected, Verdict};
use crate::tokens::TokenMethod;
use crate::wording::wrap;

pub(crate) use prefetch::MemoryPrefetch;

pub use crate::wording::memory::memory_header;
pub use excerpt::{memory_excerpt, MemoryExcerpt};

/// Memory files scanned per prefetch, newest first (`MAX_MEMORY_FILES`).
pub const MAX_SCANNED_FILES: usize = 200;

/// Lines of each scanned file the chooser sees (`FRONTMATTER_MAX_LINES`).
pub const SCAN_LINES: usize = 30;

/// The attachment kind, and the subject of decisions about the prefetch as a whole.
const KIND: AttachmentKind = AttachmentKind::RelevantMemories;

/// One file of the memory directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemoryCandidate<'a> {
    /// Its path, as shown to the model and keyed in the read-file state.
    pub path: &'a str,
    /// Its whole text.
    pub content: &'a str,
    /// Its modification time, in milliseconds.
    pub mtime_ms: u64,
}

/// What the prefetch of one user turn sees.
#[derive(Clone, Copy)]
pub struct RelevantMemoryInput<'a> {
    /// The last non-meta user message.
    pub prompt: &'a str,
    /// Every `.md` file of the memory directory, in any order.
    pub candidates: &'a [MemoryCandidate<'a>],
    /// Paths the host chose, in its order; `None`: the built-in keyword scorer chooses.
    pub host_selection: Option<&'a [String]>,
    /// The current time, in milliseconds.
    pub now_ms: u64,
    /// Paths surfaced earlier in the session.
    pub surfaced: &'a BTreeSet<String>,
    /// Whether the read-file state holds a path.
    pub in_file_state: &'a dyn Fn(&str) -> bool,
    /// The `payload_units` of the `relevant_memories` attachments still in the transcript,
    /// summed (compaction resets it).
    pub session_units: u64,
}

/// Surfaces the memories relevant to the prompt (spec §7.9; steps in the [module
/// docs](self)): one `relevant_memories` attachment per memory and a decision for every
/// candidate considered. Returns the surfaced paths, in order.
///
/// # Example
/// ```
/// use std::collections::BTreeSet;
/// use context_assembly::attachment::{AttachmentRules, Collected};
/// use context_assembly::collectors::relevant_memories::*;
/// use context_assembly::tokens::TokenMethod;
/// const DAY: u64 = 86_400_000;
/// let candidates = [
///     MemoryCandidate { path: "/m/deploy.md", content: "---\nname: Deploy steps\n---\nRun make.", mtime_ms: 0 },
///     MemoryCandidate { path: "/m/style.md", content: "Tabs, not spaces.", mtime_ms: 9 * DAY },
/// ];
/// let none = BTreeSet::new();
/// let input = RelevantMemoryInput {
///     prompt: "deploy the app", candidates: &candidates, host_selection: None,
///     now_ms: 10 * DAY, surfaced: &none, in_file_state: &|_| false, session_units: 0,
/// };
/// let mut out = Collected::default();
/// let rules = AttachmentRules::claude_code();
/// let paths = relevant_memories(&input, &rules, TokenMethod::ClaudeCode, &mut out);
/// assert_eq!(paths, ["/m/deploy.md"]); // style.md scores 0: never chosen
/// assert!(out.attachments[0].text.contains("10 days ago"));
/// // A one-word prompt prefetches nothing, and says so.
/// let mut out = Collected::default();
/// let one_word = RelevantMemoryInput { prompt: " deploy ", ..input };
/// assert!(relevant_memories(&one_word, &rules, TokenMethod::ClaudeCode, &mut out).is_empty());
/// assert_eq!(out.decisions[0].verdict.as_str(), "skipped");
/// ```
pub fn relevant_memories(
    input: &RelevantMemoryInput<'_>,
    rules: &AttachmentRules,
    method: TokenMethod,
    out: &mut Collected,
) -> Vec<String> {
    if !gate(input, rules, out) {
        return Vec::new();
    }
    let eligible = scan(input, out);
    let chosen = match input.host_selection {
        Some(selection) => host_choice(selection, input, &eligible, rules, out),
        None => scored_choice(input.prompt, &eligible, rules, out),
    };
    surface(&chosen, input, rules, method, out)
}

/// Step 1: whether to prefetch at all; records why not.
fn gate(input: &RelevantMemoryInput<'_>, rules: &AttachmentRules, out: &mut Collected) -> bool {
    if !crate::js::trim(input.prompt).contains(crate::js::is_whitespace) {
        let reason = "The prompt is a single word, too little to choose memories by.";
        out.decide(KIND.as_str(), Verdict::Skipped, reason.into(), None);
        return false;
    }
    if input.session_units >= rules.memory_session_cap {
        let reason = "The memories already in the conversation fill the session's budget.";
        let detail = format!(
            "{} of {} UTF-16 units",
            input.session_units, rules.memory_session_cap
        );
        out.decide(
            KIND.as_str(),
            Verdict::OverBudget,
            reason.into(),
            Some(detail),
        );
        return false;
    }
    if input.candidates.is_empty() {
        let reason = "The memory directory holds no memory files.";
        out.decide(KIND.as_str(), Verdict::Skipped, reason.into(), None);
        return false;
    }
    true
}

/// Step 2: the scanned candidates left after the exclusions, newest first.
fn scan<'c>(input: &RelevantMemoryInput<'c>, out: &mut Collected) -> Vec<&'c MemoryCandidate<'c>> {
    let mut ordered: Vec<&MemoryCandidate<'c>> = input.candidates.iter().collect();
    crate::sort::sort_by(&mut ordered, |a, b| {
        (Reverse(a.mtime_ms), a.path).cmp(&(Reverse(b.mtime_ms), b.path))
    });
    let mut seen = BTreeSet::new();
    let mut scanned = 0;
    let mut eligible = Vec::new();
    for candidate in ordered {
        let path = candidate.path;
        let base = path.rsplit('/').next().unwrap_or(path);
        let (verdict, reason) = if !seen.insert(path) {
            (
                Verdict::Skipped,
                "Listed twice; the newest copy was considered.",
            )
        } else if !path.ends_with(".md") {
            (Verdict::Skipped, "Not a Markdown file.")
        } else if base == "MEMORY.md" {
            (
                Verdict::Skipped,
                "The memory index, loaded with the system prompt.",
            )
        } else if scanned == MAX_SCANNED_FILES {
            (
                Verdict::OverBudget,
                "Older than the 200 newest memory files scanned.",
            )
        } else {
            scanned += 1;
            if input.surfaced.contains(path) {
                (Verdict::Excluded, "Surfaced earlier in this session.")
            } else if (input.in_file_state)(path) {
                (Verdict::Excluded, "Already in the read-file state.")
            } else {
                eligible.push(candidate);
                continue;
            }
        };
        out.decide(path, verdict, reason.into(), None);
    }
    eligible
}

/// A memory chosen to surface, with its keyword score when the scorer chose it.
struct Chosen<'c> {
    candidate: &'c MemoryCandidate<'c>,
    score: Option<u64>,
}

/// Step 3, the host's way: its paths in its order.
fn host_choice<'c>(
    selection: &[String],
    input: &RelevantMemoryInput<'c>,
    eligible: &[&'c MemoryCandidate<'c>],
    rules: &AttachmentRules,
    out: &mut Collected,
) -> Vec<Chosen<'c>> {
    let by_path: BTreeMap<&str, &MemoryCandidate<'c>> =
        eligible.iter().map(|c| (c.path, *c)).collect();
    let mut named = BTreeSet::new();
    let mut chosen = Vec::new();
    for path in selection {
        if !named.insert(path.as_str()) {
            continue;
        }
        let known = input.candidates.iter().any(|c| c.path == path);
        match by_path.get(path.as_str()) {
            Some(candidate) if chosen.len() < rules.memories_per_turn => chosen.push(Chosen {
                candidate,
                score: None,
            }),
            Some(_) => {
                let reason = format!(
                    "The host chose more than {} memories for one prompt.",
                    rules.memories_per_turn
                );
                out.decide(path, Verdict::OverBudget, reason, None);
            }
            // A candidate that was not eligible has its decision from the scan already.
            None if known => {}
            None => {
                let reason = "The host chose a file that is not in the memory directory.";
                out.decide(path, Verdict::NotFound, reason.into(), None);
            }
        }
    }
    for candidate in eligible {
        if !named.contains(candidate.path) {
            let reason = "The host did not choose it.";
            out.decide(candidate.path, Verdict::Skipped, reason.into(), None);
        }
    }
    chosen
}

/// Step 3, the built-in way: the keyword scorer.
fn scored_choice<'c>(
    prompt: &str,
    eligible: &[&'c MemoryCandidate<'c>],
    rules: &AttachmentRules,
    out: &mut Collected,
) -> Vec<Chosen<'c>> {
    let terms = scorer::prompt_terms(prompt);
    let mut scored: Vec<(u64, &MemoryCandidate<'c>)> = eligible
        .iter()
        .map(|c| (scorer::score(&terms, c), *c))
        .collect();
    // Stable: equal scores keep the scan order, newest first then by path.
    crate::sort::sort_by_key(&mut scored, |(score, _)| Reverse(*score));
    let mut chosen = Vec::new();
    for (score, candidate) in scored {
        let detail = Some(format!("score {score}"));
        if score == 0 {
            let reason = "No word of the prompt matches its name, description, file name or \
                          first lines.";
            out.decide(candidate.path, Verdict::Skipped, reason.into(), detail);
        } else if chosen.len() == rules.memories_per_turn {
            let reason = format!(
                "{} memories with higher or equal scores, or newer, were chosen first.",
                rules.memories_per_turn
            );
            out.decide(candidate.path, Verdict::OverBudget, reason, detail);
        } else {
            chosen.push(Chosen {
                candidate,
                score: Some(score),
            });
        }
    }
    chosen
}

/// Steps 4 to 6: read, budget and emit the chosen memories.
fn surface(
    chosen: &[Chosen<'_>],
    input: &RelevantMemoryInput<'_>,
    rules: &AttachmentRules,
    method: TokenMethod,
    out: &mut Collected,
) -> Vec<String> {
    let mut used = input.session_units;
    let mut surfaced = Vec::with_capacity(chosen.len());
    for Chosen { candidate, score } in chosen {
        let path = candidate.path;
        let excerpt = memory_excerpt(path, candidate.content, rules);
        let units = excerpt.content.encode_utf16().count() as u64;
        let chooser = match score {
            Some(score) => format!("score {score}"),
            None => String::from("chosen by the host"),
        };
        if used.saturating_add(units) > rules.memory_session_cap {
            let reason = "It would take the memories in the conversation past the session's \
                          budget.";
            let detail = format!(
                "{chooser}; {units} UTF-16 units, {used} of {} used",
                rules.memory_session_cap
            );
            out.decide(path, Verdict::OverBudget, reason.into(), Some(detail));
            continue;
        }
        used += units;
        let header = memory_header(path, candidate.mtime_ms, input.now_ms);
        let text = wrap(&format!("{header}\n\n{}", excerpt.content));
        out.attach(KIND, Some(path), text, method);
        if let Some(attachment) = out.attachments.last_mut() {
            attachment.payload_units = Some(units);
        }
        let (verdict, reason, detail) = match &excerpt.truncation {
            Some(cut) => (
                Verdict::Truncated,
                "Relevant to the prompt; cut to fit one memory's limits.",
                format!("{chooser}; cut at the {cut}"),
            ),
            None => (Verdict::Included, "Relevant to the prompt.", chooser),
        };
        out.decide(path, verdict, reason.into(), Some(detail));
        surfaced.push(String::from(path));
    }
    surfaced
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    const DAY: u64 = 86_400_000;

    fn run(
        prompt: &str,
        candidates: &[MemoryCandidate<'_>],
        host: Option<&[String]>,
        session_units: u64,
    ) -> (Vec<String>, Collected) {
        let surfaced = BTreeSet::new();
        let input = RelevantMemoryInput {
            prompt,
            candidates,
            host_selection: host,
            now_ms: 100 * DAY,
            surfaced: &surfaced,
            in_file_state: &|path| path.ends_with("read.md"),
            session_units,
        };
        let mut out = Collected::default();
        let rules = AttachmentRules::claude_code();
        let paths = relevant_memories(&input, &rules, TokenMethod::ClaudeCode, &mut out);
        (paths, out)
    }

    fn memory(path: &str, mtime_days: u64) -> MemoryCandidate<'_> {
        MemoryCandidate {
            path,
            content: "deploy notes",
            mtime_ms: mtime_days * DAY,
        }
    }

    #[test]
    fn the_session_cap_gates_the_prefetch() {
        let (paths, out) = run("deploy it", &[memory("/m/a.md", 1)], None, 60 * 1024);
        assert!(paths.is_empty());
        assert_eq!(out.decisions[0].verdict, Verdict::OverBudget);
    }

    #[test]
    fn ties_go_to_the_newest_then_the_path() {
        let candidates = [
            memory("/m/b.md", 5),
            memory("/m/a.md", 5),
            memory("/m/new.md", 9),
        ];
        let (paths, _) = run("deploy it", &candidates, None, 0);
        assert_eq!(paths, vec!["/m/new.md", "/m/a.md", "/m/b.md"]);
    }

    #[test]
    fn the_index_and_non_markdown_files_are_not_candidates() {
        let candidates = [memory("/m/MEMORY.md", 1), memory("/m/a.txt", 1)];
        let (paths, out) = run("deploy it", &candidates, None, 0);
        assert!(paths.is_empty());
        assert!(out.decisions.iter().all(|d| d.verdict == Verdict::Skipped));
    }

    #[test]
    fn a_host_choice_of_an_excluded_file_keeps_its_exclusion() {
        let candidates = [memory("/m/read.md", 1), memory("/m/a.md", 1)];
        let host = vec!["/m/read.md".into(), "/m/a.md".into(), "/m/a.md".into()];
        let (paths, out) = run("deploy it", &candidates, Some(&host), 0);
        assert_eq!(paths, vec!["/m/a.md"]);
        let verdicts: Vec<_> = out.decisions.iter().map(|d| d.verdict).collect();
        assert_eq!(verdicts, vec![Verdict::Excluded, Verdict::Included]);
    }
}
