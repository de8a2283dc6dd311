//! Every request of the teaching scenarios exported as both APIs' bodies: the shape each
//! provider takes, the breakpoints where the cache model puts them, and the same body from
//! the request read back from its JSON (what the JS API's `toApiRequest` receives).

use std::fs;
use std::path::PathBuf;

use context_assembly::request::{api_body, ApiBodyOptions, ApiName, Request};
use context_assembly::scenario::{
    parse_api_body_options, parse_request, parse_scenario, run_scenario,
};
use context_assembly::ProfileName;
use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every request of every small teaching scenario, under its own profile and under codex.
fn requests() -> Vec<(String, Request)> {
    let index = fs::read_to_string(root().join("web/scenarios/index.json")).unwrap();
    let index: Value = serde_json::from_str(&index).unwrap();
    let mut out = Vec::new();
    for entry in index.as_array().unwrap() {
        if entry["golden"].as_bool() == Some(false) {
            continue;
        }
        let file = entry["file"].as_str().unwrap();
        let json = fs::read_to_string(root().join("web/scenarios").join(file)).unwrap();
        let mut scenario = parse_scenario(&json).unwrap();
        for profile in [scenario.profile, ProfileName::Codex] {
            scenario.profile = profile;
            let trace = run_scenario(&scenario).unwrap();
            for step in 0..trace.steps.len() {
                if let Some(request) = trace.request(step) {
                    out.push((format!("{file} ({profile}) step {step}"), request));
                }
            }
        }
    }
    out
}

fn body(request: &Request, api: ApiName) -> Value {
    let body = api_body(request, &ApiBodyOptions::new(api)).unwrap();
    serde_json::to_value(&body).unwrap()
}

fn cache_marks(body: &Value) -> Vec<String> {
    let mut marks = Vec::new();
    for (i, block) in body["system"].as_array().unwrap().iter().enumerate() {
        if block.get("cache_control").is_some() {
            marks.push(format!("system[{i}]"));
        }
    }
    for (m, message) in body["messages"].as_array().unwrap().iter().enumerate() {
        for (b, block) in message["content"].as_array().unwrap().iter().enumerate() {
            if block.get("cache_control").is_some() {
                marks.push(format!("messages[{m}].content[{b}]"));
            }
        }
    }
    marks
}

#[test]
fn anthropic_bodies_carry_the_request_and_two_breakpoints() {
    let requests = requests();
    assert!(requests.len() > 30, "{} requests", requests.len());
    for (name, request) in &requests {
        let body = body(request, ApiName::AnthropicMessages);
        assert_eq!(body["model"], "claude-sonnet-4-6", "{name}");
        assert_eq!(body["max_tokens"], 32_000, "{name}");
        assert_eq!(body["tools"].as_array().unwrap().len(), request.tools.len());
        let messages = body["messages"].as_array().unwrap();
        let blocks: usize = messages
            .iter()
            .map(|m| m["content"].as_array().unwrap().len())
            .sum();
        let ours: usize = request.messages.iter().map(|m| m.content.len()).sum();
        assert_eq!(
            blocks,
            ours + request.user_context.len(),
            "{name}: every block once"
        );
        // `system` only for the harness's notes, which Claude Code 2.1.332 sends so.
        for message in messages {
            let role = message["role"].as_str().unwrap();
            assert!(["user", "assistant", "system"].contains(&role), "{name}");
            if role == "system" {
                assert!(request.messages.iter().any(|m| m.role.as_str() == "system"));
            }
        }
        let last_message = messages.len() - 1;
        let last_block = messages[last_message]["content"].as_array().unwrap().len() - 1;
        let static_end = request.static_system_len();
        let mut expected = Vec::new();
        if static_end > 0 {
            expected.push(format!("system[{}]", static_end - 1));
        }
        expected.push(format!("messages[{last_message}].content[{last_block}]"));
        assert_eq!(cache_marks(&body), expected, "{name}");
        for block in messages
            .iter()
            .flat_map(|m| m["content"].as_array().unwrap())
        {
            if block["type"] == "tool_use" {
                assert!(block["input"].is_object(), "{name}: a call's input is JSON");
                assert!(block["id"].as_str().is_some_and(|id| !id.is_empty()));
            }
        }
    }
}

#[test]
fn openai_bodies_carry_the_request_as_input_items() {
    for (name, request) in &requests() {
        let body = body(request, ApiName::OpenAiResponses);
        assert_eq!(body["model"], "gpt-5.3-codex", "{name}");
        let texts: Vec<&str> = request.system.iter().map(|b| b.text.as_str()).collect();
        assert_eq!(body["instructions"], texts.join("\n\n"), "{name}");
        for tool in body["tools"].as_array().unwrap() {
            assert_eq!(tool["type"], "function", "{name}");
            assert!(tool["parameters"].is_object(), "{name}");
        }
        let mut texts = 0;
        for item in body["input"].as_array().unwrap() {
            match item["type"].as_str().unwrap() {
                "message" => {
                    let part = if item["role"] == "assistant" {
                        "output_text"
                    } else {
                        "input_text"
                    };
                    for content in item["content"].as_array().unwrap() {
                        assert_eq!(content["type"], part, "{name}");
                        texts += 1;
                    }
                }
                "function_call" => assert!(item["arguments"].is_string(), "{name}"),
                "function_call_output" | "reasoning" => {}
                other => panic!("{name}: item type {other}"),
            }
        }
        let ours = request
            .messages
            .iter()
            .flat_map(|m| &m.content)
            .chain(&request.user_context)
            .filter(|b| b.block_type.as_str() == "text")
            .count();
        assert_eq!(texts, ours, "{name}: every text once");
    }
}

