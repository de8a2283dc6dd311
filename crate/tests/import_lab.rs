//! The session logs the real clients wrote during the conformance lab, imported: each must
//! import, its warnings must be the expected ones, and its prompts and tool calls must be
//! the lab scenario's. The logs hold the vendors' text, so they are never committed: the lab
//! drivers copy them to `target/conformance/recordings*/…/session-logs/` with the scenario
//! they played (`node tests/conformance/run.mjs`, `node tests/conformance/codex-run.mjs`).
//! Without them the test says so and passes, unless `IMPORT_LAB_REQUIRED` is set: `make test`
//! runs it again after both labs (`make import-lab`) with it set, so there it cannot pass empty.

use std::fs;
use std::path::{Path, PathBuf};

use context_assembly::import::{import_session, ImportWarning, Imported, WarningKind};
use context_assembly::scenario::run_scenario;
use serde_json::Value;

fn recordings() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/conformance")
}

/// Every `session-logs` directory under `dir`.
fn log_dirs(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if !path.is_dir() {
            continue;
        }
        if path.file_name().is_some_and(|name| name == "session-logs") {
            out.push(path);
        } else {
            log_dirs(&path, out);
        }
    }
}

/// The main log of a lab run: Claude Code's subagent logs (`…__subagents__…`) are not it.
fn main_log(dir: &Path) -> Option<PathBuf> {
    let mut logs: Vec<PathBuf> = fs::read_dir(dir)
        .ok()?
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| {
            let name = path.file_name().unwrap().to_string_lossy();
            name.ends_with(".jsonl") && !name.contains("__subagents__")
        })
        .collect();
    logs.sort();
    logs.pop()
}

/// A tool call as both sides can spell it: the name, and the input with paths made relative
/// to the cwd (the lab's temp directories differ from the scenario's), Bash's command left
/// out (the lab runs a printf in its place).
fn call_key(name: &str, input: &Value, cwd: &str) -> String {
    let mut input = input.clone();
    if let Some(object) = input.as_object_mut() {
        if name == "Bash" {
            object.remove("command");
        }
        // Fields the client adds to the input it records: the plan and its path (read from
        // the plan file when the call ran), Edit's default.
        object.remove("planFilePath");
        if name == "ExitPlanMode" {
            object.remove("plan");
        }
        if object.get("replace_all") == Some(&Value::Bool(false)) {
            object.remove("replace_all");
        }
        for key in ["file_path", "path"] {
            if let Some(Value::String(path)) = object.get_mut(key) {
                *path = relative(path, cwd);
            }
        }
    }
    format!("{name} {input}")
}

/// Claude Code records Bash's output as the model got it, without leading blank lines and
/// trailing whitespace, which the engine also takes away; the lab's scripted output still
/// has them.
fn tidy(name: &str, output: &str) -> String {
    if name != "Bash" {
        return output.to_string();
    }
    let start = output.len() - output.trim_start_matches(['\n', '\r']).len();
    output[start..].trim_end().to_string()
}

fn relative(path: &str, cwd: &str) -> String {
    if let Some(rest) = path.strip_prefix(&format!("{cwd}/")) {
        return rest.to_string();
    }
    if path.contains("/.claude/plans/") {
        return String::from("<plan file>");
    }
    path.to_string()
}

