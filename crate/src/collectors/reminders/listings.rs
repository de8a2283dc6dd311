//! What the model can call or consult, announced as it changes: the skill listing (first in
//! full, then only new skills) and the deltas of deferred tools, agent types and MCP
//! instructions (spec §7.3, §7.10, §9.3).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{utf16_len, utf16_prefix, PassInput, ReminderState};
use crate::attachment::AttachmentKind;
use crate::attachment::{AttachmentRules, Collected, Verdict};
use crate::host::McpServer;
use crate::tokens::TokenMethod;
use crate::wording::reminders::{self as wording, DESCRIPTION_CUT};

/// `deferred_tools_delta` when the deferred tools differ from those announced: names added
/// and names removed. Nothing when they are the same (the first pass announces all).
pub fn deferred_tools_delta(
    input: &PassInput<'_>,
    state: &mut ReminderState,
    _rules: &AttachmentRules,
    method: TokenMethod,
    out: &mut Collected,
) {
    let current = distinct(input.deferred_tools.iter().map(String::as_str));
    let Some((added, removed)) = name_delta(&current, &mut state.announced_tools) else {
        return;
    };
    let text = wording::deferred_tools_delta(&added, &as_strs(&removed));
    announce(
        AttachmentKind::DeferredToolsDelta,
        &added,
        &removed,
        text,
        method,
        out,
    );
}

/// `agent_listing_delta` when the agent types differ from those announced.
pub fn agent_listing_delta(
    input: &PassInput<'_>,
    state: &mut ReminderState,
    _rules: &AttachmentRules,
    method: TokenMethod,
    out: &mut Collected,
) {
    let current = distinct(input.agents.iter().map(String::as_str));
    let Some((added, removed)) = name_delta(&current, &mut state.announced_agents) else {
        return;
    };
    let text = wording::agent_listing_delta(&added, &as_strs(&removed));
    announce(
        AttachmentKind::AgentListingDelta,
        &added,
        &removed,
        text,
        method,
        out,
    );
}

/// `mcp_instructions_delta` when the servers that give instructions differ from those
/// announced. A server whose instructions changed is announced again with the new ones;
/// servers without instructions are never announced.
pub fn mcp_instructions_delta(
    input: &PassInput<'_>,
    state: &mut ReminderState,
    _rules: &AttachmentRules,
    method: TokenMethod,
    out: &mut Collected,
) {
    let mut current: Vec<&McpServer> = Vec::new();
    for server in input.mcp_servers {
        let instructed = server
            .instructions
            .as_deref()
            .is_some_and(|i| !i.is_empty());
        if instructed && !current.iter().any(|s| s.name == server.name) {
            current.push(server);
        }
    }
    let announced = &mut state.announced_mcp;
    let added: Vec<&McpServer> = current
        .iter()
        .copied()
        .filter(|server| {
            !announced.iter().any(|(name, text)| {
                *name == server.name && Some(text.as_str()) == server.instructions.as_deref()
            })
        })
        .collect();
    let removed: Vec<String> = announced
        .iter()
        .filter(|(name, _)| !current.iter().any(|server| server.name == *name))
        .map(|(name, _)| name.clone())
        .collect();
    if added.is_empty() && removed.is_empty() {
        return;
    }
    *announced = current
        .iter()
        .map(|server| {
            let text = server.instructions.clone().unwrap_or_default();
            (server.name.clone(), text)
        })
        .collect();
    let text = wording::mcp_instructions_delta(&added, &as_strs(&removed));
    let names: Vec<&str> = added.iter().map(|server| server.name.as_str()).collect();
    announce(
        AttachmentKind::McpInstructionsDelta,
        &names,
        &removed,
        text,
        method,
        out,
    );
}

