//! The word cipher: every word of [`MIN_REPLACED_CHARS`] characters or more becomes a stand-in
//! of the same shape, the same word always the same stand-in.
//!
//! A stand-in keeps each character's class and size ([`crate::tokens::stand_in`]), so every
//! token method counts a redacted text, and each of its lines, exactly as the original. The
//! same word (compared without ASCII case) always gets the same stand-in, with the original's
//! capitals, and two different words never share one: equal lines stay equal and different
//! lines different, so the changed-file snippets, Edit's search, Grep's matches and the
//! relevant-memory scorer's keyword overlap see the same structure. A stand-in comes from a
//! hash of the word (FNV-1a), not from the order words were met, so one word gets the same
//! stand-in in two scenarios redacted apart.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::string::String;
use alloc::vec::Vec;

use super::PathMode;
use crate::mention::{extract_mentions, MentionRules};
use crate::tokens::stand_in;

/// Words shorter than this are kept: too short to identify anything, and keeping them keeps
/// the short keywords of code and prose (`fn`, `let`, `the`) readable.
pub(super) const MIN_REPLACED_CHARS: usize = 4;

/// Tries at a stand-in before accepting a collision: with another word (two words of the
/// same shape whose 64-bit hashes give the same letters), or with a kept short word inside
/// it (a scenario with many one-letter words leaves few letters free).
const MAX_SALTS: u64 = 64;

/// Path components kept under [`PathMode::Hash`]: the names the engine finds files by
/// (memory files, the rules directory), so the hashed workspace loads the same memory.
const RESERVED_NAMES: [&str; 6] = [
    "CLAUDE.md",
    "CLAUDE.local.md",
    "AGENTS.md",
    "AGENTS.override.md",
    "MEMORY.md",
    "rules",
];

/// A mention's byte span, and for a file mention its path as written and whether quoted.
type MentionSpan = (core::ops::Range<usize>, Option<(String, bool)>);

/// The cipher over one scenario: its words met so far and their stand-ins.
pub(super) struct Cipher {
    paths: PathMode,
    mentions: MentionRules,
    /// Word (ASCII-lowercased) → stand-in (lower case).
    words: BTreeMap<String, String>,
    /// Stand-ins given, and every word of the scenario (lowercased): a stand-in is never one
    /// of them, so no original word reappears as another's stand-in.
    taken: BTreeSet<String>,
    /// The scenario's short words, which are kept (lowercased): a stand-in contains none of
    /// them where it can, so a kept word does not appear where it was not (an Edit whose
    /// `old_string` is `x` must still match once after `naïve` is replaced).
    kept: BTreeSet<String>,
}

impl Cipher {
    /// A cipher whose stand-ins avoid `originals`, the scenario's own words (lowercased):
    /// the replaced ones as whole stand-ins, the kept short ones inside them.
    pub(super) fn new(
        paths: PathMode,
        mentions: MentionRules,
        originals: BTreeSet<String>,
    ) -> Cipher {
        let (taken, kept) = originals
            .into_iter()
            .partition(|word| word.chars().count() >= MIN_REPLACED_CHARS);
        Cipher {
            paths,
            mentions,
            words: BTreeMap::new(),
            taken,
            kept,
        }
    }

    /// How many distinct words were replaced.
    pub(super) fn words_replaced(&self) -> usize {
        self.words.len()
    }

    /// `text` with every word replaced but tag names (`<summary>`, `</analysis>`): markup
    /// the engine reads (a compaction summary's tags), not content.
    pub(super) fn text(&mut self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut word = String::new();
        let mut in_tag_name = false;
        for c in text.chars() {
            if is_word_char(c) {
                word.push(c);
                continue;
            }
            if in_tag_name {
                out.push_str(&word);
                word.clear();
            } else {
                self.flush_word(&mut word, &mut out);
            }
            in_tag_name = c == '<' || (c == '/' && out.ends_with('<'));
            out.push(c);
        }
        self.flush_word(&mut word, &mut out);
        out
    }

