//! The scenario parser: every field read, every error named by its path, and the JSON
//! Schema in agreement with the parser.
//!
//! `tests/fixtures/scenario-errors.json` is an array of `{ name, scenario, error }`: a
//! `scenario` that is a JSON string is the raw input text (for invalid JSON, duplicate keys
//! and numbers such as `1.0` that a JSON round trip would change); any other value is the
//! scenario itself, serialised compactly. `error` is the exact message (`{field}: {reason}`).
//! Each case has exactly one fault, so the message cannot depend on how a serialiser orders
//! keys. The wasm package's tests run the same file.
#![cfg(feature = "serde")]

use context_assembly::request::ToolDefinition;
use context_assembly::scenario::{
    parse_scenario, Action, AssistantStep, InitialFile, Scenario, Step, ToolCall,
};
use context_assembly::session::{
    BackgroundStatus, Diagnostic, DiagnosticFile, IdeSelection, McpResource, McpServer,
    PermissionMode, PlanApproval, PolicyId, SessionConfig, Severity, Skill,
};
use context_assembly::{Error, ProfileName};
use proptest::prelude::*;
use serde::Deserialize;
use serde_json::{json, Value};

#[derive(Deserialize)]
struct ErrorCase {
    name: String,
    scenario: Value,
    error: String,
}

