//! Every string field of the scenario format and what redaction does to it: one table,
//! [`FIELD_RULES`], which the redaction walks by and `crate/tests/redact.rs` checks against
//! `web/scenarios/scenario.schema.json` (a string field of the schema without a row fails it).
//!
//! A field is named by its place: object keys joined by `.`, `[]` for an array's items and
//! `[kind]` for a step of that kind or a block of that type (`steps[user].prompt`,
//! `steps[assistant].blocks[tool_use].input`, `files.*` for the values of the `files` object,
//! whose keys are paths). A row naming an object or an array applies to every string inside
//! it (a compaction's `params`, a tool's `inputSchema`). A string at a place with no row is
//! redacted as text: a field added to the format is redacted until someone decides otherwise.

/// Which count of [`super::Replaced`] a replaced text adds to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counted {
    /// File contents.
    Files,
    /// Prompts, queued commands and pastes.
    Prompts,
    /// The assistant's text and thinking.
    AssistantTexts,
    /// Tool outputs and results.
    ToolOutputs,
    /// Everything else.
    OtherTexts,
}

/// What redaction does to a field's strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldRule {
    /// Kept as written: the format's vocabulary (kinds, types, enum values), tool names, ids,
    /// model and shell names. The README lists these places.
    Structure,
    /// Words replaced, markup kept (see `text.rs`).
    Text(Counted),
    /// A prompt: as [`FieldRule::Text`], and its @-mentions still resolve (a file's path kept or
    /// hashed as the files' are; an agent's or an MCP resource's names as the configuration's).
    Prompt,
    /// As [`FieldRule::Text`], except the values the format gives a meaning, which stay.
    TextUnlessOneOf(&'static [&'static str]),
    /// A path: kept or hashed, the home directory's user name replaced (see `paths.rs`).
    Path,
    /// A permission rule, `Tool(pattern)`: the pattern as a path.
    DenyRule,
    /// A file's text, read by the path it belongs to: Markdown keeps its frontmatter's keys (a
    /// rule's `paths:` globs as paths), memory files keep their @-imports resolvable.
    FileContent,
    /// A tool call's input: its keys kept; path fields as paths, Grep's pattern as a regular
    /// expression, `apply_patch`'s patch line by line, the mode names the engine reads
    /// (`output_mode`, `status`) kept, every other string as text.
    ToolInput,
    /// Left out of the redacted scenario: the recall measure's facts are exactly what
    /// redaction hides.
    Dropped,
}

use Counted::{AssistantTexts, OtherTexts, Prompts, ToolOutputs};
use FieldRule::{
    DenyRule, Dropped, FileContent, Path, Prompt, Structure, Text, TextUnlessOneOf, ToolInput,
};