    /// `text` with its words replaced but its @-mentions of files still resolvable: kept as
    /// written, or with their path hashed as the files' paths are.
    pub(super) fn text_with_mentions(&mut self, text: &str) -> String {
        let found = extract_mentions(text, &self.mentions);
        let mut spans: Vec<MentionSpan> = found
            .files
            .into_iter()
            .map(|m| (m.span, Some((m.raw, m.quoted))))
            .chain(found.mcp_resources.into_iter().map(|m| (m.span, None)))
            .chain(found.agents.into_iter().map(|m| (m.span, None)))
            .collect();
        spans.sort_by_key(|(span, _)| span.start);
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for (span, file) in spans {
            let (Some(before), Some(mention)) = (text.get(at..span.start), text.get(span.clone()))
            else {
                continue;
            };
            out.push_str(&self.text(before));
            out.push_str(&self.mention(mention, file));
            at = span.end;
        }
        out.push_str(&self.text(text.get(at..).unwrap_or_default()));
        out
    }

    /// A mention as written: a file's path hashed under [`PathMode::Hash`], anything else
    /// (MCP resources, agents: names the configuration holds) kept.
    fn mention(&mut self, written: &str, file: Option<(String, bool)>) -> String {
        match (self.paths, file) {
            (PathMode::Hash, Some((raw, quoted))) => {
                let inner = if quoted {
                    written.get(2..written.len().saturating_sub(1))
                } else {
                    written.get(1..)
                };
                match inner {
                    Some(inner) if inner == raw => {
                        let quote = if quoted { "\"" } else { "" };
                        alloc::format!("@{quote}{}{quote}", self.path(&raw))
                    }
                    _ => String::from(written),
                }
            }
            _ => String::from(written),
        }
    }

    /// A path: kept, or under [`PathMode::Hash`] each component's words replaced, its
    /// extension and the names the engine looks for ([`RESERVED_NAMES`], dot-names) kept,
    /// and everything under a dot-directory kept (`~/.claude/plans/…`, `.claude/rules/…`:
    /// the clients' own places, whose names the engine builds itself).
    pub(super) fn path(&mut self, path: &str) -> String {
        if self.paths == PathMode::Keep {
            return String::from(path);
        }
        let mut inside_dot_directory = false;
        let components: Vec<String> = path
            .split('/')
            .map(|component| {
                if inside_dot_directory {
                    return String::from(component);
                }
                inside_dot_directory = is_dot_name(component);
                self.path_component(component)
            })
            .collect();
        components.join("/")
    }

    fn path_component(&mut self, component: &str) -> String {
        if component.starts_with('.') || RESERVED_NAMES.contains(&component) {
            return String::from(component);
        }
        match component.rfind('.') {
            Some(dot) => {
                let mut out = self.text(&component[..dot]);
                out.push_str(&component[dot..]);
                out
            }
            None => self.text(component),
        }
    }

    fn flush_word(&mut self, word: &mut String, out: &mut String) {
        if word.chars().count() < MIN_REPLACED_CHARS {
            out.push_str(word);
        } else {
            let stand_in = self.stand_in_for(word);
            out.extend(word.chars().zip(stand_in.chars()).map(|(original, new)| {
                if original.is_ascii_uppercase() {
                    new.to_ascii_uppercase()
                } else {
                    new
                }
            }));
        }
        word.clear();
    }

    /// The word's stand-in in lower case: one per word, never another word's, never the word.
    fn stand_in_for(&mut self, word: &str) -> String {
        let key = word.to_ascii_lowercase();
        if let Some(known) = self.words.get(&key) {
            return known.clone();
        }
        // Best: neither another word nor holding a kept one; then: not another word (a
        // kept word inside only matters where an edit matches it); failing both, a collision.
        let candidates = || (0..MAX_SALTS).map(|salt| shaped_like(&key, salt));
        let chosen = candidates()
            .find(|c| !self.taken.contains(c) && !self.holds_a_kept_word(c))
            .or_else(|| candidates().find(|c| !self.taken.contains(c)))
            .unwrap_or_else(|| shaped_like(&key, MAX_SALTS - 1));
        self.taken.insert(chosen.clone());
        self.words.insert(key, chosen.clone());
        chosen
    }
}

