//! Replaying a scenario: a session built from its start, each step applied in order on a
//! logical clock, one [`Turn`] recorded per step.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::parse::{parse_json, Json};
use super::trace::{StepTrace, Trace};

use super::billing::{simulated_usage, BillingCounter};
use super::switches::apply_switches;
use super::{Action, AssistantStep, Scenario, ToolCall};
use crate::compact::context_size::ProviderUsage;
use crate::session::{
    GrepOutputMode, ResponseBlock, Session, SessionOptions, TodoItem, ToolCall as SessionCall,
    ToolInvocation, Turn,
};
use crate::{Error, Profile};

/// The latest time a scenario's clock may reach: 2^53 ms, the largest whole number a JS
/// number holds exactly, so every time in a trace reads back as written.
pub const MAX_CLOCK_MS: u64 = 1 << 53;

/// Replays `scenario` from its start.
///
/// # Errors
/// [`Error::InvalidConfig`] naming the JSON path of what could not be applied: an unknown
/// switch, a file path outside the root, a tool input that is not what the tool takes.
pub fn run_scenario(scenario: &Scenario) -> Result<Trace, Error> {
    run_scenario_reporting(scenario, &mut |_| Ok(()))
}

/// How far a long call has come: `done` of `total` steps (every profile's steps, in a
/// comparison).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StepsDone {
    /// Steps replayed so far.
    pub done: usize,
    /// Steps in all.
    pub total: usize,
}

/// [`run_scenario`], telling `progress` after every step; an error from `progress` stops
/// the replay with that error (a host's cancellation, or its callback failing).
///
/// # Errors
/// As [`run_scenario`], or `progress`'s.
pub fn run_scenario_reporting(
    scenario: &Scenario,
    progress: &mut dyn FnMut(StepsDone) -> Result<(), Error>,
) -> Result<Trace, Error> {
    let mut trace = Trace::default();
    let total = scenario.steps.len();
    replay(scenario, total, |index, step| {
        trace.push(step).map_err(|reason| Error::InvalidConfig {
            field: format!("steps[{index}]"),
            reason,
        })?;
        progress(StepsDone {
            done: index + 1,
            total,
        })
    })?;
    Ok(trace)
}

/// The session after the first `steps` steps of `scenario`, and the clock then.
///
/// # Errors
/// As [`run_scenario`].
pub fn replay_session(scenario: &Scenario, steps: usize) -> Result<(Session, u64), Error> {
    replay(scenario, steps, |_, _| Ok(()))
}

/// Replays the first `steps` steps, handing each step's trace to `record`, which may stop
/// the replay with an error.
fn replay(
    scenario: &Scenario,
    steps: usize,
    mut record: impl FnMut(usize, StepTrace) -> Result<(), Error>,
) -> Result<(Session, u64), Error> {
    let mut profile = Profile::preset(scenario.profile);
    apply_switches(&mut profile, &scenario.switches)?;
    let mut session = Session::new(SessionOptions {
        profile,
        cwd: scenario.cwd.clone(),
        home: Some(scenario.home.clone()),
        config: scenario.config.clone(),
    })
    .map_err(|error| match error {
        // A bad rule names its place (`config.deny[i]`); a bad cwd or home says which it is.
        Error::InvalidConfig { .. } => error,
        other => at("cwd", other),
    })?;
    let mut clock = scenario.start_ms;
    let mut provider = scenario.simulate_usage.then(SimulatedProvider::default);
    let mut written: alloc::collections::BTreeMap<String, usize> = Default::default();
    for (index, file) in scenario.files.iter().enumerate() {
        let place = format!("files[{index}]");
        let abs = session
            .expand(&file.path)
            .map_err(|error| at(&place, error))?;
        if let Some(first) = written.insert(abs.clone(), index) {
            return Err(Error::InvalidConfig {
                field: place,
                reason: format!(
                    "{:?} is {abs}, the same file as files[{first}] ({:?}): give each file once",
                    file.path, scenario.files[first].path
                ),
            });
        }
        session
            .write_file(&abs, file.content.as_str(), clock)
            .map_err(|error| at(&place, error))?;
    }
    for (index, step) in scenario.steps.iter().take(steps).enumerate() {
        let path = format!("steps[{index}]");
        clock = match step.action {
            Action::AdvanceTime { ms } => clock.saturating_add(ms),
            _ => clock.saturating_add(scenario.step_ms),
        };
        if clock > MAX_CLOCK_MS {
            return Err(Error::InvalidConfig {
                field: path,
                reason: format!(
                    "the clock would reach {clock} ms, past {MAX_CLOCK_MS} (2^53, the largest \
                     time JavaScript holds exactly): start earlier or take smaller steps"
                ),
            });
        }
        let turn = match (&step.action, provider.as_mut()) {
            (
                Action::Assistant {
                    blocks,
                    usage: None,
                    compact_before_tool_round,
                },
                Some(provider),
            ) => {
                let usage = simulated_usage(provider.answered, blocks);
                let blocks = response_blocks(blocks, &path)?;
                respond(
                    &mut session,
                    blocks,
                    Some(usage),
                    compact_before_tool_round,
                    clock,
                    &path,
                )?
            }
            _ => apply(&mut session, &step.action, clock, &path)?,
        };
        if let Some((provider, request)) = provider.as_mut().zip(sent_request(&turn)) {
            provider.answered = provider.counter.request(request);
        }
        record(
            index,
            StepTrace {
                input: step.source.clone(),
                at_ms: clock,
                mode: session.mode(),
                turn,
            },
        )?;
    }
    Ok((session, clock))
}

