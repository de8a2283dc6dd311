//! The @-mention grammar: which parts of a prompt name files, MCP resources and agents.
//!
//! [`extract_mentions`] reads a prompt under a set of [`MentionRules`] and returns
//! [`Mentions`]: each one with the string as written, what it names, and its byte span in
//! the prompt. Nothing is resolved here (no file system, no server list): a mention that
//! cannot be used *as written* (a reversed line range) carries a `problem`; whether the
//! file, server or agent exists is for the caller to decide and report.
//!
//! # The three presets
//!
//! * [`MentionRules::claude_code`] reproduces Claude Code exactly (spec/claude-code.md §1):
//!   its five regular expressions with JavaScript semantics (ASCII-only `\b` and `\w`,
//!   JavaScript's `\s`, greedy `[^\s]+` backing off to the last ASCII word character,
//!   `(^|\s)` at the start of the text or after one whitespace character), its separate
//!   extractors (one token can be a file, an MCP resource and an agent at once), quoted
//!   mentions first, and de-duplication by the exact string. A differential test checks
//!   it against the original regexes run by Node on random texts.
//! * [`MentionRules::codex`]: Codex's TUI inserts the plain path text (spec/codex.md
//!   §6.1–6.2, X24), so a mention is any whitespace-delimited token that starts with `@`
//!   and has something after it; the path is the token without the `@`, verbatim. No
//!   ranges, quotes, MCP resources or agents; every occurrence is listed.
//! * [`MentionRules::recommended`] fixes the known defects, one switch each.
//!
//! # How `recommended` differs from `claude-code`
//!
//! | input | claude-code | recommended | why |
//! |---|---|---|---|
//! | `@café` | file `caf` | file `café` | Q1: the token ends at whitespace, not at its last ASCII word character |
//! | `@日本` | nothing | file `日本` | Q1 |
//! | `@../` / `@src/..` | nothing / file `src` | file `../` / file `src/..` | Q1; `.` and `..` segments are not full stops |
//! | `@src/utils/` | file `src/utils` | file `src/utils/` | Q1: only sentence punctuation is trimmed; a trailing `/` marks a directory |
//! | `@foo-` | file `foo` | file `foo-` | Q1: `-` is not punctuation that ends sentences |
//! | `@src/a.ts)` / `@notes(1)` | `src/a.ts` / `notes` | `src/a.ts` / `notes(1)` | Q1: a closing bracket is trimmed only when unmatched in the token |
//! | `(@foo)` | nothing | file `foo` | §1.3: a mention may open right after `(`, `[` or `{` that follows whitespace; `x(@foo)` and `user@x.com` still are not mentions |
//! | `@my\ file.txt` | file `my` | file `my file.txt` (raw `my\ file.txt`) | §15.1 #1: backslash-escaped spaces |
//! | `@b @"a"` | `a`, then `b` | `b`, then `a` | Q3: text order |
//! | `@foo @./foo` | two files | one file | Q2: de-duplicated by normalised path (`./`, `//`, `a/../`, trailing `/`) and range |
//! | `@x.ts:12` | file `x.ts:12` and MCP `x.ts` / `12` | file `x.ts`, line 12 | Q6 and Q5; `raw` keeps `x.ts:12` so a caller can try the literal name first |
//! | `@a.ts:10-20` / `@a.ts:10-` | file `a.ts:10-20` and MCP / file `a.ts:10` and MCP | lines 10–20 / 10 to the end | Q6, §15.1 #2 |
//! | `@foo#L10-L20` | file `foo`, no range, fragment `L10-L20` | lines 10–20 | §15.1 #2 |
//! | `@foo#l10` | no range, fragment `l10` | line 10 | Q7: case-insensitive |
//! | `@"a#L10-"` | no range, fragment `L10-` | line 10 to the end | Q7 |
//! | `@foo#L10abc` / `@foo#L10-20-30` | no range, fragment | `problem` | Q7: a visible error (`#l10n`, lowercase, stays a heading) |
//! | `@foo#L0` | lines 0–0 | line 1 | Q8 |
//! | `@foo#L20-10` | lines 20–10, silently | lines 20–10 with `problem` "line range #L20-10: end before start" | Q9 |
//! | `@foo#bar#L1` | path `foo#bar#L1`, no range | path `foo#bar`, line 1 | §1.4: `#` may be part of a name; the fragment is what follows the last `#` |
//! | `@foo#L5#L6` | path `foo`, line 5, fragment `L6` | path `foo#L5`, line 6 | as above |
//! | `@agent-foo.` | file `agent-foo` and agent type `foo.` | agent type `foo` | Q4, Q5 |
//! | `@agent-asana:proj` | file, MCP and agent | agent `asana:proj` | Q5: classify once: agent, else MCP, else file |
//! | `@server:res/path.` | file and MCP | MCP `server` / `res/path` | Q5 |
//! | `@C:\x` / `@/abs/x.ts:12` | file and MCP | file | Q5: a drive letter or a path is not a server name |
//! | `@"a @b"` | files `a @b` and `b` | file `a @b` | Q5: one pass; the inside of a quoted mention is not read again |
//!
//! Unchanged in `recommended`: `user@x.com` and `x(@foo)` are not mentions; `@"…"` may
//! contain spaces and line breaks and ends at the next `"`; `@"name (agent)"` is an agent;
//! whitespace is JavaScript's `\s`.

