//! `<skills_instructions>`: the available skills within their budget (spec codex.md §1.3
//! row 8, §1.4).
//!
//! The budget covers the skill lines only (each with its newline): 2 % of the context
//! window in Codex tokens (`ceil(bytes / 4)`, at least 1), or 8 000 characters when no
//! window is known. Skills are ordered by scope, name, then path. When the full lines do
//! not fit, descriptions are shortened evenly — every skill stays listed — and only when
//! even the lines without descriptions do not fit are skills left out, in order, a later
//! shorter one still taken when it fits. Skill-root aliases (Codex's way of shortening
//! paths) are not modelled.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::settings::Skill;
use crate::codex::wording::{SKILLS_GUIDANCE, SKILLS_INTRO};
use crate::vocabulary::{Decision, Verdict};

/// The size limit of the skill lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SkillBudget {
    /// Codex tokens (`ceil(bytes / 4)`): 2 % of a known context window.
    Tokens(u64),
    /// Characters (Unicode scalar values): without a window.
    Characters(u64),
}

impl SkillBudget {
    /// 2 % of `context_window` (at least 1 token), or 8 000 characters without one.
    ///
    /// # Example
    /// ```
    /// use context_assembly::codex::context::SkillBudget;
    /// assert_eq!(SkillBudget::for_window(Some(272_000)), SkillBudget::Tokens(5_440));
    /// assert_eq!(SkillBudget::for_window(Some(10)), SkillBudget::Tokens(1)); // never zero
    /// assert_eq!(SkillBudget::for_window(Some(0)), SkillBudget::Characters(8_000));
    /// ```
    pub fn for_window(context_window: Option<u64>) -> Self {
        match context_window.filter(|window| *window > 0) {
            Some(window) => SkillBudget::Tokens((window.saturating_mul(2) / 100).max(1)),
            None => SkillBudget::Characters(8_000),
        }
    }

    fn limit(self) -> u64 {
        match self {
            SkillBudget::Tokens(limit) | SkillBudget::Characters(limit) => limit,
        }
    }

    /// What a line costs, its newline included; in tokens, Codex's `ceil(bytes / 4)` (the
    /// `TokenMethod::Codex` estimate, checked equal by a test).
    fn line_cost(self, line: &str) -> u64 {
        let with_newline = u64::try_from(line.len())
            .unwrap_or(u64::MAX)
            .saturating_add(1);
        match self {
            SkillBudget::Tokens(_) => with_newline.div_ceil(4),
            SkillBudget::Characters(_) => {
                u64::try_from(line.chars().count()).unwrap_or(u64::MAX) + 1
            }
        }
    }
}

/// The rendered skills fragment and a decision for every skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillsInstructions {
    /// The `<skills_instructions>` text.
    pub text: String,
    /// One per skill: included, truncated (description shortened) or over budget.
    pub decisions: Vec<Decision>,
}

/// The skills fragment; `None` when there are no skills (§1.3 row 8).
///
/// # Example
/// ```
/// use context_assembly::codex::context::{skills_instructions, Skill};
/// let skill = Skill { name: "pdf".into(), description: "x".repeat(50), path: "/s/pdf/SKILL.md".into(), ..Skill::default() };
/// // a 500-token window gives a 10-token (40-byte) budget: the description is shortened
/// // to what fits, the skill stays listed
/// let out = skills_instructions(&[skill], Some(500)).unwrap();
/// assert!(out.text.contains("\n- pdf: xxxxxxxx (file: /s/pdf/SKILL.md)\n"));
/// assert_eq!(out.decisions[0].verdict.as_str(), "truncated");
/// ```
pub fn skills_instructions(
    skills: &[Skill],
    context_window: Option<u64>,
) -> Option<SkillsInstructions> {
    if skills.is_empty() {
        return None;
    }
    let mut ordered: Vec<&Skill> = skills.iter().collect();
    crate::sort::sort_by(&mut ordered, |a, b| {
        (a.scope, &a.name, &a.path).cmp(&(b.scope, &b.name, &b.path))
    });
    let budget = SkillBudget::for_window(context_window);
    let kept = description_lengths(&ordered, budget);
    let mut lines = Vec::new();
    let mut decisions = Vec::new();
    for (skill, kept) in ordered.iter().zip(kept) {
        let (verdict, reason) = match kept {
            None => (Verdict::OverBudget, "the skills list's budget is spent"),
            Some(chars) if chars < skill.description.chars().count() => (
                Verdict::Truncated,
                "the description was shortened to fit the skills list's budget",
            ),
            Some(_) => (Verdict::Included, "listed in full"),
        };
        if let Some(chars) = kept {
            lines.push(skill_line(skill, chars));
        }
        decisions.push(
            Decision::new(skill.name.clone(), verdict, reason).with_detail(budget_detail(budget)),
        );
    }
    Some(SkillsInstructions {
        text: render(&lines),
        decisions,
    })
}

fn budget_detail(budget: SkillBudget) -> String {
    match budget {
        SkillBudget::Tokens(limit) => format!("budget {limit} tokens (2% of the context window)"),
        SkillBudget::Characters(limit) => format!("budget {limit} characters (no context window)"),
    }
}

/// How many description characters each skill keeps; `None` for a skill left out.
fn description_lengths(skills: &[&Skill], budget: SkillBudget) -> Vec<Option<usize>> {
    let full: Vec<usize> = skills
        .iter()
        .map(|s| s.description.chars().count())
        .collect();
    if total_cost(skills, budget, |i| full[i]) <= budget.limit() {
        return full.into_iter().map(Some).collect();
    }
    if total_cost(skills, budget, |_| 0) <= budget.limit() {
        return shortened(skills, &full, budget)
            .into_iter()
            .map(Some)
            .collect();
    }
    let mut used = 0u64;
    skills
        .iter()
        .map(|skill| {
            let cost = budget.line_cost(&skill_line(skill, 0));
            (used.saturating_add(cost) <= budget.limit()).then(|| {
                used = used.saturating_add(cost);
                0
            })
        })
        .collect()
}