#[test]
fn a_request_read_back_from_its_json_exports_the_same_body() {
    for (name, request) in requests().iter().step_by(7) {
        let json = serde_json::to_string(request).unwrap();
        let back = parse_request(&json).unwrap_or_else(|e| panic!("{name}: {e}"));
        for api in ApiName::ALL {
            assert_eq!(body(&back, *api), body(request, *api), "{name} as {api}");
        }
    }
}

#[test]
fn bad_input_names_the_field_and_what_is_allowed() {
    let error = |json: &str| parse_request(json).unwrap_err().to_string();
    assert_eq!(error("[]"), "request: expected an object, got array");
    assert_eq!(error("{}"), "request.messages: required field is missing");
    assert!(error(r#"{"messages":[{"role":"user","content":[{"type":"image","text":""}]}]}"#)
        .starts_with(r#"request.messages[0].content[0].type: unknown block type "image": expected one of "text""#));
    assert_eq!(
        error(r#"{"messages":[{"role":"assistant","content":[{"type":"tool_use","text":"{}"}]}]}"#),
        "request.messages[0].content[0].source: required field is missing"
    );
    assert!(error(r#"{"messages":[],"extra":1}"#).starts_with("request.extra: unknown field"));
    let bad_input = parse_request(
        r#"{"messages":[{"role":"assistant","content":[{"type":"tool_use","source":"Read","text":"{oops"}]}]}"#,
    )
    .unwrap();
    for api in ApiName::ALL {
        let failure = api_body(&bad_input, &ApiBodyOptions::new(*api)).unwrap_err();
        assert!(failure
            .to_string()
            .starts_with("request.messages[0].content[0].text: expected JSON text"));
    }
    // The path is the block's place in the request, not in the body the user context joined.
    let spliced = parse_request(
        r#"{"userContext":[{"type":"text","text":"ctx"}],"userContextAt":{"message":0,"block":0},
            "messages":[{"role":"assistant","content":[{"type":"text","text":"a"},{"type":"tool_use","source":"Read","text":"{"}]}]}"#,
    )
    .unwrap();
    let failure = api_body(&spliced, &ApiBodyOptions::new(ApiName::AnthropicMessages)).unwrap_err();
    assert!(failure
        .to_string()
        .starts_with("request.messages[0].content[1].text: expected JSON text"));
    let options = |json: &str| parse_api_body_options(json).map_err(|e| e.to_string());
    assert_eq!(
        options(r#"{"api":"openai-responses","model":"m","maxTokens":5}"#).unwrap(),
        ApiBodyOptions {
            api: ApiName::OpenAiResponses,
            model: Some("m".into()),
            max_tokens: Some(5),
            release: None,
        }
    );
    // A profile names its Claude Code release, whose own fields the body then carries.
    let with_profile = options(r#"{"api":"anthropic-messages","profile":"claude-code-2.1.88"}"#);
    assert_eq!(
        with_profile.unwrap().release,
        Some(context_assembly::request::prefix::ClaudePrefix::ClaudeCode2188)
    );
    assert_eq!(
        options(r#"{"api":"anthropic-messages","profile":"codex"}"#)
            .unwrap()
            .release,
        None
    );
    assert_eq!(
        options("{}").unwrap_err(),
        "options.api: required field is missing"
    );
    assert_eq!(
        options(r#"{"api":"openai-chat"}"#).unwrap_err(),
        r#"options.api: unknown API "openai-chat": expected one of "anthropic-messages", "openai-responses""#
    );
    assert!("openai-chat".parse::<ApiName>().is_err());
}

#[test]
fn a_stand_in_block_reads_back_with_its_release_and_measured_size() {
    let request = parse_request(
        r#"{"system":[{"type":"text","channel":"system","category":"system","text":"(our words)","tokens":15000,
            "standIn":{"release":"Claude Code 2.1.332","tokens":15000}}],"messages":[]}"#,
    )
    .unwrap();
    let stand_in = request.system[0].stand_in.as_ref().unwrap();
    assert_eq!(
        (stand_in.release.as_str(), stand_in.tokens),
        ("Claude Code 2.1.332", 15_000)
    );
    let json = serde_json::to_string(&request).unwrap();
    assert!(
        json.contains(r#""standIn":{"release":"Claude Code 2.1.332","tokens":15000}"#),
        "{json}"
    );
    assert_eq!(parse_request(&json).unwrap(), request);
    let error = parse_request(
        r#"{"system":[{"type":"text","text":"x","standIn":{"release":"r"}}],"messages":[]}"#,
    )
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "request.system[0].standIn.tokens: required field is missing"
    );
}
