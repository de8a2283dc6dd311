//! Sessions that outlive a page: a [`JournaledSession`] remembers every act that may have
//! changed its session, and [`JournaledSession::snapshot`] writes them out as JSON;
//! [`JournaledSession::restore`] replays them into an equal session. The engine is
//! deterministic (no clock, no randomness), so the replay reaches the same state exactly,
//! whatever the session's internals are — a snapshot survives a refactor of them, and only
//! the acts' format is versioned ([`SNAPSHOT_FORMAT_VERSION`]).
//!
//! The cost is the journal: it holds every act's input, so a snapshot grows with the
//! session's turns, and restoring replays them (in time proportional to the snapshot: a
//! turn costs what it adds, not what came before it). The host's own writes coalesce
//! (`journal.rs`): saving a file again before the session looks at it replaces the earlier
//! save, so an autosaving editor costs one copy of each file per turn, not one per save.
//!
//! A snapshot is trusted: its profile, configuration (deny rules included) and acts are
//! replayed as written. A host restoring one it did not write imposes its own profile and
//! configuration with [`JournaledSession::restore_with`].
//!
//! ```
//! use context_assembly::snapshot::{JournaledSession, SessionSpec};
//! use context_assembly::ProfileName;
//! let spec = SessionSpec { profile: ProfileName::ClaudeCode, cwd: "/p".into(), home: None, config: None };
//! let mut session = JournaledSession::new(spec).unwrap();
//! session.write_file("a.ts", "one\n".into(), 1_000).unwrap();
//! session.write_file("a.ts", "two\n".into(), 1_500).unwrap(); // an autosave: the first is emptied
//! session.submit("look at @a.ts", 2_000).unwrap();
//! let snapshot = session.snapshot();
//! assert!(!snapshot.contains("one"));
//! let mut restored = JournaledSession::restore(&snapshot).unwrap();
//! assert_eq!(restored.submit("again", 3_000).unwrap(), session.submit("again", 3_000).unwrap());
//! ```

use alloc::format;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::compact::report::{CompactionPlan, CompactionReport};
use crate::scenario::{apply_step, kept_plan_of, parse_compaction_options, parse_session_config};
use crate::session::{Session, SessionConfig, SessionOptions, Turn};
use crate::vfs::{Content, EntryKind, TransientError};
use crate::workspace::ToolResult;
use crate::{Error, Profile, ProfileName};
use format::{check_keys, invalid, spec_of};
use journal::Journal;

mod format;
mod journal;

/// The version of the snapshot format this engine writes. Version 2 refuses unknown fields
/// and coalesces the host's writes; a version 1 snapshot reads as version 2 (its acts are the
/// same), so this engine restores versions [`OLDEST_SNAPSHOT_FORMAT_VERSION`] to this one.
pub const SNAPSHOT_FORMAT_VERSION: u64 = 2;

/// The oldest snapshot format this engine restores.
pub const OLDEST_SNAPSHOT_FORMAT_VERSION: u64 = 1;

/// What marks a JSON value as a session snapshot.
const SNAPSHOT_KIND: &str = "context-assembly session";

/// What a host imposes on a snapshot it restores, in place of what the snapshot says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RestoreOptions {
    /// The preset to run; `None`: the snapshot's.
    pub profile: Option<ProfileName>,
    /// The configuration, as a scenario's `config` JSON, in place of the snapshot's whole:
    /// its deny rules, window and every other setting; `None`: the snapshot's.
    pub config: Option<String>,
}

/// How a session was started: what a snapshot restores it from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionSpec {
    /// The preset.
    pub profile: ProfileName,
    /// The working directory.
    pub cwd: String,
    /// The user's home; `None`: `/home/user`.
    pub home: Option<String>,
    /// The configuration as a scenario's `config` JSON; `None`: the defaults.
    pub config: Option<String>,
}

