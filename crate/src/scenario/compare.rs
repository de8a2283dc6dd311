//! One scenario under several profiles: every request's tokens split by how the provider's
//! prompt cache charges them, the cost, the compactions, and what each profile can still
//! see after one. The instrument that measures claims such as "diffing saves most of the
//! context tokens" on real sessions.

use alloc::string::String;
use alloc::vec::Vec;

use serde::ser::SerializeMap;

use super::billing::{response_tokens, BillingCounter, BILLING_TOKENS};
use super::recall::{recall_all, recall_in, Fact, FactRecall, FactState, RecallCounts};
use super::{run_scenario_reporting, Action, Scenario, StepsDone, Trace};
use crate::cache::{
    cache_model_explained, totals, CacheExplanation, PriceTable, PromptShape, Provider, Segment,
    StepCost,
};
use crate::compact::report::CompactionReport;
use crate::request::{cache_key, Request};
use crate::session::{Fate, ItemKind};
use crate::tokens::estimate_tokens;
use crate::{Error, Profile, ProfileName};

/// What one profile did at one request.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CompareStep {
    /// The scenario step that sent the request.
    pub step: usize,
    /// When it was sent.
    pub at_ms: u64,
    /// Its input tokens split by how the cache charges them, its output and its cost.
    #[serde(flatten)]
    pub cost: StepCost,
    /// Attachments the step added.
    pub attachments: usize,
    /// The compaction before the request, if one ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compacted: Option<CompactionSeen>,
    /// After a compaction, where the scenario's facts seen so far stand in this request.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recall: Option<RecallCounts>,
    /// The request that asked the model for the compaction's summary, when one did
    /// (included in this step's figures): see [`summary_call`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary_call: Option<StepCost>,
    /// Why the request's own input split as it did (its summary call's aside).
    pub cache: CacheExplanation,
}

/// What a profile can still see after a compaction.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CompactionSeen {
    /// The policy.
    pub policy: crate::vocabulary::PolicyId,
    /// Tokens before and after.
    pub tokens_before: u64,
    /// Tokens after.
    pub tokens_after: u64,
    /// Files whose content is still in the request.
    pub files: Vec<String>,
    /// Instructions still in force (memory files, AGENTS.md, skills, the plan).
    pub instructions: Vec<String>,
    /// Messages kept verbatim (records).
    pub recent_messages: usize,
}

/// One profile's run.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ProfileRun {
    /// One entry per request.
    pub steps: Vec<CompareStep>,
    /// The sums.
    pub totals: StepCost,
    /// Where each of the scenario's facts stands in the last request (empty when the
    /// scenario seeds none).
    pub recall: Vec<FactRecall>,
}

/// The runs of every profile compared, in the order asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comparison {
    /// `(profile, run)`.
    pub runs: Vec<(ProfileName, ProfileRun)>,
}

impl serde::Serialize for Comparison {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.runs.len()))?;
        for (name, run) in &self.runs {
            map.serialize_entry(name.as_str(), run)?;
        }
        map.end()
    }
}

crate::vocabulary::named_enum! {
    /// Where the usage a profile's client reads comes from in a comparison.
    pub enum UsageSource {
    /// The provider reports it: every assistant step without usage reports the billed count
    /// of the request it answers, as `simulateUsage` does (the default: profiles that size
    /// their context from reported usage compact where their real clients would).
    Simulated => "simulated",
    /// As the scenario says (its own `simulateUsage`): each profile replays exactly as a
    /// replay of the scenario under that profile does, so a comparison and a view of one
    /// replay agree on every compaction.
    Scenario => "scenario",
    }
}

/// How a comparison replays and prices its profiles.
#[derive(Debug, Clone, PartialEq)]
pub struct CompareOptions {
    /// Price tables that replace a profile's default ones.
    pub prices: Vec<(ProfileName, PriceTable)>,
    /// Where the usage the clients read comes from.
    pub usage: UsageSource,
}

impl Default for CompareOptions {
    fn default() -> Self {
        CompareOptions {
            prices: Vec::new(),
            usage: UsageSource::Simulated,
        }
    }
}

/// The provider whose cache a profile's requests meet: OpenAI's automatic prefix cache for
/// a profile that assembles Codex's context, Anthropic's breakpoints otherwise.
pub fn provider_for(profile: &Profile) -> Provider {
    match profile.codex.turn_context {
        true => Provider::openai(),
        false => Provider::anthropic(),
    }
}

/// The default prices of a profile's provider.
pub fn prices_for(profile: &Profile) -> PriceTable {
    match profile.codex.turn_context {
        true => PriceTable::openai_gpt5(),
        false => PriceTable::claude_sonnet(),
    }
}

