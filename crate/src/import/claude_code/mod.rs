//! Claude Code's project log: one line per record, linked by `parentUuid` into a tree.
//!
//! The conversation the client resumes is the chain from the last record back to the root.
//! One model response is written as several `assistant` lines (one per content block) that
//! share `message.id`, each the parent of the next, and the result of a call hangs off the
//! line that made it, so the results of a response's earlier calls sit beside the chain,
//! not on it: they are taken in by their `tool_use_id`. Whatever else is off the chain is a
//! branch the session left (`/rewind`, an edited prompt). Subagents' lines
//! (`isSidechain`) are counted and left out. After a compaction the client writes earlier
//! lines again; a `uuid` seen before is skipped.
//!
//! Records are held (parsed, as the scenario's terms) until the end, because only the last
//! line says which branch is the main thread; content past the format's size is not kept.

mod outside_edit;
mod records;
mod thread;

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::builder::{bool_field, fnv, str_field, Builder, FNV_START};
use super::time::parse_timestamp;
use super::{release_numbers, InjectedItem, WarningKind};
use crate::profile::ProfileName;
use crate::scenario::parse::Json;
use crate::scenario::{MAX_INPUT_BYTES, MAX_STEPS};
use records::{
    assistant_record, attachment_item, attachment_payload, classify_prompt, knowledge_of,
    payload_size, plain_text, prompt_and_reminders, recorded_git_status, recorded_memory,
    system_record, Block, Knowledge, Node, Outcome, Payload,
};
use thread::Convert;

/// Line types that carry nothing a scenario replays: queue bookkeeping, titles, file-history
/// snapshots and deltas, summaries of other sessions; what 2.1.332 records about each API call
/// (the tools it used, its request's shape, blob and id, its cost state, the `atis-latch`
/// flag), which describes requests the replay rebuilds itself; and its terminal UI's input mode
/// and permission mode at each prompt (the prompt's own record carries the permission mode,
/// which is read there) (docs/versions.md, "Session logs").
const IGNORED_TYPES: &[&str] = &[
    "summary",
    "file-history-snapshot",
    "queue-operation",
    "last-prompt",
    "progress",
    "custom-title",
    "tools-used",
    "atis-latch",
    "api-request-shape",
    "api-request-blob",
    "api-request",
    "cost-state",
    "file-history-delta",
    "mode",
    "permission-mode",
];

/// The reader's state: every record of the main file so far, and the calls' results.
#[derive(Debug, Default)]
pub(super) struct ClaudeCodeReader {
    nodes: Vec<Node>,
    /// Records by their `uuid`'s hash ([`uuid_key`]): a line's index entry stays small.
    by_uuid: BTreeMap<u64, usize>,
    /// Each call id's results, in the log's order (a log may hold more than one).
    results: BTreeMap<String, Vec<Outcome>>,
    sidechain: Option<(usize, usize)>,
    kept_bytes: usize,
    kept_records: usize,
    over_budget: Option<usize>,
    /// The calls of the latest response that have their results: an interruption note
    /// stopped them all.
    response_results: Vec<String>,
    latest_response: String,
    /// Some `attachment` line was read: the log records the client's attachments, so a
    /// request without any had none. Meta lines and reminders alone are not enough: a log
    /// holding only those says nothing of the attachments.
    shows_injections: bool,
}

/// Records kept with their content: room for one scenario's steps and, beside them, the
/// results and the extra lines a response is split into.
const MAX_KEPT_RECORDS: usize = 4 * MAX_STEPS;

impl ClaudeCodeReader {
    /// Reads one line; `Err` says why it cannot be used.
    pub(super) fn read(
        &mut self,
        number: usize,
        line: &Json,
        builder: &mut Builder,
    ) -> Result<(), String> {
        let kind = str_field(line, "type").ok_or("a line without a \"type\" string")?;
        if let Some(cwd) = str_field(line, "cwd") {
            builder.set_cwd(cwd);
        }
        if let Some(version) = str_field(line, "version") {
            builder.set_client_version(version);
        }
        // `cli` is the interactive client; `sdk-cli`, `sdk-ts`… run headless.
        if str_field(line, "entrypoint").is_some_and(|entry| entry.starts_with("sdk")) {
            builder.set_headless();
        }
        match kind {
            "user" | "assistant" | "system" | "attachment" => {
                self.read_record(number, line, kind, builder)
            }
            _ if IGNORED_TYPES.contains(&kind) => Ok(()),
            other => {
                builder.warn(
                    number,
                    WarningKind::Unknown,
                    format!("unknown line type {other:?}; left out"),
                );
                Ok(())
            }
        }
    }