/// One act that may have changed the session, with its input, spelled once: serde writes it
/// as `{"act": "read", "path": …, "atMs": …}` and reads it back, refusing a field it does not
/// write. The snapshot's format is this enum's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "act",
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
enum Act {
    /// The clock moved, and the act that moved it failed without changing anything else.
    Clock {
        at_ms: u64,
    },
    /// The host wrote a file: its text, or (not UTF-8) its bytes in base64.
    WriteFile {
        path: String,
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            with = "format::shared_text"
        )]
        text: Option<Rc<str>>,
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            with = "format::base64"
        )]
        bytes: Option<Rc<[u8]>>,
        mtime_ms: u64,
    },
    DeleteFile {
        path: String,
        at_ms: u64,
    },
    Rename {
        from: String,
        to: String,
        at_ms: u64,
    },
    Mkdir {
        path: String,
        at_ms: u64,
    },
    SetTransientError {
        path: String,
        #[serde(default, with = "format::errno")]
        kind: Option<TransientError>,
    },
    Read {
        path: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        offset: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        limit: Option<i64>,
        at_ms: u64,
    },
    Edit {
        path: String,
        #[serde(rename = "oldString")]
        old: String,
        #[serde(rename = "newString")]
        new: String,
        at_ms: u64,
    },
    Write {
        path: String,
        content: String,
        at_ms: u64,
    },
    Submit {
        prompt: String,
        at_ms: u64,
    },
    ToolRound {
        at_ms: u64,
    },
    Step {
        step: String,
        at_ms: u64,
    },
    PlanCompaction {
        options: String,
        at_ms: u64,
    },
    ApplyCompaction {
        plan: u64,
        summary: Option<String>,
        at_ms: u64,
    },
}

impl Act {
    /// The host's write of `content` to `path`.
    fn write_file(path: &str, content: Content, mtime_ms: u64) -> Act {
        let (text, bytes) = match content {
            Content::Text(text) => (Some(text), None),
            Content::Binary(bytes) => (None, Some(bytes)),
        };
        Act::WriteFile {
            path: path.into(),
            text,
            bytes,
            mtime_ms,
        }
    }

    /// A `WriteFile` act's content: its text or its bytes, `None` when it gives both or
    /// neither (restoring refuses such an act).
    fn written_content(text: Option<Rc<str>>, bytes: Option<Rc<[u8]>>) -> Option<Content> {
        match (text, bytes) {
            (Some(text), None) => Some(Content::Text(text)),
            (None, Some(bytes)) => Some(Content::Binary(bytes)),
            _ => None,
        }
    }
}

/// Why restoring refuses a `WriteFile` act without exactly one of its contents.
const ONE_CONTENT: &str = "give the file's text, or its bytes in base64";

/// A [`Session`] and the journal of everything done to it.
#[derive(Debug)]
pub struct JournaledSession {
    session: Session,
    spec: SessionSpec,
    journal: Journal,
}

impl JournaledSession {
    /// Starts a session as `spec` says.
    ///
    /// # Errors
    /// A bad cwd or home, or a configuration a scenario's `config` would refuse.
    pub fn new(spec: SessionSpec) -> Result<JournaledSession, Error> {
        let config = match &spec.config {
            None => SessionConfig::default(),
            Some(json) => parse_session_config(json)?,
        };
        let session = Session::new(SessionOptions {
            profile: Profile::preset(spec.profile),
            cwd: spec.cwd.clone(),
            home: spec.home.clone(),
            config,
        })?;
        Ok(JournaledSession {
            session,
            spec,
            journal: Journal::default(),
        })
    }

    /// The session, to look at.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// [`Session::search_files`]: it changes nothing a snapshot keeps (only the search's
    /// cache), so it is not journaled.
    pub fn search_files(&mut self, query: &str, limit: usize) -> crate::search::SearchResult {
        self.session.search_files(query, limit)
    }

    /// [`Session::current_request`] at `at_ms`: only the clock's move is journaled (the
    /// request is a peek).
    ///
    /// # Errors
    /// Time running backwards.
    pub fn current_request(&mut self, at_ms: u64) -> Result<crate::request::Request, Error> {
        self.timed(at_ms, Act::Clock { at_ms }, |session| {
            Ok(session.current_request(at_ms))
        })
    }