/// Replays `scenario` under each of `profiles` (the scenario's switches apply to its own
/// profile only) and prices every request; `prices` replaces a profile's default table.
///
/// # Errors
/// A profile named twice, or a step that cannot run under one of the profiles.
///
/// # Example
/// ```
/// use context_assembly::scenario::{compare_profiles, parse_scenario};
/// use context_assembly::ProfileName;
/// let scenario = parse_scenario(r#"{"steps":[{"kind":"user","prompt":"hi"}]}"#).unwrap();
/// let both = [ProfileName::ClaudeCode, ProfileName::Codex];
/// let comparison = compare_profiles(&scenario, &both, &[]).unwrap();
/// let cost = &comparison.runs[1].1.steps[0].cost;
/// // Nothing is cached on the first request, and the split always adds up.
/// assert_eq!((cost.cached, cost.cached + cost.written + cost.uncached), (0, cost.sent));
/// ```
pub fn compare_profiles(
    scenario: &Scenario,
    profiles: &[ProfileName],
    prices: &[(ProfileName, PriceTable)],
) -> Result<Comparison, Error> {
    let options = CompareOptions {
        prices: prices.to_vec(),
        ..CompareOptions::default()
    };
    compare_profiles_reporting(scenario, profiles, &options, &mut |_| Ok(()))
}

/// [`compare_profiles`] with all its options (the usage the clients read among them),
/// telling `progress` after every step of every profile's replay (`total` is the steps
/// times the profiles); an error from `progress` stops the comparison with that error.
///
/// # Errors
/// As [`compare_profiles`], or `progress`'s.
///
/// # Example
/// ```
/// use context_assembly::scenario::{
///     compare_profiles_reporting, parse_scenario, run_scenario, CompareOptions, UsageSource,
/// };
/// use context_assembly::ProfileName;
/// let text = r#"{"steps":[{"kind":"user","prompt":"hi"},
///   {"kind":"assistant","blocks":[{"type":"text","text":"hello"}]},
///   {"kind":"user","prompt":"again"}]}"#;
/// let scenario = parse_scenario(text).unwrap();
/// let options = CompareOptions { usage: UsageSource::Scenario, ..CompareOptions::default() };
/// let names = [ProfileName::ClaudeCode];
/// let comparison = compare_profiles_reporting(&scenario, &names, &options, &mut |_| Ok(())).unwrap();
/// // Replayed as the scenario says, the comparison's requests are the replay's.
/// let replayed = run_scenario(&scenario).unwrap();
/// assert_eq!(comparison.runs[0].1.steps.len(), (0..3).filter(|&i| replayed.request(i).is_some()).count());
/// ```
pub fn compare_profiles_reporting(
    scenario: &Scenario,
    profiles: &[ProfileName],
    options: &CompareOptions,
    progress: &mut dyn FnMut(StepsDone) -> Result<(), Error>,
) -> Result<Comparison, Error> {
    let prices = options.prices.as_slice();
    let steps = scenario.steps.len();
    let total = steps * profiles.len();
    let mut runs = Vec::new();
    for (index, name) in profiles.iter().enumerate() {
        if profiles[..index].contains(name) {
            return Err(Error::InvalidConfig {
                field: alloc::format!("profiles[{index}]"),
                reason: alloc::format!("{} is listed twice", name.as_str()),
            });
        }
        let mut own = scenario.clone();
        // The comparison is the provider's view: it bills with one counter, and (unless
        // asked to replay as the scenario says) reports that count as usage to every client
        // that reads it.
        if options.usage == UsageSource::Simulated {
            own.simulate_usage = true;
        }
        if own.profile != *name {
            own.profile = *name;
            own.switches.clear();
        }
        let profile = Profile::preset(*name);
        let table = prices
            .iter()
            .find(|(p, _)| p == name)
            .map_or_else(|| prices_for(&profile), |(_, t)| *t);
        let mut report = |done: StepsDone| {
            progress(StepsDone {
                done: index * steps + done.done,
                total,
            })
        };
        runs.push((*name, profile_run(&own, &profile, &table, &mut report)?));
    }
    Ok(Comparison { runs })
}

fn profile_run(
    scenario: &Scenario,
    profile: &Profile,
    prices: &PriceTable,
    progress: &mut dyn FnMut(StepsDone) -> Result<(), Error>,
) -> Result<ProfileRun, Error> {
    let trace = run_scenario_reporting(scenario, progress).map_err(|error| match error {
        Error::InvalidConfig { field, reason } => Error::InvalidConfig {
            field,
            reason: alloc::format!("{reason} (profile {})", profile.name.as_str()),
        },
        other => other,
    })?;
    Ok(account(scenario, &trace, profile, prices))
}