impl Cipher {
    /// Whether a kept short word occurs inside `candidate`.
    fn holds_a_kept_word(&self, candidate: &str) -> bool {
        let starts: Vec<usize> = candidate.char_indices().map(|(at, _)| at).collect();
        starts.iter().any(|&start| {
            let rest = &candidate[start..];
            (rest.char_indices().map(|(at, c)| at + c.len_utf8()))
                .take(MIN_REPLACED_CHARS - 1)
                .any(|end| self.kept.contains(&rest[..end]))
        })
    }
}

/// A hidden file's or directory's name (`.claude`, `.env`), not `.` or `..`.
fn is_dot_name(component: &str) -> bool {
    component.starts_with('.') && component != "." && component != ".."
}

/// The words of `text`, ASCII-lowercased: those a cipher replaces and the short ones it
/// keeps.
pub(super) fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c| !is_word_char(c))
        .filter(|word| !word.is_empty())
        .map(str::to_ascii_lowercase)
}

/// A letter or digit of a word: ASCII letters and digits, and any other alphabet's letters.
pub(super) fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || (!c.is_ascii() && c.is_alphabetic())
}

/// A stand-in with `key`'s shape, its characters drawn from the key's hash.
fn shaped_like(key: &str, salt: u64) -> String {
    let seed = fnv1a(key.as_bytes()) ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    key.chars()
        .enumerate()
        .map(|(index, c)| stand_in(c, (mix(seed.wrapping_add(index as u64)) >> 32) as u32))
        .collect()
}

/// FNV-1a, 64 bits: a fixed, dependency-free hash, the same on every platform.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xCBF2_9CE4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01B3)
    })
}

/// SplitMix64's finaliser: spreads a counter's bits so neighbouring positions differ.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cipher(paths: PathMode) -> Cipher {
        Cipher::new(paths, MentionRules::claude_code(), BTreeSet::new())
    }

    #[test]
    fn stand_ins_hold_no_kept_word_where_another_letter_will_do() {
        // Three vowels and a consonant are one-letter words of the scenario.
        let kept = ["a", "e", "i", "x"];
        let originals = kept.iter().map(|w| String::from(*w)).collect();
        let mut cipher = Cipher::new(PathMode::Keep, MentionRules::claude_code(), originals);
        for word in ["naïve", "render", "parser", "configuration"] {
            let stand_in = cipher.text(word);
            assert!(
                !kept.iter().any(|k| stand_in.contains(k)),
                "{word} became {stand_in}"
            );
        }
    }

    #[test]
    fn one_word_one_stand_in_whatever_its_capitals() {
        let mut cipher = cipher(PathMode::Keep);
        let out = cipher.text("Config config CONFIG use");
        let words: Vec<&str> = out.split(' ').collect();
        assert_eq!(words[0].to_ascii_lowercase(), words[1]);
        assert_eq!(words[2].to_ascii_lowercase(), words[1]);
        assert!(words[0].starts_with(|c: char| c.is_ascii_uppercase()));
        assert_ne!(words[1], "config");
        assert_eq!(words[3], "use");
    }

    #[test]
    fn tag_names_stay() {
        let mut cipher = cipher(PathMode::Keep);
        let out = cipher.text("<summary>Tests pass</summary> a<b and </analysis>");
        assert!(
            out.starts_with("<summary>")
                && out.contains("</summary>")
                && out.contains("</analysis>")
        );
        assert!(!out.contains("Tests") && !out.contains("pass"));
    }

    #[test]
    fn mentions_stay_and_their_paths_hash_like_the_files() {
        let mut keep = cipher(PathMode::Keep);
        let out = keep.text_with_mentions("please review @src/widget.ts#L2-3 carefully");
        assert!(out.contains("@src/widget.ts#L2-3"));
        assert!(!out.contains("review") && !out.contains("carefully"));
        let mut hash = cipher(PathMode::Hash);
        let mentioned = hash.text_with_mentions("see @\"src/big widget.ts\"");
        let path = hash.path("src/big widget.ts");
        assert!(mentioned.ends_with(&alloc::format!("@\"{path}\"")));
        assert_eq!(
            hash.path("/home/ana/CLAUDE.md").len(),
            "/home/ana/CLAUDE.md".len()
        );
        assert!(hash
            .path("/home/ana/.claude/rules/CLAUDE.md")
            .ends_with("/.claude/rules/CLAUDE.md"));
    }
}
