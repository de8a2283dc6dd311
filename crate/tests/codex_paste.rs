//! Large pastes in Codex's composer as a scenario's `pastes` (codex.md §3.4): the model reads
//! the full text where the placeholder stood.

use context_assembly::scenario::{parse_scenario, run_scenario};

fn prompt_sent(user_step: &str) -> Result<String, String> {
    let json = format!(r#"{{"profile": "codex", "steps": [{user_step}]}}"#);
    let trace = run_scenario(&parse_scenario(&json).unwrap()).map_err(|e| e.to_string())?;
    let request = trace.request(0).unwrap();
    let last = request.messages.last().unwrap();
    Ok(last.content.last().unwrap().text.clone())
}

#[test]
fn a_pasted_log_reaches_the_model_whole() {
    let log = "error: ".repeat(200); // 1,400 characters
    let step = format!(
        r#"{{"kind": "user", "prompt": "Why? [Pasted Content 1400 chars] Thanks.", "pastes": ["{log}"]}}"#
    );
    assert_eq!(prompt_sent(&step).unwrap(), format!("Why? {log} Thanks."));
}

#[test]
fn a_short_paste_is_typed_text_and_other_profiles_have_no_placeholders() {
    let step = r#"{"kind": "user", "prompt": "x", "pastes": ["short"]}"#;
    let error = prompt_sent(step).unwrap_err();
    assert!(error.contains("pastes[0]: is 5 characters long"), "{error}");
    let json = format!(
        r#"{{"profile": "claude-code", "steps": [{{"kind": "user", "prompt": "x", "pastes": ["{}"]}}]}}"#,
        "y".repeat(1001)
    );
    let error = run_scenario(&parse_scenario(&json).unwrap()).unwrap_err();
    assert!(
        error.to_string().contains("is a Codex thread operation")
            || error.to_string().contains("pastes"),
        "{error}"
    );
}

#[test]
fn oversized_input_is_rejected_unless_the_truncation_option_is_on() {
    let prompt = "z".repeat((1 << 20) + 10);
    let run = |switches: &str| {
        let json = format!(
            r#"{{"profile": "codex", "switches": {{{switches}}}, "steps": [{{"kind": "user", "prompt": "{prompt}"}}]}}"#
        );
        run_scenario(&parse_scenario(&json).unwrap()).unwrap()
    };
    let rejected = run("");
    assert!(rejected.request(0).is_none());
    let cut = run(r#""codex.truncateOversizeInput": true"#);
    let request = cut.request(0).unwrap();
    let sent = &request
        .messages
        .last()
        .unwrap()
        .content
        .last()
        .unwrap()
        .text;
    assert!(
        sent.len() <= 1 << 20 && sent.contains("chars truncated"),
        "{}",
        sent.len()
    );
}