/// Applies one step, written as in a scenario's `steps`, to a live session: what a host
/// driving a [`Session`] step by step uses (prompts, responses, tool results, edits, mode
/// changes, IDE state…).
///
/// # Errors
/// The step is not one JSON object, or it is not a valid step (the error's path starts at
/// `step`), or it cannot run (a tool result for a call that awaits none…).
///
/// # Example
/// ```
/// use context_assembly::scenario::apply_step;
/// use context_assembly::session::{Session, SessionConfig, SessionOptions};
/// use context_assembly::Profile;
/// let options = SessionOptions { profile: Profile::recommended(), cwd: "/p".into(), home: None, config: SessionConfig::default() };
/// let mut session = Session::new(options).unwrap();
/// let turn = apply_step(&mut session, r#"{"kind": "user", "prompt": "hi"}"#, 1_000).unwrap();
/// assert_eq!(turn.round.as_str(), "human-turn");
/// let error = apply_step(&mut session, r#"{"kind": "user"}"#, 2_000).unwrap_err();
/// assert_eq!(error.to_string(), "step.prompt: required field is missing");
/// ```
pub fn apply_step(session: &mut Session, step: &str, at_ms: u64) -> Result<Turn, Error> {
    // A complete JSON value cannot reach outside the brackets it is wrapped in.
    match parse_json(step) {
        Ok(Json::Object(_)) => {}
        Ok(other) => {
            return Err(Error::InvalidConfig {
                field: "step".into(),
                reason: format!("expected an object, got {}", type_name(&other)),
            })
        }
        Err(error) => {
            return Err(Error::InvalidConfig {
                field: "step".into(),
                reason: format!("invalid JSON: {error}"),
            })
        }
    }
    let scenario = super::parse_scenario(&format!("{{\"steps\":[{step}]}}")).map_err(rebase)?;
    let Some(step) = scenario.steps.first() else {
        return Err(Error::InvalidConfig {
            field: "step".into(),
            reason: "expected one step".into(),
        });
    };
    session
        .advance_clock(at_ms)
        .map_err(|error| at("step", error))?;
    apply(session, &step.action, at_ms, "step")
}

/// The provider a replay with `simulateUsage` stands in for: what it counted of the last
/// request the model received.
#[derive(Default)]
struct SimulatedProvider {
    counter: BillingCounter,
    /// The billed tokens of the request the next response answers.
    answered: u64,
}

/// The request a turn sent the model: a human turn's or a tool round's (a compaction's
/// "request as it now stands" is not sent).
fn sent_request(turn: &Turn) -> Option<&crate::request::Request> {
    use crate::session::Round;
    match turn.round {
        Round::HumanTurn | Round::ToolRound => turn.request.as_ref(),
        _ => None,
    }
}

