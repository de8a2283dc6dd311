//! The tools a request offers: the host's, or the built-in set, plus the deferred ones
//! (announced by name only), less those a deny rule removes whole.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::deny::DenyRules;
use crate::request::ToolDefinition;
use crate::wording;

/// The built-in tool definitions ([`wording::tools::DEFAULT_TOOL_DESCRIPTIONS`]): the tools a
/// scenario can call.
pub fn default_tools() -> Vec<ToolDefinition> {
    let path = r#"{"type":"object","properties":{"file_path":{"type":"string"}"#;
    let schemas = [
        format!(r#"{path},"offset":{{"type":"integer"}},"limit":{{"type":"integer"}}}},"required":["file_path"]}}"#),
        format!(r#"{path},"old_string":{{"type":"string"}},"new_string":{{"type":"string"}}}},"required":["file_path","old_string","new_string"]}}"#),
        format!(r#"{path},"content":{{"type":"string"}}}},"required":["file_path","content"]}}"#),
        r#"{"type":"object","properties":{"pattern":{"type":"string"},"path":{"type":"string"},"output_mode":{"enum":["files_with_matches","content"]}},"required":["pattern"]}"#.into(),
        r#"{"type":"object","properties":{"pattern":{"type":"string"},"path":{"type":"string"}},"required":["pattern"]}"#.into(),
        r#"{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}"#.into(),
        r#"{"type":"object","properties":{"todos":{"type":"array","items":{"type":"object","properties":{"content":{"type":"string","minLength":1},"status":{"enum":["pending","in_progress","completed"]},"activeForm":{"type":"string","minLength":1}},"required":["content","status","activeForm"]}}},"required":["todos"]}"#.into(),
        r#"{"type":"object","properties":{"plan":{"type":"string"}},"required":["plan"]}"#.into(),
        r#"{"type":"object","properties":{"question":{"type":"string"}},"required":["question"]}"#.into(),
        r#"{"type":"object","properties":{"skill":{"type":"string"}},"required":["skill"]}"#.into(),
    ];
    (wording::tools::DEFAULT_TOOL_DESCRIPTIONS
        .iter()
        .zip(schemas))
    .map(|((name, description), input_schema)| ToolDefinition {
        name: (*name).into(),
        description: (*description).into(),
        input_schema,
        deferred: false,
    })
    .collect()
}

/// The tools the model has: `configured`, or the built-in set when it is empty, plus the
/// `deferred` ones (announced by name only), less those a deny rule denies whole (the
/// original filters its tool list by them; see [`DenyRules::removing_tool`]).
pub fn offered_tools(
    configured: &[ToolDefinition],
    deferred: &[String],
    deny: &DenyRules,
) -> Vec<ToolDefinition> {
    let mut tools = match configured.is_empty() {
        true => default_tools(),
        false => configured.to_vec(),
    };
    tools.retain(|tool| deny.removing_tool(&tool.name).is_none());
    for name in deferred {
        let removed = deny.removing_tool(name).is_some();
        if !removed && !tools.iter().any(|tool| &tool.name == name) {
            tools.push(ToolDefinition {
                name: name.clone(),
                description: String::new(),
                input_schema: "{}".into(),
                deferred: true,
            });
        }
    }
    tools
}
