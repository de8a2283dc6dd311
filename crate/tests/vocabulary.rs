//! The vocabularies as the JS API declares them: the TypeScript unions in the wasm crate's
//! declarations must name exactly the values the Rust enums serialise to, so a verdict added
//! in Rust cannot reach JavaScript undeclared.

use context_assembly::attachment::{AttachmentKind, Frequency};
use context_assembly::cache::{BreakpointState, CacheRead};
use context_assembly::codex::items::Role;
use context_assembly::collectors::{CollectorId, Phase};
use context_assembly::import::LogFormat;
use context_assembly::mention::MentionKind;
use context_assembly::profile::Client;
use context_assembly::redact::PathMode;
use context_assembly::request::{ApiName, BlockChange, BlockType, CacheBreak, WordOp};
use context_assembly::scenario::{FactKind, FactState, UsageSource};
use context_assembly::search::MatchKind;
use context_assembly::session::{ItemKind, PermissionMode, SummarySource};
use context_assembly::vocabulary::{Category, Channel, Fate, PolicyId, Round, Trigger, Verdict};
use context_assembly::ProfileName;

/// The JS API's TypeScript declarations.
const DECLARATIONS: &str = include_str!("../wasm/src/api.d.ts");

/// The members of a union written `"a" | "b"` up to its end (`;` or `}` of one line).
fn members(union: &str) -> Vec<String> {
    union
        .split('|')
        .map(|member| member.trim().trim_matches('"').to_string())
        .collect()
}

/// The members of `export type {name} = "a" | "b";` in the session's declarations.
fn union_members(name: &str) -> Vec<String> {
    members_in(DECLARATIONS, name)
}

/// The members of `export type {name} = "a" | "b";` in a TypeScript declaration text.
fn members_in(declarations: &str, name: &str) -> Vec<String> {
    let start = format!("export type {name} = ");
    let at = declarations
        .find(&start)
        .unwrap_or_else(|| panic!("no `{start}` in the declarations"));
    let rest = &declarations[at + start.len()..];
    members(&rest[..rest.find(';').expect("the union ends with `;`")])
}

/// The members of the union a field of an interface is declared with inline:
/// `export interface {interface} … {field}: "a" | "b";`.
fn field_members(interface: &str, field: &str) -> Vec<String> {
    let start = format!("export interface {interface} ");
    let at = DECLARATIONS
        .find(&start)
        .unwrap_or_else(|| panic!("no `{start}` in the declarations"));
    let body = &DECLARATIONS[at..];
    let body = &body[..body.find("\n}").unwrap_or(body.len())];
    let field = format!(" {field}: ");
    let from = body
        .find(&field)
        .unwrap_or_else(|| panic!("no `{field}` in `{interface}`"));
    let rest = &body[from + field.len()..];
    members(&rest[..rest.find([';', '}']).expect("the field ends")])
}

fn names<T: Copy>(all: &[T], name: impl Fn(T) -> &'static str) -> Vec<String> {
    all.iter().map(|value| String::from(name(*value))).collect()
}