mod collect;
mod cursor;
mod lines;
pub mod peers;
mod scan;

pub use cursor::{mention_at, mention_at_utf16, MentionAt};

use alloc::collections::BTreeSet;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::cmp::Reverse;
use core::ops::Range;

use collect::Found;

crate::vocabulary::named_enum! {
    /// What a mention names. Its position in [`MentionKind::ALL`] is its [`MentionKind::code`],
    /// the number a compact list of spans carries.
    pub enum MentionKind {
    /// A file or directory ([`FileMention`]); code 0.
    File => "file",
    /// An MCP resource ([`McpMention`]); code 1.
    McpResource => "mcpResource",
    /// An agent ([`AgentMention`]); code 2.
    Agent => "agent",
    }
}

impl MentionKind {
    /// The kind as a small number: its position in [`MentionKind::ALL`].
    ///
    /// ```
    /// use context_assembly::mention::MentionKind;
    /// let codes: Vec<u32> = MentionKind::ALL.iter().map(|kind| kind.code()).collect();
    /// assert_eq!(codes, [0, 1, 2]);
    /// ```
    pub const fn code(self) -> u32 {
        self as u32
    }
}

/// Which characters separate tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Whitespace {
    /// JavaScript's `\s` (claude-code §1.3): includes U+FEFF, excludes U+0085.
    JavaScript,
    /// Unicode `White_Space`, as Rust's `char::is_whitespace` (Codex's TUI).
    Unicode,
}

/// Where an unquoted mention ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum BareEnd {
    /// Q1 (original): at the last ASCII word character of the run (`[^\s]+\b`), so
    /// `@café` is `caf` and `@日本` is no mention at all.
    LastAsciiWordChar,
    /// At whitespace, verbatim (Codex).
    Whitespace,
    /// Q1 (fixed): at whitespace, with trailing sentence punctuation trimmed.
    WhitespaceTrimmed,
}

/// How the text after a file path's `#` is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum LineFragments {
    /// Not at all: `#` is part of the path (Codex).
    Off,
    /// Q7 (original): `/^([^#]+)(?:#L(\d+)(?:-(\d+))?)?(?:#[^#]*)?$/`; the path ends at the
    /// first `#`; `#l10`, `#L10abc`, `#L10-20-30` silently read the whole file.
    Strict,
    /// Q7 (fixed): the fragment follows the last `#`; `#L10`, `#L10-20`, `#L10-L20` and
    /// `#L10-` (to the end), `L` in either case; `#L` and a digit that make no range are a
    /// `problem`; anything else is a heading anchor.
    Lenient,
}

/// Which repeated mentions collapse into one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Dedupe {
    /// None: every occurrence is listed (Codex: the text is just text).
    Off,
    /// Q2 (original): identical strings as written; `@foo` and `@./foo` stay two.
    ExactText,
    /// Q2 (fixed): files by normalised path, line range and fragment; MCP resources by
    /// their string; agents by agent type.
    PathAndRange,
}

