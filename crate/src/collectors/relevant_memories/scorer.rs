//! The built-in keyword scorer that stands in for Claude Code's side query (a small model
//! choosing up to five memories from their names and descriptions). See the
//! [parent module](super) for the rules it follows.

use alloc::collections::BTreeSet;
use alloc::string::String;
use alloc::vec::Vec;
use core::ops::Bound;

use super::{MemoryCandidate, SCAN_LINES};

/// Distinct prompt terms scored at most, the first ones in the prompt: bounds the work a
/// very long prompt costs.
pub const MAX_TERMS: usize = 64;

/// Shortest prompt word, in characters, that counts as a term.
const MIN_TERM_CHARS: usize = 3;

/// Shortest word, in characters, that may match by prefix (`test` ~ `tests`, `testing`).
const MIN_PREFIX_CHARS: usize = 4;

/// Weights of a term found in each field.
const NAME_WEIGHT: u64 = 4;
const DESCRIPTION_WEIGHT: u64 = 3;
const FILE_NAME_WEIGHT: u64 = 2;
const BODY_WEIGHT: u64 = 1;

/// Words too common to tell memories apart, sorted for a binary search. Redaction keeps them
/// (they are words the scorer reads, not content), so a redacted prompt scores alike.
pub const STOP_WORDS: [&str; 72] = [
    "about", "after", "again", "all", "also", "and", "any", "are", "been", "before", "being",
    "but", "can", "could", "did", "does", "doing", "done", "for", "from", "get", "had", "has",
    "have", "her", "here", "his", "how", "into", "its", "just", "let", "lets", "like", "make",
    "more", "need", "not", "now", "our", "out", "please", "same", "she", "should", "some", "such",
    "than", "that", "the", "their", "them", "then", "there", "these", "they", "this", "those",
    "too", "use", "using", "very", "want", "was", "were", "what", "when", "where", "which", "who",
    "why", "will",
];

/// The prompt's terms: lowercase words of at least three characters, stop words removed,
/// each once, in the order they first appear, at most [`MAX_TERMS`].
pub(super) fn prompt_terms(prompt: &str) -> Vec<String> {
    let mut seen = BTreeSet::new();
    let mut terms = Vec::new();
    for word in words(prompt) {
        if terms.len() == MAX_TERMS {
            break;
        }
        let counts = word.chars().count() >= MIN_TERM_CHARS
            && STOP_WORDS.binary_search(&word.as_str()).is_err();
        if counts && seen.insert(word.clone()) {
            terms.push(word);
        }
    }
    terms
}

/// The words of `text`: maximal runs of Unicode letters and digits, lowercased.
fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(|word| word.chars().flat_map(char::to_lowercase).collect())
}

/// The fields a memory is scored on.
struct Fields {
    name: BTreeSet<String>,
    description: BTreeSet<String>,
    file_name: BTreeSet<String>,
    body: BTreeSet<String>,
}

impl Fields {
    /// Reads the first [`SCAN_LINES`] lines of a memory: its frontmatter's `name` and
    /// `description`, and the lines after the frontmatter.
    fn of(candidate: &MemoryCandidate<'_>) -> Fields {
        let text = candidate
            .content
            .strip_prefix('\u{FEFF}')
            .unwrap_or(candidate.content);
        let lines: Vec<&str> = text.split('\n').take(SCAN_LINES).collect();
        let closing = (lines.first().map(|l| l.trim_end()) == Some("---"))
            .then(|| lines.iter().skip(1).position(|l| l.trim_end() == "---"))
            .flatten()
            .map(|at| at + 1);
        let (frontmatter, body) = match closing {
            Some(end) => (lines.get(1..end).unwrap_or(&[]), lines.get(end + 1..)),
            None => (&[][..], Some(&lines[..])),
        };
        let base = candidate.path.rsplit('/').next().unwrap_or(candidate.path);
        Fields {
            name: word_set(field(frontmatter, "name:")),
            description: word_set(field(frontmatter, "description:")),
            file_name: word_set(base.strip_suffix(".md").unwrap_or(base)),
            body: body
                .unwrap_or(&[])
                .iter()
                .flat_map(|line| words(line))
                .collect(),
        }
    }
}