#[test]
fn the_typescript_unions_are_the_rust_enums() {
    assert_eq!(
        union_members("Verdict"),
        names(Verdict::ALL, Verdict::as_str)
    );
    assert_eq!(union_members("Round"), names(Round::ALL, Round::as_str));
    assert_eq!(
        union_members("CacheRead"),
        names(CacheRead::ALL, CacheRead::as_str)
    );
    assert_eq!(
        union_members("BreakpointState"),
        names(BreakpointState::ALL, BreakpointState::as_str)
    );
    assert_eq!(
        union_members("UsageSource"),
        names(UsageSource::ALL, UsageSource::as_str)
    );
    assert_eq!(
        union_members("ProfileName"),
        names(&ProfileName::ALL, ProfileName::as_str)
    );
    assert_eq!(union_members("Client"), names(Client::ALL, Client::as_str));
    assert_eq!(union_members("Fate"), names(Fate::ALL, Fate::as_str));
    assert_eq!(
        union_members("Trigger"),
        names(Trigger::ALL, Trigger::as_str)
    );
    assert_eq!(
        union_members("PolicyId"),
        names(PolicyId::ALL, PolicyId::as_str)
    );
    assert_eq!(
        union_members("Category"),
        names(Category::ALL, Category::as_str)
    );
    assert_eq!(
        union_members("AttachmentKind"),
        names(AttachmentKind::ALL, AttachmentKind::as_str)
    );
    assert_eq!(
        union_members("CollectorId"),
        names(CollectorId::ALL, CollectorId::as_str)
    );
    assert_eq!(union_members("Phase"), names(Phase::ALL, Phase::as_str));
    assert_eq!(
        union_members("MentionKind"),
        names(MentionKind::ALL, MentionKind::as_str)
    );
    assert_eq!(
        union_members("Frequency"),
        names(Frequency::ALL, Frequency::as_str)
    );
    assert_eq!(
        members_in(DECLARATIONS, "PermissionModeName"),
        names(PermissionMode::ALL, PermissionMode::as_str)
    );
}

#[test]
fn the_typescript_fields_are_the_rust_enums() {
    assert_eq!(
        field_members("Block", "channel"),
        names(Channel::ALL, Channel::as_str)
    );
    assert_eq!(
        field_members("Survival", "kind"),
        names(ItemKind::ALL, ItemKind::as_str)
    );
    assert_eq!(
        field_members("Block", "type"),
        names(BlockType::ALL, BlockType::as_str)
    );
    assert_eq!(
        field_members("RequestMessage", "role"),
        names(Role::ALL, Role::as_str)
    );
    assert_eq!(
        field_members("CompactionReport", "summarySource"),
        names(SummarySource::ALL, SummarySource::as_str)
    );
    assert_eq!(
        union_members("ApiName"),
        names(ApiName::ALL, ApiName::as_str)
    );
    assert_eq!(
        union_members("BlockChange"),
        names(BlockChange::ALL, BlockChange::as_str)
    );
    assert_eq!(union_members("WordOp"), names(WordOp::ALL, WordOp::as_str));
    assert_eq!(
        union_members("CacheBreak"),
        names(CacheBreak::ALL, CacheBreak::as_str)
    );
    assert_eq!(
        union_members("FactKind"),
        names(FactKind::ALL, FactKind::as_str)
    );
    assert_eq!(
        union_members("FactState"),
        names(FactState::ALL, FactState::as_str)
    );
    assert_eq!(
        field_members("ImportResult", "format"),
        names(LogFormat::ALL, LogFormat::as_str)
    );
    assert_eq!(
        field_members("Redaction", "paths"),
        names(PathMode::ALL, PathMode::as_str)
    );
    assert_eq!(
        field_members("SearchMatch", "kind"),
        names(MatchKind::ALL, MatchKind::as_str)
    );
}

#[cfg(feature = "serde")]
#[test]
fn a_value_serialises_to_its_name() {
    fn check<T: serde::Serialize + core::fmt::Display>(all: &[T]) {
        for value in all {
            let json = serde_json::to_string(value).unwrap();
            assert_eq!(json, format!("\"{value}\""));
        }
    }
    check(Verdict::ALL);
    check(Round::ALL);
    check(Trigger::ALL);
    check(Fate::ALL);
    check(PolicyId::ALL);
    check(Channel::ALL);
    check(Category::ALL);
    check(ItemKind::ALL);
    check(Frequency::ALL);
    check(AttachmentKind::ALL);
    check(MatchKind::ALL);
    check(MentionKind::ALL);
    check(BlockType::ALL);
    check(Role::ALL);
    check(SummarySource::ALL);
    check(PermissionMode::ALL);
    // Profile names are parsed back (`"profile"` in a scenario, `compareProfiles`), so the
    // serialised name must be the one the parser takes.
    for name in ProfileName::ALL {
        let json = serde_json::to_string(&name).unwrap();
        assert_eq!(json, format!("\"{}\"", name.as_str()));
    }
}