/// A replay's requests priced as [`compare_profiles`] prices them, each with why it read what
/// it read from the cache: the accounting a view of one replay shows beside its requests, so
/// that it and a comparison agree step for step. `trace` is `scenario`'s replay under
/// `profile`.
///
/// # Example
/// ```
/// use context_assembly::scenario::{account_trace, parse_scenario, run_scenario};
/// let scenario = parse_scenario(r#"{"steps":[{"kind":"user","prompt":"hi"}]}"#).unwrap();
/// let run = account_trace(&scenario, &run_scenario(&scenario).unwrap());
/// // The first request finds nothing cached, and the accounting says why.
/// assert_eq!(run.steps[0].cache.read.as_str(), "first-request");
/// ```
pub fn account_trace(scenario: &Scenario, trace: &Trace) -> ProfileRun {
    let profile = Profile::preset(scenario.profile);
    account(scenario, trace, &profile, &prices_for(&profile))
}

fn account(
    scenario: &Scenario,
    trace: &Trace,
    profile: &Profile,
    prices: &PriceTable,
) -> ProfileRun {
    let mut billing = BillingCounter::default();
    let mut facts = FactsSeen::new(&scenario.facts);
    let mut shapes: Vec<PromptShape> = Vec::new();
    // Which shapes are summary calls: their cost goes to the step of their compaction.
    let mut summary_calls = Vec::new();
    // Each request's step, when it was sent, its attachments, its compaction and recall:
    // what its `CompareStep` holds besides the cache's figures.
    let mut seen_at = Vec::new();
    let mut last = None;
    for (index, step) in trace.steps.iter().enumerate() {
        let Some(request) = trace.request(index) else {
            continue;
        };
        let summary = step.turn.compaction.iter().rev().find_map(summary_of);
        if let (Some(summary), Some(previous)) = (summary, shapes.last()) {
            let call = summary_call(previous, summary, step.at_ms, profile, &mut billing);
            shapes.push(call);
            summary_calls.push(true);
        }
        summary_calls.push(false);
        let output = output_tokens(scenario, index + 1);
        shapes.push(shape(
            &request,
            step.at_ms,
            output,
            profile.codex.turn_context,
            &mut billing,
        ));
        let compacted = step.turn.compaction.last().map(seen);
        facts.summaries.extend(
            step.turn
                .compaction
                .iter()
                .filter_map(|report| summary_of(report).map(String::from)),
        );
        let recall = facts.look(&request, compacted.is_some());
        seen_at.push((index, step, compacted, recall));
        last = Some(request);
    }
    let explained = cache_model_explained(&shapes, &provider_for(profile), prices);
    let costs: Vec<StepCost> = explained.iter().map(|step| step.cost).collect();
    let mut summary_call = None;
    let mut requests = seen_at.into_iter();
    let mut steps = Vec::with_capacity(requests.len());
    for (explained, is_summary_call) in explained.into_iter().zip(summary_calls) {
        if is_summary_call {
            summary_call = Some(explained.cost);
            continue;
        }
        let Some((index, step, compacted, recall)) = requests.next() else {
            break;
        };
        steps.push(CompareStep {
            step: index,
            at_ms: step.at_ms,
            cost: totals(&[summary_call.unwrap_or_default(), explained.cost]),
            attachments: step.turn.attachments.len(),
            compacted,
            recall,
            summary_call: summary_call.take(),
            cache: explained.why,
        });
    }
    ProfileRun {
        steps,
        totals: totals(&costs),
        recall: last.map_or_else(Vec::new, |request| facts.recall_all(&request)),
    }
}

/// The summary a compaction asked the model for, if it asked: a policy that only clears
/// content writes none.
fn summary_of(report: &CompactionReport) -> Option<&str> {
    report.summary.as_deref().filter(|_| report.applied)
}

