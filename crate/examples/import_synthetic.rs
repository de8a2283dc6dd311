//! Streams a generated session log of the size asked for through `SessionImporter` and says
//! how long it took and how much memory the process peaked at, to show that an import's
//! memory is bounded by what one scenario holds, not by the log's size. The log is made as
//! it is read (64 KiB chunks), never held whole.
//!
//! ```text
//! cargo run --release -p context-assembly --features serde --example import_synthetic -- 200 claude-code
//! cargo run --release -p context-assembly --features serde --example import_synthetic -- 200 codex
//! ```
//!
//! The log's turns look like real ones: a prompt, a response split over several lines with
//! its usage, Read results carrying the file (as Claude Code's `toolUseResult` does), shell
//! output, bookkeeping lines; Codex's with turn contexts, calls, outputs and token counts.
//! Peak memory is Linux's `VmHWM` (`/proc/self/status`).

use std::time::Instant;

use context_assembly::import::{LogFormat, SessionImporter};

const CHUNK: usize = 64 << 10;

fn main() {
    let mut args = std::env::args().skip(1);
    let megabytes: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(200);
    let format = match args.next().as_deref() {
        Some("codex") => LogFormat::Codex,
        _ => LogFormat::ClaudeCode,
    };
    let target = megabytes << 20;
    let before = peak_kib();
    let started = Instant::now();
    let mut importer = SessionImporter::new(None);
    let mut pending = String::new();
    let mut turn = 0usize;
    let mut written = 0u64;
    while written < target {
        match format {
            LogFormat::ClaudeCode => claude_turn(turn, &mut pending),
            LogFormat::Codex => codex_turn(turn, &mut pending),
        }
        turn += 1;
        if pending.len() >= CHUNK {
            written += pending.len() as u64;
            importer.push_chunk(pending.as_bytes());
            pending.clear();
        }
    }
    written += pending.len() as u64;
    importer.push_chunk(pending.as_bytes());
    let progress = importer.progress();
    let read_at = started.elapsed();
    let imported = importer.finish().expect("the synthetic log imports");
    let elapsed = started.elapsed();
    println!(
        "{}: {:.1} MB, {} lines, {} turns read in {:.2} s, imported in {:.2} s \
         ({:.0} MB/s); peak memory {:.1} MB (before: {:.1} MB); scenario: {} steps, {} files, \
         {:.1} MB of JSON; {} recorded usages; {} warnings",
        format.as_str(),
        written as f64 / 1e6,
        progress.lines,
        turn,
        read_at.as_secs_f64(),
        elapsed.as_secs_f64(),
        written as f64 / 1e6 / elapsed.as_secs_f64(),
        peak_kib() as f64 / 1024.0,
        before as f64 / 1024.0,
        imported.scenario.steps.len(),
        imported.scenario.files.len(),
        imported.scenario_json.len() as f64 / 1e6,
        imported.recorded.len(),
        imported.warnings.len(),
    );
    for warning in imported.warnings.iter().take(5) {
        println!(
            "  line {}: {:?}: {}",
            warning.line, warning.kind, warning.message
        );
    }
}

/// The process's peak resident memory in KiB (0 where `/proc` is not there).
fn peak_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// About 4 KB of made-up source, different per file.
fn file_text(file: usize) -> String {
    (0..60)
        .map(|line| format!("export const value{line} = {file} * {line}; // synthetic line\n"))
        .collect()
}

fn json(text: &str) -> String {
    serde_json::to_string(text).unwrap()
}

fn claude_turn(turn: usize, out: &mut String) {
    let time = |offset: usize| {
        let seconds = turn * 30 + offset;
        format!(
            "2025-12-0{}T{:02}:{:02}:{:02}.000Z",
            1 + (seconds / 86_400) % 9,
            (seconds / 3600) % 24,
            (seconds / 60) % 60,
            seconds % 60
        )
    };
    let parent = if turn == 0 {
        String::from("null")
    } else {
        format!("\"t{}-r2\"", turn - 1)
    };
    let head = |uuid: &str, parent: &str, offset: usize| {
        format!(
            "\"uuid\":\"t{turn}-{uuid}\",\"parentUuid\":{parent},\"isSidechain\":false,\
             \"cwd\":\"/work/big\",\"sessionId\":\"synthetic\",\"timestamp\":\"{}\"",
            time(offset)
        )
    };
    let usage = "{\"input_tokens\":1200,\"cache_creation_input_tokens\":300,\
                 \"cache_read_input_tokens\":40000,\"output_tokens\":80}";
    let file = format!("/work/big/src/file{}.ts", turn % 500);
    let content = file_text(turn % 500);
    let listing = format!("{{\"type\":\"queue-operation\",\"operation\":\"enqueue\",\"timestamp\":\"{}\",\"content\":\"next\"}}\n", time(0));
    out.push_str(&listing);
    out.push_str(&format!(
        "{{\"type\":\"user\",{},\"message\":{{\"role\":\"user\",\"content\":{}}}}}\n",
        head("u", &parent, 0),
        json(&format!("Turn {turn}: look at {file} and run the tests."))
    ));
    out.push_str(&format!(
        "{{\"type\":\"assistant\",{},\"message\":{{\"id\":\"m{turn}a\",\"role\":\"assistant\",\"content\":[{{\"type\":\"tool_use\",\"id\":\"r{turn}\",\"name\":\"Read\",\"input\":{{\"file_path\":\"{file}\"}}}}],\"usage\":{usage}}}}}\n",
        head("a1", &format!("\"t{turn}-u\""), 1)
    ));
    out.push_str(&format!(
        "{{\"type\":\"assistant\",{},\"message\":{{\"id\":\"m{turn}a\",\"role\":\"assistant\",\"content\":[{{\"type\":\"tool_use\",\"id\":\"b{turn}\",\"name\":\"Bash\",\"input\":{{\"command\":\"npm test\"}}}}],\"usage\":{usage}}}}}\n",
        head("a2", &format!("\"t{turn}-a1\""), 1)
    ));
    let numbered: String = content
        .lines()
        .enumerate()
        .map(|(i, line)| format!("{:>6}\t{line}\n", i + 1))
        .collect();
    out.push_str(&format!(
        "{{\"type\":\"user\",{},\"message\":{{\"role\":\"user\",\"content\":[{{\"type\":\"tool_result\",\"tool_use_id\":\"r{turn}\",\"content\":{}}}]}},\"toolUseResult\":{{\"type\":\"text\",\"file\":{{\"filePath\":\"{file}\",\"content\":{},\"numLines\":61,\"startLine\":1,\"totalLines\":61}}}}}}\n",
        head("r1", &format!("\"t{turn}-a1\""), 2),
        json(&numbered),
        json(&content)
    ));
    let output: String = (0..40)
        .map(|i| format!("[{i:04}] spec {turn}: ok ({} ms)\n", i * 7))
        .collect();
    out.push_str(&format!(
        "{{\"type\":\"user\",{},\"message\":{{\"role\":\"user\",\"content\":[{{\"type\":\"tool_result\",\"tool_use_id\":\"b{turn}\",\"content\":{}}}]}},\"toolUseResult\":{{\"stdout\":{},\"stderr\":\"\",\"interrupted\":false}}}}\n",
        head("r2", &format!("\"t{turn}-a2\""), 3),
        json(&output),
        json(&output)
    ));
    out.push_str(&format!(
        "{{\"type\":\"file-history-snapshot\",\"messageId\":\"t{turn}\",\"snapshot\":{{\"trackedFileBackups\":{{}}}}}}\n"
    ));
}

