//! What a Claude Code release offers the model besides its tool definitions: the tools it
//! defers behind its tool search (only their names are sent, in a listing), the agent types
//! its agent tool can launch, and the tools of the earlier release it no longer offers at
//! all, which a model calling them is told do not exist. Names and tool lists are facts the
//! conformance lab read in the release's requests; the agent types' descriptions are ours.
//!
//! ```
//! use context_assembly::request::prefix::ClaudePrefix;
//! let current = ClaudePrefix::ClaudeCode2332;
//! assert!(current.deferred_tools(true).contains(&"WebFetch"));
//! // Its terminal UI defers one tool more than print mode (`-p`).
//! assert!(current.deferred_tools(false).contains(&"DesignSync"));
//! assert!(!current.deferred_tools(true).contains(&"DesignSync"));
//! assert!(!current.offers("Glob", true));
//! assert!(ClaudePrefix::ClaudeCode2188.offers("Glob", true));
//! // 2.1.88's terminal UI offers the task tools in place of TodoWrite.
//! assert!(ClaudePrefix::ClaudeCode2188.offers("TodoWrite", true));
//! assert!(!ClaudePrefix::ClaudeCode2188.offers("TodoWrite", false));
//! assert!(current.agent_entries(true)[0].starts_with("- claude: "));
//! assert!(current.agent_entries(false)[1].starts_with("- claude-code-guide: "));
//! ```

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::prefix::ClaudePrefix;

/// A built-in agent type: its name and the tools it may use (facts), what it is for (ours).
struct AgentType {
    name: &'static str,
    purpose: &'static str,
    tools: &'static str,
}

/// What 2.1.88's terminal UI does not offer that its print mode does: the task tools
/// (TaskCreate, TaskGet, TaskList, TaskUpdate) replace TodoWrite there.
const TERMINAL_DROPS_2_1_88: &[&str] = &["TodoWrite"];

/// The tools 2.1.332 defers: listed by name in its system-role message, loaded on demand.
const DEFERRED_2_1_332: &[&str] = &[
    "CronCreate",
    "CronDelete",
    "CronList",
    "EnterPlanMode",
    "EnterWorktree",
    "ExitPlanMode",
    "ExitWorktree",
    "Monitor",
    "NotebookEdit",
    "SendMessage",
    "TaskStop",
    "WebFetch",
    "WebSearch",
];

/// The tools 2.1.332 defers in its terminal UI only: print mode (`-p`) leaves them out.
const DEFERRED_IN_TERMINAL_2_1_332: &[&str] = &["DesignSync"];

/// The agent type 2.1.332 lists in its terminal UI only.
const GUIDE_AGENT_2_1_332: AgentType = AgentType {
    name: "claude-code-guide",
    purpose: "answers questions about the client itself, its features and settings",
    tools: "Bash, Read, WebFetch, WebSearch",
};

/// The tools a read-only agent of 2.1.332 may not use.
const READ_ONLY_AGENT_TOOLS: &str = "All tools except Agent, Artifact, ArtifactComments, \
                                     ArtifactData, ArtifactCheck, ExitPlanMode, Edit, Write, \
                                     NotebookEdit";

/// The agent types 2.1.332 lists for its agent tool, in its order.
const AGENTS_2_1_332: &[AgentType] = &[
    AgentType {
        name: "claude",
        purpose: "a general agent for any task, with every tool",
        tools: "*",
    },
    AgentType {
        name: "Explore",
        purpose: "searches and reads the codebase to answer a question; changes nothing",
        tools: READ_ONLY_AGENT_TOOLS,
    },
    AgentType {
        name: "general-purpose",
        purpose: "researches and carries out multi-step tasks",
        tools: "*",
    },
    AgentType {
        name: "Plan",
        purpose: "designs an implementation plan; changes nothing",
        tools: READ_ONLY_AGENT_TOOLS,
    },
    AgentType {
        name: "statusline-setup",
        purpose: "configures the status line",
        tools: "Read, Edit",
    },
];

/// The tools 2.1.88 offered that 2.1.332 neither offers nor defers.
const DROPPED_BY_2_1_332: &[&str] = &["Glob", "Grep", "TodoWrite"];

impl ClaudePrefix {
    /// The tools the release defers behind its tool search, by name, in its order
    /// (alphabetical): in print mode (`print_mode`) or in its terminal UI, which defers more.
    pub fn deferred_tools(self, print_mode: bool) -> Vec<&'static str> {
        let (all, terminal_only) = match self {
            ClaudePrefix::ClaudeCode2188 => (&[][..], &[][..]),
            ClaudePrefix::ClaudeCode2332 => (DEFERRED_2_1_332, DEFERRED_IN_TERMINAL_2_1_332),
        };
        let extra = if print_mode { &[][..] } else { terminal_only };
        let mut names: Vec<&'static str> = all.iter().chain(extra).copied().collect();
        crate::sort::sort(&mut names);
        names
    }

    /// The release's built-in agent types as its listing shows them, one entry each:
    /// `- name: what it is for (Tools: …)`, in its order (alphabetical, ignoring case); the
    /// terminal UI lists one more than print mode (`print_mode`).
    pub fn agent_entries(self, print_mode: bool) -> Vec<String> {
        let agents: &[AgentType] = match self {
            ClaudePrefix::ClaudeCode2188 => &[],
            ClaudePrefix::ClaudeCode2332 => AGENTS_2_1_332,
        };
        let guide =
            (self == ClaudePrefix::ClaudeCode2332 && !print_mode).then_some(&GUIDE_AGENT_2_1_332);
        let mut listed: Vec<&AgentType> = agents.iter().chain(guide).collect();
        crate::sort::sort_by_key(&mut listed, |agent| agent.name.to_ascii_lowercase());
        (listed.into_iter())
            .map(|agent| {
                format!(
                    "- {}: {} (Tools: {})",
                    agent.name, agent.purpose, agent.tools
                )
            })
            .collect()
    }

    /// Whether the release offers `tool` at all (in full or deferred), in print mode or its
    /// terminal UI; a call to a tool it does not offer gets an error result.
    pub fn offers(self, tool: &str, print_mode: bool) -> bool {
        match self {
            ClaudePrefix::ClaudeCode2188 => print_mode || !TERMINAL_DROPS_2_1_88.contains(&tool),
            ClaudePrefix::ClaudeCode2332 => !DROPPED_BY_2_1_332.contains(&tool),
        }
    }
}