    /// A record too large to read, from its outline: it keeps its place in the thread, so
    /// the records before it stay on the main thread; whether it did.
    pub(super) fn refused(&mut self, number: usize, outline: &Json) -> bool {
        let is_record = str_field(outline, "type")
            .is_some_and(|kind| ["user", "assistant", "system", "attachment"].contains(&kind));
        let Some(uuid) = str_field(outline, "uuid").filter(|_| is_record) else {
            return false;
        };
        if self.by_uuid.contains_key(&uuid_key(uuid)) || bool_field(outline, "isSidechain") {
            return false;
        }
        self.push_node(number, outline, uuid, Payload::Dropped, Vec::new());
        true
    }

    fn read_record(
        &mut self,
        number: usize,
        line: &Json,
        kind: &str,
        builder: &mut Builder,
    ) -> Result<(), String> {
        let uuid =
            str_field(line, "uuid").ok_or_else(|| format!("a {kind:?} line without \"uuid\""))?;
        if self.by_uuid.contains_key(&uuid_key(uuid)) {
            return Ok(());
        }
        if bool_field(line, "isSidechain") {
            let (_, count) = self.sidechain.get_or_insert((number, 0));
            *count += 1;
            return Ok(());
        }
        let (mut payload, injected) = match kind {
            "user" => self.user_record(number, line, builder)?,
            "assistant" => (assistant_record(number, line, builder)?, Vec::new()),
            "attachment" => {
                if let Some(status) = recorded_git_status(line) {
                    builder.set_git_status(status);
                }
                for memory in recorded_memory(line) {
                    if memory.user {
                        if let Some(home) = memory.path.strip_suffix("/.claude/CLAUDE.md") {
                            builder.set_home(home);
                        }
                    }
                    builder.saw_memory(memory.path, memory.content, number);
                }
                (
                    attachment_payload(line),
                    attachment_item(line).into_iter().collect(),
                )
            }
            _ => (system_record(line), Vec::new()),
        };
        if payload.clip() {
            builder.warn_cut(number);
        }
        self.shows_injections |= kind == "attachment";
        if let Payload::Answer(answer) = &payload {
            if answer.message_id != self.latest_response {
                self.latest_response.clone_from(&answer.message_id);
                self.response_results.clear();
            }
        }
        if self.full() {
            self.over_budget.get_or_insert(number);
            payload = Payload::Dropped;
        } else {
            self.kept_bytes += payload_size(&payload);
            self.kept_records += 1;
        }
        self.push_node(number, line, uuid, payload, injected);
        Ok(())
    }

    fn push_node(
        &mut self,
        number: usize,
        line: &Json,
        uuid: &str,
        payload: Payload,
        injected: Vec<InjectedItem>,
    ) {
        let parent = str_field(line, "parentUuid").or_else(|| str_field(line, "logicalParentUuid"));
        let key = uuid_key(uuid);
        self.by_uuid.insert(key, self.nodes.len());
        self.nodes.push(Node {
            key,
            parent: parent.map(uuid_key),
            line: number,
            at_ms: str_field(line, "timestamp").and_then(parse_timestamp),
            payload,
            injected,
        });
    }