/// The value of a top-level frontmatter key, quotes removed; `""` when absent.
fn field<'t>(frontmatter: &[&'t str], key: &str) -> &'t str {
    let value = frontmatter
        .iter()
        .find_map(|line| line.strip_prefix(key))
        .unwrap_or("")
        .trim();
    ["\"", "'"]
        .iter()
        .find_map(|q| value.strip_prefix(q).and_then(|v| v.strip_suffix(q)))
        .unwrap_or(value)
}

fn word_set(text: &str) -> BTreeSet<String> {
    words(text).collect()
}

/// The memory's score for `terms`: for each term, the weights of the fields holding a
/// matching word, summed.
pub(super) fn score(terms: &[String], candidate: &MemoryCandidate<'_>) -> u64 {
    if terms.is_empty() {
        return 0;
    }
    let fields = Fields::of(candidate);
    let weighted = [
        (&fields.name, NAME_WEIGHT),
        (&fields.description, DESCRIPTION_WEIGHT),
        (&fields.file_name, FILE_NAME_WEIGHT),
        (&fields.body, BODY_WEIGHT),
    ];
    terms
        .iter()
        .flat_map(|term| weighted.iter().map(move |(set, w)| (term, set, *w)))
        .filter(|(term, set, _)| matches(term, set))
        .map(|(_, _, weight)| weight)
        .sum()
}

/// Whether `words` holds `term`, or a word that is a prefix of it or that it is a prefix of,
/// the shorter of the two having at least [`MIN_PREFIX_CHARS`] characters.
fn matches(term: &str, words: &BTreeSet<String>) -> bool {
    if words.contains(term) {
        return true;
    }
    if term.chars().count() < MIN_PREFIX_CHARS {
        return false;
    }
    let longer = words
        .range::<str, _>((Bound::Excluded(term), Bound::Unbounded))
        .next()
        .is_some_and(|word| word.starts_with(term));
    longer
        || term
            .char_indices()
            .skip(MIN_PREFIX_CHARS)
            .any(|(end, _)| words.contains(&term[..end]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn candidate<'a>(path: &'a str, content: &'a str) -> MemoryCandidate<'a> {
        MemoryCandidate {
            path,
            content,
            mtime_ms: 0,
        }
    }

    #[test]
    fn stop_words_are_sorted_lowercase_and_long_enough() {
        assert!(STOP_WORDS.windows(2).all(|w| w[0] < w[1]));
        assert!(STOP_WORDS.iter().all(|w| w.len() >= MIN_TERM_CHARS));
    }

    #[test]
    fn terms_are_lowercase_distinct_and_in_prompt_order() {
        assert_eq!(
            prompt_terms("Fix the Deploy script; DEPLOY it to prod, é ÉTÉ été ok"),
            vec!["fix", "deploy", "script", "prod", "été"]
        );
        assert!(prompt_terms("a an of to").is_empty());
        let long: String = (0..200).map(|i| alloc::format!("w{i:03} ")).collect();
        assert_eq!(prompt_terms(&long).len(), MAX_TERMS);
    }

    #[test]
    fn fields_weigh_differently_and_prefixes_match() {
        let terms = prompt_terms("deployment tests");
        let memory = "---\nname: Deploy notes\ndescription: \"how we test\"\n---\nnothing";
        // name: deploy ~ deployment (4); description: test ~ tests (3).
        assert_eq!(score(&terms, &candidate("/m/x.md", memory)), 7);
        assert_eq!(score(&terms, &candidate("/m/deploy_tests.md", "")), 4);
        assert_eq!(score(&terms, &candidate("/m/x.md", "Tests; deploy")), 2);
        assert_eq!(score(&terms, &candidate("/m/x.md", "dep tes")), 0);
    }

    #[test]
    fn an_unclosed_frontmatter_is_body() {
        let terms = prompt_terms("database");
        let memory = "---\nname: database";
        assert_eq!(score(&terms, &candidate("/m/x.md", memory)), BODY_WEIGHT);
    }

    #[test]
    fn only_the_first_lines_are_read() {
        let terms = prompt_terms("needle");
        let late = "\n".repeat(SCAN_LINES) + "needle";
        assert_eq!(score(&terms, &candidate("/m/x.md", &late)), 0);
    }
}