fn fixture_text(name: &str) -> String {
    let path = format!("{}/../{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn input_of(scenario: &Value) -> String {
    match scenario {
        Value::String(raw) => raw.clone(),
        other => other.to_string(),
    }
}

fn message(json: &str) -> String {
    match parse_scenario(json) {
        Ok(_) => panic!("expected an error for {json}"),
        Err(err) => err.to_string(),
    }
}

#[test]
fn error_fixture_messages_are_exact() {
    let cases: Vec<ErrorCase> =
        serde_json::from_str(&fixture_text("tests/fixtures/scenario-errors.json")).unwrap();
    assert!(cases.len() >= 25);
    let mut failures = Vec::new();
    for case in &cases {
        let got = match parse_scenario(&input_of(&case.scenario)) {
            Ok(_) => "(no error)".to_string(),
            Err(err) => {
                assert!(matches!(err, Error::InvalidConfig { .. }), "{}", case.name);
                err.to_string()
            }
        };
        if got != case.error {
            failures.push(format!(
                "{}:\n  expected {}\n  got      {got}",
                case.name, case.error
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn error_fixture_names_are_unique() {
    let cases: Vec<ErrorCase> =
        serde_json::from_str(&fixture_text("tests/fixtures/scenario-errors.json")).unwrap();
    let mut names: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
    names.sort_unstable();
    let before = names.len();
    names.dedup();
    assert_eq!(names.len(), before);
}

#[test]
fn the_smallest_scenario_takes_every_default() {
    let scenario = parse_scenario(r#"{"steps":[]}"#).unwrap();
    assert_eq!(
        scenario,
        Scenario {
            name: String::new(),
            description: String::new(),
            profile: ProfileName::Recommended,
            switches: vec![],
            cwd: "/project".into(),
            home: "/home/user".into(),
            start_ms: 1_764_547_200_000,
            step_ms: 1000,
            config: SessionConfig::default(),
            files: vec![],
            steps: vec![],
            facts: vec![],
            simulate_usage: false,
        }
    );
}

const FULL: &str = r#"{
  "$schema": "./scenario.schema.json",
  "name": "Everything",
  "description": "Each field once.",
  "profile": "claude-code",
  "switches": { "attachments.planCountsNewPrompt": true, "memory.triggerOnWrites": false },
  "cwd": "/work/app",
  "home": "/home/ada",
  "startMs": 0,
  "stepMs": 250,
  "config": {
    "deny": ["Read(./.env)"],
    "mcpResources": [
      { "server": "docs", "uri": "guide://intro", "name": "Intro", "description": "d", "text": "hello" },
      { "server": "docs", "uri": "guide://empty" }
    ],
    "agents": ["reviewer"],
    "additionalDirectories": ["/shared"],
    "tools": [{ "name": "Lookup", "description": "Looks up.", "inputSchema": { "type": "object", "properties": {} }, "deferred": true }],
    "deferredTools": ["Lookup"],
    "skills": [{ "name": "pdf", "description": "Reads PDFs." }],
    "mcpServers": [{ "name": "docs", "instructions": "Ask me." }, { "name": "quiet" }],
    "contextWindow": 100000,
    "outputReserve": 8000,
    "systemPrompt": "You help.",
    "platform": "darwin",
    "gitStatus": "M a.ts",
    "utcOffsetMinutes": -300,
    "outputStyle": "Explanatory",
    "tokenUsageReminder": true,
    "budgetUsdCents": 500,
    "outputTokenBudget": 4000,
    "disableAttachments": true,
    "autoModeAvailable": true,
    "compactionReminders": true,
    "interviewMode": true,
    "printMode": true,
    "autoCompact": false,
    "pinned": ["src/app.ts"],
    "planFile": "/home/ada/.claude/plans/p.md",
    "memoryDir": "/home/ada/.claude/memory",
    "transcriptPath": "~/.claude/projects/-p/s.jsonl",
    "permissionMode": "plan",
    "policies": ["opencode.read_guard", "cline.file_tracker"]
  },
  "files": { "z.ts": "last\n", "a.ts": "first\n" },
  "steps": [
    { "kind": "user", "prompt": "look at @a.ts", "memories": ["/home/ada/.claude/memory/m.md"] },
    { "kind": "assistant", "blocks": [
      { "type": "thinking", "thinking": "hmm" },
      { "type": "text", "text": "Reading." },
      { "type": "tool_use", "name": "Read", "input": { "file_path": "a.ts", "limit": 2, "offset": 1 }, "id": "t1" },
      { "type": "tool_use", "name": "Bash", "input": {}, "output": "ok\n" },
      { "type": "tool_use", "name": "ExitPlanMode", "input": { "plan": "p" }, "approval": { "approved": false, "feedback": "no" } }
    ] },
    { "kind": "writeFile", "path": "b.ts", "content": "" },
    { "kind": "deleteFile", "path": "b.ts" },
    { "kind": "rename", "from": "a.ts", "to": "c.ts" },
    { "kind": "touch", "path": "c.ts" },
    { "kind": "setMode", "mode": "acceptEdits" },
    { "kind": "ide", "selection": { "path": "/work/app/c.ts", "lineStart": 0, "lineCount": 2, "endsAtLineStart": true, "text": "first\n" }, "openedFile": "/work/app/c.ts" },
    { "kind": "ide" },
    { "kind": "diagnostics", "files": [{ "path": "c.ts", "items": [
      { "severity": "warning", "line": 0, "column": 4, "message": "unused", "code": "W1", "source": "lint" },
      { "severity": "hint", "line": 1, "column": 0, "message": "m" }
    ] }] },
    { "kind": "advanceTime", "ms": 60000 },
    { "kind": "registry", "agents": [] },
    { "kind": "registry", "skills": [{ "name": "s", "description": "d" }], "mcpServers": [], "deferredTools": ["X"] },
    { "kind": "queueCommand", "prompt": "also this" },
    { "kind": "criticalReminder", "text": null },
    { "kind": "criticalReminder", "text": "Stay on task." },
    { "kind": "usage", "spentUsdCents": 120, "outputTokens": 900 },
    { "kind": "usage" },
    { "kind": "taskStatus", "taskId": "bg1", "description": "tests", "status": "killed" }
  ]
}"#;

fn actions(scenario: &Scenario) -> Vec<Action> {
    scenario.steps.iter().map(|s| s.action.clone()).collect()
}

#[test]
fn every_field_is_read() {
    let scenario = parse_scenario(FULL).unwrap();
    assert_eq!(scenario.name, "Everything");
    assert_eq!(scenario.description, "Each field once.");
    assert_eq!(scenario.profile, ProfileName::ClaudeCode);
    assert_eq!(
        scenario.switches,
        [
            ("attachments.planCountsNewPrompt".to_string(), true),
            ("memory.triggerOnWrites".to_string(), false)
        ]
    );
    assert_eq!(
        (scenario.cwd.as_str(), scenario.home.as_str()),
        ("/work/app", "/home/ada")
    );
    assert_eq!((scenario.start_ms, scenario.step_ms), (0, 250));
    assert_eq!(
        scenario.config,
        SessionConfig {
            deny: vec!["Read(./.env)".into()],
            mcp_resources: vec![
                McpResource {
                    server: "docs".into(),
                    uri: "guide://intro".into(),
                    name: Some("Intro".into()),
                    description: Some("d".into()),
                    text: Some("hello".into()),
                },
                McpResource {
                    server: "docs".into(),
                    uri: "guide://empty".into(),
                    ..McpResource::default()
                },
            ],
            agents: vec!["reviewer".into()],
            additional_directories: vec!["/shared".into()],
            tools: vec![ToolDefinition {
                name: "Lookup".into(),
                description: "Looks up.".into(),
                input_schema: r#"{"type":"object","properties":{}}"#.into(),
                deferred: true,
            }],
            deferred_tools: vec!["Lookup".into()],
            skills: vec![Skill {
                name: "pdf".into(),
                description: "Reads PDFs.".into()
            }],
            mcp_servers: vec![
                McpServer {
                    name: "docs".into(),
                    instructions: Some("Ask me.".into())
                },
                McpServer {
                    name: "quiet".into(),
                    instructions: None
                },
            ],
            skill_listing_char_budget: None,
            model: None,
            context_window: 100_000,
            output_reserve: 8000,
            window_overrides: Default::default(),
            system_prompt: Some("You help.".into()),
            platform: "darwin".into(),
            git_status: Some("M a.ts".into()),
            utc_offset_minutes: -300,
            output_style: Some("Explanatory".into()),
            token_usage_reminder: true,
            budget_usd_cents: Some(500),
            output_token_budget: Some(4000),
            disable_attachments: true,
            auto_mode_available: true,
            compaction_reminders: true,
            interview_mode: true,
            print_mode: true,
            plan_file: Some("/home/ada/.claude/plans/p.md".into()),
            memory_dir: Some("/home/ada/.claude/memory".into()),
            permission_mode: PermissionMode::Plan,
            auto_compact: false,
            pinned: vec!["src/app.ts".into()],
            transcript_path: Some("~/.claude/projects/-p/s.jsonl".into()),
            policies: vec![PolicyId::ReadGuard, PolicyId::FileTracker],
        }
    );
    let file = |path: &str, content: &str| InitialFile {
        path: path.into(),
        content: content.into(),
    };
    assert_eq!(
        scenario.files,
        [file("z.ts", "last\n"), file("a.ts", "first\n")]
    );
}

#[test]
fn every_step_kind_is_read() {
    let scenario = parse_scenario(FULL).unwrap();
    let call = |id: Option<&str>, name: &str, input: &str| ToolCall {
        id: id.map(Into::into),
        name: name.into(),
        input: input.into(),
        output: None,
        approval: None,
    };
    let expected = vec![
        Action::User {
            prompt: "look at @a.ts".into(),
            memories: Some(vec!["/home/ada/.claude/memory/m.md".into()]),
            pastes: vec![],
        },
        Action::Assistant {
            blocks: vec![
                AssistantStep::Thinking("hmm".into()),
                AssistantStep::Text("Reading.".into()),
                AssistantStep::ToolUse(call(
                    Some("t1"),
                    "Read",
                    r#"{"file_path":"a.ts","limit":2,"offset":1}"#,
                )),
                AssistantStep::ToolUse(ToolCall {
                    output: Some("ok\n".into()),
                    ..call(None, "Bash", "{}")
                }),
                AssistantStep::ToolUse(ToolCall {
                    approval: Some(PlanApproval {
                        approved: false,
                        feedback: Some("no".into()),
                    }),
                    ..call(None, "ExitPlanMode", r#"{"plan":"p"}"#)
                }),
            ],
            usage: None,
            compact_before_tool_round: None,
        },
        Action::WriteFile {
            path: "b.ts".into(),
            content: String::new(),
        },
        Action::DeleteFile {
            path: "b.ts".into(),
        },
        Action::Rename {
            from: "a.ts".into(),
            to: "c.ts".into(),
        },
        Action::Touch {
            path: "c.ts".into(),
        },
        Action::SetMode {
            mode: PermissionMode::AcceptEdits,
        },
        Action::Ide {
            selection: Some(IdeSelection {
                path: "/work/app/c.ts".into(),
                line_start: 0,
                line_count: 2,
                ends_at_line_start: true,
                text: "first\n".into(),
            }),
            opened_file: Some("/work/app/c.ts".into()),
        },
        Action::Ide {
            selection: None,
            opened_file: None,
        },
        Action::Diagnostics {
            files: vec![DiagnosticFile {
                path: "c.ts".into(),
                items: vec![
                    Diagnostic {
                        severity: Severity::Warning,
                        line: 0,
                        column: 4,
                        message: "unused".into(),
                        code: Some("W1".into()),
                        source: Some("lint".into()),
                    },
                    Diagnostic {
                        severity: Severity::Hint,
                        line: 1,
                        column: 0,
                        message: "m".into(),
                        code: None,
                        source: None,
                    },
                ],
            }],
        },
        Action::AdvanceTime { ms: 60_000 },
        Action::Registry {
            skills: None,
            agents: Some(vec![]),
            mcp_servers: None,
            deferred_tools: None,
        },
        Action::Registry {
            skills: Some(vec![Skill {
                name: "s".into(),
                description: "d".into(),
            }]),
            agents: None,
            mcp_servers: Some(vec![]),
            deferred_tools: Some(vec!["X".into()]),
        },
        Action::QueueCommand {
            prompt: "also this".into(),
        },
        Action::CriticalReminder { text: None },
        Action::CriticalReminder {
            text: Some("Stay on task.".into()),
        },
        Action::Usage {
            spent_usd_cents: Some(120),
            output_tokens: Some(900),
        },
        Action::Usage {
            spent_usd_cents: None,
            output_tokens: None,
        },
        Action::TaskStatus {
            task_id: "bg1".into(),
            description: "tests".into(),
            status: BackgroundStatus::Killed,
        },
    ];
    assert_eq!(actions(&scenario), expected);
}

#[test]
fn a_step_keeps_its_json_compact_and_in_the_order_written() {
    let scenario =
        parse_scenario(r#"{"steps":[ { "prompt" : "hi\n\"you\"", "kind" : "user" } ]}"#).unwrap();
    assert_eq!(
        scenario.steps,
        [Step {
            action: Action::User {
                prompt: "hi\n\"you\"".into(),
                memories: None,
                pastes: vec![],
            },
            source: r#"{"prompt":"hi\n\"you\"","kind":"user"}"#.into(),
        }]
    );
}

#[test]
fn files_may_be_an_array_and_keep_their_order() {
    let scenario = parse_scenario(
        r#"{"files":[{"path":"b","content":"2"},{"path":"a","content":"1"}],"steps":[]}"#,
    )
    .unwrap();
    let paths: Vec<&str> = scenario.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, ["b", "a"]);
}

#[test]
fn the_error_is_the_same_whatever_the_key_order() {
    let a =
        message(r#"{"steps":[{"kind":"touch"}],"config":{"platform":"beos","contextWindow":1}}"#);
    let b =
        message(r#"{"config":{"contextWindow":1,"platform":"beos"},"steps":[{"kind":"touch"}]}"#);
    assert_eq!(a, b);
    assert_eq!(
        a,
        "config.contextWindow: expected a whole number from 1000 to 10000000, got 1"
    );
}

#[test]
fn an_empty_key_and_a_long_value_stay_readable_in_messages() {
    assert_eq!(
        message(r#"{"files":{"":"x"},"steps":[]}"#),
        r#"files[""]: expected a file path, got an empty key"#
    );
    let long = "x".repeat(100);
    assert_eq!(
        message(&format!(r#"{{"profile":"{long}","steps":[]}}"#)),
        format!(
            r#"profile: unknown profile "{}…": expected one of "claude-code", "codex", "claude-code-2.1.88", "codex-0.139.0", "recommended", "world-state", "opencode-style", "aider-style""#,
            "x".repeat(40)
        )
    );
}

#[test]
fn limits_are_named_in_their_errors() {
    let long = "a".repeat((8 << 20) + 1);
    assert_eq!(
        message(&format!(r#"{{"files":{{"a.ts":"{long}"}},"steps":[]}}"#)),
        r#"files["a.ts"]: the string is 8388609 bytes; at most 8388608 (8 MiB) are allowed"#
    );
    let at_limit = "a".repeat(8 << 20);
    assert!(parse_scenario(&format!(r#"{{"name":"{at_limit}","steps":[]}}"#)).is_ok());
    assert_eq!(
        message(&format!(r#"{{"steps":[],"{long}":1}}"#)),
        format!(
            r#"["{}…"]: the key is 8388609 bytes; at most 8388608 (8 MiB) are allowed"#,
            "a".repeat(40)
        )
    );
    let huge = format!(r#"{{"steps":[],"name":"{}"}}"#, "a".repeat(64 << 20));
    assert_eq!(
        message(&huge),
        format!(
            "scenario: the input is {} bytes; at most 67108864 (64 MiB) are allowed",
            huge.len()
        )
    );
    let steps = vec![r#"{"kind":"usage"}"#; 10_000].join(",");
    assert_eq!(
        parse_scenario(&format!(r#"{{"steps":[{steps}]}}"#))
            .unwrap()
            .steps
            .len(),
        10_000
    );
}

#[test]
fn every_example_of_the_format_documentation_parses() {
    let doc = fixture_text("web/scenarios/FORMAT.md");
    let examples: Vec<&str> = doc
        .split("```json\n")
        .skip(1)
        .filter_map(|block| block.split("```").next())
        .collect();
    assert!(examples.len() >= 18);
    for example in examples {
        let value: Value =
            serde_json::from_str(example).unwrap_or_else(|e| panic!("{e}: {example}"));
        let scenario = if value.get("kind").is_some() {
            json!({ "steps": [value] }).to_string()
        } else {
            example.to_string()
        };
        if let Err(err) = parse_scenario(&scenario) {
            panic!("{err}: {example}");
        }
    }
}

/// The list after `expected one of ` in a message, e.g. the keys an object allows.
fn listed(message: &str) -> Vec<String> {
    let (_, names) = message
        .split_once("expected one of ")
        .unwrap_or_else(|| panic!("no list in {message}"));
    let names = names.split(", got ").next().unwrap_or(names);
    serde_json::from_str(&format!("[{names}]")).unwrap_or_else(|e| panic!("{names}: {e}"))
}

/// What the parser allows where `zzz` is put into `template` (in place of `"ZZZ":0`).
fn parser_keys(template: &str) -> Vec<String> {
    listed(&message(&template.replace(r#""ZZZ":0"#, r#""zzz":0"#)))
}

fn schema() -> Value {
    serde_json::from_str(&fixture_text("web/scenarios/scenario.schema.json")).unwrap()
}

fn schema_keys(schema: &Value, pointer: &str) -> Vec<String> {
    let properties = schema
        .pointer(pointer)
        .and_then(Value::as_object)
        .unwrap_or_else(|| panic!("no object at {pointer}"));
    let mut keys: Vec<String> = properties.keys().cloned().collect();
    keys.sort();
    keys
}

fn sorted(mut names: Vec<String>) -> Vec<String> {
    names.sort();
    names
}

fn schema_enum(schema: &Value, pointer: &str) -> Vec<String> {
    let values = schema.pointer(pointer).and_then(Value::as_array);
    let values = values.unwrap_or_else(|| panic!("no enum at {pointer}"));
    sorted(
        values
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect(),
    )
}

#[test]
fn the_schema_and_the_parser_agree_on_step_kinds_and_block_types() {
    let schema = schema();
    let kinds = listed(&message(r#"{"steps":[{"kind":"zzz"}]}"#));
    assert_eq!(
        schema_enum(&schema, "/$defs/step/properties/kind/enum"),
        sorted(kinds.clone())
    );
    for kind in &kinds {
        let allowed = parser_keys(&format!(r#"{{"steps":[{{"kind":"{kind}","ZZZ":0}}]}}"#));
        assert_eq!(
            schema_keys(&schema, &format!("/$defs/{kind}Step/properties")),
            sorted(allowed),
            "step kind {kind}"
        );
    }
    let blocks = r#"{"steps":[{"kind":"assistant","blocks":[{"type":"TYPE","ZZZ":0}]}]}"#;
    let types = listed(&message(&blocks.replace("TYPE", "zzz")));
    assert_eq!(
        schema_enum(&schema, "/$defs/block/properties/type/enum"),
        sorted(types.clone())
    );
    for (block_type, def) in types
        .iter()
        .zip(["textBlock", "thinkingBlock", "toolUseBlock"])
    {
        assert_eq!(
            schema_keys(&schema, &format!("/$defs/{def}/properties")),
            sorted(parser_keys(&blocks.replace("TYPE", block_type))),
            "block type {block_type}"
        );
    }
}

#[test]
fn the_schema_and_the_parser_agree_on_every_object_s_keys() {
    let schema = schema();
    let objects = [
        ("/properties", r#"{"steps":[],"ZZZ":0}"#),
        (
            "/$defs/config/properties",
            r#"{"steps":[],"config":{"ZZZ":0}}"#,
        ),
        (
            "/$defs/config/properties/windowOverrides/properties",
            r#"{"steps":[],"config":{"windowOverrides":{"ZZZ":0}}}"#,
        ),
        (
            "/$defs/mcpResource/properties",
            r#"{"steps":[],"config":{"mcpResources":[{"ZZZ":0}]}}"#,
        ),
        (
            "/$defs/tool/properties",
            r#"{"steps":[],"config":{"tools":[{"ZZZ":0}]}}"#,
        ),
        (
            "/$defs/skill/properties",
            r#"{"steps":[],"config":{"skills":[{"ZZZ":0}]}}"#,
        ),
        (
            "/$defs/mcpServer/properties",
            r#"{"steps":[],"config":{"mcpServers":[{"ZZZ":0}]}}"#,
        ),
        (
            "/$defs/initialFile/properties",
            r#"{"steps":[],"files":[{"ZZZ":0}]}"#,
        ),
        (
            "/$defs/promptTooLong/properties",
            r#"{"steps":[{"kind":"compact","promptTooLong":[{"ZZZ":0}]}]}"#,
        ),
        (
            "/$defs/providerUsage/properties",
            r#"{"steps":[{"kind":"assistant","blocks":[{"type":"text","text":"x"}],"usage":{"ZZZ":0}}]}"#,
        ),
        (
            "/$defs/approval/properties",
            r#"{"steps":[{"kind":"assistant","blocks":[{"type":"tool_use","name":"ExitPlanMode","input":{},"approval":{"ZZZ":0}}]}]}"#,
        ),
        (
            "/$defs/ideSelection/properties",
            r#"{"steps":[{"kind":"ide","selection":{"ZZZ":0}}]}"#,
        ),
        (
            "/$defs/diagnosticFile/properties",
            r#"{"steps":[{"kind":"diagnostics","files":[{"ZZZ":0}]}]}"#,
        ),
        (
            "/$defs/diagnostic/properties",
            r#"{"steps":[{"kind":"diagnostics","files":[{"path":"a","items":[{"ZZZ":0}]}]}]}"#,
        ),
    ];
    for (pointer, template) in objects {
        assert_eq!(
            schema_keys(&schema, pointer),
            sorted(parser_keys(template)),
            "{pointer}"
        );
    }
}

#[test]
fn the_schema_and_the_parser_agree_on_config_keys_and_enums() {
    let schema = schema();
    let config_keys = parser_keys(r#"{"steps":[],"config":{"ZZZ":0}}"#);
    assert_eq!(config_keys.len(), 33);
    assert_eq!(
        schema.pointer("/properties/config/$ref"),
        Some(&json!("#/$defs/config"))
    );
    let enums = [
        (
            "/properties/profile/enum",
            r#"{"steps":[],"profile":"zzz"}"#,
        ),
        (
            "/$defs/config/properties/platform/enum",
            r#"{"steps":[],"config":{"platform":"zzz"}}"#,
        ),
        (
            "/$defs/permissionMode/enum",
            r#"{"steps":[],"config":{"permissionMode":"zzz"}}"#,
        ),
        (
            "/$defs/config/properties/policies/items/enum",
            r#"{"steps":[],"config":{"policies":["zzz"]}}"#,
        ),
        (
            "/$defs/permissionMode/enum",
            r#"{"steps":[{"kind":"setMode","mode":"zzz"}]}"#,
        ),
        (
            "/$defs/diagnostic/properties/severity/enum",
            r#"{"steps":[{"kind":"diagnostics","files":[{"path":"a","items":[{"severity":"zzz"}]}]}]}"#,
        ),
        (
            "/$defs/taskStatusStep/properties/status/enum",
            r#"{"steps":[{"kind":"taskStatus","taskId":"t","description":"d","status":"zzz"}]}"#,
        ),
    ];
    for (pointer, scenario) in enums {
        assert_eq!(
            schema_enum(&schema, pointer),
            sorted(listed(&message(scenario))),
            "{pointer}"
        );
    }
}

#[test]
fn the_schema_s_defaults_are_the_parser_s() {
    let schema = schema();
    let parsed = parse_scenario(r#"{"steps":[]}"#).unwrap();
    let default = |pointer: &str| schema.pointer(pointer).cloned().unwrap_or(Value::Null);
    assert_eq!(
        default("/properties/profile/default"),
        json!(parsed.profile.as_str())
    );
    assert_eq!(default("/properties/cwd/default"), json!(parsed.cwd));
    assert_eq!(default("/properties/home/default"), json!(parsed.home));
    assert_eq!(
        default("/properties/startMs/default"),
        json!(parsed.start_ms)
    );
    assert_eq!(default("/properties/stepMs/default"), json!(parsed.step_ms));
    let config = &parsed.config;
    let c = |key: &str| default(&format!("/$defs/config/properties/{key}/default"));
    assert_eq!(c("contextWindow"), json!(config.context_window));
    assert_eq!(c("outputReserve"), json!(config.output_reserve));
    assert_eq!(c("platform"), json!(config.platform));
    assert_eq!(c("utcOffsetMinutes"), json!(config.utc_offset_minutes));
    assert_eq!(c("permissionMode"), json!("default"));
    assert_eq!(config.permission_mode, PermissionMode::Default);
}

/// A valid scenario with one value replaced, deleted or retyped somewhere.
fn mutated(seed: &[(usize, u8)]) -> String {
    let mut value: Value = serde_json::from_str(FULL).unwrap();
    for &(pick, how) in seed {
        mutate(&mut value, pick, how);
    }
    value.to_string()
}

fn mutate(value: &mut Value, pick: usize, how: u8) {
    let replacement = match how % 8 {
        0 => json!(null),
        1 => json!(-1),
        2 => json!(1.5),
        3 => json!("zzz"),
        4 => json!([]),
        5 => json!({}),
        6 => json!(u64::MAX),
        _ => json!(true),
    };
    match value {
        Value::Object(map) if !map.is_empty() => {
            let key = map
                .keys()
                .nth(pick % map.len())
                .cloned()
                .unwrap_or_default();
            if how % 3 == 0 {
                map.remove(&key);
            } else if let Some(child) = map.get_mut(&key) {
                if how % 2 == 0 {
                    mutate(child, pick / 7, how / 2);
                } else {
                    *child = replacement;
                }
            }
        }
        Value::Array(items) if !items.is_empty() => {
            let i = pick % items.len();
            if how % 2 == 0 {
                mutate(&mut items[i], pick / 5, how / 2);
            } else {
                items[i] = replacement;
            }
        }
        other => *other = replacement,
    }
}

proptest! {
    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
        let _ = parse_scenario(&text);
    }

    #[test]
    fn json_shaped_text_never_panics(
        text in r#"[\{\}\[\]",:0-9a-zA-Z .eE+\-\\]{0,120}"#,
    ) {
        let _ = parse_scenario(&text);
        let _ = parse_scenario(&format!(r#"{{"steps":[{text}]}}"#));
        let _ = parse_scenario(&format!(r#"{{"steps":[{{"kind":"assistant","blocks":[{text}]}}]}}"#));
    }

    #[test]
    fn mutated_scenarios_never_panic_and_errors_name_a_path(
        seed in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..4),
    ) {
        let text = mutated(&seed);
        if let Err(err) = parse_scenario(&text) {
            let Error::InvalidConfig { field, reason } = err else {
                panic!("not InvalidConfig: {err:?}");
            };
            prop_assert!(!field.is_empty() && !reason.is_empty());
        }
    }

    #[test]
    fn a_valid_scenario_s_tool_input_round_trips(
        input in proptest::collection::btree_map("[a-z]{1,6}", any::<i64>(), 0..6),
    ) {
        let input_json = serde_json::to_string(&input).unwrap();
        let text = format!(
            r#"{{"steps":[{{"kind":"assistant","blocks":[{{"type":"tool_use","name":"T","input":{input_json}}}]}}]}}"#
        );
        let scenario = parse_scenario(&text).unwrap();
        let Action::Assistant { blocks, .. } = &scenario.steps[0].action else { panic!() };
        let AssistantStep::ToolUse(call) = &blocks[0] else { panic!() };
        prop_assert_eq!(&call.input, &input_json);
    }
}

#[test]
fn a_compaction_before_the_tool_round_needs_a_step_that_calls_tools() {
    let step = |blocks: &str| {
        format!(
            r#"{{"profile":"codex","steps":[{{"kind":"assistant","blocks":[{blocks}],
                "compactBeforeToolRound":{{"policy":"codex.local","params":{{"midTurn":true}}}}}}]}}"#
        )
    };
    assert_eq!(
        message(&step(r#"{"type":"text","text":"done"}"#)),
        "steps[0].compactBeforeToolRound: allowed only in a step that calls tools: without calls \
         there is no tool round"
    );
    let scenario = parse_scenario(&step(
        r#"{"type":"tool_use","name":"exec_command","input":{"cmd":"ls"},"output":"a\n"}"#,
    ))
    .unwrap();
    let Action::Assistant {
        compact_before_tool_round: Some((options, None)),
        ..
    } = &scenario.steps[0].action
    else {
        panic!("{:?}", scenario.steps[0].action)
    };
    assert_eq!(options.policy.id().as_str(), "codex.local");
}
