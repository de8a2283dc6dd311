//! The vocabularies as the JS API declares them: the TypeScript unions in the wasm crate's
//! declarations must name exactly the values the Rust enums serialise to, so a verdict added
//! in Rust cannot reach JavaScript undeclared.

use context_assembly::vocabulary::{Fate, Round, Trigger, Verdict};

/// The members of `export type {name} = "a" | "b";` in a TypeScript declaration text.
fn union_members(declarations: &str, name: &str) -> Vec<String> {
    let start = format!("export type {name} = ");
    let at = declarations
        .find(&start)
        .unwrap_or_else(|| panic!("no `{start}` in the declarations"));
    let rest = &declarations[at + start.len()..];
    let union = &rest[..rest.find(';').expect("the union ends with `;`")];
    union
        .split('|')
        .map(|member| member.trim().trim_matches('"').to_string())
        .collect()
}

const DECLARATIONS: &str = include_str!("../wasm/src/api.d.ts");

fn names(all: impl IntoIterator<Item = &'static str>) -> Vec<String> {
    all.into_iter().map(String::from).collect()
}

#[test]
fn the_typescript_unions_are_the_rust_enums() {
    let verdicts = names(Verdict::ALL.iter().map(|v| v.as_str()));
    assert_eq!(union_members(DECLARATIONS, "Verdict"), verdicts);
    let rounds = names(Round::ALL.iter().map(|v| v.as_str()));
    assert_eq!(union_members(DECLARATIONS, "Round"), rounds);
    let fates = names(Fate::ALL.iter().map(|v| v.as_str()));
    assert_eq!(union_members(DECLARATIONS, "Fate"), fates);
    let triggers = names(Trigger::ALL.iter().map(|v| v.as_str()));
    assert_eq!(union_members(DECLARATIONS, "Trigger"), triggers);
}

#[cfg(feature = "serde")]
#[test]
fn a_value_serialises_to_its_name() {
    for verdict in Verdict::ALL {
        let json = serde_json::to_string(verdict).unwrap();
        assert_eq!(json, format!("\"{}\"", verdict.as_str()));
    }
    for round in Round::ALL {
        assert_eq!(
            serde_json::to_string(round).unwrap(),
            format!("\"{round}\"")
        );
    }
    for trigger in Trigger::ALL {
        let json = serde_json::to_string(trigger).unwrap();
        assert_eq!(json, format!("\"{trigger}\""));
    }
    for fate in Fate::ALL {
        assert_eq!(serde_json::to_string(fate).unwrap(), format!("\"{fate}\""));
    }
}