    fn user_record(
        &mut self,
        number: usize,
        line: &Json,
        builder: &mut Builder,
    ) -> Result<(Payload, Vec<InjectedItem>), String> {
        let content = line
            .get("message")
            .and_then(|m| m.get("content"))
            .ok_or("a \"user\" line without \"message.content\"")?;
        if bool_field(line, "isCompactSummary") {
            return Ok((Payload::Summary(plain_text(content)), Vec::new()));
        }
        if bool_field(line, "isMeta") {
            let text = plain_text(content);
            let injected = if text.trim().is_empty() {
                Vec::new()
            } else {
                Vec::from([InjectedItem::from_text("meta", &text)])
            };
            return Ok((Payload::Nothing, injected));
        }
        if let Json::Array(blocks) = content {
            let ids = self.tool_results(number, line, blocks, builder);
            if !ids.is_empty() {
                return Ok((Payload::Results(ids), Vec::new()));
            }
            if blocks.iter().any(|b| str_field(b, "type") == Some("image")) {
                builder.warn(
                    number,
                    WarningKind::LeftOut,
                    String::from("an image in a prompt is left out"),
                );
            }
        }
        let (prompt, reminders) = prompt_and_reminders(content);
        if prompt.trim().is_empty() && !reminders.is_empty() {
            return Ok((Payload::Nothing, reminders));
        }
        let payload = classify_prompt(number, prompt, str_field(line, "permissionMode"), builder);
        if matches!(payload, Payload::Interrupted) {
            for id in &self.response_results {
                if let Some(outcome) = self.results.get_mut(id).and_then(|all| all.last_mut()) {
                    outcome.interrupted = true;
                }
            }
        }
        Ok((payload, reminders))
    }

    /// Stores the line's tool results; their ids.
    fn tool_results(
        &mut self,
        number: usize,
        line: &Json,
        blocks: &[Json],
        builder: &mut Builder,
    ) -> Vec<String> {
        let mut ids = Vec::new();
        for block in blocks
            .iter()
            .filter(|b| str_field(b, "type") == Some("tool_result"))
        {
            let Some(id) = str_field(block, "tool_use_id") else {
                builder.warn(
                    number,
                    WarningKind::BadLine,
                    String::from("a tool result without \"tool_use_id\"; left out"),
                );
                continue;
            };
            let knowledge = if ids.is_empty() {
                line.get("toolUseResult")
                    .map_or(Knowledge::None, knowledge_of)
            } else {
                Knowledge::None
            };
            // A Read's or a change's result is the engine's to make again, and a shell's
            // output is in its knowledge: the text is kept for the other tools only.
            let text_needed = matches!(knowledge, Knowledge::None);
            let mut outcome = Outcome {
                line: number,
                call: str_field(line, "parentUuid").map(uuid_key),
                content: match block.get("content") {
                    Some(content) if text_needed => plain_text(content),
                    _ => String::new(),
                },
                is_error: bool_field(block, "is_error"),
                interrupted: false,
                knowledge,
            };
            if outcome.clip() {
                builder.warn_cut(number);
            }
            // Past the budget the line's record is dropped too, so its results go with it.
            if !self.full() {
                self.kept_bytes += outcome.size();
                // Most calls have one result: a list of one, not Vec's first growth of four.
                self.results
                    .entry(id.into())
                    .or_insert_with(|| Vec::with_capacity(1))
                    .push(outcome);
            }
            self.response_results.push(String::from(id));
            ids.push(String::from(id));
        }
        ids
    }

    /// Whether the records kept hold as much as one scenario can: later records are counted,
    /// not kept.
    fn full(&self) -> bool {
        self.kept_bytes > MAX_INPUT_BYTES || self.kept_records >= MAX_KEPT_RECORDS
    }

    /// Builds the scenario from the main thread.
    pub(super) fn finish(self, builder: &mut Builder) {
        if let Some((line, count)) = self.sidechain {
            builder.warn(
                line,
                WarningKind::Sidechain,
                format!("{count} subagent lines (isSidechain) are left out of the main thread"),
            );
        }
        let Some(chain) = self.main_chain() else {
            return;
        };
        self.warn_abandoned(&chain, builder);
        if let Some(line) = self.over_budget {
            builder.warn(
                line,
                WarningKind::OverLimit,
                format!(
                    "the log holds more than one scenario can ({MAX_KEPT_RECORDS} records or \
                     {} MiB): records from here on are counted, not kept",
                    MAX_INPUT_BYTES >> 20
                ),
            );
        }
        let responses = self.responses();
        let mut convert = Convert::new(&self.nodes, &self.results, &responses, builder);
        convert.shows_injections(self.shows_injections);
        for &index in &chain {
            convert.node(&self.nodes[index]);
        }
        convert.finish();
    }

