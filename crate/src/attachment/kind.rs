//! The catalogue of attachment kinds and how often each is produced (spec §7.3).

/// How often a kind of attachment is produced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Frequency {
    /// Held back by a turn-counting cadence (plan mode, auto mode, todo reminders).
    Throttled,
    /// Sent once per new item (deferred tools, agents, MCP instructions).
    Delta,
    /// A full listing first, then only what is new (skills).
    FirstThenIncremental,
    /// Sent whenever its condition holds on a pass (a change, a mention, a selection).
    Event,
    /// Prefetched once per submitted prompt and consumed after the pass (relevant memories).
    Prefetch,
}

impl Frequency {
    /// The class as the playground and traces name it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Frequency::Throttled => "throttled",
            Frequency::Delta => "delta",
            Frequency::FirstThenIncremental => "first-then-incremental",
            Frequency::Event => "event",
            Frequency::Prefetch => "prefetch",
        }
    }
}

/// The frequency class of an attachment kind; kinds outside the catalogue are events.
///
/// # Example
/// ```
/// use context_assembly::attachment::{frequency_of, Frequency};
/// assert_eq!(frequency_of("plan_mode"), Frequency::Throttled);
/// assert_eq!(frequency_of("skill_listing"), Frequency::FirstThenIncremental);
/// assert_eq!(frequency_of("edited_text_file"), Frequency::Event);
/// ```
pub fn frequency_of(kind: &str) -> Frequency {
    match kind {
        "plan_mode" | "auto_mode" | "todo_reminder" | "task_reminder" => Frequency::Throttled,
        "deferred_tools_delta" | "agent_listing_delta" | "mcp_instructions_delta" => {
            Frequency::Delta
        }
        "skill_listing" => Frequency::FirstThenIncremental,
        "relevant_memories" => Frequency::Prefetch,
        _ => Frequency::Event,
    }
}

/// Kinds the original renders to nothing (§7.12): they are produced and recorded, and the
/// model sees no text.
pub const SILENT_KINDS: [&str; 3] = ["already_read_file", "edited_image_file", "dynamic_skill"];

/// Kinds whose content is memory (instructions and remembered notes), counted in the
/// `memory` category of a request rather than `attachments`.
pub fn is_memory_kind(kind: &str) -> bool {
    matches!(kind, "nested_memory" | "relevant_memories")
}