    /// How many acts the journal holds (the host's writes coalesced).
    pub fn acts(&self) -> usize {
        self.journal.len()
    }

    /// Runs an act at `at_ms`: the clock moves first; a failed act changed nothing but the
    /// clock, so only the clock is journaled for it.
    fn timed<T>(
        &mut self,
        at_ms: u64,
        act: Act,
        run: impl FnOnce(&mut Session) -> Result<T, Error>,
    ) -> Result<T, Error> {
        self.session.advance_clock(at_ms)?;
        let result = run(&mut self.session);
        self.journal.push(match result {
            Ok(_) => act,
            Err(_) => Act::Clock { at_ms },
        });
        result
    }

    /// Runs an act that takes no time: journaled only when it succeeded (a failed one
    /// changes nothing).
    fn untimed(
        &mut self,
        act: Act,
        run: impl FnOnce(&mut Session) -> Result<(), Error>,
    ) -> Result<(), Error> {
        run(&mut self.session)?;
        self.journal.push(act);
        Ok(())
    }

    /// [`Session::write_file`]. Journaled coalesced with the host's earlier writes of the
    /// file that nothing looked at since (`journal.rs`).
    ///
    /// # Errors
    /// As [`Session::write_file`].
    pub fn write_file(&mut self, path: &str, content: Content, mtime_ms: u64) -> Result<(), Error> {
        let existed_with = match self.session.stat(path) {
            Ok(stat) if stat.kind == EntryKind::File => Some(stat.size),
            _ => None,
        };
        self.session.write_file(path, content.clone(), mtime_ms)?;
        let file = self.session.expand(path)?;
        self.journal
            .push_write(file, Act::write_file(path, content, mtime_ms), existed_with);
        Ok(())
    }

    /// [`Session::delete_file`].
    ///
    /// # Errors
    /// As [`Session::delete_file`].
    pub fn delete_file(&mut self, path: &str, at_ms: u64) -> Result<(), Error> {
        let act = Act::DeleteFile {
            path: path.into(),
            at_ms,
        };
        self.untimed(act, |session| session.delete_file(path, at_ms))
    }

    /// [`Session::rename`].
    ///
    /// # Errors
    /// As [`Session::rename`].
    pub fn rename(&mut self, from: &str, to: &str, at_ms: u64) -> Result<(), Error> {
        let act = Act::Rename {
            from: from.into(),
            to: to.into(),
            at_ms,
        };
        self.untimed(act, |session| session.rename(from, to, at_ms))
    }

    /// [`Session::mkdir`].
    ///
    /// # Errors
    /// As [`Session::mkdir`].
    pub fn mkdir(&mut self, path: &str, at_ms: u64) -> Result<(), Error> {
        let act = Act::Mkdir {
            path: path.into(),
            at_ms,
        };
        self.untimed(act, |session| session.mkdir(path, at_ms))
    }

    /// [`Session::set_transient_error`].
    ///
    /// # Errors
    /// As [`Session::set_transient_error`].
    pub fn set_transient_error(
        &mut self,
        path: &str,
        kind: Option<TransientError>,
    ) -> Result<(), Error> {
        let act = Act::SetTransientError {
            path: path.into(),
            kind,
        };
        self.untimed(act, |session| session.set_transient_error(path, kind))
    }

    /// [`Session::read`] at `at_ms`.
    ///
    /// # Errors
    /// Time running backwards, or as [`Session::read`].
    pub fn read(
        &mut self,
        path: &str,
        offset: Option<u64>,
        limit: Option<i64>,
        at_ms: u64,
    ) -> Result<ToolResult, Error> {
        let act = Act::Read {
            path: path.into(),
            offset,
            limit,
            at_ms,
        };
        self.timed(at_ms, act, |session| {
            session.read(path, offset, limit, at_ms)
        })
    }

    /// [`Session::edit`] at `at_ms`.
    ///
    /// # Errors
    /// Time running backwards, or as [`Session::edit`].
    pub fn edit(
        &mut self,
        path: &str,
        old: &str,
        new: &str,
        at_ms: u64,
    ) -> Result<ToolResult, Error> {
        let act = Act::Edit {
            path: path.into(),
            old: old.into(),
            new: new.into(),
            at_ms,
        };
        self.timed(at_ms, act, |session| session.edit(path, old, new, at_ms))
    }

