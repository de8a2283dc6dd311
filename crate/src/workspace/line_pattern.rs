//! Grep's pattern: a regular expression in ripgrep's syntax (ripgrep is built on the `regex`
//! crate, so its syntax is ours), matched against one line at a time as ripgrep matches
//! without `--multiline`. The engine types stay inside this module, so the engine behind it
//! can change without changing any public signature.
//!
//! The `regex` crate's own engine (`regex-automata`: its parser, its Thompson NFA and the
//! PikeVM) configured as `regex::Regex::new` configures it, so a pattern means and reports
//! what it does there: Unicode mode, UTF-8 matching, nesting limit 250, a 10 MiB NFA.

use alloc::format;
use alloc::string::{String, ToString};
use regex_automata::nfa::thompson::pikevm::{Cache, PikeVM};
use regex_automata::nfa::thompson::{self, WhichCaptures};
use regex_automata::util::syntax;

/// The `regex` crate's limit on a compiled pattern's size.
const NFA_SIZE_LIMIT: usize = 10 * (1 << 20);

/// A compiled Grep pattern, with the scratch space its matches use.
pub(super) struct LinePattern {
    engine: PikeVM,
    cache: Cache,
}

impl LinePattern {
    /// Compiles `pattern`, or says why it is not a valid regular expression (the `regex`
    /// crate's own message: the position and the problem).
    pub(super) fn new(pattern: &str) -> Result<LinePattern, String> {
        let hir = syntax::parse_with(pattern, &syntax::Config::new().utf8(true))
            .map_err(|error| error.to_string())?;
        let config = thompson::Config::new()
            .utf8(true)
            .nfa_size_limit(Some(NFA_SIZE_LIMIT))
            .shrink(false)
            .which_captures(WhichCaptures::Implicit);
        let nfa = thompson::Compiler::new()
            .configure(config)
            .build_from_hir(&hir)
            .map_err(|error| match error.size_limit() {
                Some(limit) => format!("Compiled regex exceeds size limit of {limit} bytes."),
                None => error.to_string(),
            })?;
        let engine = PikeVM::new_from_nfa(nfa).map_err(|error| error.to_string())?;
        let cache = engine.create_cache();
        Ok(LinePattern { engine, cache })
    }

    /// Whether `line` (without its `\n`) holds a match.
    pub(super) fn matches(&mut self, line: &str) -> bool {
        self.engine.is_match(&mut self.cache, line)
    }
}

#[cfg(test)]
mod tests {
    use super::LinePattern;

    #[test]
    fn anchors_hold_per_line_and_classes_are_unicode_aware() {
        let mut pattern = LinePattern::new(r"^\w+é$").unwrap();
        assert!(pattern.matches("café"));
        assert!(!pattern.matches(" café"));
        assert!(LinePattern::new("(?i)ÉTÉ").unwrap().matches("été"));
        let mut word = LinePattern::new(r"\bété\b").unwrap();
        assert!(word.matches("un été chaud"));
        assert!(!word.matches("unétéchaud"));
        assert!(LinePattern::new(r"^\d$").unwrap().matches("٣"));
    }

    #[test]
    fn an_invalid_pattern_names_its_problem() {
        let error = LinePattern::new("a[").err().unwrap();
        assert!(error.contains("unclosed character class"), "{error}");
    }

    #[test]
    fn a_pattern_too_large_to_compile_says_so() {
        let error = LinePattern::new(r"\w{1000}{1000}").err().unwrap();
        assert!(
            error.starts_with("Compiled regex exceeds size limit of"),
            "{error}"
        );
    }

    /// The same verdicts as `regex::Regex`: a match or not on each line, or the same error.
    fn agree_with_regex(pattern: &str, lines: &[&str]) -> Result<(), String> {
        let ours = LinePattern::new(pattern);
        let theirs = regex::Regex::new(pattern);
        match (ours, theirs) {
            (Ok(mut ours), Ok(theirs)) => {
                for line in lines {
                    if ours.matches(line) != theirs.is_match(line) {
                        return Err(alloc::format!("{pattern:?} on {line:?}"));
                    }
                }
                Ok(())
            }
            (Err(ours), Err(theirs)) if ours == theirs.to_string() => Ok(()),
            (ours, theirs) => Err(alloc::format!(
                "{pattern:?}: ours {:?}, regex {:?}",
                ours.err(),
                theirs.err().map(|error| error.to_string())
            )),
        }
    }

    const LINES: &[&str] = &[
        "",
        "fn main() { let x = 1; }",
        "café été Été ÉTÉ",
        "naïve_日本 ٣٤ \u{2000}x",
        "TODO: fix   the\ttabs",
        "a.b*c+d?[e]{f}|g(h)^$",
        "ǅungla ſ K ß",
    ];

    #[test]
    fn patterns_mean_what_they_mean_to_the_regex_crate() {
        for pattern in [
            r"^\w+é$",
            r"(?i)été",
            r"(?i)ſ",
            r"(?i)k",
            r"\bété\b",
            r"\B",
            r"\d+",
            r"\s{2,}",
            r"^$",
            r"[[:alpha:]]+",
            r"\p{Greek}",
            r"\pL",
            r"[^\x00-\x7f]",
            r"(?-u:\w)+",
            r"a|b|",
            r"(?m)^fn",
            r"(?s).",
            r"\x{10FFFF}",
            r"(a)(?P<n>b)\1",
            r"a{2,1}",
            r"*",
            r"[z-a]",
            r"\p{Nope}",
            r"(?x) a b # c",
            r"\Qa.b\E",
            r"(?i)[a-zé]+",
            r"\w{1000}{1000}",
            "(((a)))",
        ] {
            agree_with_regex(pattern, LINES).unwrap();
        }
    }

    proptest::proptest! {
        #[test]
        fn generated_patterns_mean_what_they_mean_to_the_regex_crate(
            pieces in proptest::collection::vec(proptest::sample::select(&[
                "a", "é", "E", ".", "\\w", "\\W", "\\d", "\\s", "\\b", "\\B", "^", "$", "*", "+",
                "?", "{2}", "{1,3}", "(", ")", "[", "]", "[a-z]", "[^é]", "|", "(?i)", "(?-u)", "\\",
                "\\p{L}", " ", "ſ", "K",
            ][..]), 0..8),
            line in "[aeé EKſ0٣._-]{0,12}",
        ) {
            let pattern: alloc::string::String = pieces.concat();
            proptest::prop_assert_eq!(agree_with_regex(&pattern, &[line.as_str()]), Ok(()));
        }
    }
}