/// Every string field of the format, with its rule.
pub const FIELD_RULES: &[(&str, FieldRule)] = &[
    ("$schema", Structure),
    ("name", Text(OtherTexts)),
    ("description", Text(OtherTexts)),
    ("profile", Structure),
    ("cwd", Path),
    ("home", Path),
    ("config.deny[]", DenyRule),
    ("config.mcpResources[].server", Text(OtherTexts)),
    ("config.mcpResources[].uri", Text(OtherTexts)),
    ("config.mcpResources[].name", Text(OtherTexts)),
    ("config.mcpResources[].description", Text(OtherTexts)),
    ("config.mcpResources[].text", Text(OtherTexts)),
    ("config.agents[]", Text(OtherTexts)),
    ("config.additionalDirectories[]", Path),
    ("config.tools[].name", Structure),
    ("config.tools[].description", Text(OtherTexts)),
    ("config.tools[].inputSchema", Text(OtherTexts)),
    ("config.deferredTools[]", Structure),
    ("config.skills[].name", Text(OtherTexts)),
    ("config.skills[].description", Text(OtherTexts)),
    ("config.mcpServers[].name", Text(OtherTexts)),
    ("config.mcpServers[].instructions", Text(OtherTexts)),
    ("config.systemPrompt", Text(OtherTexts)),
    ("config.model", Structure),
    ("config.platform", Structure),
    ("config.gitStatus", Text(OtherTexts)),
    ("config.outputStyle", TextUnlessOneOf(&["default"])),
    ("config.planFile", Path),
    ("config.memoryDir", Path),
    ("config.permissionMode", Structure),
    ("config.pinned[]", Path),
    ("config.transcriptPath", Path),
    ("config.policies[]", Structure),
    ("files.*", FileContent),
    ("files[].path", Path),
    ("files[].content", FileContent),
    ("steps[].kind", Structure),
    ("steps[user].kind", Structure),
    ("steps[user].prompt", Prompt),
    ("steps[user].memories[]", Path),
    ("steps[user].pastes[]", Text(Prompts)),
    ("steps[assistant].kind", Structure),
    ("steps[assistant].blocks[].type", Structure),
    ("steps[assistant].blocks[text].type", Structure),
    ("steps[assistant].blocks[text].text", Text(AssistantTexts)),
    ("steps[assistant].blocks[thinking].type", Structure),
    (
        "steps[assistant].blocks[thinking].thinking",
        Text(AssistantTexts),
    ),
    ("steps[assistant].blocks[tool_use].type", Structure),
    ("steps[assistant].blocks[tool_use].name", Structure),
    ("steps[assistant].blocks[tool_use].id", Structure),
    ("steps[assistant].blocks[tool_use].input", ToolInput),
    (
        "steps[assistant].blocks[tool_use].output",
        Text(ToolOutputs),
    ),
    (
        "steps[assistant].blocks[tool_use].approval.feedback",
        Text(OtherTexts),
    ),
    ("steps[assistant].compactBeforeToolRound.policy", Structure),
    ("steps[assistant].compactBeforeToolRound.params", Structure),
    ("steps[assistant].compactBeforeToolRound.trigger", Structure),
    (
        "steps[assistant].compactBeforeToolRound.direction",
        Structure,
    ),
    (
        "steps[assistant].compactBeforeToolRound.instructions",
        Text(OtherTexts),
    ),
    (
        "steps[assistant].compactBeforeToolRound.summary",
        Text(OtherTexts),
    ),
    ("steps[toolResults].kind", Structure),
    ("steps[toolResults].results[].toolUseId", Structure),
    ("steps[toolResults].results[].content", Text(ToolOutputs)),
    ("steps[writeFile].kind", Structure),
    ("steps[writeFile].path", Path),
    ("steps[writeFile].content", FileContent),
    ("steps[deleteFile].kind", Structure),
    ("steps[deleteFile].path", Path),
    ("steps[rename].kind", Structure),
    ("steps[rename].from", Path),
    ("steps[rename].to", Path),
    ("steps[touch].kind", Structure),
    ("steps[touch].path", Path),
    ("steps[setMode].kind", Structure),
    ("steps[setMode].mode", Structure),
    ("steps[ide].kind", Structure),
    ("steps[ide].selection.path", Path),
    ("steps[ide].selection.text", Text(OtherTexts)),
    ("steps[ide].openedFile", Path),
    ("steps[diagnostics].kind", Structure),
    ("steps[diagnostics].files[].path", Path),
    ("steps[diagnostics].files[].items[].severity", Structure),
    (
        "steps[diagnostics].files[].items[].message",
        Text(OtherTexts),
    ),
    ("steps[diagnostics].files[].items[].code", Text(OtherTexts)),
    (
        "steps[diagnostics].files[].items[].source",
        Text(OtherTexts),
    ),
    ("steps[advanceTime].kind", Structure),
    ("steps[registry].kind", Structure),
    ("steps[registry].skills[].name", Text(OtherTexts)),
    ("steps[registry].skills[].description", Text(OtherTexts)),
    ("steps[registry].agents[]", Text(OtherTexts)),
    ("steps[registry].mcpServers[].name", Text(OtherTexts)),
    (
        "steps[registry].mcpServers[].instructions",
        Text(OtherTexts),
    ),
    ("steps[registry].deferredTools[]", Structure),
    ("steps[queueCommand].kind", Structure),
    ("steps[queueCommand].prompt", Prompt),
    ("steps[criticalReminder].kind", Structure),
    ("steps[criticalReminder].text", Text(OtherTexts)),
    ("steps[usage].kind", Structure),
    ("steps[taskStatus].kind", Structure),
    ("steps[taskStatus].taskId", Structure),
    ("steps[taskStatus].description", Text(OtherTexts)),
    ("steps[taskStatus].status", Structure),
    ("steps[compact].kind", Structure),
    ("steps[compact].policy", Structure),
    ("steps[compact].params", Structure),
    ("steps[compact].trigger", Structure),
    ("steps[compact].direction", Structure),
    ("steps[compact].instructions", Text(OtherTexts)),
    ("steps[compact].summary", Text(OtherTexts)),
    ("steps[turnSettings].kind", Structure),
    ("steps[turnSettings].model", Structure),
    ("steps[turnSettings].modelInstructions", Text(OtherTexts)),
    ("steps[turnSettings].approvalPolicy", Structure),
    ("steps[turnSettings].sandboxMode", Structure),
    (
        "steps[turnSettings].personality",
        TextUnlessOneOf(&["none", "friendly", "pragmatic"]),
    ),
    ("steps[turnSettings].collaborationMode", Text(OtherTexts)),
    (
        "steps[turnSettings].developerInstructions",
        Text(OtherTexts),
    ),
    ("steps[turnSettings].shell", Structure),
    ("steps[turnSettings].timezone", Text(OtherTexts)),
    ("steps[turnSettings].environments[].id", Text(OtherTexts)),
    ("steps[turnSettings].environments[].cwd", Path),
    ("steps[turnSettings].environments[].shell", Structure),
    ("steps[turnSettings].subagents[].id", Structure),
    ("steps[turnSettings].subagents[].name", Text(OtherTexts)),
    (
        "steps[turnSettings].realtimeStartInstructions",
        Text(OtherTexts),
    ),
    ("steps[resume].kind", Structure),
    ("steps[fork].kind", Structure),
    ("steps[rollback].kind", Structure),
    ("facts", Dropped),
    ("facts[].id", Dropped),
    ("facts[].kind", Dropped),
    ("facts[].text", Dropped),
    ("facts[].reference", Dropped),
];

/// The rule for the strings at `place`: its row, or text when it has none.
pub(super) fn rule_at(place: &str) -> FieldRule {
    FIELD_RULES
        .iter()
        .find(|(known, _)| *known == place)
        .map_or(Text(OtherTexts), |(_, rule)| *rule)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_place_has_one_row() {
        for (index, (place, _)) in FIELD_RULES.iter().enumerate() {
            assert!(
                FIELD_RULES[index + 1..]
                    .iter()
                    .all(|(other, _)| other != place),
                "{place} twice"
            );
        }
    }

    #[test]
    fn a_place_without_a_row_is_text() {
        assert_eq!(rule_at("config.newField"), Text(OtherTexts));
        assert_eq!(rule_at("steps[user].prompt"), Prompt);
    }
}
