//! The prefix a Claude Code release sends before the conversation: its system prompt and its
//! tool definitions. Their texts are the vendor's, so the library never copies them; each is
//! modelled by a stand-in of exactly the size the conformance lab measured in the release's
//! requests (`node tests/conformance/measure-prefix.mjs RECORDED_REQUEST.json`), so that the
//! meter, the prompt cache (its 1,024-token minimum), the compaction thresholds and the costs
//! see the real prefix. A stand-in opens with a label saying what it stands for and its
//! measured size ([`crate::wording::context::stand_in_label`]); each block carries a
//! [`StandIn`] with the release and the original's tokens, which bill it
//! (`scenario/billing.rs`).
//!
//! The system prompt comes in two parts, as the engine sends it: the static part (2.1.88's
//! billing line, identity line and static prompt, up to its cache boundary) and the session's
//! guidance (2.1.88's last block up to its environment section; the environment lines that
//! follow are the engine's own, with the session's real paths). 2.1.332 sends no session
//! block: its environment travels in a system-role message. The tools keep the input schemas
//! of the tools a scenario calls ([`super::default_tools`]), others the smallest schema; each
//! definition's JSON is as long, in UTF-16 units (what Claude Code's `length / 4` reads), as the
//! release's. The measures are those of the lab's model, `claude-sonnet-4-6`, with auto memory
//! on (its section is most of 2.1.88's guidance), in print mode (`claude -p`, the lab) and in
//! the terminal UI (`make conformance-terminal`), which sends other sizes: a scenario's
//! `config.printMode` chooses.
//!
//! ```
//! use context_assembly::request::prefix::ClaudePrefix;
//! let text = ClaudePrefix::ClaudeCode2188.static_prompt(true);
//! assert_eq!(text.chars().count(), 11_843);
//! assert!(text.starts_with("Stand-in for the system prompt of Claude Code 2.1.88"));
//! assert_eq!(ClaudePrefix::ClaudeCode2188.tools(true).len(), 22);
//! // The terminal UI offers the task tools in place of TodoWrite.
//! let terminal = ClaudePrefix::ClaudeCode2188.tools(false);
//! assert_eq!(terminal.len(), 25);
//! assert!(!terminal.iter().any(|tool| tool.name == "TodoWrite"));
//! ```

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{default_tools, Block, StandIn, ToolDefinition};
use crate::codex::prefix::{ReleasePrefix, TOOL_BLOCK_ENVELOPE};
use crate::tokens::sized::{filled, sized_text, MeasuredText};
use crate::tokens::TokenMethod;
use crate::wording::context::stand_in_label;

crate::vocabulary::named_enum! {
    /// The Claude Code release whose measured prefix a profile sends.
    pub enum ClaudePrefix {
        /// Claude Code 2.1.88: 22 tools, the environment in the system prompt.
        ClaudeCode2188 => "claude-code-2.1.88",
        /// Claude Code 2.1.332: 12 tools and a placeholder for the deferred ones, no session
        /// block in the system prompt.
        ClaudeCode2332 => "claude-code-2.1.332",
    }
}

/// One part of the prefix as the release sends it: its size, and the tokens the billing
/// counter reads in the original (the one counter every profile is billed with, calibrated:
/// `scenario/billing.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MeasuredPart {
    /// The original's size.
    pub text: MeasuredText,
    /// The calibrated counter's tokens of the original.
    pub tokens: u64,
}

/// One tool definition as the release sends it: its name (a fact), its JSON's length and
/// tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MeasuredTool {
    /// The tool's name.
    pub name: &'static str,
    /// Its definition's JSON, in UTF-16 units.
    pub utf16_units: u64,
    /// The calibrated counter's tokens of that JSON.
    pub tokens: u64,
}

/// What one release sends before the conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MeasuredPrefix {
    /// The release, as npm publishes it.
    pub release: &'static str,
    /// The system prompt's static part.
    pub static_prompt: MeasuredPart,
    /// The session's guidance before the environment (empty: no session block).
    pub guidance: MeasuredPart,
    /// The tools, in the order the release offers them.
    pub tools: &'static [MeasuredTool],
}

/// Which parts of a request are a release's stand-ins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StandInsUsed {
    /// The system prompt (the host set none).
    pub system: bool,
    /// The tools (the host declared none).
    pub tools: bool,
}