    /// Each response's lines, in file order, by `message.id`.
    fn responses(&self) -> BTreeMap<&str, Vec<usize>> {
        let mut responses: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        for (index, node) in self.nodes.iter().enumerate() {
            if let Payload::Answer(answer) = &node.payload {
                responses
                    .entry(answer.message_id.as_str())
                    .or_default()
                    .push(index);
            }
        }
        responses
    }

    /// The chain from the last record back to the root, root first.
    fn main_chain(&self) -> Option<Vec<usize>> {
        let mut index = self.nodes.len().checked_sub(1)?;
        let mut seen = BTreeSet::new();
        let mut chain = Vec::new();
        while seen.insert(index) {
            chain.push(index);
            let node = &self.nodes[index];
            match node.parent.and_then(|key| self.by_uuid.get(&key)) {
                Some(&next) => index = next,
                // A compaction's boundary names its logical parent, which a headless run
                // may never have written (the turn it cut short): the session went on from
                // the record written just before the boundary.
                None if matches!(node.payload, Payload::Boundary { .. }) && index > 0 => {
                    index -= 1;
                }
                None => break,
            }
        }
        chain.reverse();
        Some(self.with_side_compactions(chain))
    }

    /// `chain` with what the thread went around at a compaction put back. The terminal UI of
    /// 2.1.88 writes an auto-compaction inside a turn as a branch of its own: the boundary
    /// (whose logical parent is the record before it, or one never written) with the summary
    /// under it, while the turn's next record names the record before the boundary as its
    /// parent. Either side may be the one the last record leads back to; the other follows:
    /// a boundary off the chain, with the records under it, right after its anchor; records
    /// off the chain under a boundary's anchor, written after the boundary, right after the
    /// boundary's summary.
    fn with_side_compactions(&self, chain: Vec<usize>) -> Vec<usize> {
        let on_chain: BTreeSet<usize> = chain.iter().copied().collect();
        let parent_of = |index: usize| {
            (self.nodes[index].parent).and_then(|key| self.by_uuid.get(&key).copied())
        };
        // The records under `root` that are off the chain, `root` included, in file order.
        let subtree = |root: usize| {
            let mut branch = BTreeSet::from([root]);
            for later in root + 1..self.nodes.len() {
                if !on_chain.contains(&later)
                    && parent_of(later).is_some_and(|p| branch.contains(&p))
                {
                    branch.insert(later);
                }
            }
            branch
        };
        let mut after: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
        for (index, node) in self.nodes.iter().enumerate() {
            if !matches!(node.payload, Payload::Boundary { .. }) {
                continue;
            }
            if on_chain.contains(&index) {
                let position = chain.iter().position(|&i| i == index).unwrap_or_default();
                let Some(&anchor) = position.checked_sub(1).and_then(|p| chain.get(p)) else {
                    continue;
                };
                let summary = chain
                    .get(position + 1)
                    .copied()
                    .filter(|&next| parent_of(next) == Some(index));
                let side: BTreeSet<usize> = (index + 1..self.nodes.len())
                    .filter(|&later| !on_chain.contains(&later) && parent_of(later) == Some(anchor))
                    .flat_map(subtree)
                    .collect();
                if !side.is_empty() {
                    after
                        .entry(summary.unwrap_or(index))
                        .or_default()
                        .extend(side);
                }
                continue;
            }
            let anchor = match node.parent {
                Some(key) if self.by_uuid.contains_key(&key) => {
                    parent_of(index).filter(|p| on_chain.contains(p))
                }
                _ => (0..index).rev().find(|i| on_chain.contains(i)),
            };
            if let Some(anchor) = anchor {
                after.entry(anchor).or_default().extend(subtree(index));
            }
        }
        if after.is_empty() {
            return chain;
        }
        let mut spliced = Vec::with_capacity(chain.len());
        for index in chain {
            spliced.push(index);
            if let Some(branch) = after.get(&index) {
                spliced.extend(branch);
            }
        }
        spliced
    }