/// The request that produced a compaction's summary, as its provider charges it. Claude Code
/// forks the main conversation to share its prompt cache (§9.3 step 3) and Codex appends its
/// prompt to the history (codex.md §4.3), so the call reads the previous request's prefix
/// and adds the instructions; its output is the summary. Two approximations, both in the
/// summary's favour: the turn's newest records are not in the call, and a model's
/// `<analysis>` draft, which it writes before the summary and is billed for, is not counted.
fn summary_call(
    previous: &PromptShape,
    summary: &str,
    at_ms: u64,
    profile: &Profile,
    billing: &mut BillingCounter,
) -> PromptShape {
    let instructions = match profile.codex.turn_context {
        true => String::from(crate::codex::compact::SUMMARIZATION_PROMPT),
        false => crate::compact::summary::summary_request(None),
    };
    let mut segments = previous.segments.clone();
    let key = crate::cache::content_key(&instructions);
    segments.push(Segment {
        key,
        tokens: billing.count(key, &instructions),
        breakpoint: !profile.codex.turn_context,
    });
    PromptShape {
        segments,
        at_ms,
        output_tokens: estimate_tokens(summary, BILLING_TOKENS, None),
    }
}

/// The facts a run has shown the model so far: a fact counts from the first request that
/// holds its text verbatim, so a compaction is judged only on what came before it.
struct FactsSeen<'a> {
    facts: &'a [Fact],
    seen: Vec<bool>,
    /// Every summary written so far (the recall tells a fact in one of them apart).
    summaries: Vec<String>,
}

impl<'a> FactsSeen<'a> {
    fn new(facts: &'a [Fact]) -> Self {
        FactsSeen {
            facts,
            seen: alloc::vec![false; facts.len()],
            summaries: Vec::new(),
        }
    }

    fn summaries(&self) -> Vec<&str> {
        self.summaries.iter().map(String::as_str).collect()
    }

    fn recall_all(&self, request: &Request) -> Vec<FactRecall> {
        recall_all(self.facts, request, &self.summaries())
    }

    /// After a compaction, where the facts seen before it stand in `request`; then notes the
    /// facts `request` shows.
    fn look(&mut self, request: &Request, compacted: bool) -> Option<RecallCounts> {
        let summaries = self.summaries();
        let counts = (compacted && !self.facts.is_empty()).then(|| {
            let earlier: Vec<FactRecall> = self
                .facts
                .iter()
                .zip(&self.seen)
                .filter(|(_, seen)| **seen)
                .map(|(fact, _)| recall_in(fact, request, &summaries))
                .collect();
            RecallCounts::of(&earlier)
        });
        let mut seen = self.seen.clone();
        for (fact, seen) in self.facts.iter().zip(seen.iter_mut()) {
            if !*seen {
                *seen = recall_in(fact, request, &summaries).state == FactState::Verbatim;
            }
        }
        self.seen = seen;
        counts
    }
}

/// The request as the cache sees it: tools, system, the user context, then the messages'
/// blocks. Claude Code marks two breakpoints: the static system prompt and the last block.
fn shape(
    request: &Request,
    at_ms: u64,
    output_tokens: u64,
    openai: bool,
    billing: &mut BillingCounter,
) -> PromptShape {
    let mut segments: Vec<Segment> = request
        .cache_order()
        .map(|(role, block)| {
            let key = cache_key(role, block);
            Segment {
                key,
                tokens: billing.tokens(key, block),
                breakpoint: false,
            }
        })
        .collect();
    if !openai {
        let static_end = request.tools.len() + request.static_system_len();
        if let Some(segment) = static_end.checked_sub(1).and_then(|i| segments.get_mut(i)) {
            segment.breakpoint = true;
        }
        if let Some(last) = segments.last_mut() {
            last.breakpoint = true;
        }
    }
    PromptShape {
        segments,
        at_ms,
        output_tokens,
    }
}

/// Tokens of the assistant step at `index`, if it is one: what the model answered.
fn output_tokens(scenario: &Scenario, index: usize) -> u64 {
    match scenario.steps.get(index).map(|s| &s.action) {
        Some(Action::Assistant { blocks, .. }) => response_tokens(blocks),
        _ => 0,
    }
}

/// What a compaction left visible.
fn seen(report: &CompactionReport) -> CompactionSeen {
    let instruction_kinds = [
        ItemKind::ProjectMemory,
        ItemKind::UnconditionalRule,
        ItemKind::PathScopedRule,
        ItemKind::NestedMemory,
        ItemKind::AutoMemory,
        ItemKind::InvokedSkill,
        ItemKind::PlanFile,
    ];
    let alive = [Fate::Kept, Fate::Restored, Fate::Reinjected, Fate::Reloaded];
    CompactionSeen {
        policy: report.policy,
        tokens_before: report.tokens_before,
        tokens_after: report.tokens_after,
        files: report.visible.paths.clone(),
        instructions: report
            .survival
            .iter()
            .filter(|s| instruction_kinds.contains(&s.kind) && alive.contains(&s.fate))
            .map(|s| s.item.clone())
            .collect(),
        recent_messages: report.kept_records,
    }
}