/// The source of the block the session's guidance travels in.
pub const GUIDANCE_SOURCE: &str = "session_guidance";

/// The source of the system prompt's static block.
pub const STATIC_SOURCE: &str = "system_static";

/// The source of Codex's base instructions' block.
pub const BASE_INSTRUCTIONS_SOURCE: &str = "base_instructions";

/// The input schema of a stand-in tool a scenario never calls.
const SMALLEST_SCHEMA: &str = r#"{"type":"object"}"#;

impl ClaudePrefix {
    /// The release's measures in print mode (`claude -p`, `print_mode`) or its terminal UI,
    /// which sends a prompt and tools of other sizes (2.1.88's: the task tools in place of
    /// TodoWrite).
    pub const fn measured(self, print_mode: bool) -> &'static MeasuredPrefix {
        match (self, print_mode) {
            (ClaudePrefix::ClaudeCode2188, true) => &CLAUDE_CODE_2_1_88,
            (ClaudePrefix::ClaudeCode2188, false) => &CLAUDE_CODE_2_1_88_TERMINAL,
            (ClaudePrefix::ClaudeCode2332, true) => &CLAUDE_CODE_2_1_332,
            (ClaudePrefix::ClaudeCode2332, false) => &CLAUDE_CODE_2_1_332_TERMINAL,
        }
    }

    /// The release as a reader names it: `Claude Code 2.1.88`.
    pub fn release_name(self) -> String {
        format!("Claude Code {}", self.measured(true).release)
    }

    /// The stand-in for the system prompt's static part, of exactly its measured size.
    pub fn static_prompt(self, print_mode: bool) -> String {
        let measured = self.measured(print_mode);
        let label = stand_in_label(
            measured.release,
            "system prompt",
            measured.static_prompt.text.chars,
        );
        sized_text(&label, measured.static_prompt.text)
    }

    /// The stand-in for the session's guidance, placed before the environment; `None` for a
    /// release without a session block.
    pub fn guidance(self, print_mode: bool) -> Option<String> {
        let measured = self.measured(print_mode).guidance;
        if measured.text.chars == 0 {
            return None;
        }
        let label = stand_in_label(
            self.measured(print_mode).release,
            "session guidance",
            measured.text.chars,
        );
        Some(sized_text(&label, measured.text))
    }

    /// The stand-in tools, in the release's order, each definition's JSON as long as the
    /// release's (in UTF-16 units): the tools a scenario calls keep their input schema
    /// ([`default_tools`]), the others take the smallest.
    pub fn tools(self, print_mode: bool) -> Vec<ToolDefinition> {
        let measured = self.measured(print_mode);
        let ours = default_tools();
        (measured.tools.iter())
            .map(|tool| {
                let input_schema = (ours.iter())
                    .find(|known| known.name == tool.name)
                    .map_or_else(
                        || SMALLEST_SCHEMA.into(),
                        |known| known.input_schema.clone(),
                    );
                // Name, schema and description are ASCII here, so bytes are UTF-16 units.
                let overhead =
                    TOOL_BLOCK_ENVELOPE + tool.name.len() as u64 + input_schema.len() as u64;
                let what = format!("{} tool's definition", tool.name);
                let label = stand_in_label(measured.release, &what, tool.utf16_units);
                ToolDefinition {
                    name: tool.name.into(),
                    description: filled(&label, tool.utf16_units.saturating_sub(overhead)),
                    input_schema,
                    deferred: false,
                }
            })
            .collect()
    }
}

/// The blocks of a request that stand in for a release's text: each block's source with the
/// tokens the calibrated counter reads in the original, and the release they stand for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StandInMarks {
    /// The release, as a reader names it (`Claude Code 2.1.88`, `Codex CLI 0.171.0`).
    pub release: String,
    /// Each stand-in block's source and its original's tokens.
    pub blocks: Vec<(&'static str, u64)>,
}

impl StandInMarks {
    /// A Claude Code release's stand-ins among the parts `used` names: a host's own system
    /// prompt or tools stand for nothing.
    pub fn claude_code(prefix: ClaudePrefix, print_mode: bool, used: StandInsUsed) -> StandInMarks {
        let measured = prefix.measured(print_mode);
        let system = [
            (STATIC_SOURCE, measured.static_prompt.tokens),
            (GUIDANCE_SOURCE, measured.guidance.tokens),
        ];
        let tools = measured.tools.iter().map(|tool| (tool.name, tool.tokens));
        StandInMarks {
            release: prefix.release_name(),
            blocks: Self::used(system.into_iter(), tools, used),
        }
    }