crate::switch::with_switches! {
    /// The @-mention grammar's switches. Start from a preset and change any field.
    ///
    /// # Example
    /// ```
    /// use context_assembly::mention::{extract_mentions, MentionRules};
    /// let mut rules = MentionRules::claude_code();
    /// rules.line_zero_is_line_one = true; // Q8 fixed, every other quirk kept
    /// let found = extract_mentions("@notes.md#L0", &rules);
    /// assert_eq!(found.files[0].line_start, Some(1));
    /// ```
    #[derive(Debug, Clone, PartialEq, Eq, Hash)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
    #[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
    pub struct MentionRules {
        /// Which characters separate tokens; a mention opens at the start of the text or right
        /// after one of them (§1.3).
        pub whitespace: Whitespace,
        /// Q1: where an unquoted mention ends.
        pub bare_end: BareEnd,
        /// §15.1 #1 (users' demand): `\ ` continues an unquoted path (`@my\ file.txt`); the
        /// path has the backslashes removed, `raw` keeps them.
        pub escaped_spaces: bool,
        /// §1.1: `@"path with spaces"`. Off, a `"` is an ordinary character (Codex).
        pub quoted_paths: bool,
        /// §1.3: a mention may also open right after `(`, `[` or `{` that itself follows
        /// whitespace or starts the text, so `(@foo)` names `foo`. Off in the original.
        pub mention_after_open_bracket: bool,
        /// Q5: one pass that gives each token one meaning (agent, else MCP resource, else file).
        /// Off, the original's separate extractors each scan the whole text: `@x:y` is a file
        /// and an MCP resource, `@agent-x` a file and an agent, and `@"a @b"` also yields `b`.
        pub classify_once: bool,
        /// Q3: quoted mentions are listed before unquoted ones (files and agents); off, text
        /// order.
        pub quoted_first: bool,
        /// Q2: which repeated mentions collapse into one (the first is kept).
        pub dedupe: Dedupe,
        /// Q7: how `#…` after a path is read.
        pub line_fragments: LineFragments,
        /// Q6: `path:10`, `path:10-20` and `path:10-` give a line range when no `#` fragment
        /// did. `raw` keeps the whole string, so a caller can try a file literally named so.
        pub colon_line_ranges: bool,
        /// Q8: line 0 is read as line 1 (the original numbers the whole file from 0).
        pub line_zero_is_line_one: bool,
        /// Q9: a range whose end is before its start carries a `problem` instead of becoming an
        /// empty read.
        pub report_reversed_ranges: bool,
        /// §1.7: `@server:resource` names an MCP resource.
        pub mcp_resources: bool,
        /// §1.6: `@agent-name` and `@"name (agent)"` name an agent.
        pub agents: bool,
        /// Q4: an agent name loses trailing punctuation as a file name does (`@agent-foo.` →
        /// `foo`). Off, it keeps it (the original's `[\w:.@-]+`, or the whole token when
        /// `classify_once` is on).
        pub trim_agent_names: bool,
    }
}

impl MentionRules {
    /// Claude Code's grammar, quirks included (spec/claude-code.md §1).
    pub fn claude_code() -> MentionRules {
        MentionRules {
            whitespace: Whitespace::JavaScript,
            bare_end: BareEnd::LastAsciiWordChar,
            escaped_spaces: false,
            quoted_paths: true,
            mention_after_open_bracket: false,
            classify_once: false,
            quoted_first: true,
            dedupe: Dedupe::ExactText,
            line_fragments: LineFragments::Strict,
            colon_line_ranges: false,
            line_zero_is_line_one: false,
            report_reversed_ranges: false,
            mcp_resources: true,
            agents: true,
            trim_agent_names: false,
        }
    }

    /// Codex: `@token` is the plain path text (spec/codex.md §6.1–6.2, X24).
    pub fn codex() -> MentionRules {
        MentionRules {
            whitespace: Whitespace::Unicode,
            bare_end: BareEnd::Whitespace,
            escaped_spaces: false,
            quoted_paths: false,
            mention_after_open_bracket: false,
            classify_once: true,
            quoted_first: false,
            dedupe: Dedupe::Off,
            line_fragments: LineFragments::Off,
            colon_line_ranges: false,
            line_zero_is_line_one: false,
            report_reversed_ranges: false,
            mcp_resources: false,
            agents: false,
            trim_agent_names: false,
        }
    }