/// The model answers with `blocks`, having reported `usage`; a compaction the scenario
/// placed before the tool round runs there.
fn respond(
    session: &mut Session,
    blocks: Vec<ResponseBlock>,
    usage: Option<ProviderUsage>,
    compact_before_tool_round: &Option<(crate::session::CompactionOptions, Option<String>)>,
    at_ms: u64,
    path: &str,
) -> Result<Turn, Error> {
    session.compact_before_next_request(compact_before_tool_round.clone());
    let turn = session.respond_with_usage(blocks, usage, at_ms);
    if turn.is_err() {
        session.compact_before_next_request(None);
    }
    turn.map_err(|error| at(path, error))
}

/// An error of the wrapping scenario, as the path of the one step.
fn rebase(error: Error) -> Error {
    match error {
        Error::InvalidConfig { field, reason } => Error::InvalidConfig {
            field: match field.strip_prefix("steps[0]") {
                Some(rest) => format!("step{rest}"),
                None => field,
            },
            reason,
        },
        other => other,
    }
}

/// Applies one step.
fn apply(session: &mut Session, action: &Action, at_ms: u64, path: &str) -> Result<Turn, Error> {
    let event = Turn::of(crate::session::Round::Event);
    let fs = |error: Error| at(path, error);
    let file_path = format!("{path}.path");
    let at_file = |error: Error| at(&file_path, error);
    match action {
        Action::User {
            prompt,
            memories,
            pastes,
        } => match pastes.is_empty() {
            true => Ok(session.submit_with_memories(prompt, memories.as_deref(), at_ms)),
            false => session.submit_pasted(prompt, pastes, at_ms).map_err(fs),
        },
        Action::Assistant {
            blocks,
            usage,
            compact_before_tool_round,
        } => {
            let blocks = response_blocks(blocks, path)?;
            respond(
                session,
                blocks,
                *usage,
                compact_before_tool_round,
                at_ms,
                path,
            )
        }
        Action::ToolResults { results } => session
            .supply_tool_results(results.clone(), at_ms)
            .map_err(fs),
        Action::WriteFile {
            path: file,
            content,
        } => {
            session
                .write_file(file, content.as_str(), at_ms)
                .map_err(at_file)?;
            Ok(event)
        }
        Action::DeleteFile { path: file } => {
            session.delete_file(file, at_ms).map_err(at_file)?;
            Ok(event)
        }
        Action::Rename { from, to } => {
            session.rename(from, to, at_ms).map_err(fs)?;
            Ok(event)
        }
        Action::Touch { path: file } => {
            session.touch(file, at_ms).map_err(at_file)?;
            Ok(event)
        }
        Action::SetMode { mode } => {
            session.set_mode(*mode);
            Ok(event)
        }
        Action::Ide {
            selection,
            opened_file,
        } => {
            session.set_ide(selection.clone(), opened_file.clone());
            Ok(event)
        }
        Action::Diagnostics { files } => {
            session.add_diagnostics(files.clone());
            Ok(event)
        }
        Action::AdvanceTime { .. } => Ok(event),
        Action::Registry {
            skills,
            agents,
            mcp_servers,
            deferred_tools,
        } => {
            session.set_registries(
                skills.clone(),
                agents.clone(),
                mcp_servers.clone(),
                deferred_tools.clone(),
            );
            Ok(event)
        }
        Action::QueueCommand { prompt } => {
            session.queue_command(prompt);
            Ok(event)
        }
        Action::CriticalReminder { text } => {
            session.set_critical_reminder(text.clone());
            Ok(event)
        }
        Action::Usage {
            spent_usd_cents,
            output_tokens,
        } => {
            session.record_usage(*spent_usd_cents, *output_tokens);
            Ok(event)
        }
        Action::TaskStatus {
            task_id,
            description,
            status,
        } => {
            session.set_task_status(task_id, description, *status);
            Ok(event)
        }
        Action::TurnSettings { changes } => {
            let settings = changes.apply(session.turn_settings().clone());
            if let Some(window) = changes.context_window {
                session
                    .set_context_window(window)
                    .map_err(|error| at(path, error))?;
            }
            session.set_turn_settings(settings);
            Ok(event)
        }
        Action::Resume => thread_step(session.codex_resume(), path),
        Action::Fork { before_user_turn } => {
            thread_step(session.codex_fork(*before_user_turn), path)
        }
        Action::Rollback { turns } => thread_step(session.codex_rollback(*turns), path),
        Action::Compact {
            options,
            summary,
            prompt_too_long,
        } => {
            let plan = session.plan_compaction(options.clone(), at_ms);
            let report = session
                .apply_compaction_after_refusals(&plan, prompt_too_long, summary.as_deref(), at_ms)
                .map_err(|error| at(path, error))?;
            Ok(session.after_compaction(report, at_ms))
        }
    }
}