/// `skill_listing`: on the first pass every skill, later only skills not considered
/// before; after compaction nothing is listed again. Entries are `- {name}: {desc}`, a
/// description cut to `skill_description_cap` UTF-16 units with `…` appended (TRUNCATED).
/// The entries, joined by newlines, fit `skill_budget_percent` % of the context window at 4
/// characters a token, or the host's `skill_char_budget` when it gives a positive one; each
/// listing, a delta too, has the whole budget. A skill that does not fit is left out (OVER_BUDGET), a later,
/// shorter one may still fit, and a left-out skill is not offered again (the original marks
/// every new skill as sent before formatting).
pub fn skill_listing(
    input: &PassInput<'_>,
    state: &mut ReminderState,
    rules: &AttachmentRules,
    method: TokenMethod,
    out: &mut Collected,
) {
    let first = state.listed_skills.is_empty();
    let budget = match input.skill_char_budget {
        Some(chars) if chars > 0 => usize::try_from(chars).unwrap_or(usize::MAX),
        _ => skill_budget(input.context_window, rules.skill_budget_percent),
    };
    let mut used = 0usize;
    let mut entries: Vec<String> = Vec::new();
    for skill in input.skills {
        if !state.listed_skills.insert(skill.name.clone()) {
            continue;
        }
        let (description, cut) = utf16_prefix(&skill.description, rules.skill_description_cap);
        let entry = if cut {
            wording::skill_entry(&skill.name, &format!("{description}{DESCRIPTION_CUT}"))
        } else {
            wording::skill_entry(&skill.name, description)
        };
        let cost = utf16_len(&entry) + usize::from(!entries.is_empty());
        if used.saturating_add(cost) > budget {
            out.decide(
                &skill.name,
                Verdict::OverBudget,
                "the skill listing's character budget is spent".into(),
                Some(format!(
                    "{cost} characters needed, {} of {budget} left",
                    budget - used
                )),
            );
            continue;
        }
        used += cost;
        entries.push(entry);
        if cut {
            out.decide(
                &skill.name,
                Verdict::Truncated,
                format!(
                    "description cut to {} characters in the skill listing",
                    rules.skill_description_cap
                ),
                None,
            );
        }
    }
    if entries.is_empty() {
        return;
    }
    let reason = if first {
        format!("first listing: {} skills", entries.len())
    } else {
        format!("{} new skill(s) since the last listing", entries.len())
    };
    out.attach(
        AttachmentKind::SkillListing,
        None,
        wording::skill_listing(&entries.join("\n")),
        method,
    );
    out.decide(
        "skill_listing",
        Verdict::Included,
        reason,
        Some(format!("{used} of {budget} characters")),
    );
}

/// Characters the skill listing may use: `percent` % of the window, 4 characters a token.
fn skill_budget(context_window: u64, percent: u64) -> usize {
    let chars = (u128::from(context_window) * u128::from(percent)).saturating_mul(4) / 100;
    usize::try_from(chars).unwrap_or(usize::MAX)
}

/// Names added to and removed from `announced`, which becomes `current`; `None` when
/// nothing changed.
fn name_delta<'a>(
    current: &[&'a str],
    announced: &mut Vec<String>,
) -> Option<(Vec<&'a str>, Vec<String>)> {
    let added: Vec<&str> = current
        .iter()
        .copied()
        .filter(|name| !announced.iter().any(|a| a == name))
        .collect();
    let removed: Vec<String> = announced
        .iter()
        .filter(|a| !current.contains(&a.as_str()))
        .cloned()
        .collect();
    if added.is_empty() && removed.is_empty() {
        return None;
    }
    *announced = current.iter().map(|name| String::from(*name)).collect();
    Some((added, removed))
}

fn announce(
    kind: AttachmentKind,
    added: &[&str],
    removed: &[String],
    text: String,
    method: TokenMethod,
    out: &mut Collected,
) {
    out.attach(kind, None, text, method);
    out.decide(
        kind.as_str(),
        Verdict::Included,
        format!(
            "{} added, {} removed since the last announcement",
            added.len(),
            removed.len()
        ),
        Some(format!(
            "added: {}; removed: {}",
            added.join(", "),
            removed.join(", ")
        )),
    );
}

fn distinct<'a>(names: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut seen: Vec<&str> = Vec::new();
    for name in names {
        if !seen.contains(&name) {
            seen.push(name);
        }
    }
    seen
}

fn as_strs(names: &[String]) -> Vec<&str> {
    names.iter().map(String::as_str).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_is_one_percent_of_the_window_at_four_characters_a_token() {
        assert_eq!(skill_budget(200_000, 1), 8000);
        assert!(skill_budget(u64::MAX, u64::MAX) > 0);
    }

    #[test]
    fn a_delta_names_what_came_and_went() {
        let mut announced = Vec::new();
        let (added, removed) = name_delta(&["a", "b"], &mut announced).unwrap();
        assert_eq!((added, removed.len()), (alloc::vec!["a", "b"], 0));
        assert!(name_delta(&["b", "a"], &mut announced).is_none());
        let (added, removed) = name_delta(&["b", "c"], &mut announced).unwrap();
        assert_eq!(
            (added, removed),
            (alloc::vec!["c"], alloc::vec![String::from("a")])
        );
    }
}
