//! The recall measure: what the model can still answer. A scenario may seed facts (a line of
//! a file, a decision the user stated, a result a command printed, an instruction from
//! memory); after a run, each is looked for in a request: still there verbatim, only in a
//! compaction's summary, only referenced (its file's path or its command is there, its text
//! is not), or gone.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::request::{Block, Request};

crate::vocabulary::named_enum! {
    /// What a seeded fact is.
    pub enum FactKind {
        /// A line of a file the agent reads.
        File => "file",
        /// Something the user decided and said.
        Decision => "decision",
        /// What a command printed.
        Command => "command",
        /// An instruction from a memory file (CLAUDE.md, AGENTS.md).
        Instruction => "instruction",
    }
}

crate::vocabulary::named_enum! {
    /// Where a fact stands in a request, best first.
    pub enum FactState {
        /// Its text is in the request outside any summary: the model reads it as it was.
        Verbatim => "verbatim",
        /// Its text survives only inside a compaction's summary.
        Summary => "summary",
        /// Its text is gone, but its reference (the file's path, the command) is there: the
        /// model knows where to look.
        Referenced => "referenced",
        /// Neither its text nor its reference is there.
        Gone => "gone",
    }
}

/// A fact seeded in a scenario.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Fact {
    /// A name unique in the scenario.
    pub id: String,
    /// What it is.
    pub kind: FactKind,
    /// The text the model would need to answer: looked for as written.
    pub text: String,
    /// Where it came from (a path, a command), if anything names it.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub reference: Option<String>,
}

/// One fact's state in a request, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct FactRecall {
    /// The fact's id.
    pub fact: String,
    /// Its state.
    pub state: FactState,
    /// Where it was found, or that it was not.
    pub reason: String,
}

/// How many facts are in each state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct RecallCounts {
    /// Verbatim.
    pub verbatim: usize,
    /// Only in a summary.
    pub summary: usize,
    /// Only referenced.
    pub referenced: usize,
    /// Gone.
    pub gone: usize,
}

impl RecallCounts {
    /// Counts `recalls` by state.
    pub fn of(recalls: &[FactRecall]) -> RecallCounts {
        let mut counts = RecallCounts::default();
        for recall in recalls {
            match recall.state {
                FactState::Verbatim => counts.verbatim += 1,
                FactState::Summary => counts.summary += 1,
                FactState::Referenced => counts.referenced += 1,
                FactState::Gone => counts.gone += 1,
            }
        }
        counts
    }

    /// Facts the model can still answer: verbatim or in a summary.
    pub const fn kept(&self) -> usize {
        self.verbatim + self.summary
    }
}

/// Where `fact` stands in `request`, whose compaction summaries (the messages that carry
/// them, as the compaction reports give them) are `summaries`: a summary may share a block
/// with other text (a client that merges user messages), so it is cut out of each block
/// before the fact is looked for verbatim.
///
/// # Example
/// ```
/// use context_assembly::scenario::{recall_in, Fact, FactKind, FactState};
/// use context_assembly::request::Request;
/// let fact = Fact { id: "port".into(), kind: FactKind::File, text: "PORT=8080".into(), reference: None };
/// // An empty request holds nothing.
/// assert_eq!(recall_in(&fact, &Request::default(), &[]).state, FactState::Gone);
/// ```
pub fn recall_in(fact: &Fact, request: &Request, summaries: &[&str]) -> FactRecall {
    let blocks: Vec<&Block> = request.cache_order().map(|(_, block)| block).collect();
    let present: Vec<&str> = summaries
        .iter()
        .copied()
        .filter(|summary| !summary.is_empty() && blocks.iter().any(|b| b.text.contains(summary)))
        .collect();
    let outside_summaries = |block: &Block| {
        present.iter().fold(block.text.clone(), |text, summary| {
            text.replacen(summary, "", 1)
        })
    };
    let verbatim = blocks
        .iter()
        .find(|block| outside_summaries(block).contains(&fact.text));
    let (state, reason) = if let Some(block) = verbatim {
        (
            FactState::Verbatim,
            format!("its text is in a {} block", block.source),
        )
    } else if present.iter().any(|summary| summary.contains(&fact.text)) {
        (
            FactState::Summary,
            String::from("its text survives only in a compaction's summary"),
        )
    } else {
        match fact.reference.as_deref() {
            Some(reference) if blocks.iter().any(|b| b.text.contains(reference)) => (
                FactState::Referenced,
                format!("its text is gone; {reference} is still named"),
            ),
            Some(reference) => (
                FactState::Gone,
                format!("neither its text nor {reference} is in the request"),
            ),
            None => (
                FactState::Gone,
                String::from("its text is not in the request"),
            ),
        }
    };
    FactRecall {
        fact: fact.id.clone(),
        state,
        reason,
    }
}

