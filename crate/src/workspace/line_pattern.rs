//! Grep's pattern: a regular expression in ripgrep's syntax (ripgrep is built on the `regex`
//! crate, so its syntax is ours), matched against one line at a time as ripgrep matches
//! without `--multiline`. The `regex` type stays inside this module, so the engine behind it
//! can change without changing any public signature.

use alloc::string::{String, ToString};

/// A compiled Grep pattern.
pub(super) struct LinePattern {
    regex: regex::Regex,
}

impl LinePattern {
    /// Compiles `pattern`, or says why it is not a valid regular expression (the `regex`
    /// crate's own message: the position and the problem).
    pub(super) fn new(pattern: &str) -> Result<LinePattern, String> {
        regex::Regex::new(pattern)
            .map(|regex| LinePattern { regex })
            .map_err(|error| error.to_string())
    }

    /// Whether `line` (without its `\n`) holds a match.
    pub(super) fn matches(&self, line: &str) -> bool {
        self.regex.is_match(line)
    }
}

#[cfg(test)]
mod tests {
    use super::LinePattern;

    #[test]
    fn anchors_hold_per_line_and_classes_are_unicode_aware() {
        let pattern = LinePattern::new(r"^\w+é$").unwrap();
        assert!(pattern.matches("café"));
        assert!(!pattern.matches(" café"));
        assert!(LinePattern::new("(?i)ÉTÉ").unwrap().matches("été"));
    }

    #[test]
    fn an_invalid_pattern_names_its_problem() {
        let error = LinePattern::new("a[").err().unwrap();
        assert!(error.contains("unclosed character class"), "{error}");
    }
}
