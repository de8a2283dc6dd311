//! The word cipher: a word's stand-in, keyed, the same word always the same stand-in.
//!
//! A stand-in keeps each character's class and size ([`crate::tokens::stand_in`]), so every
//! token method counts a redacted text, and each of its lines, exactly as the original; and
//! it differs from the word at every position, so no letter or digit of a replaced word
//! stays where it was. The same word (compared without ASCII case) always gets the same
//! stand-in, with the original's capitals, and two different words never share one: equal
//! lines stay equal and different lines different, so the changed-file snippets, Edit's
//! search, Grep's matches and the relevant-memory scorer's keyword overlap see the same
//! structure.
//!
//! Stand-ins come from SipHash-2-4 under a [`RedactionKey`]: without the key nobody can
//! recompute a word's stand-in, so nobody can confirm a guess (a PIN, a password, a name) by
//! redacting the candidate and comparing. Without a key the hash key is fixed and public,
//! which keeps the output deterministic and says so ([`super::Redacted::warning`]).
//!
//! Stand-ins are assigned shortest words first, when the cipher is built over every word of
//! the scenario: a longer word's stand-in then avoids holding a shorter word's stand-in or a
//! kept word, so an Edit of `x` still matches once after `naïve` is replaced.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use siphasher::sip128::SipHasher24;

use crate::tokens::stand_in;
use crate::Error;

/// Tries at a stand-in before accepting a collision: with another word (two words of the
/// same shape whose hashes give the same letters), or with a kept or shorter word inside it
/// (a scenario with many one-letter words leaves few letters free).
const MAX_SALTS: u64 = 64;

/// Draws at one character of a stand-in before accepting that it ends an avoided word.
const MAX_REDRAWS: u32 = 64;

/// Salts tried for a stand-in that holds no avoided word; after them the first that is no
/// other word's will do (a scenario whose one-digit numbers use every digit leaves none
/// clean for its two-digit ones).
const CLEAN_SALTS: u64 = 8;

/// Stand-ins of words shorter than this are avoided inside longer stand-ins: a short
/// search (an Edit of `x`, a Grep for `id`) must not find more matches after redaction.
const SHORT_WORD_CHARS: usize = 4;

/// Fewest characters a key may have: a shorter one could be found by trying them all.
pub const MIN_KEY_CHARS: usize = 16;

/// A host's secret for [`super::redact_scenario`]: the stand-ins it gives cannot be
/// recomputed without it. Draw one at random per redaction (`crypto.getRandomValues`).
///
/// # Example
/// ```
/// use context_assembly::redact::RedactionKey;
/// assert!(RedactionKey::new("9f0c1e7a42b8d3655e1f0a9c7b3d2e81").is_ok());
/// let short = RedactionKey::new("hunter2").unwrap_err().to_string();
/// assert!(short.contains("7 characters") && short.contains("at least 16"), "{short}");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RedactionKey {
    keys: (u64, u64),
}

impl RedactionKey {
    /// The key `text` stands for: at least [`MIN_KEY_CHARS`] characters.
    ///
    /// # Errors
    /// [`Error::InvalidConfig`] on `key` when `text` is shorter.
    pub fn new(text: &str) -> Result<RedactionKey, Error> {
        let chars = text.chars().count();
        if chars < MIN_KEY_CHARS {
            return Err(Error::InvalidConfig {
                field: "key".into(),
                reason: format!(
                    "{chars} characters: a key needs at least {MIN_KEY_CHARS}, so that it cannot be found by trying keys (draw one at random, e.g. 16 bytes of crypto.getRandomValues as hex)"
                ),
            });
        }
        // The text, however long, is folded into SipHash's 128-bit key by SipHash itself
        // under a fixed key: a key derivation, not a secret of ours.
        let folded = SipHasher24::new_with_keys(0x636f_6e74_6578_7421, 0x7265_6461_6374_6564)
            .hash(text.as_bytes());
        Ok(RedactionKey {
            keys: (folded.h1, folded.h2),
        })
    }

    /// The public key used when the host gives none: deterministic, and open to guessing.
    pub(super) const UNKEYED: RedactionKey = RedactionKey { keys: (0, 0) };
}