    /// Every fix on.
    pub fn recommended() -> MentionRules {
        MentionRules {
            whitespace: Whitespace::JavaScript,
            bare_end: BareEnd::WhitespaceTrimmed,
            escaped_spaces: true,
            quoted_paths: true,
            mention_after_open_bracket: true,
            classify_once: true,
            quoted_first: false,
            dedupe: Dedupe::PathAndRange,
            line_fragments: LineFragments::Lenient,
            colon_line_ranges: true,
            line_zero_is_line_one: true,
            report_reversed_ranges: true,
            mcp_resources: true,
            agents: true,
            trim_agent_names: true,
        }
    }
}

/// A mentioned file (or directory).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct FileMention {
    /// The string extracted, as written (`file.txt#L10-20`; inside the quotes for `@"…"`).
    pub raw: String,
    /// The path: `raw` without its line range or fragment (and escapes removed).
    pub path: String,
    /// First line, 1-based as written (claude-code keeps `#L0` as 0, Q8).
    pub line_start: Option<u64>,
    /// Last line, inclusive; `None` with a `line_start` means to the end of the file.
    pub line_end: Option<u64>,
    /// The text after `#` when it is not a line range (a heading anchor).
    pub fragment: Option<String>,
    /// Written as `@"…"`.
    pub quoted: bool,
    /// Byte span in the text, from the `@` through the end (closing quote included).
    pub span: Range<usize>,
    /// Why this mention cannot be used as written; `None` when it can.
    pub problem: Option<String>,
}

/// A mentioned MCP resource, `@server:uri`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct McpMention {
    /// The string extracted, as written.
    pub raw: String,
    /// Before the first `:` (may be empty in claude-code, which drops it later).
    pub server: String,
    /// After the first `:`.
    pub uri: String,
    /// Byte span in the text, from the `@` through the end.
    pub span: Range<usize>,
}

/// A mentioned agent, `@agent-name` or `@"name (agent)"`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct AgentMention {
    /// The string extracted (`agent-foo`; the bare name for the quoted form).
    pub raw: String,
    /// The agent looked up: `raw` with its first `agent-` removed (§1.6).
    pub agent_type: String,
    /// Byte span in the text, from the `@` through the end (closing quote included).
    pub span: Range<usize>,
}

/// Every mention in a text, each list in the order the rules give (§1.2, Q3).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Mentions {
    /// Files and directories.
    pub files: Vec<FileMention>,
    /// MCP resources.
    pub mcp_resources: Vec<McpMention>,
    /// Agents.
    pub agents: Vec<AgentMention>,
}

impl Mentions {
    /// The same mentions with every span in UTF-16 code units instead of bytes: where
    /// JavaScript, which indexes strings by those units, finds them in `text` (the text they
    /// were found in). One pass over the text, whatever the number of mentions.
    ///
    /// ```
    /// use context_assembly::mention::{extract_mentions, MentionRules};
    /// let text = "😀 @café and @b";
    /// let found = extract_mentions(text, &MentionRules::recommended()).in_utf16(text);
    /// assert_eq!((found.files[0].span.clone(), found.files[1].span.clone()), (3..8, 13..15));
    /// ```
    pub fn in_utf16(mut self, text: &str) -> Mentions {
        let spans = (self.files.iter_mut().map(|m| &mut m.span))
            .chain(self.mcp_resources.iter_mut().map(|m| &mut m.span))
            .chain(self.agents.iter_mut().map(|m| &mut m.span));
        bytes_to_utf16(text, spans);
        self
    }

    /// Every mention's kind and span, in the order of the lists: files, MCP resources, agents
    /// (what an editor needs to underline them, without the strings).
    ///
    /// ```
    /// use context_assembly::mention::{extract_mentions, MentionKind, MentionRules};
    /// let found = extract_mentions("@agent-x @a.ts", &MentionRules::recommended());
    /// let spans: Vec<_> = found.spans().collect();
    /// assert_eq!(spans, [(MentionKind::File, 9..14), (MentionKind::Agent, 0..8)]);
    /// ```
    pub fn spans(&self) -> impl Iterator<Item = (MentionKind, Range<usize>)> + '_ {
        let files = self
            .files
            .iter()
            .map(|m| (MentionKind::File, m.span.clone()));
        let mcp = (self.mcp_resources.iter()).map(|m| (MentionKind::McpResource, m.span.clone()));
        let agents = self
            .agents
            .iter()
            .map(|m| (MentionKind::Agent, m.span.clone()));
        files.chain(mcp).chain(agents)
    }
}