fn codex_turn(turn: usize, out: &mut String) {
    let at = |offset: usize| {
        let seconds = turn * 30 + offset;
        format!(
            "2025-12-0{}T{:02}:{:02}:{:02}.000Z",
            1 + (seconds / 86_400) % 9,
            (seconds / 3600) % 24,
            (seconds / 60) % 60,
            seconds % 60
        )
    };
    let line = |offset: usize, kind: &str, payload: String| {
        format!(
            "{{\"timestamp\":\"{}\",\"type\":\"{kind}\",\"payload\":{payload}}}\n",
            at(offset)
        )
    };
    if turn == 0 {
        out.push_str(&line(
            0,
            "session_meta",
            String::from("{\"id\":\"synthetic\",\"cwd\":\"/work/big\"}"),
        ));
    }
    let sandbox = if turn % 50 == 49 {
        "read-only"
    } else {
        "workspace-write"
    };
    out.push_str(&line(
        0,
        "event_msg",
        String::from("{\"type\":\"task_started\",\"model_context_window\":258400}"),
    ));
    out.push_str(&line(0, "turn_context", format!(
        "{{\"cwd\":\"/work/big\",\"approval_policy\":\"on-request\",\"sandbox_policy\":{{\"type\":\"{sandbox}\",\"network_access\":false}},\"model\":\"gpt-5.3-codex\",\"personality\":\"pragmatic\",\"timezone\":\"Etc/UTC\"}}"
    )));
    let prompt = json(&format!(
        "Turn {turn}: show file{} and count its lines.",
        turn % 500
    ));
    out.push_str(&line(0, "response_item", format!("{{\"type\":\"message\",\"role\":\"user\",\"content\":[{{\"type\":\"input_text\",\"text\":{prompt}}}]}}")));
    out.push_str(&line(
        0,
        "event_msg",
        format!("{{\"type\":\"user_message\",\"message\":{prompt}}}"),
    ));
    out.push_str(&line(
        1,
        "response_item",
        String::from("{\"type\":\"reasoning\",\"encrypted_content\":\"c3ludGhldGlj\"}"),
    ));
    out.push_str(&line(1, "response_item", format!(
        "{{\"type\":\"function_call\",\"name\":\"exec_command\",\"arguments\":{},\"call_id\":\"c{turn}\"}}",
        json(&format!("{{\"cmd\":\"cat src/file{}.ts\"}}", turn % 500))
    )));
    let output = format!(
        "Chunk ID: {turn}\nWall time: 0.0 seconds\nProcess exited with code 0\nOutput:\n{}",
        file_text(turn % 500)
    );
    out.push_str(&line(
        2,
        "response_item",
        format!(
            "{{\"type\":\"function_call_output\",\"call_id\":\"c{turn}\",\"output\":{}}}",
            json(&output)
        ),
    ));
    let count = |total: usize| {
        format!(
        "{{\"type\":\"token_count\",\"info\":{{\"total_token_usage\":{{\"total_tokens\":{total}}},\"last_token_usage\":{{\"input_tokens\":9000,\"cached_input_tokens\":8000,\"output_tokens\":40}},\"model_context_window\":258400}}}}"
    )
    };
    out.push_str(&line(2, "event_msg", count(turn * 2 + 1)));
    out.push_str(&line(3, "response_item", String::from("{\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\",\"text\":\"Sixty lines.\"}]}")));
    out.push_str(&line(3, "event_msg", count(turn * 2 + 2)));
    out.push_str(&line(
        3,
        "event_msg",
        String::from("{\"type\":\"task_complete\"}"),
    ));
}
