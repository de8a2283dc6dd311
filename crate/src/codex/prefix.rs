//! The prefix a Codex release sends before its input: its base instructions and its tool
//! definitions. Their texts are the vendor's, so the library never copies them; each is
//! modelled by a stand-in of exactly the size the conformance lab measured in the release's
//! requests (`node tests/conformance/codex-run.mjs --client <version>`, the `prefix` item),
//! so that the meter, the prompt cache, the compaction thresholds and the costs see the real
//! prefix. A stand-in opens with a label saying what it stands for and its measured size
//! ([`crate::codex::wording::stand_in_label`]).
//!
//! The measures are those of the lab's model, `gpt-5.3-codex`, with the release's defaults:
//! in 0.171.0, whose catalogue no longer lists that model, the fallback base instructions.
//! A personality chosen before the first prompt is written into 0.139.0's base instructions,
//! which the lab measured for each preset ([`MeasuredPrefix::personalities`]); 0.171.0's do not
//! change with it. Other settings change the originals a little; the stand-ins keep the
//! default's size, except for the web search tool, which states whether it may reach the web
//! (`"external_web_access":true`, one byte shorter than `false`, under full access only) and,
//! for a model that searches images, `"search_content_types":["text","image"]` ([`WebSearch`]).
//!
//! ```
//! use context_assembly::codex::prefix::ReleasePrefix;
//! let text = ReleasePrefix::Codex0171.base_instructions(None);
//! assert_eq!(text.len(), 17_119); // UTF-8 bytes, as measured
//! // 0.139.0 writes a personality chosen before the first prompt into them.
//! assert_eq!(ReleasePrefix::Codex0139.base_instructions(Some("friendly")).len(), 12_943);
//! assert!(text.starts_with("Stand-in for the base instructions of Codex CLI 0.171.0"));
//! ```

use alloc::string::String;
use alloc::vec::Vec;

use super::wording::stand_in_label;
use crate::tokens::sized::{filled, sized_text, MeasuredText};

crate::vocabulary::named_enum! {
    /// The release whose measured prefix a profile sends.
    pub enum ReleasePrefix {
        /// Codex CLI 0.139.0: base instructions in the `instructions` field, 11 tools.
        Codex0139 => "codex-0.139.0",
        /// Codex CLI 0.171.0: base instructions as the first developer message of the
        /// input, 9 tools (the multi-agent tools among them).
        Codex0171 => "codex-0.171.0",
    }
}

/// One tool definition as the release sends it: its name (a fact) and the UTF-8 size of its
/// JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MeasuredTool {
    /// The tool's name.
    pub name: &'static str,
    /// Its definition's JSON, in bytes.
    pub bytes: u64,
    /// The calibrated counter's tokens of that JSON, which bill its stand-in.
    pub tokens: u64,
}

/// What one release sends before its input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MeasuredPrefix {
    /// The release, as npm publishes it.
    pub release: &'static str,
    /// The base instructions.
    pub base_instructions: MeasuredText,
    /// The calibrated counter's tokens of the base instructions, which bill their stand-in.
    pub base_instructions_tokens: u64,
    /// The tools, in the order the release offers them.
    pub tools: &'static [MeasuredTool],
    /// The base instructions with another personality than the default written into them,
    /// where that changes their size.
    pub personalities: &'static [MeasuredPersonality],
}

/// The base instructions as a release renders them for one personality.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MeasuredPersonality {
    /// The personality (a preset's name).
    pub personality: &'static str,
    /// The base instructions rendered with it.
    pub text: MeasuredText,
    /// The calibrated counter's tokens of them.
    pub tokens: u64,
}

impl MeasuredPrefix {
    /// The base instructions' measures and tokens when rendered for `personality` (`None`:
    /// not rendered yet, the default's); a personality not listed keeps the default's.
    pub fn base_instructions_for(&self, personality: Option<&str>) -> (MeasuredText, u64) {
        self.personalities
            .iter()
            .find(|measured| Some(measured.personality) == personality)
            .map_or(
                (self.base_instructions, self.base_instructions_tokens),
                |measured| (measured.text, measured.tokens),
            )
    }
}