/// Turns byte spans in `text` into UTF-16 unit spans, in one pass over the text.
fn bytes_to_utf16<'s>(text: &str, spans: impl Iterator<Item = &'s mut Range<usize>>) {
    let mut bounds: Vec<&mut usize> = spans.flat_map(|s| [&mut s.start, &mut s.end]).collect();
    crate::sort::sort_by_key(&mut bounds, |bound| **bound);
    let mut bounds = bounds.into_iter().peekable();
    let mut units = 0;
    let end = core::iter::once((text.len(), '\0'));
    for (byte, ch) in text.char_indices().chain(end) {
        while let Some(bound) = bounds.next_if(|bound| **bound <= byte) {
            *bound = units;
        }
        units += ch.len_utf16();
    }
}

/// Finds the @-mentions in `text`. Work is linear in the text's length.
///
/// # Example
/// ```
/// use context_assembly::mention::{extract_mentions, MentionRules};
/// let text = "fix @café and @notes.md#L20-10.";
///
/// // Claude Code stops at the last ASCII word character and reads the range as written.
/// let original = extract_mentions(text, &MentionRules::claude_code());
/// assert_eq!(original.files[0].path, "caf");
/// assert_eq!(original.files[0].span, 4..8); // bytes: `@caf`
/// assert_eq!((original.files[1].line_start, original.files[1].line_end), (Some(20), Some(10)));
/// assert_eq!(original.files[1].problem, None);
///
/// // Recommended keeps the whole name and reports the reversed range.
/// let fixed = extract_mentions(text, &MentionRules::recommended());
/// assert_eq!(fixed.files[0].path, "café");
/// assert_eq!(fixed.files[0].span, 4..10); // bytes: `é` takes two
/// assert_eq!(fixed.files[1].problem.as_deref(), Some("line range #L20-10: end before start"));
/// ```
pub fn extract_mentions(text: &str, rules: &MentionRules) -> Mentions {
    let found = collect::find(text, rules);
    let spelled = |kind| first_spellings(text, &found, kind, rules);
    let rule = rules.dedupe;
    Mentions {
        files: kept(
            spelled(MentionKind::File),
            rule,
            |found| file_mention(text, found, rules),
            |file| {
                let path = normalise(&file.path);
                (path, file.line_start, file.line_end, file.fragment.clone())
            },
        ),
        mcp_resources: kept(
            spelled(MentionKind::McpResource),
            rule,
            |found| mcp_mention(text, found),
            |mcp| mcp.raw.clone(),
        ),
        agents: kept(
            spelled(MentionKind::Agent),
            rule,
            |found| agent_mention(text, found),
            |agent| agent.agent_type.clone(),
        ),
    }
}

/// The spans an editor highlights: [`extract_mentions`]' kinds and spans in UTF-16 units,
/// sorted by start and disjoint. Where the rules read one token several ways (claude-code:
/// `@agent-x` is a file and an agent, `@x:y` a file and an MCP resource, `@"a @b"` also
/// yields `b`), one reading stands for the token: the one that starts first and, of those
/// starting at the same place, the most specific (agent, then MCP resource, then file, as
/// [`mention_at`] chooses); the readings it overlaps are left out here ([`extract_mentions`]
/// lists them all). Mentions are built only where the rules need them compared
/// (de-duplication by path and range, `recommended`).
///
/// ```
/// use context_assembly::mention::{mention_spans_utf16, MentionKind, MentionRules};
/// let text = "😀 @b.ts @agent-x @a.ts";
/// let spans = mention_spans_utf16(text, &MentionRules::claude_code());
/// assert_eq!(
///     spans,
///     [(MentionKind::File, 3..8), (MentionKind::Agent, 9..17), (MentionKind::File, 18..23)]
/// );
/// ```
pub fn mention_spans_utf16(text: &str, rules: &MentionRules) -> Vec<(MentionKind, Range<usize>)> {
    let mut spans: Vec<(MentionKind, Range<usize>)> = match rules.dedupe {
        Dedupe::PathAndRange => extract_mentions(text, rules).spans().collect(),
        Dedupe::Off | Dedupe::ExactText => {
            let found = collect::find(text, rules);
            (MentionKind::ALL.iter())
                .flat_map(|&kind| {
                    let spelled = first_spellings(text, &found, kind, rules);
                    spelled
                        .into_iter()
                        .map(move |found| (kind, found.span.clone()))
                })
                .collect()
        }
    };
    crate::sort::sort_by_key(&mut spans, |(kind, span)| {
        (span.start, specificity(*kind), Reverse(span.end))
    });
    let mut end = 0;
    spans.retain(|(_, span)| {
        let apart = span.start >= end;
        if apart {
            end = span.end;
        }
        apart
    });
    bytes_to_utf16(text, spans.iter_mut().map(|(_, span)| span));
    spans
}