/// A Codex thread step's turn: an event with its decision.
fn thread_step(
    result: Result<crate::attachment::Collected, Error>,
    path: &str,
) -> Result<Turn, Error> {
    let collected = result.map_err(|error| at(path, error))?;
    Ok(Turn::from_collected(
        crate::session::Round::Event,
        collected,
    ))
}

fn response_blocks(blocks: &[AssistantStep], path: &str) -> Result<Vec<ResponseBlock>, Error> {
    blocks
        .iter()
        .enumerate()
        .map(|(index, block)| {
            Ok(match block {
                AssistantStep::Text(text) => ResponseBlock::Text(text.clone()),
                AssistantStep::Thinking(text) => ResponseBlock::Thinking(text.clone()),
                AssistantStep::ToolUse(call) => {
                    let here = format!("{path}.blocks[{index}]");
                    ResponseBlock::ToolUse(SessionCall {
                        id: call.id.clone(),
                        name: call.name.clone(),
                        input: call.input.clone(),
                        invocation: invocation(call, &here)?,
                    })
                }
            })
        })
        .collect()
}

/// Decodes a tool call's input into what the session runs.
pub(crate) fn invocation(call: &ToolCall, path: &str) -> Result<ToolInvocation, Error> {
    let input = parse_json(&call.input).map_err(|error| Error::InvalidConfig {
        field: format!("{path}.input"),
        reason: format!("not JSON: {error}"),
    })?;
    let fields = Fields {
        input: &input,
        path: format!("{path}.input"),
    };
    Ok(match call.name.as_str() {
        "Read" => ToolInvocation::Read {
            file_path: fields.string("file_path")?,
            offset: fields.optional_whole("offset")?,
            limit: fields.optional_whole("limit")?.map(|n| n.min(i64::MAX as u64) as i64),
        },
        "Edit" => ToolInvocation::Edit {
            file_path: fields.string("file_path")?,
            old_string: fields.string("old_string")?,
            new_string: fields.string("new_string")?,
        },
        "Write" => ToolInvocation::Write {
            file_path: fields.string("file_path")?,
            content: fields.string("content")?,
        },
        "Grep" => ToolInvocation::Grep {
            pattern: fields.string("pattern")?,
            path: fields.optional_string("path")?,
            output_mode: fields.grep_output_mode()?,
        },
        "Glob" => ToolInvocation::Glob {
            pattern: fields.string("pattern")?,
            path: fields.optional_string("path")?,
        },
        "TodoWrite" => ToolInvocation::TodoWrite {
            todos: fields.todos()?,
        },
        "TaskCreate" => ToolInvocation::TaskCreate {
            subject: fields.string("subject")?,
        },
        "TaskUpdate" => ToolInvocation::TaskUpdate {
            task_id: fields.whole("taskId")?,
            status: fields.status("status")?,
        },
        "ExitPlanMode" => ToolInvocation::ExitPlanMode {
            approval: call.approval.clone().ok_or_else(|| Error::InvalidConfig {
                field: format!("{path}.approval"),
                reason: "an ExitPlanMode call needs the user's answer: {\"approved\": true|false, \"feedback\"?: string}".into(),
            })?,
        },
        // Codex's freeform tool: its input is the patch itself, here under `input`.
        "apply_patch" if call.output.is_none() => ToolInvocation::ApplyPatch {
            patch: fields.string("input")?,
        },
        _ => ToolInvocation::External {
            output: call.output.clone(),
        },
    })
}