    /// [`Session::write`] at `at_ms`.
    ///
    /// # Errors
    /// Time running backwards, or as [`Session::write`].
    pub fn write(&mut self, path: &str, content: &str, at_ms: u64) -> Result<ToolResult, Error> {
        let act = Act::Write {
            path: path.into(),
            content: content.into(),
            at_ms,
        };
        self.timed(at_ms, act, |session| session.write(path, content, at_ms))
    }

    /// [`Session::submit`] at `at_ms`.
    ///
    /// # Errors
    /// Time running backwards.
    pub fn submit(&mut self, prompt: &str, at_ms: u64) -> Result<Turn, Error> {
        let act = Act::Submit {
            prompt: prompt.into(),
            at_ms,
        };
        self.timed(at_ms, act, |session| Ok(session.submit(prompt, at_ms)))
    }

    /// [`Session::tool_round`] at `at_ms`.
    ///
    /// # Errors
    /// Time running backwards.
    pub fn tool_round(&mut self, at_ms: u64) -> Result<Turn, Error> {
        self.timed(at_ms, Act::ToolRound { at_ms }, |session| {
            Ok(session.tool_round(at_ms))
        })
    }

    /// One scenario step ([`apply_step`]) at `at_ms`.
    ///
    /// # Errors
    /// Time running backwards, or as [`apply_step`].
    pub fn step(&mut self, step: &str, at_ms: u64) -> Result<Turn, Error> {
        let act = Act::Step {
            step: step.into(),
            at_ms,
        };
        self.timed(at_ms, act, |session| apply_step(session, step, at_ms))
    }

    /// [`Session::plan_compaction`] with options written as a scenario's compaction
    /// options ([`parse_compaction_options`]; a summary is refused: it goes with the apply).
    ///
    /// # Errors
    /// Time running backwards, or options that cannot be used.
    pub fn plan_compaction(&mut self, options: &str, at_ms: u64) -> Result<CompactionPlan, Error> {
        let act = Act::PlanCompaction {
            options: options.into(),
            at_ms,
        };
        self.timed(at_ms, act, |session| {
            let (options, summary) = parse_compaction_options(options)?;
            if summary.is_some() {
                return Err(Error::InvalidConfig {
                    field: "options.summary".into(),
                    reason: "a summary is given to applyCompaction, not to the plan".into(),
                });
            }
            Ok(session.plan_compaction(options, at_ms))
        })
    }

    /// [`Session::apply_compaction`] of a plan given as the JSON [`plan_compaction`]
    /// returned ([`kept_plan_of`]).
    ///
    /// # Errors
    /// Time running backwards, a plan the session did not make or that changed, or as
    /// [`Session::apply_compaction`].
    ///
    /// [`plan_compaction`]: JournaledSession::plan_compaction
    pub fn apply_compaction(
        &mut self,
        plan: &str,
        summary: Option<&str>,
        at_ms: u64,
    ) -> Result<CompactionReport, Error> {
        let plan = kept_plan_of(&self.session, plan)?;
        let act = Act::ApplyCompaction {
            plan: plan.id,
            summary: summary.map(String::from),
            at_ms,
        };
        self.timed(at_ms, act, |session| {
            session.apply_compaction(&plan, summary, at_ms)
        })
    }

    /// The session as a JSON snapshot: how it started and every act since.
    pub fn snapshot(&self) -> String {
        let spec = &self.spec;
        let snapshot = SnapshotJson {
            snapshot: SNAPSHOT_KIND,
            format_version: SNAPSHOT_FORMAT_VERSION,
            engine: crate::VERSION,
            session: SessionJson {
                profile: spec.profile.as_str(),
                cwd: &spec.cwd,
                home: spec.home.as_deref(),
                config: spec.config.as_deref(),
            },
            acts: self.journal.iter().collect(),
        };
        // Strings, numbers and nulls only: serde_json cannot fail on them.
        serde_json::to_string(&snapshot).unwrap_or_default()
    }