/// Codex CLI 0.139.0, measured on `lab/first-turn`.
const CODEX_0_139_0: MeasuredPrefix = MeasuredPrefix {
    release: "0.139.0",
    base_instructions: MeasuredText {
        bytes: 12_377,
        chars: 12_343,
        line_breaks: 116,
        escaped: 15,
        astral: 0,
    },
    base_instructions_tokens: 2_762,
    // Measured on `lab/personality-first-turn` (friendly) and the same scenario with `none`;
    // `pragmatic`, the default, is the size above.
    personalities: &[
        MeasuredPersonality {
            personality: "friendly",
            text: MeasuredText {
                bytes: 12_943,
                chars: 12_909,
                line_breaks: 120,
                escaped: 19,
                astral: 0,
            },
            tokens: 2_876,
        },
        MeasuredPersonality {
            personality: "none",
            text: MeasuredText {
                bytes: 10_524,
                chars: 10_490,
                line_breaks: 99,
                escaped: 15,
                astral: 0,
            },
            tokens: 2_375,
        },
    ],
    tools: &[
        MeasuredTool {
            name: "exec_command",
            bytes: 1_564,
            tokens: 374,
        },
        MeasuredTool {
            name: "write_stdin",
            bytes: 784,
            tokens: 182,
        },
        MeasuredTool {
            name: "update_plan",
            bytes: 733,
            tokens: 169,
        },
        MeasuredTool {
            name: "request_user_input",
            bytes: 1_355,
            tokens: 312,
        },
        MeasuredTool {
            name: "apply_patch",
            bytes: 838,
            tokens: 252,
        },
        MeasuredTool {
            name: "view_image",
            bytes: 526,
            tokens: 120,
        },
        MeasuredTool {
            name: "get_goal",
            bytes: 281,
            tokens: 66,
        },
        MeasuredTool {
            name: "create_goal",
            bytes: 761,
            tokens: 169,
        },
        MeasuredTool {
            name: "update_goal",
            bytes: 1_940,
            tokens: 425,
        },
        MeasuredTool {
            name: "tool_search",
            bytes: 804,
            tokens: 188,
        },
        MeasuredTool {
            name: "web_search",
            bytes: 49,
            tokens: 15,
        },
    ],
};

/// Codex CLI 0.171.0, measured on `lab/first-turn`.
const CODEX_0_171_0: MeasuredPrefix = MeasuredPrefix {
    release: "0.171.0",
    base_instructions: MeasuredText {
        bytes: 17_119,
        chars: 16_979,
        line_breaks: 195,
        escaped: 27,
        astral: 0,
    },
    base_instructions_tokens: 3_807,
    // The same size whatever the personality (measured with none, friendly and pragmatic).
    personalities: &[],
    tools: &[
        MeasuredTool {
            name: "exec_command",
            bytes: 1_529,
            tokens: 365,
        },
        MeasuredTool {
            name: "write_stdin",
            bytes: 784,
            tokens: 182,
        },
        MeasuredTool {
            name: "request_user_input",
            bytes: 1_355,
            tokens: 312,
        },
        MeasuredTool {
            name: "view_image",
            bytes: 371,
            tokens: 82,
        },
        MeasuredTool {
            name: "multi_agent_v1",
            bytes: 10_887,
            tokens: 2_505,
        },
        MeasuredTool {
            name: "get_goal",
            bytes: 281,
            tokens: 66,
        },
        MeasuredTool {
            name: "create_goal",
            bytes: 760,
            tokens: 167,
        },
        MeasuredTool {
            name: "update_goal",
            bytes: 2_172,
            tokens: 479,
        },
        MeasuredTool {
            name: "web_search",
            bytes: 49,
            tokens: 15,
        },
    ],
};

/// A stand-in tool definition: the release's tool name, a stand-in description, and the
/// smallest input schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StandInTool {
    /// The tool's name.
    pub name: String,
    /// The stand-in for its description.
    pub description: String,
    /// Its input schema, as JSON.
    pub input_schema: String,
}

/// The tool whose definition says whether it may reach the web.
const WEB_SEARCH: &str = "web_search";

/// The bytes `,"search_content_types":["text","image"]` adds to the web search tool.
const IMAGE_SEARCH_BYTES: u64 = 40;

/// What the web search tool's definition states besides its type, which changes its size.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WebSearch {
    /// The sandbox gives full access: `"external_web_access":true`, a byte shorter than
    /// `false`.
    pub web_access: bool,
    /// The model searches images too (its catalogue says so): the content types are listed.
    pub image_search: bool,
}

impl WebSearch {
    /// The web search tool's size under these flags, from its measured default size.
    fn bytes(self, measured: u64) -> u64 {
        measured - u64::from(self.web_access) + IMAGE_SEARCH_BYTES * u64::from(self.image_search)
    }
}