    /// Whether a record belongs to the main thread: on the chain, or a line of a response
    /// that is (a response's blocks may branch off one another).
    fn in_thread(
        &self,
        index: usize,
        on_chain: &BTreeSet<usize>,
        chain_responses: &BTreeSet<&str>,
    ) -> bool {
        on_chain.contains(&index)
            || matches!(&self.nodes[index].payload, Payload::Answer(answer) if chain_responses.contains(answer.message_id.as_str()))
    }

    /// Records off the chain that carry content: a branch the session left.
    fn warn_abandoned(&self, chain: &[usize], builder: &mut Builder) {
        let on_chain: BTreeSet<usize> = chain.iter().copied().collect();
        let chain_responses: BTreeSet<&str> = chain
            .iter()
            .filter_map(|&i| match &self.nodes[i].payload {
                Payload::Answer(answer) => Some(answer.message_id.as_str()),
                _ => None,
            })
            .collect();
        let answered: BTreeSet<&str> = self
            .nodes
            .iter()
            .filter_map(|node| match &node.payload {
                Payload::Answer(answer) if chain_responses.contains(answer.message_id.as_str()) => {
                    Some(answer)
                }
                _ => None,
            })
            .flat_map(|answer| answer.blocks.iter())
            .filter_map(|block| match block {
                Block::ToolUse { id, .. } => Some(id.as_str()),
                _ => None,
            })
            .collect();
        let mut first = None;
        let mut count = 0;
        for (index, node) in self.nodes.iter().enumerate() {
            let off = !self.in_thread(index, &on_chain, &chain_responses)
                && match &node.payload {
                    Payload::Nothing | Payload::Interrupted | Payload::Dropped => false,
                    Payload::Results(ids) => !ids.iter().all(|id| answered.contains(id.as_str())),
                    _ => true,
                };
            if off {
                first.get_or_insert(node.line);
                count += 1;
            }
        }
        if let Some(line) = first {
            builder.warn(
                line,
                WarningKind::AbandonedBranch,
                format!(
                    "{count} lines on branches the session left (a rewind or an edited prompt) \
                     are left out; the main thread ends at the log's last record"
                ),
            );
        }
    }
}

/// A `uuid`'s 64-bit FNV-1a hash: every line keeps one in the thread's index, so it is a
/// number rather than the 36-byte text (two uuids of one log sharing a hash is a chance of
/// about one in 10^7 for a million lines).
fn uuid_key(uuid: &str) -> u64 {
    fnv(FNV_START, uuid.as_bytes())
}

/// The last release the `claude-code-2.1.88` preset stands for. The changes up to 2.1.332 are
/// not bisected yet (docs/versions.md), so a log from a release after the seed's replays
/// under `claude-code`, the preset of the current release.
const SEED_RELEASE: [u64; 3] = [2, 1, 88];

/// The preset that replays a log written by Claude Code `version`: `claude-code-2.1.88` up
/// to [`SEED_RELEASE`], `claude-code` for a later release or when the log does not say.
pub(super) fn profile_for(version: Option<&str>) -> ProfileName {
    match version.and_then(release_numbers) {
        Some(release) if release <= SEED_RELEASE => ProfileName::ClaudeCode2188,
        _ => ProfileName::ClaudeCode,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_replays_under_the_preset_of_its_release() {
        let cases = [
            (Some("2.1.88"), ProfileName::ClaudeCode2188),
            (Some("2.0.14"), ProfileName::ClaudeCode2188),
            (Some("1.0.128"), ProfileName::ClaudeCode2188),
            (Some("2.1.89"), ProfileName::ClaudeCode),
            (Some("2.1.332"), ProfileName::ClaudeCode),
            (Some("2.1.9"), ProfileName::ClaudeCode2188),
            (Some("3.0.0-beta.1"), ProfileName::ClaudeCode),
            (Some("dev"), ProfileName::ClaudeCode),
            (None, ProfileName::ClaudeCode),
        ];
        for (version, profile) in cases {
            assert_eq!(profile_for(version), profile, "{version:?}");
        }
    }
}