    /// The session a [`snapshot`](JournaledSession::snapshot) was taken of, trusted whole:
    /// its profile, its configuration (deny rules included) and its acts.
    ///
    /// # Errors
    /// Text that is not a snapshot, a format version this engine does not read (named, with
    /// the versions it reads), a field it does not know or a malformed act (named by its
    /// place, `snapshot.acts[3].path: …`), or an act that does not replay as it ran.
    pub fn restore(snapshot: &str) -> Result<JournaledSession, Error> {
        JournaledSession::restore_with(snapshot, &RestoreOptions::default())
    }

    /// [`restore`](JournaledSession::restore) under the host's own profile and configuration
    /// where `options` gives them: the snapshot's are then not read, so a snapshot edited to
    /// drop its deny rules restores under the host's rules. The acts are replayed under them
    /// (a file the host's rules deny is read by nothing the model receives, under a profile
    /// that honours the rules); a later snapshot records them.
    ///
    /// # Errors
    /// As [`restore`](JournaledSession::restore), or a configuration a scenario's `config`
    /// would refuse (its place starts with `config`). An act whose outcome differs under the
    /// host's settings (it failed where it had succeeded) is refused, naming it.
    ///
    /// # Example
    /// ```
    /// use context_assembly::snapshot::{JournaledSession, RestoreOptions, SessionSpec};
    /// use context_assembly::ProfileName;
    /// let spec = SessionSpec { profile: ProfileName::Recommended, cwd: "/p".into(), home: None, config: None };
    /// let mut session = JournaledSession::new(spec).unwrap();
    /// session.write_file(".env", "TOKEN=s3cret\n".into(), 1).unwrap();
    /// let snapshot = session.snapshot(); // no deny rule in it: restored as written, it sends .env
    /// let mut trusted = JournaledSession::restore(&snapshot).unwrap();
    /// let turn = trusted.submit("what is in @.env?", 2).unwrap();
    /// assert!(format!("{:?}", turn.request).contains("s3cret"));
    /// let options = RestoreOptions { profile: None, config: Some(r#"{"deny": ["Read(./.env)"]}"#.into()) };
    /// let mut restored = JournaledSession::restore_with(&snapshot, &options).unwrap();
    /// let turn = restored.submit("what is in @.env?", 2).unwrap();
    /// assert!(!format!("{:?}", turn.request).contains("s3cret"));
    /// ```
    pub fn restore_with(
        snapshot: &str,
        options: &RestoreOptions,
    ) -> Result<JournaledSession, Error> {
        let root: Value = serde_json::from_str(snapshot)
            .map_err(|error| invalid("snapshot", format!("is not JSON: {error}")))?;
        if root.get("snapshot").and_then(Value::as_str) != Some(SNAPSHOT_KIND) {
            return Err(invalid(
                "snapshot",
                format!("is not a session snapshot (no \"snapshot\": \"{SNAPSHOT_KIND}\")"),
            ));
        }
        check_version(root.get("formatVersion"))?;
        check_keys(
            &root,
            "snapshot",
            &["snapshot", "formatVersion", "engine", "session", "acts"],
        )?;
        let mut spec = spec_of(&root)?;
        if let Some(profile) = options.profile {
            spec.profile = profile;
        }
        if let Some(config) = &options.config {
            spec.config = Some(config.clone());
        }
        let mut session = JournaledSession::new(spec)?;
        let acts = root
            .get("acts")
            .and_then(Value::as_array)
            .ok_or_else(|| invalid("snapshot.acts", "must be an array".into()))?;
        for (index, act) in acts.iter().enumerate() {
            let place = format!("snapshot.acts[{index}]");
            let act = Act::deserialize(act).map_err(|error| invalid(&place, format!("{error}")))?;
            if let Act::WriteFile { text, bytes, .. } = &act {
                if Act::written_content(text.clone(), bytes.clone()).is_none() {
                    return Err(invalid(&format!("{place}.text"), ONE_CONTENT.into()));
                }
            }
            session
                .replay(&act)
                .map_err(|error| invalid(&place, format!("does not replay: {error}")))?;
            // A write may coalesce earlier ones (an older format kept them whole), but the act
            // itself is journaled last, as written.
            if session.journal.last() != Some(&act) {
                return Err(invalid(
                    &place,
                    "does not replay as it ran (its outcome differs)".into(),
                ));
            }
        }
        Ok(session)
    }