/// Which reading of a token read several ways stands for it: lower is more specific (an
/// agent, then an MCP resource, then a file).
fn specificity(kind: MentionKind) -> u8 {
    match kind {
        MentionKind::Agent => 0,
        MentionKind::McpResource => 1,
        MentionKind::File => 2,
    }
}

/// The mentions of one kind in the order the rules list them, each spelling once: every one
/// without de-duplication; the first of each exact text; the first of each text and quoting
/// when the path and range decide (the key is a function of those, so repeats of one
/// spelling are dropped before anything is built). Keys borrow from the text, so a mention
/// repeated many times costs no allocation.
fn first_spellings<'f>(
    text: &str,
    found: &'f [Found],
    kind: MentionKind,
    rules: &MentionRules,
) -> Vec<&'f Found> {
    let mut list: Vec<&Found> = found.iter().filter(|found| found.kind == kind).collect();
    if rules.quoted_first {
        crate::sort::sort_by_key(&mut list, |found| !found.quoted);
    }
    let quoted_counts = rules.dedupe == Dedupe::PathAndRange;
    match rules.dedupe {
        Dedupe::Off => list,
        Dedupe::ExactText | Dedupe::PathAndRange => {
            let mut spellings = BTreeSet::new();
            list.retain(|found| {
                spellings.insert((text.get(found.raw.clone()), quoted_counts && found.quoted))
            });
            list
        }
    }
}

/// Builds each mention, keeping under de-duplication by path and range only the first of
/// each set of equal ones.
fn kept<T, K: Ord>(
    spelled: Vec<&Found>,
    rule: Dedupe,
    build: impl Fn(&Found) -> T,
    same: impl Fn(&T) -> K,
) -> Vec<T> {
    let built = spelled.into_iter().map(build);
    match rule {
        Dedupe::Off | Dedupe::ExactText => built.collect(),
        Dedupe::PathAndRange => {
            let mut seen = BTreeSet::new();
            built.filter(|item| seen.insert(same(item))).collect()
        }
    }
}

fn file_mention(text: &str, found: &Found, rules: &MentionRules) -> FileMention {
    let raw = text.get(found.raw.clone()).unwrap_or("");
    let located = lines::locate(raw, rules);
    let path = if rules.escaped_spaces && !found.quoted {
        located.path.replace("\\ ", " ")
    } else {
        located.path.to_string()
    };
    FileMention {
        raw: raw.to_string(),
        path,
        line_start: located.line_start,
        line_end: located.line_end,
        fragment: located.fragment.map(ToString::to_string),
        quoted: found.quoted,
        span: found.span.clone(),
        problem: located.problem,
    }
}

fn mcp_mention(text: &str, found: &Found) -> McpMention {
    let raw = text.get(found.raw.clone()).unwrap_or("");
    let (server, uri) = raw.split_once(':').unwrap_or((raw, ""));
    McpMention {
        raw: raw.to_string(),
        server: server.to_string(),
        uri: uri.to_string(),
        span: found.span.clone(),
    }
}

fn agent_mention(text: &str, found: &Found) -> AgentMention {
    let raw = text.get(found.raw.clone()).unwrap_or("");
    let agent_type = match raw.split_once(scan::AGENT_PREFIX) {
        Some((before, after)) => [before, after].concat(),
        None => raw.to_string(),
    };
    AgentMention {
        raw: raw.to_string(),
        agent_type,
        span: found.span.clone(),
    }
}

/// A path with `.` segments, repeated and trailing `/`, and `a/..` pairs removed, for
/// comparison only (expansion against a working directory is the `path` module's job).
fn normalise(path: &str) -> String {
    let mut normal = crate::path::lexical_normalize(path);
    while normal.len() > 1 && normal.ends_with('/') {
        normal.pop();
    }
    normal
}

#[cfg(test)]
mod tests;