/// The cipher over one scenario: every word's stand-in.
pub(super) struct WordCipher {
    key: RedactionKey,
    /// Word (ASCII-lowercased) → stand-in (lower case), assigned when built.
    stand_ins: BTreeMap<String, String>,
    /// Words whose stand-in was written at least once.
    used: BTreeSet<String>,
    /// Stand-ins given and the scenario's own words: a new stand-in is none of them.
    taken: BTreeSet<String>,
    /// What a stand-in should not hold, kept words and shorter words' stand-ins: those of
    /// one character, and the longer ones.
    avoided_chars: BTreeSet<char>,
    avoided_inside: BTreeSet<String>,
}

impl WordCipher {
    /// A cipher for `words`, the scenario's words (lowercased); `kept` are those that may
    /// stay as written somewhere, which stand-ins avoid holding.
    pub(super) fn new(
        key: RedactionKey,
        words: BTreeSet<String>,
        kept: BTreeSet<String>,
    ) -> WordCipher {
        let mut cipher = WordCipher {
            key,
            stand_ins: BTreeMap::new(),
            used: BTreeSet::new(),
            taken: words.clone(),
            avoided_chars: BTreeSet::new(),
            avoided_inside: BTreeSet::new(),
        };
        kept.into_iter().for_each(|word| cipher.avoid(word));
        let mut by_length: Vec<String> = words.into_iter().collect();
        crate::sort::sort_by_key(&mut by_length, |word| word.chars().count());
        for word in by_length {
            cipher.assign(word);
        }
        cipher
    }

    /// How many distinct words were replaced.
    pub(super) fn words_replaced(&self) -> usize {
        self.used.len()
    }

    /// `word` replaced: each character by its stand-in, the original's ASCII capitals kept.
    pub(super) fn replace(&mut self, word: &str, out: &mut String) {
        let key = word.to_ascii_lowercase();
        let stand_in = match self.stand_ins.get(&key) {
            Some(known) => known.clone(),
            // A word the scenario did not hold when the cipher was built (none should be).
            None => self.assign(key.clone()),
        };
        if !self.used.contains(&key) {
            self.used.insert(key);
        }
        out.extend(word.chars().zip(stand_in.chars()).map(|(original, new)| {
            if original.is_ascii_uppercase() {
                new.to_ascii_uppercase()
            } else {
                new
            }
        }));
    }

    /// Chooses `word`'s stand-in: never another word, never holding a kept or shorter
    /// word where one of the first salts avoids it.
    fn assign(&mut self, word: String) -> String {
        let mut fallback = None;
        let mut chosen = None;
        for salt in 0..MAX_SALTS {
            let wanted = salt < CLEAN_SALTS;
            let (candidate, clean) = self.shaped_like(&word, salt, wanted);
            if self.taken.contains(&candidate) {
                continue;
            }
            if clean {
                chosen = Some(candidate);
                break;
            }
            if !wanted {
                chosen = Some(fallback.take().unwrap_or(candidate));
                break;
            }
            fallback.get_or_insert(candidate);
        }
        let chosen = chosen
            .or(fallback)
            .unwrap_or_else(|| self.shaped_like(&word, MAX_SALTS, false).0);
        self.taken.insert(chosen.clone());
        if word.chars().count() < SHORT_WORD_CHARS {
            self.avoid(chosen.clone());
        }
        self.stand_ins.insert(word, chosen.clone());
        chosen
    }

    fn avoid(&mut self, word: String) {
        let mut chars = word.chars();
        match (chars.next(), chars.next()) {
            (Some(only), None) => {
                self.avoided_chars.insert(only);
            }
            _ => {
                self.avoided_inside.insert(word);
            }
        }
    }

    /// A stand-in with `word`'s shape, each character different from the word's, and
    /// whether it holds no avoided word: each character is drawn from the keyed hash and,
    /// when `avoiding`, redrawn while it would end an avoided word.
    fn shaped_like(&self, word: &str, salt: u64, avoiding: bool) -> (String, bool) {
        let (k0, k1) = self.key.keys;
        let mut input = Vec::with_capacity(word.len() + 8);
        input.extend_from_slice(&salt.to_le_bytes());
        input.extend_from_slice(word.as_bytes());
        let seed = SipHasher24::new_with_keys(k0, k1).hash(&input).h1;
        let length = word.chars().count();
        let mut out = String::with_capacity(word.len());
        let mut tail = String::new();
        let mut clean = true;
        for (index, c) in word.chars().enumerate() {
            let pick = (mix(seed.wrapping_add(index as u64)) >> 32) as u32;
            let redraws = if avoiding { MAX_REDRAWS } else { 4 };
            let mut differing = (0..redraws)
                .map(|step| stand_in(c, pick.wrapping_add(step)))
                .filter(|&candidate| candidate != c);
            let first = differing.clone().next().unwrap_or(c);
            let found =
                differing.find(|&next| !self.ends_an_avoided_word(&out, next, length, &mut tail));
            clean &= found.is_some();
            out.push(found.unwrap_or(first));
        }
        (out, clean)
    }