    /// Runs one journaled act again.
    fn replay(&mut self, act: &Act) -> Result<(), Error> {
        match act.clone() {
            Act::Clock { at_ms } => {
                self.session.advance_clock(at_ms)?;
                self.journal.push(act.clone());
                Ok(())
            }
            Act::WriteFile {
                path,
                text,
                bytes,
                mtime_ms,
            } => {
                let content = Act::written_content(text, bytes)
                    .ok_or_else(|| invalid(&path, ONE_CONTENT.into()))?;
                self.write_file(&path, content, mtime_ms)
            }
            Act::DeleteFile { path, at_ms } => self.delete_file(&path, at_ms),
            Act::Rename { from, to, at_ms } => self.rename(&from, &to, at_ms),
            Act::Mkdir { path, at_ms } => self.mkdir(&path, at_ms),
            Act::SetTransientError { path, kind } => self.set_transient_error(&path, kind),
            Act::Read {
                path,
                offset,
                limit,
                at_ms,
            } => self.read(&path, offset, limit, at_ms).map(drop),
            Act::Edit {
                path,
                old,
                new,
                at_ms,
            } => self.edit(&path, &old, &new, at_ms).map(drop),
            Act::Write {
                path,
                content,
                at_ms,
            } => self.write(&path, &content, at_ms).map(drop),
            Act::Submit { prompt, at_ms } => self.submit(&prompt, at_ms).map(drop),
            Act::ToolRound { at_ms } => self.tool_round(at_ms).map(drop),
            Act::Step { step, at_ms } => self.step(&step, at_ms).map(drop),
            Act::PlanCompaction { options, at_ms } => {
                self.plan_compaction(&options, at_ms).map(drop)
            }
            Act::ApplyCompaction {
                plan,
                summary,
                at_ms,
            } => {
                let plan = self.session.kept_plan(plan)?.clone();
                self.timed(at_ms, act.clone(), |session| {
                    session.apply_compaction(&plan, summary.as_deref(), at_ms)
                })
                .map(drop)
            }
        }
    }
}

/// A snapshot as it is written.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SnapshotJson<'a> {
    snapshot: &'static str,
    format_version: u64,
    engine: &'static str,
    session: SessionJson<'a>,
    acts: Vec<&'a Act>,
}

/// How the session started, as a snapshot writes it.
#[derive(Serialize)]
struct SessionJson<'a> {
    profile: &'static str,
    cwd: &'a str,
    home: Option<&'a str>,
    config: Option<&'a str>,
}

/// Refuses a format version this engine does not read, naming it and the ones it reads.
fn check_version(version: Option<&Value>) -> Result<(), Error> {
    let reads = format!(
        "this engine (context-assembly {}) reads formats {OLDEST_SNAPSHOT_FORMAT_VERSION} to \
         {SNAPSHOT_FORMAT_VERSION}",
        crate::VERSION
    );
    let place = "snapshot.formatVersion";
    match version.and_then(Value::as_u64) {
        Some(OLDEST_SNAPSHOT_FORMAT_VERSION..=SNAPSHOT_FORMAT_VERSION) => Ok(()),
        Some(newer) if newer > SNAPSHOT_FORMAT_VERSION => Err(invalid(
            place,
            format!("{newer} is newer than {reads}: restore it with a newer context-assembly"),
        )),
        Some(older) => Err(invalid(place, format!("{older} is not a format {reads}"))),
        None => {
            let given = version.map_or_else(|| "missing".into(), |value| format!("{value}"));
            Err(invalid(
                place,
                format!("must be a whole number ({given}); {reads}"),
            ))
        }
    }
}