/// Prompts, tool calls (with their scripted outputs) and compactions, in order.
fn outline(steps: &[Value], cwd: &str) -> Vec<String> {
    let mut out = Vec::new();
    for step in steps {
        match step["kind"].as_str().unwrap_or_default() {
            "user" => out.push(format!("user {}", step["prompt"])),
            // The lab cannot drive an automatic compaction: its scenarios leave it to the
            // window, where the log says where it happened.
            "compact" if step["trigger"] == "auto" => {}
            "compact" => out.push(String::from("compact")),
            "assistant" => {
                for block in step["blocks"].as_array().into_iter().flatten() {
                    if block["type"] == "tool_use" {
                        let name = block["name"].as_str().unwrap_or_default();
                        out.push(call_key(name, &block["input"], cwd));
                        if let Some(output) = block["output"].as_str().map(|o| tidy(name, o)) {
                            out.push(format!(
                                "  output of {} bytes: {:?}",
                                output.len(),
                                output.chars().take(60).collect::<String>()
                            ));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// Warnings a lab log is expected to give, and why.
fn expected(warning: &ImportWarning) -> bool {
    // A ranged Read shows part of a file: the note says what the scenario knows, nothing is
    // lost. Codex records a long output already cut to its limit; `exec-output` is about that.
    warning.kind == WarningKind::PartialFile
        || (warning.kind == WarningKind::LeftOut
            && warning.message.contains("was cut by the client"))
}

/// An output the client cut before recording it: the part kept, the lab's whole output.
fn cut_output(lab: &str, imported: &str) -> bool {
    imported.starts_with("  output of") && lab.starts_with("  output of")
}

#[test]
fn lab_logs_import_and_match_their_scenarios() {
    let mut dirs = Vec::new();
    log_dirs(&recordings(), &mut dirs);
    dirs.sort();
    if dirs.is_empty() {
        assert!(
            std::env::var_os("IMPORT_LAB_REQUIRED").is_none(),
            "no lab session logs under {}, and IMPORT_LAB_REQUIRED is set: the labs ran without \
             keeping them",
            recordings().display()
        );
        eprintln!(
            "no lab session logs under {}: run the conformance lab first",
            recordings().display()
        );
        return;
    }
    let mut failures = Vec::new();
    let mut imported_count = 0;
    for dir in &dirs {
        let name = dir
            .parent()
            .unwrap()
            .strip_prefix(recordings())
            .unwrap()
            .display()
            .to_string();
        let Some(log) = main_log(dir) else { continue };
        let text = fs::read_to_string(&log).unwrap();
        let imported: Imported = match import_session(&text, None) {
            Ok(imported) => imported,
            Err(error) => {
                failures.push(format!("{name}: {error}"));
                continue;
            }
        };
        imported_count += 1;
        if let Err(error) = run_scenario(&imported.scenario) {
            failures.push(format!(
                "{name}: the imported scenario does not replay: {error}"
            ));
        }
        for warning in imported.warnings.iter().filter(|w| !expected(w)) {
            failures.push(format!(
                "{name}: line {}: {:?}: {}",
                warning.line, warning.kind, warning.message
            ));
        }
        let lab: Value =
            serde_json::from_str(&fs::read_to_string(dir.join("scenario.json")).unwrap()).unwrap();
        let ours: Value = serde_json::from_str(&imported.scenario_json).unwrap();
        let lab_cwd = lab["cwd"].as_str().unwrap_or("/project");
        let lab_outline = outline(lab["steps"].as_array().unwrap(), lab_cwd);
        let our_outline = outline(
            ours["steps"].as_array().unwrap(),
            ours["cwd"].as_str().unwrap_or_default(),
        );
        let cut = imported.warnings.iter().any(expected);
        let same = lab_outline.len() == our_outline.len()
            && lab_outline
                .iter()
                .zip(&our_outline)
                .all(|(a, b)| a == b || cut && cut_output(a, b));
        if !same {
            let at = lab_outline
                .iter()
                .zip(&our_outline)
                .take_while(|(a, b)| a == b)
                .count();
            let clip = |item: Option<&String>| {
                item.map_or(String::from("(nothing)"), |s| s.chars().take(240).collect())
            };
            failures.push(format!(
                "{name}: the imported steps differ from the lab scenario's at item {at}\n  lab:      {}\n  imported: {}",
                clip(lab_outline.get(at)),
                clip(our_outline.get(at)),
            ));
        }
    }
    eprintln!("{imported_count} lab logs imported");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