    /// A Codex release's stand-ins among the parts `used` names, its base instructions
    /// rendered for `personality` ([`ReleasePrefix::base_instructions`]).
    pub fn codex(
        prefix: ReleasePrefix,
        personality: Option<&str>,
        used: StandInsUsed,
    ) -> StandInMarks {
        let measured = prefix.measured();
        let (_, tokens) = measured.base_instructions_for(personality);
        let system = [(BASE_INSTRUCTIONS_SOURCE, tokens)];
        let tools = measured.tools.iter().map(|tool| (tool.name, tool.tokens));
        StandInMarks {
            release: format!("Codex CLI {}", measured.release),
            blocks: Self::used(system.into_iter(), tools, used),
        }
    }

    fn used(
        system: impl Iterator<Item = (&'static str, u64)>,
        tools: impl Iterator<Item = (&'static str, u64)>,
        used: StandInsUsed,
    ) -> Vec<(&'static str, u64)> {
        (system.filter(|_| used.system))
            .chain(tools.filter(|_| used.tools))
            .collect()
    }

    /// Marks the stand-in blocks with what they stand for, and under the calibrated counter
    /// counts each at the original's tokens (its filler counts fewer than the prose it
    /// stands for).
    pub fn apply(&self, blocks: &mut [Block], method: TokenMethod) {
        for block in blocks {
            let Some(&(_, tokens)) = self
                .blocks
                .iter()
                .find(|(source, _)| *source == block.source)
            else {
                continue;
            };
            block.stand_in = Some(StandIn {
                release: self.release.clone(),
                tokens,
            });
            if method == TokenMethod::Calibrated {
                block.tokens = tokens;
            }
        }
    }
}

/// Claude Code 2.1.88, measured on `external-edit`'s first request: four system blocks, 22 tools.
const CLAUDE_CODE_2_1_88: MeasuredPrefix = MeasuredPrefix {
    release: "2.1.88",
    static_prompt: MeasuredPart {
        text: MeasuredText {
            chars: 11_843,
            astral: 0,
            bytes: 11_849,
            line_breaks: 73,
            escaped: 10,
        },
        tokens: 2_581,
    },
    guidance: MeasuredPart {
        text: MeasuredText {
            chars: 13_852,
            astral: 0,
            bytes: 13_902,
            line_breaks: 138,
            escaped: 22,
        },
        tokens: 3_103,
    },
    tools: &[
        MeasuredTool {
            name: "Agent",
            utf16_units: 7_695,
            tokens: 1_773,
        },
        MeasuredTool {
            name: "AskUserQuestion",
            utf16_units: 4_182,
            tokens: 957,
        },
        MeasuredTool {
            name: "Bash",
            utf16_units: 11_632,
            tokens: 2_771,
        },
        MeasuredTool {
            name: "CronCreate",
            utf16_units: 4_029,
            tokens: 1_070,
        },
        MeasuredTool {
            name: "CronDelete",
            utf16_units: 427,
            tokens: 103,
        },
        MeasuredTool {
            name: "CronList",
            utf16_units: 277,
            tokens: 67,
        },
        MeasuredTool {
            name: "Edit",
            utf16_units: 1_703,
            tokens: 392,
        },
        MeasuredTool {
            name: "EnterPlanMode",
            utf16_units: 4_323,
            tokens: 1_040,
        },
        MeasuredTool {
            name: "EnterWorktree",
            utf16_units: 1_780,
            tokens: 442,
        },
        MeasuredTool {
            name: "ExitPlanMode",
            utf16_units: 2_538,
            tokens: 564,
        },
        MeasuredTool {
            name: "ExitWorktree",
            utf16_units: 2_505,
            tokens: 607,
        },
        MeasuredTool {
            name: "Glob",
            utf16_units: 966,
            tokens: 224,
        },
        MeasuredTool {
            name: "Grep",
            utf16_units: 3_393,
            tokens: 872,
        },
        MeasuredTool {
            name: "NotebookEdit",
            utf16_units: 1_509,
            tokens: 350,
        },
        MeasuredTool {
            name: "Read",
            utf16_units: 2_483,
            tokens: 567,
        },
        MeasuredTool {
            name: "Skill",
            utf16_units: 1_677,
            tokens: 427,
        },
        MeasuredTool {
            name: "TaskOutput",
            utf16_units: 1_195,
            tokens: 280,
        },
        MeasuredTool {
            name: "TaskStop",
            utf16_units: 537,
            tokens: 130,
        },
        MeasuredTool {
            name: "TodoWrite",
            utf16_units: 9_841,
            tokens: 2_246,
        },
        MeasuredTool {
            name: "WebFetch",
            utf16_units: 1_865,
            tokens: 432,
        },
        MeasuredTool {
            name: "WebSearch",
            utf16_units: 1_874,
            tokens: 448,
        },
        MeasuredTool {
            name: "Write",
            utf16_units: 1_022,
            tokens: 232,
        },
    ],
};

/// Claude Code 2.1.332, measured on `external-edit`'s first request: three system blocks (no
/// session block: the environment travels in a system-role message), 12 tools and the
/// deferred tools' placeholder.
const CLAUDE_CODE_2_1_332: MeasuredPrefix = MeasuredPrefix {
    release: "2.1.332",
    static_prompt: MeasuredPart {
        text: MeasuredText {
            chars: 7_154,
            astral: 0,
            bytes: 7_176,
            line_breaks: 57,
            escaped: 0,
        },
        tokens: 1_664,
    },
    guidance: MeasuredPart {
        text: MeasuredText {
            chars: 0,
            astral: 0,
            bytes: 0,
            line_breaks: 0,
            escaped: 0,
        },
        tokens: 0,
    },
    tools: &[
        MeasuredTool {
            name: "Agent",
            utf16_units: 5_244,
            tokens: 1_181,
        },
        MeasuredTool {
            name: "AskUserQuestion",
            utf16_units: 4_498,
            tokens: 1_022,
        },
        MeasuredTool {
            name: "Bash",
            utf16_units: 3_894,
            tokens: 946,
        },
        MeasuredTool {
            name: "Edit",
            utf16_units: 964,
            tokens: 231,
        },
        MeasuredTool {
            name: "ListAgents",
            utf16_units: 1_963,
            tokens: 449,
        },
        MeasuredTool {
            name: "Read",
            utf16_units: 1_919,
            tokens: 457,
        },
        MeasuredTool {
            name: "ReportFindings",
            utf16_units: 2_418,
            tokens: 563,
        },
        MeasuredTool {
            name: "ScheduleWakeup",
            utf16_units: 4_886,
            tokens: 1_195,
        },
        MeasuredTool {
            name: "Skill",
            utf16_units: 1_803,
            tokens: 422,
        },
        MeasuredTool {
            name: "ToolSearch",
            utf16_units: 1_425,
            tokens: 350,
        },
        MeasuredTool {
            name: "Workflow",
            utf16_units: 5_688,
            tokens: 1_383,
        },
        MeasuredTool {
            name: "DeferredToolPlaceholder",
            utf16_units: 204,
            tokens: 45,
        },
        MeasuredTool {
            name: "Write",
            utf16_units: 639,
            tokens: 151,
        },
    ],
};

/// Claude Code 2.1.88's terminal UI, measured on `external-edit`'s first main request in the
/// terminal lab: a longer session block, the task tools in place of TodoWrite (25 tools).
const CLAUDE_CODE_2_1_88_TERMINAL: MeasuredPrefix = MeasuredPrefix {
    release: "2.1.88",
    static_prompt: MeasuredPart {
        text: MeasuredText {
            chars: 11_835,
            astral: 0,
            bytes: 11_841,
            line_breaks: 73,
            escaped: 10,
        },
        tokens: 2_579,
    },
    // The session block names the workspace, whose path differs between labs: print mode's
    // measure plus what the terminal's adds in the same lab (259 characters, 261 bytes, a
    // line break, 56 tokens).
    guidance: MeasuredPart {
        text: MeasuredText {
            chars: 14_111,
            astral: 0,
            bytes: 14_163,
            line_breaks: 139,
            escaped: 22,
        },
        tokens: 3_159,
    },
    tools: &[
        MeasuredTool {
            name: "Agent",
            utf16_units: 8_295,
            tokens: 1_929,
        },
        MeasuredTool {
            name: "AskUserQuestion",
            utf16_units: 4_880,
            tokens: 1_112,
        },
        MeasuredTool {
            name: "Bash",
            utf16_units: 11_631,
            tokens: 2_771,
        },
        MeasuredTool {
            name: "CronCreate",
            utf16_units: 4_029,
            tokens: 1_070,
        },
        MeasuredTool {
            name: "CronDelete",
            utf16_units: 427,
            tokens: 103,
        },
        MeasuredTool {
            name: "CronList",
            utf16_units: 277,
            tokens: 67,
        },
        MeasuredTool {
            name: "Edit",
            utf16_units: 1_703,
            tokens: 392,
        },
        MeasuredTool {
            name: "EnterPlanMode",
            utf16_units: 4_323,
            tokens: 1_040,
        },
        MeasuredTool {
            name: "EnterWorktree",
            utf16_units: 1_780,
            tokens: 442,
        },
        MeasuredTool {
            name: "ExitPlanMode",
            utf16_units: 2_538,
            tokens: 564,
        },
        MeasuredTool {
            name: "ExitWorktree",
            utf16_units: 2_505,
            tokens: 607,
        },
        MeasuredTool {
            name: "Glob",
            utf16_units: 966,
            tokens: 224,
        },
        MeasuredTool {
            name: "Grep",
            utf16_units: 3_393,
            tokens: 872,
        },
        MeasuredTool {
            name: "NotebookEdit",
            utf16_units: 1_509,
            tokens: 350,
        },
        MeasuredTool {
            name: "Read",
            utf16_units: 2_483,
            tokens: 567,
        },
        MeasuredTool {
            name: "Skill",
            utf16_units: 1_677,
            tokens: 427,
        },
        MeasuredTool {
            name: "TaskCreate",
            utf16_units: 2_816,
            tokens: 650,
        },
        MeasuredTool {
            name: "TaskGet",
            utf16_units: 1_018,
            tokens: 255,
        },
        MeasuredTool {
            name: "TaskList",
            utf16_units: 1_189,
            tokens: 291,
        },
        MeasuredTool {
            name: "TaskOutput",
            utf16_units: 1_195,
            tokens: 280,
        },
        MeasuredTool {
            name: "TaskStop",
            utf16_units: 537,
            tokens: 130,
        },
        MeasuredTool {
            name: "TaskUpdate",
            utf16_units: 3_510,
            tokens: 887,
        },
        MeasuredTool {
            name: "WebFetch",
            utf16_units: 1_865,
            tokens: 432,
        },
        MeasuredTool {
            name: "WebSearch",
            utf16_units: 1_874,
            tokens: 448,
        },
        MeasuredTool {
            name: "Write",
            utf16_units: 1_022,
            tokens: 232,
        },
    ],
};

/// Claude Code 2.1.332's terminal UI, measured on `external-edit`'s first request in the
/// terminal lab: a shorter static prompt; Agent, AskUserQuestion and Bash of other sizes.
const CLAUDE_CODE_2_1_332_TERMINAL: MeasuredPrefix = MeasuredPrefix {
    release: "2.1.332",
    static_prompt: MeasuredPart {
        text: MeasuredText {
            chars: 6_182,
            astral: 0,
            bytes: 6_206,
            line_breaks: 55,
            escaped: 0,
        },
        tokens: 1_454,
    },
    guidance: MeasuredPart {
        text: MeasuredText {
            chars: 0,
            astral: 0,
            bytes: 0,
            line_breaks: 0,
            escaped: 0,
        },
        tokens: 0,
    },
    tools: &[
        MeasuredTool {
            name: "Agent",
            utf16_units: 4_723,
            tokens: 1_068,
        },
        MeasuredTool {
            name: "AskUserQuestion",
            utf16_units: 5_196,
            tokens: 1_178,
        },
        MeasuredTool {
            name: "Bash",
            utf16_units: 3_689,
            tokens: 895,
        },
        MeasuredTool {
            name: "Edit",
            utf16_units: 964,
            tokens: 231,
        },
        MeasuredTool {
            name: "ListAgents",
            utf16_units: 1_963,
            tokens: 449,
        },
        MeasuredTool {
            name: "Read",
            utf16_units: 1_919,
            tokens: 457,
        },
        MeasuredTool {
            name: "ReportFindings",
            utf16_units: 2_418,
            tokens: 563,
        },
        MeasuredTool {
            name: "ScheduleWakeup",
            utf16_units: 4_886,
            tokens: 1_195,
        },
        MeasuredTool {
            name: "Skill",
            utf16_units: 1_803,
            tokens: 422,
        },
        MeasuredTool {
            name: "ToolSearch",
            utf16_units: 1_425,
            tokens: 350,
        },
        MeasuredTool {
            name: "Workflow",
            utf16_units: 5_688,
            tokens: 1_383,
        },
        MeasuredTool {
            name: "DeferredToolPlaceholder",
            utf16_units: 204,
            tokens: 45,
        },
        MeasuredTool {
            name: "Write",
            utf16_units: 639,
            tokens: 151,
        },
    ],
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::tool_blocks;

    #[test]
    fn each_stand_in_has_exactly_the_measured_size() {
        let modes = ClaudePrefix::ALL
            .iter()
            .flat_map(|&r| [(r, true), (r, false)]);
        for (release, print_mode) in modes {
            let measured = release.measured(print_mode);
            assert_eq!(
                MeasuredText::of(&release.static_prompt(print_mode)),
                measured.static_prompt.text
            );
            let guidance = release
                .guidance(print_mode)
                .map(|text| MeasuredText::of(&text));
            assert_eq!(
                guidance.unwrap_or_default(),
                measured.guidance.text,
                "{release}"
            );
            let blocks = tool_blocks(&release.tools(print_mode), TokenMethod::ClaudeCode);
            assert_eq!(blocks.len(), measured.tools.len());
            for (block, tool) in blocks.iter().zip(measured.tools) {
                assert_eq!(block.source, tool.name);
                assert_eq!(
                    block.text.encode_utf16().count() as u64,
                    tool.utf16_units,
                    "{}",
                    tool.name
                );
            }
        }
    }

    #[test]
    fn a_tool_a_scenario_calls_keeps_its_schema() {
        let tools = ClaudePrefix::ClaudeCode2188.tools(true);
        let read = tools.iter().find(|tool| tool.name == "Read").unwrap();
        assert!(read.input_schema.contains("file_path"));
        assert!(read
            .description
            .starts_with("Stand-in for the Read tool's definition of Claude Code 2.1.88"));
        let cron = tools.iter().find(|tool| tool.name == "CronList").unwrap();
        assert_eq!(cron.input_schema, SMALLEST_SCHEMA);
    }

    #[test]
    fn a_stand_in_is_marked_and_counted_at_the_original_under_the_calibrated_counter() {
        let release = ClaudePrefix::ClaudeCode2188;
        let tools = release.tools(true);
        let used = StandInsUsed {
            system: true,
            tools: true,
        };
        for method in [TokenMethod::ClaudeCode, TokenMethod::Calibrated] {
            let mut blocks = tool_blocks(&tools, method);
            let filler_tokens = blocks[0].tokens;
            StandInMarks::claude_code(release, true, used).apply(&mut blocks, method);
            let stand_in = blocks[0].stand_in.as_ref().unwrap();
            assert_eq!(
                (stand_in.release.as_str(), stand_in.tokens),
                ("Claude Code 2.1.88", 1_773)
            );
            let expected = match method {
                TokenMethod::Calibrated => 1_773,
                _ => filler_tokens,
            };
            assert_eq!(blocks[0].tokens, expected);
        }
        let host_tools = StandInsUsed {
            system: true,
            tools: false,
        };
        let mut blocks = tool_blocks(&tools, TokenMethod::ClaudeCode);
        StandInMarks::claude_code(release, true, host_tools)
            .apply(&mut blocks, TokenMethod::ClaudeCode);
        assert!(blocks.iter().all(|block| block.stand_in.is_none()));
    }

    #[test]
    fn codex_stand_ins_are_marked_with_their_release() {
        let used = StandInsUsed {
            system: true,
            tools: true,
        };
        let marks = StandInMarks::codex(ReleasePrefix::Codex0171, None, used);
        assert_eq!(marks.release, "Codex CLI 0.171.0");
        assert_eq!(marks.blocks[0], (BASE_INSTRUCTIONS_SOURCE, 3_807));
        assert!(marks.blocks.contains(&("multi_agent_v1", 2_505)));
    }
}