    /// Whether `next` after `prefix` ends an avoided word strictly inside a stand-in of
    /// `length` characters (`tail` is scratch space).
    fn ends_an_avoided_word(
        &self,
        prefix: &str,
        next: char,
        length: usize,
        tail: &mut String,
    ) -> bool {
        if length < 2 {
            return false;
        }
        if self.avoided_chars.contains(&next) {
            return true;
        }
        let longest = (SHORT_WORD_CHARS - 1).min(length - 1);
        let starts = prefix.char_indices().map(|(at, _)| at).rev();
        starts.take(longest - 1).any(|start| {
            tail.clear();
            tail.push_str(&prefix[start..]);
            tail.push(next);
            self.avoided_inside.contains(tail.as_str())
        })
    }
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

    fn set(words: &[&str]) -> BTreeSet<String> {
        words.iter().map(|w| String::from(*w)).collect()
    }

    fn replaced(cipher: &mut WordCipher, word: &str) -> String {
        let mut out = String::new();
        cipher.replace(word, &mut out);
        out
    }

    #[test]
    fn stand_ins_hold_no_kept_or_shorter_word_where_another_salt_will_do() {
        let kept = set(&["a", "e", "i"]);
        let words = set(&[
            "x",
            "naïve",
            "render",
            "parser",
            "configuration",
            "a",
            "e",
            "i",
        ]);
        let mut cipher = WordCipher::new(RedactionKey::UNKEYED, words, kept);
        let x = replaced(&mut cipher, "x");
        for word in ["naïve", "render", "parser", "configuration"] {
            let stand_in = replaced(&mut cipher, word);
            assert!(
                !["a", "e", "i", x.as_str()]
                    .iter()
                    .any(|k| stand_in.contains(k)),
                "{word} became {stand_in} (x became {x})"
            );
        }
    }

    #[test]
    fn every_character_changes_and_keeps_its_class() {
        let words = set(&["4111", "ge4", "übermut", "zzzz"]);
        let mut cipher = WordCipher::new(RedactionKey::UNKEYED, words.clone(), BTreeSet::new());
        for word in words {
            let stand_in = replaced(&mut cipher, &word);
            assert_eq!(stand_in.len(), word.len());
            for (a, b) in word.chars().zip(stand_in.chars()) {
                assert_ne!(a, b, "{word} → {stand_in}");
                assert_eq!(a.is_ascii_digit(), b.is_ascii_digit());
            }
        }
    }

    #[test]
    fn one_word_one_stand_in_whatever_its_capitals() {
        let mut cipher = WordCipher::new(RedactionKey::UNKEYED, set(&["config"]), BTreeSet::new());
        let lower = replaced(&mut cipher, "config");
        assert_eq!(replaced(&mut cipher, "CONFIG"), lower.to_ascii_uppercase());
        let capital = replaced(&mut cipher, "Config");
        assert!(capital.starts_with(|c: char| c.is_ascii_uppercase()));
        assert_eq!(capital.to_ascii_lowercase(), lower);
        assert_eq!(cipher.words_replaced(), 1);
    }

    #[test]
    fn a_key_changes_every_stand_in_and_is_needed_to_recompute_them() {
        let words = set(&["1234", "hunter2", "acme"]);
        let key = RedactionKey::new("0123456789abcdef0123456789abcdef").unwrap();
        let other = RedactionKey::new("fedcba9876543210fedcba9876543210").unwrap();
        let mut open = WordCipher::new(RedactionKey::UNKEYED, words.clone(), BTreeSet::new());
        let mut keyed = WordCipher::new(key, words.clone(), BTreeSet::new());
        let mut again = WordCipher::new(key, words.clone(), BTreeSet::new());
        let mut elsewhere = WordCipher::new(other, words.clone(), BTreeSet::new());
        for word in &words {
            let stand_in = replaced(&mut keyed, word);
            assert_eq!(stand_in, replaced(&mut again, word));
            assert_ne!(stand_in, replaced(&mut open, word));
            assert_ne!(stand_in, replaced(&mut elsewhere, word));
        }
    }
}