/// Where every fact stands in `request`, in the order given (see [`recall_in`]).
pub fn recall_all(facts: &[Fact], request: &Request, summaries: &[&str]) -> Vec<FactRecall> {
    facts
        .iter()
        .map(|fact| recall_in(fact, request, summaries))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codex::items::Role;
    use crate::request::Message;
    use crate::tokens::TokenMethod;
    use crate::vocabulary::Category;

    fn request(blocks: &[(&str, &str)]) -> Request {
        let content = blocks
            .iter()
            .map(|(source, text)| {
                Block::text(
                    source,
                    Category::Conversation,
                    (*text).into(),
                    TokenMethod::Codex,
                )
            })
            .collect();
        let mut request = Request::default();
        request.messages.push(alloc::rc::Rc::new(Message {
            role: Role::User,
            content,
        }));
        request
    }

    fn fact(text: &str, reference: Option<&str>) -> Fact {
        Fact {
            id: "f".into(),
            kind: FactKind::Command,
            text: text.into(),
            reference: reference.map(Into::into),
        }
    }

    const SUMMARY: &str = "Summary: x RESULT-7 y";

    #[test]
    fn a_fact_outside_the_summary_is_verbatim_even_when_the_summary_has_it_too() {
        let both = request(&[("compact_summary", SUMMARY), ("tool", "RESULT-7")]);
        let recall = recall_in(&fact("RESULT-7", None), &both, &[SUMMARY]);
        assert_eq!(
            (recall.state, recall.reason.as_str()),
            (FactState::Verbatim, "its text is in a tool block")
        );
    }

    #[test]
    fn a_summary_merged_into_a_block_with_other_text_is_still_told_apart() {
        let merged = request(&[("file", &format!("restored file\n{SUMMARY}"))]);
        let in_summary = recall_in(&fact("RESULT-7", None), &merged, &[SUMMARY]);
        assert_eq!(in_summary.state, FactState::Summary);
        let outside = recall_in(&fact("restored", None), &merged, &[SUMMARY]);
        assert_eq!(outside.state, FactState::Verbatim);
        // A summary no longer in the request does not count.
        let gone = recall_in(
            &fact("RESULT-7", None),
            &request(&[("prompt", "hi")]),
            &[SUMMARY],
        );
        assert_eq!(gone.state, FactState::Gone);
    }

    #[test]
    fn each_state_is_told_apart() {
        let summary_only = request(&[("compact_summary", SUMMARY), ("prompt", "npm test")]);
        let recall = recall_in(
            &fact("RESULT-7", Some("npm test")),
            &summary_only,
            &[SUMMARY],
        );
        assert_eq!(recall.state, FactState::Summary);
        let named = request(&[("prompt", "ran npm test")]);
        let recall = recall_in(&fact("RESULT-7", Some("npm test")), &named, &[]);
        assert_eq!(
            (recall.state, recall.reason.as_str()),
            (
                FactState::Referenced,
                "its text is gone; npm test is still named"
            )
        );
        assert_eq!(
            recall_in(&fact("RESULT-7", Some("make")), &named, &[]).state,
            FactState::Gone
        );
        assert_eq!(
            recall_in(&fact("RESULT-7", None), &named, &[]).state,
            FactState::Gone
        );
    }

    #[test]
    fn counts_add_up_and_kept_is_verbatim_plus_summary() {
        let request = request(&[
            ("compact_summary", "Summary: A"),
            ("tool", "B"),
            ("prompt", "ref"),
        ]);
        let facts = [
            fact("A", None),
            fact("B", None),
            fact("C", Some("ref")),
            fact("D", None),
        ];
        let counts = RecallCounts::of(&recall_all(&facts, &request, &["Summary: A"]));
        assert_eq!(
            (
                counts.verbatim,
                counts.summary,
                counts.referenced,
                counts.gone
            ),
            (1, 1, 1, 1)
        );
        assert_eq!(counts.kept(), 2);
    }
}
