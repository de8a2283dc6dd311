//! The permission-rule grammar `Tool` / `Tool(content)` (`permissionRuleValueFromString`,
//! spec/claude-code.md §2.2), as far as Read deny rules need it.

use alloc::string::String;

/// What a rule says about the Read tool, and which tools it removes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum RuleValue {
    /// A rule for some of another tool's uses (`Bash(rm -rf *)`).
    OtherTool,
    /// `Tool`, `Tool()` or `Tool(*)` for another tool: the whole tool, which the original
    /// then leaves out of the model's tools.
    OtherToolWide(String),
    /// `Read`, `Read()` or `Read(*)`: the whole tool.
    ReadToolWide,
    /// `Read(content)`, content unescaped.
    ReadPattern(String),
}

const ALLOWED: &str = "expected `Tool` or `Tool(content)`, e.g. `Read(./.env)`, with `\\(`, \
                       `\\)` and `\\\\` for literal parentheses and backslashes";

/// Parses one rule; the error says what is wrong and what is allowed.
pub(super) fn parse_rule(text: &str) -> Result<RuleValue, String> {
    if text.trim().is_empty() {
        return Err(alloc::format!("empty rule: {ALLOWED}"));
    }
    let Some(open) = first_unescaped(text, '(') else {
        return Ok(tool_wide_or_other(text));
    };
    let close = last_unescaped(text, ')');
    if close.is_none_or(|close| close <= open || close + 1 != text.len()) {
        return Err(alloc::format!(
            "{text:?} has a `(` without a `)` as its last character: {ALLOWED}"
        ));
    }
    let tool = &text[..open];
    if tool.is_empty() {
        return Err(alloc::format!("{text:?} has no tool name: {ALLOWED}"));
    }
    let raw = &text[open + 1..text.len() - 1];
    if raw.is_empty() || raw == "*" {
        return Ok(tool_wide_or_other(tool));
    }
    if tool != "Read" {
        return Ok(RuleValue::OtherTool);
    }
    Ok(RuleValue::ReadPattern(unescape(raw)))
}

fn tool_wide_or_other(tool: &str) -> RuleValue {
    if tool == "Read" {
        RuleValue::ReadToolWide
    } else {
        RuleValue::OtherToolWide(tool.into())
    }
}

/// A character is escaped when an odd number of backslashes precede it.
fn is_escaped(text: &str, at: usize) -> bool {
    text[..at].bytes().rev().take_while(|&b| b == b'\\').count() % 2 == 1
}

fn first_unescaped(text: &str, wanted: char) -> Option<usize> {
    text.match_indices(wanted)
        .map(|(at, _)| at)
        .find(|&at| !is_escaped(text, at))
}

fn last_unescaped(text: &str, wanted: char) -> Option<usize> {
    text.rmatch_indices(wanted)
        .map(|(at, _)| at)
        .find(|&at| !is_escaped(text, at))
}

/// `\(` → `(`, `\)` → `)`, then `\\` → `\`, each as one global replace, as the original.
fn unescape(raw: &str) -> String {
    raw.replace("\\(", "(")
        .replace("\\)", ")")
        .replace("\\\\", "\\")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grammar() {
        let pattern = |s: &str| Ok(RuleValue::ReadPattern(String::from(s)));
        assert_eq!(parse_rule("Read"), Ok(RuleValue::ReadToolWide));
        assert_eq!(parse_rule("Read()"), Ok(RuleValue::ReadToolWide));
        assert_eq!(parse_rule("Read(*)"), Ok(RuleValue::ReadToolWide));
        assert_eq!(parse_rule("Read(**)"), pattern("**"));
        assert_eq!(parse_rule("Read(./.env)"), pattern("./.env"));
        assert_eq!(parse_rule("Read(a\\(1\\).txt)"), pattern("a(1).txt"));
        assert_eq!(parse_rule("Read(a(1).txt)"), pattern("a(1).txt"));
        assert_eq!(parse_rule("Read(x\\\\)"), pattern("x\\"));
        assert_eq!(parse_rule("Edit(x)"), Ok(RuleValue::OtherTool));
        assert_eq!(
            parse_rule("Bash"),
            Ok(RuleValue::OtherToolWide("Bash".into()))
        );
        assert_eq!(
            parse_rule("Bash(*)"),
            Ok(RuleValue::OtherToolWide("Bash".into()))
        );
        assert_eq!(parse_rule("Bash(ls)"), Ok(RuleValue::OtherTool));
        assert!(parse_rule("").is_err());
        assert!(parse_rule("Read(x").is_err());
        assert!(parse_rule("Read(x)y").is_err());
        assert!(parse_rule("(x)").is_err());
        assert!(parse_rule("Read(x\\)").is_err());
    }
}
