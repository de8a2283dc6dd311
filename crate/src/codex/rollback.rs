//! Where a rollback cuts Codex's history (spec codex.md §2.8, `drop_last_n_user_turns`): at
//! the n-th user turn from the end, then up over the context items recorded just before
//! that turn, never above the first turn.

use crate::codex::compact::is_contextual_user_message;
use crate::codex::items::{Item, Part, Role};

/// How one history entry counts for a rollback.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RollbackEntry {
    /// A user turn's boundary (§5.6): a user message that is not contextual; a summary is
    /// one too.
    TurnBoundary,
    /// A contextual user message (AGENTS.md, `<environment_context>`…).
    ContextualUser,
    /// A developer message holding contextual fragments; `mixed` when it also holds text
    /// no settings update can send again (developer instructions): the initial context's
    /// bundle.
    ContextualDeveloper {
        /// It also holds persistent developer text.
        mixed: bool,
    },
    /// Anything else: assistant messages, tool calls and outputs, plain developer text.
    Other,
}

/// The tags that open the developer fragments a settings update can re-send (§1.4, §2.2).
const CONTEXTUAL_DEVELOPER_TAGS: &[&str] = &[
    "<permissions instructions>",
    "<model_switch>",
    "<collaboration_mode>",
    "<personality_spec>",
    "<skills_instructions>",
];

/// How `item` counts for a rollback.
///
/// # Example
/// ```
/// use context_assembly::codex::items::{Item, Role};
/// use context_assembly::codex::rollback::{rollback_entry, RollbackEntry};
/// assert_eq!(rollback_entry(&Item::text(Role::User, "Fix the bug.")), RollbackEntry::TurnBoundary);
/// let diff = Item::text(Role::Developer, "<permissions instructions>…</permissions instructions>");
/// assert_eq!(rollback_entry(&diff), RollbackEntry::ContextualDeveloper { mixed: false });
/// ```
pub fn rollback_entry(item: &Item) -> RollbackEntry {
    match item {
        Item::Message {
            role: Role::User,
            content,
        } => match is_contextual_user_message(content) {
            true => RollbackEntry::ContextualUser,
            false => RollbackEntry::TurnBoundary,
        },
        Item::Message {
            role: Role::Developer,
            content,
        } => developer_entry(content),
        _ => RollbackEntry::Other,
    }
}

fn developer_entry(content: &[Part]) -> RollbackEntry {
    let contextual = |part: &Part| match part {
        Part::InputText { text } => CONTEXTUAL_DEVELOPER_TAGS
            .iter()
            .any(|tag| text.trim_start().starts_with(tag)),
        Part::InputImage { .. } | Part::OutputText { .. } => false,
    };
    match content.iter().any(contextual) {
        true => RollbackEntry::ContextualDeveloper {
            mixed: !content.iter().all(contextual),
        },
        false => RollbackEntry::Other,
    }
}

/// Where a rollback cuts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RollbackCut {
    /// How many entries stay, from the start.
    pub keep: usize,
    /// User turns dropped (fewer than asked when the history has fewer).
    pub turns_dropped: usize,
    /// The cut went through the initial context's mixed bundle: the next turn sends the
    /// whole initial context again (§2.6 item 4).
    pub clears_baseline: bool,
}

/// The cut that drops the last `turns` user turns of `entries` (oldest first). With no
/// turn, or `turns == 0`, nothing is dropped; with more turns asked than there are, every
/// turn goes and what came before the first stays.
///
/// # Example
/// ```
/// use context_assembly::codex::rollback::{rollback_cut, RollbackEntry::*};
/// let history = [ContextualDeveloper { mixed: true }, ContextualUser, TurnBoundary, Other,
///                ContextualDeveloper { mixed: false }, TurnBoundary, Other];
/// let cut = rollback_cut(&history, 1);
/// assert_eq!((cut.keep, cut.turns_dropped, cut.clears_baseline), (4, 1, false));
/// // the walk up stops at the first turn: the initial context before it stays
/// assert_eq!(rollback_cut(&history, 5).keep, 2);
/// ```
pub fn rollback_cut(entries: &[RollbackEntry], turns: usize) -> RollbackCut {
    let boundaries: alloc::vec::Vec<usize> = (entries.iter().enumerate())
        .filter(|(_, entry)| **entry == RollbackEntry::TurnBoundary)
        .map(|(index, _)| index)
        .collect();
    let unchanged = RollbackCut {
        keep: entries.len(),
        turns_dropped: 0,
        clears_baseline: false,
    };
    let Some(&first) = boundaries.first() else {
        return unchanged;
    };
    if turns == 0 {
        return unchanged;
    }
    let turns_dropped = turns.min(boundaries.len());
    let mut keep = boundaries[boundaries.len() - turns_dropped];
    let mut clears_baseline = false;
    while keep > first {
        match entries[keep - 1] {
            RollbackEntry::ContextualDeveloper { mixed } => clears_baseline |= mixed,
            RollbackEntry::ContextualUser => {}
            RollbackEntry::TurnBoundary | RollbackEntry::Other => break,
        }
        keep -= 1;
    }
    RollbackCut {
        keep,
        turns_dropped,
        clears_baseline,
    }
}

#[cfg(test)]
mod tests {
    use super::RollbackEntry::*;
    use super::*;

    #[test]
    fn a_trimmed_mixed_bundle_clears_the_baseline() {
        // A turn after a cleared baseline re-sent the whole initial context; rolling it back
        // removes the bundle that established the baseline.
        let history = [
            TurnBoundary,
            Other,
            ContextualDeveloper { mixed: true },
            ContextualUser,
            TurnBoundary,
            Other,
        ];
        let cut = rollback_cut(&history, 1);
        assert_eq!(cut.keep, 2);
        assert!(cut.clears_baseline);
    }

    #[test]
    fn no_turn_or_zero_turns_keeps_everything() {
        let history = [ContextualDeveloper { mixed: true }, ContextualUser];
        assert_eq!(rollback_cut(&history, 3).keep, 2);
        assert_eq!(rollback_cut(&[TurnBoundary, Other], 0).keep, 2);
    }

    #[test]
    fn developer_instructions_make_a_bundle_mixed() {
        let bundle = Item::Message {
            role: Role::Developer,
            content: alloc::vec![
                Part::InputText {
                    text: "<permissions instructions>x</permissions instructions>".into()
                },
                Part::InputText {
                    text: "Always answer in French.".into()
                },
            ],
        };
        assert_eq!(rollback_entry(&bundle), ContextualDeveloper { mixed: true });
        let plain = Item::text(Role::Developer, "Always answer in French.");
        assert_eq!(rollback_entry(&plain), Other);
    }
}