/// The input schema every stand-in tool takes.
const STAND_IN_SCHEMA: &str = r#"{"type":"object"}"#;

/// IMPORTANT: the bytes a tool block adds around its name, description and schema, as
/// `request::context::tool_blocks` writes it (`{"name":…,"description":…,"input_schema":…}`,
/// the two strings quoted); change both together. The description is ASCII without
/// characters JSON escapes, so its quoted form is two bytes longer.
pub const TOOL_BLOCK_ENVELOPE: u64 = 44;

impl ReleasePrefix {
    /// The release's measures.
    pub const fn measured(self) -> &'static MeasuredPrefix {
        match self {
            ReleasePrefix::Codex0139 => &CODEX_0_139_0,
            ReleasePrefix::Codex0171 => &CODEX_0_171_0,
        }
    }

    /// The stand-in for the base instructions rendered for `personality` (`None` before the
    /// first turn renders them): its label, then filler, of exactly the measured bytes,
    /// characters, line breaks and escaped characters.
    pub fn base_instructions(self, personality: Option<&str>) -> String {
        let measured = self.measured();
        let (text, _) = measured.base_instructions_for(personality);
        let label = stand_in_label(measured.release, "base instructions", text.bytes);
        sized_text(&label, text)
    }

    /// The stand-in tools, in the release's order: each block as long as the release's
    /// definition where that is possible, and the whole exactly as long as the release's
    /// tools. A definition shorter than the smallest block (the web search tool) is taken
    /// from the largest tool's description. `web_search`: what the web search tool states,
    /// which changes its size.
    pub fn tools(self, web_search: WebSearch) -> Vec<StandInTool> {
        let measured = self.measured();
        let overhead = |tool: &MeasuredTool| {
            TOOL_BLOCK_ENVELOPE + len_u64(tool.name) + len_u64(STAND_IN_SCHEMA)
        };
        let bytes = |tool: &MeasuredTool| match tool.name {
            WEB_SEARCH => web_search.bytes(tool.bytes),
            _ => tool.bytes,
        };
        let mut lengths: Vec<u64> = (measured.tools.iter())
            .map(|tool| bytes(tool).saturating_sub(overhead(tool)))
            .collect();
        let excess: u64 = (measured.tools.iter())
            .map(|tool| overhead(tool).saturating_sub(bytes(tool)))
            .sum();
        if let Some(largest) = (0..lengths.len()).max_by_key(|&i| lengths[i]) {
            lengths[largest] = lengths[largest].saturating_sub(excess);
        }
        (measured.tools.iter().zip(lengths))
            .map(|(tool, length)| {
                let label = stand_in_label(
                    measured.release,
                    &alloc::format!("{} tool's definition", tool.name),
                    tool.bytes,
                );
                StandInTool {
                    name: tool.name.into(),
                    description: filled(&label, length),
                    input_schema: STAND_IN_SCHEMA.into(),
                }
            })
            .collect()
    }
}

fn len_u64(text: &str) -> u64 {
    u64::try_from(text.len()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_stand_in_has_exactly_the_measured_size() {
        for release in ReleasePrefix::ALL {
            let measured = release.measured();
            let text = release.base_instructions(None);
            assert_eq!(
                MeasuredText::of(&text),
                measured.base_instructions,
                "{release}"
            );
            assert!(text.ends_with('\n'));
            let blocks = |web_search| -> u64 {
                (release.tools(web_search).iter())
                    .map(|tool| {
                        TOOL_BLOCK_ENVELOPE
                            + len_u64(&tool.name)
                            + len_u64(&tool.description)
                            + len_u64(&tool.input_schema)
                    })
                    .sum()
            };
            let total: u64 = measured.tools.iter().map(|tool| tool.bytes).sum();
            for (web_access, image_search) in
                [(false, false), (true, false), (false, true), (true, true)]
            {
                let flags = WebSearch {
                    web_access,
                    image_search,
                };
                let expected = total - u64::from(web_access) + 40 * u64::from(image_search);
                assert_eq!(blocks(flags), expected, "{release} {flags:?}");
            }
        }
    }

    #[test]
    fn a_tool_stand_in_says_what_it_stands_for() {
        let tools = ReleasePrefix::Codex0171.tools(WebSearch::default());
        let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_str()).collect();
        assert_eq!(names[4], "multi_agent_v1");
        assert!(tools[0].description.starts_with(
            "Stand-in for the exec_command tool's definition of Codex CLI 0.171.0: 1529 bytes"
        ));
    }
}
