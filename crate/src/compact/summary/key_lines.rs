//! The lines of tool outputs that stand out: what a summary should quote from outputs it
//! cannot quote whole.
//!
//! A long tool output is mostly one shape repeated — a log's `[0012] case 12: ok (3 ms)`,
//! a file's numbered lines of one form — and its facts are the lines of another shape: the
//! run's summary, the one constant among generated functions. As log-template miners do,
//! each line is reduced to its template (every run of digits becomes `0`, spaces are
//! trimmed); an output whose most common template covers at least half of its lines is
//! repetitive, and its key lines are those whose template occurs once among all the outputs
//! summarised together. A varied output (prose, hand-written code) has no dominant shape, so
//! nothing in it stands out and none is taken.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

/// Lines an output needs before its shape can be told: shorter ones are read whole.
pub const MIN_OUTPUT_LINES: usize = 8;

/// Key lines taken from one output at most.
pub const KEY_LINES_PER_OUTPUT: usize = 3;

/// A line's template: runs of ASCII digits collapsed to `0`, the ends trimmed.
///
/// # Example
/// ```
/// use context_assembly::compact::summary::line_template;
/// assert_eq!(line_template("  [0012] case 12: ok (3 ms) "), "[0] case 0: ok (0 ms)");
/// ```
pub fn line_template(line: &str) -> String {
    let mut template = String::with_capacity(line.len());
    let mut in_digits = false;
    for c in line.trim().chars() {
        match (c.is_ascii_digit(), in_digits) {
            (true, true) => {}
            (true, false) => template.push('0'),
            (false, _) => template.push(c),
        }
        in_digits = c.is_ascii_digit();
    }
    template
}

/// The key lines of each of `outputs`, in order (an empty list for an output with none):
/// see the module's documentation.
///
/// # Example
/// ```
/// use context_assembly::compact::summary::key_lines;
/// let mut log: Vec<String> = (0..20).map(|i| format!("[{i:04}] case {i}: ok")).collect();
/// log.insert(10, "summary: 20 passed, seed 4411".into());
/// let text = log.join("\n");
/// let keys = key_lines(&[text.as_str(), "a short output"]);
/// assert_eq!(keys, vec![vec!["summary: 20 passed, seed 4411"], vec![]]);
/// ```
pub fn key_lines<'a>(outputs: &[&'a str]) -> Vec<Vec<&'a str>> {
    let templated: Vec<Vec<(&str, String)>> = outputs
        .iter()
        .map(|output| {
            output_lines(output)
                .map(|line| (line.trim(), line_template(line)))
                .collect()
        })
        .collect();
    let mut everywhere: BTreeMap<&str, usize> = BTreeMap::new();
    for lines in &templated {
        for (_, template) in lines {
            *everywhere.entry(template.as_str()).or_default() += 1;
        }
    }
    templated
        .iter()
        .map(|lines| {
            if !is_repetitive(lines) {
                return Vec::new();
            }
            lines
                .iter()
                .filter(|(_, template)| everywhere.get(template.as_str()) == Some(&1))
                .map(|(line, _)| *line)
                .take(KEY_LINES_PER_OUTPUT)
                .collect()
        })
        .collect()
}

/// The lines of an output that can be facts: not blank, with a letter in them (a line
/// number alone, a rule of dashes says nothing), and outside the reminders a client appends
/// to tool results (`<system-reminder>…</system-reminder>`), which are the client's words,
/// not the output's.
fn output_lines(output: &str) -> impl Iterator<Item = &str> {
    let mut in_reminder = false;
    output.lines().filter(move |line| {
        let trimmed = line.trim();
        let opens = trimmed.starts_with(REMINDER_OPEN);
        let closes = trimmed.ends_with(REMINDER_CLOSE);
        let inside = in_reminder || opens;
        in_reminder = inside && !closes;
        !inside && trimmed.chars().any(char::is_alphabetic)
    })
}

const REMINDER_OPEN: &str = "<system-reminder>";
const REMINDER_CLOSE: &str = "</system-reminder>";

/// Long enough, and one template covers at least half of the lines.
fn is_repetitive(lines: &[(&str, String)]) -> bool {
    if lines.len() < MIN_OUTPUT_LINES {
        return false;
    }
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for (_, template) in lines {
        *counts.entry(template.as_str()).or_default() += 1;
    }
    counts
        .values()
        .max()
        .is_some_and(|most| most * 2 >= lines.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;

    fn log(lines: usize, odd: &str) -> String {
        let mut body: Vec<String> = (0..lines).map(|i| format!("[{i:04}] ok {i} ms")).collect();
        body.insert(lines / 2, odd.into());
        body.join("\n")
    }

    #[test]
    fn a_line_repeated_in_another_output_is_not_key() {
        let (a, b) = (log(10, "FAIL case 3"), log(10, "FAIL case 9"));
        assert_eq!(key_lines(&[&a, &b]), [Vec::<&str>::new(), Vec::new()]);
    }

    #[test]
    fn varied_outputs_have_no_key_lines() {
        let prose: Vec<String> = (0..12)
            .map(|i| format!("word{} {}", "x".repeat(i), "y".repeat(i)))
            .collect();
        assert_eq!(key_lines(&[&prose.join("\n")]), [Vec::<&str>::new()]);
    }

    #[test]
    fn at_most_three_lines_per_output() {
        let mut body: Vec<String> = (0..20).map(|i| format!("row {i}")).collect();
        body.extend(["alpha", "beta", "gamma", "delta"].map(String::from));
        assert_eq!(
            key_lines(&[&body.join("\n")]),
            [vec!["alpha", "beta", "gamma"]]
        );
    }

    #[test]
    fn reminders_and_lines_without_letters_are_not_facts() {
        let mut body: Vec<String> = (0..12).map(|i| format!("{i:>6}\trow {i}")).collect();
        body.push("    13\t".into());
        body.push("<system-reminder>".into());
        body.push("Consider whether it is safe.".into());
        body.push("</system-reminder>".into());
        body.push("<system-reminder>One line.</system-reminder>".into());
        body.push("the odd one".into());
        assert_eq!(key_lines(&[&body.join("\n")]), [vec!["the odd one"]]);
    }

    #[test]
    fn short_outputs_are_left_alone() {
        assert_eq!(key_lines(&["one\ntwo\n3"]), [Vec::<&str>::new()]);
    }
}