/// Every skill gets the same description cap, the largest that fits (binary search),
/// then the leftover goes one character at a time, in list order.
fn shortened(skills: &[&Skill], full: &[usize], budget: SkillBudget) -> Vec<usize> {
    let capped = |cap: usize| move |i: usize| full.get(i).map_or(0, |&len| len.min(cap));
    let (mut low, mut high) = (0usize, full.iter().copied().max().unwrap_or(0));
    while low < high {
        let middle = low + (high - low).div_ceil(2);
        if total_cost(skills, budget, capped(middle)) <= budget.limit() {
            low = middle;
        } else {
            high = middle - 1;
        }
    }
    let mut kept: Vec<usize> = (0..skills.len()).map(capped(low)).collect();
    let mut used = total_cost(skills, budget, |i| kept.get(i).copied().unwrap_or(0));
    for (i, skill) in skills.iter().enumerate() {
        let (Some(&now), Some(&len)) = (kept.get(i), full.get(i)) else {
            continue;
        };
        if now >= len {
            continue;
        }
        let before = budget.line_cost(&skill_line(skill, now));
        let after = budget.line_cost(&skill_line(skill, now + 1));
        let grown = used.saturating_sub(before).saturating_add(after);
        if grown <= budget.limit() {
            used = grown;
            kept[i] = now + 1;
        }
    }
    kept
}

fn total_cost(skills: &[&Skill], budget: SkillBudget, chars: impl Fn(usize) -> usize) -> u64 {
    skills.iter().enumerate().fold(0u64, |sum, (i, skill)| {
        sum.saturating_add(budget.line_cost(&skill_line(skill, chars(i))))
    })
}

/// `- {name}: {description} (file: {path})`, the description cut to `chars` characters;
/// without one, `- {name}: (file: {path})`.
fn skill_line(skill: &Skill, chars: usize) -> String {
    let end = skill
        .description
        .char_indices()
        .nth(chars)
        .map_or(skill.description.len(), |(index, _)| index);
    match skill.description.get(..end).filter(|d| !d.is_empty()) {
        Some(description) => format!("- {}: {} (file: {})", skill.name, description, skill.path),
        None => format!("- {}: (file: {})", skill.name, skill.path),
    }
}

fn render(lines: &[String]) -> String {
    format!(
        "<skills_instructions>\n## Skills\n{SKILLS_INTRO}\n### Available skills\n{}\n### How to use skills\n{SKILLS_GUIDANCE}\n</skills_instructions>",
        lines.join("\n")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::{estimate_tokens, TokenMethod};
    use alloc::vec;

    fn codex_tokens(line: &str) -> u64 {
        estimate_tokens(&format!("{line}\n"), TokenMethod::Codex, None)
    }

    fn skill(name: &str, description: &str) -> Skill {
        Skill {
            name: name.into(),
            description: description.into(),
            path: format!("/s/{name}/SKILL.md"),
            ..Skill::default()
        }
    }

    #[test]
    fn token_cost_is_codex_estimate() {
        for line in ["", "- a: b (file: /x)", "é€😀"] {
            assert_eq!(SkillBudget::Tokens(1).line_cost(line), codex_tokens(line));
        }
    }

    #[test]
    fn ordered_by_scope_then_name_then_path() {
        use super::super::settings::SkillScope;
        let mut user = skill("a", "d");
        user.scope = SkillScope::User;
        let mut system = skill("z", "d");
        system.scope = SkillScope::System;
        let out = skills_instructions(&[user, skill("b", "d"), system], None).unwrap();
        let names: Vec<&str> = out.decisions.iter().map(|d| d.subject.as_str()).collect();
        assert_eq!(names, ["z", "b", "a"]);
        assert!(out.text.starts_with("<skills_instructions>\n## Skills\n"));
        assert!(out.text.ends_with(".\n</skills_instructions>"));
        assert!(out
            .text
            .contains("### Available skills\n- z: d (file: /s/z/SKILL.md)\n- b: d"));
    }

    #[test]
    fn shortening_is_even_and_stays_within_budget() {
        let skills = vec![skill("a", &"x".repeat(400)), skill("b", "short")];
        // a 2000-token window: a 40-token budget for both lines
        let out = skills_instructions(&skills, Some(2_000)).unwrap();
        let listed: Vec<&str> = out
            .text
            .lines()
            .filter(|line| line.contains("(file: "))
            .collect();
        assert_eq!(listed.len(), 2);
        let cost: u64 = listed.iter().map(|l| codex_tokens(l)).sum();
        assert!((39..=40).contains(&cost), "{cost}");
        assert_eq!(out.decisions[0].verdict, Verdict::Truncated);
        assert_eq!(out.decisions[1].verdict, Verdict::Included);
    }

    #[test]
    fn skills_are_dropped_only_when_bare_lines_overflow() {
        let skills: Vec<Skill> = (0..50).map(|i| skill(&format!("s{i:02}"), "d")).collect();
        let out = skills_instructions(&skills, Some(10_000)).unwrap();
        let over = out
            .decisions
            .iter()
            .filter(|d| d.verdict == Verdict::OverBudget)
            .count();
        assert!(over > 0 && over < 50);
        assert!(skills_instructions(&[], None).is_none());
    }
}