/// Typed access to a tool input's fields, with the JSON path in every error.
struct Fields<'a> {
    input: &'a Json,
    path: String,
}

impl Fields<'_> {
    fn error(&self, key: &str, reason: String) -> Error {
        Error::InvalidConfig {
            field: format!("{}.{key}", self.path),
            reason,
        }
    }

    fn optional_string(&self, key: &str) -> Result<Option<String>, Error> {
        match self.input.get(key) {
            None | Some(Json::Null) => Ok(None),
            Some(Json::String(text)) => Ok(Some(text.clone())),
            Some(other) => {
                Err(self.error(key, format!("expected a string, got {}", type_name(other))))
            }
        }
    }

    /// Grep's `output_mode`: absent means files mode.
    fn grep_output_mode(&self) -> Result<GrepOutputMode, Error> {
        let Some(given) = self.optional_string("output_mode")? else {
            return Ok(GrepOutputMode::default());
        };
        GrepOutputMode::NAMES
            .iter()
            .find(|(name, _)| *name == given)
            .map(|(_, mode)| *mode)
            .ok_or_else(|| {
                let allowed: Vec<String> = GrepOutputMode::NAMES
                    .iter()
                    .map(|(name, _)| format!("\"{name}\""))
                    .collect();
                self.error(
                    "output_mode",
                    format!(
                        "{given:?} is not simulated: expected one of {}",
                        allowed.join(", ")
                    ),
                )
            })
    }

    fn string(&self, key: &str) -> Result<String, Error> {
        self.optional_string(key)?
            .ok_or_else(|| self.error(key, "required: expected a string".into()))
    }

    fn optional_whole(&self, key: &str) -> Result<Option<u64>, Error> {
        match self.input.get(key) {
            None | Some(Json::Null) => Ok(None),
            Some(Json::Number(n)) if n.as_u64().is_some() => Ok(n.as_u64()),
            Some(other) => Err(self.error(
                key,
                format!("expected a whole number ≥ 0, got {}", type_name(other)),
            )),
        }
    }

    fn whole(&self, key: &str) -> Result<u64, Error> {
        self.optional_whole(key)?
            .ok_or_else(|| self.error(key, "required: expected a whole number ≥ 0".into()))
    }

    fn status(&self, key: &str) -> Result<String, Error> {
        let status = self.string(key)?;
        match status.as_str() {
            "pending" | "in_progress" | "completed" => Ok(status),
            _ => Err(self.error(
                key,
                format!("unknown status {status:?}: expected one of \"pending\", \"in_progress\", \"completed\""),
            )),
        }
    }

    fn todos(&self) -> Result<Vec<TodoItem>, Error> {
        let Some(Json::Array(items)) = self.input.get("todos") else {
            return Err(self.error(
                "todos",
                "required: expected an array of {content, status}".into(),
            ));
        };
        items
            .iter()
            .enumerate()
            .map(|(index, item)| {
                if !matches!(item, Json::Object(_)) {
                    let reason = format!(
                        "expected an object {{content, status}}, got {}",
                        type_name(item)
                    );
                    return Err(self.error(&format!("todos[{index}]"), reason));
                }
                let fields = Fields {
                    input: item,
                    path: format!("{}.todos[{index}]", self.path),
                };
                Ok(TodoItem {
                    content: fields.string("content")?,
                    status: fields.status("status")?,
                    // Left to the session, which refuses the call as the original does.
                    active_form: fields.optional_string("activeForm")?,
                })
            })
            .collect()
    }
}

fn type_name(value: &Json) -> &'static str {
    value.kind()
}

/// An error of the session, placed at the JSON path of the step that caused it.
fn at(path: &str, error: Error) -> Error {
    match error {
        Error::InvalidConfig { field, reason } => Error::InvalidConfig {
            field: format!("{path}.{field}"),
            reason,
        },
        other => Error::InvalidConfig {
            field: path.to_string(),
            reason: other.to_string(),
        },
    }
}
