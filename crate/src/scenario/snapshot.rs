//! Sessions that outlive a page: a [`JournaledSession`] remembers every act that may have
//! changed its session, and [`JournaledSession::snapshot`] writes them out as JSON;
//! [`JournaledSession::restore`] replays them into an equal session. The engine is
//! deterministic (no clock, no randomness), so the replay reaches the same state exactly,
//! whatever the session's internals are — a snapshot survives a refactor of them, and only
//! the acts' format is versioned ([`SNAPSHOT_FORMAT_VERSION`]).
//!
//! The cost is the journal: it holds every act's input (file contents included), so a
//! snapshot grows with the session, and restoring replays the whole session.
//!
//! ```
//! use context_assembly::scenario::{JournaledSession, SessionSpec};
//! use context_assembly::ProfileName;
//! let spec = SessionSpec { profile: ProfileName::ClaudeCode, cwd: "/p".into(), home: None, config: None };
//! let mut session = JournaledSession::new(spec).unwrap();
//! session.write_file("a.ts", "one\n".into(), 1_000).unwrap();
//! session.submit("look at @a.ts", 2_000).unwrap();
//! let snapshot = session.snapshot();
//! let mut restored = JournaledSession::restore(&snapshot).unwrap();
//! assert_eq!(restored.submit("again", 3_000).unwrap(), session.submit("again", 3_000).unwrap());
//! ```

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value};

use super::{apply_step, kept_plan_of, parse_compaction_options, parse_session_config};
use crate::compact::report::{CompactionPlan, CompactionReport};
use crate::session::{Session, SessionConfig, SessionOptions, Turn};
use crate::vfs::{Content, TransientError};
use crate::workspace::ToolResult;
use crate::{Error, Profile, ProfileName};

/// The version of the snapshot format this engine writes and reads.
pub const SNAPSHOT_FORMAT_VERSION: u64 = 1;

/// What marks a JSON value as a session snapshot.
const SNAPSHOT_KIND: &str = "context-assembly session";

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

/// One act that may have changed the session, with its input.
#[derive(Debug, Clone, PartialEq)]
enum Act {
    /// The clock moved, and the act that moved it failed without changing anything else.
    Clock {
        at_ms: u64,
    },
    WriteFile {
        path: String,
        content: Content,
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
        kind: Option<TransientError>,
    },
    Read {
        path: String,
        offset: Option<u64>,
        limit: Option<i64>,
        at_ms: u64,
    },
    Edit {
        path: String,
        old: String,
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

/// A [`Session`] and the journal of everything done to it.
#[derive(Debug)]
pub struct JournaledSession {
    session: Session,
    spec: SessionSpec,
    acts: Vec<Act>,
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
            acts: Vec::new(),
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

    /// How many acts the journal holds.
    pub fn acts(&self) -> usize {
        self.acts.len()
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
        self.acts.push(match result {
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
        self.acts.push(act);
        Ok(())
    }

    /// [`Session::write_file`].
    ///
    /// # Errors
    /// As [`Session::write_file`].
    pub fn write_file(&mut self, path: &str, content: Content, mtime_ms: u64) -> Result<(), Error> {
        let act = Act::WriteFile {
            path: path.into(),
            content: content.clone(),
            mtime_ms,
        };
        self.untimed(act, |session| session.write_file(path, content, mtime_ms))
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
        let mut out = String::new();
        let mut session = String::new();
        JsonObject::new(&mut session)
            .text("profile", spec.profile.as_str())
            .text("cwd", &spec.cwd)
            .optional_text("home", spec.home.as_deref())
            .optional_text("config", spec.config.as_deref())
            .close();
        let mut acts = String::from("[");
        for (index, act) in self.acts.iter().enumerate() {
            if index > 0 {
                acts.push(',');
            }
            act_json(act, &mut acts);
        }
        acts.push(']');
        JsonObject::new(&mut out)
            .text("snapshot", SNAPSHOT_KIND)
            .number("formatVersion", SNAPSHOT_FORMAT_VERSION)
            .text("engine", crate::VERSION)
            .raw("session", &session)
            .raw("acts", &acts)
            .close();
        out
    }

    /// The session a [`snapshot`](JournaledSession::snapshot) was taken of.
    ///
    /// # Errors
    /// Text that is not a snapshot, a newer format version, a malformed act (named by its
    /// place, `acts[3].path: …`), or an act that does not replay as it ran.
    pub fn restore(snapshot: &str) -> Result<JournaledSession, Error> {
        let root: Value = serde_json::from_str(snapshot)
            .map_err(|error| invalid("snapshot", format!("is not JSON: {error}")))?;
        if root.get("snapshot").and_then(Value::as_str) != Some(SNAPSHOT_KIND) {
            return Err(invalid(
                "snapshot",
                format!("is not a session snapshot (no \"snapshot\": \"{SNAPSHOT_KIND}\")"),
            ));
        }
        let version = root.get("formatVersion").and_then(Value::as_u64);
        match version {
            Some(SNAPSHOT_FORMAT_VERSION) => {}
            Some(newer) if newer > SNAPSHOT_FORMAT_VERSION => {
                return Err(invalid("snapshot.formatVersion", format!("{newer} is newer than this engine reads ({SNAPSHOT_FORMAT_VERSION}): restore it with a newer context-assembly")));
            }
            _ => {
                return Err(invalid(
                    "snapshot.formatVersion",
                    format!("must be {SNAPSHOT_FORMAT_VERSION}"),
                ))
            }
        }
        let mut session = JournaledSession::new(spec_of(&root)?)?;
        let acts = root
            .get("acts")
            .and_then(Value::as_array)
            .ok_or_else(|| invalid("snapshot.acts", "must be an array".into()))?;
        for (index, act) in acts.iter().enumerate() {
            let place = format!("snapshot.acts[{index}]");
            let act = act_of(act, &place)?;
            let journaled = session.acts.len();
            session
                .replay(&act)
                .map_err(|error| invalid(&place, format!("does not replay: {error}")))?;
            if session.acts.len() != journaled + 1 || session.acts.last() != Some(&act) {
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
                self.acts.push(act.clone());
                Ok(())
            }
            Act::WriteFile {
                path,
                content,
                mtime_ms,
            } => self.write_file(&path, content, mtime_ms),
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

/// A snapshot error at `place`.
fn invalid(place: &str, reason: String) -> Error {
    Error::InvalidConfig {
        field: place.into(),
        reason,
    }
}

/// How the snapshot's session started.
fn spec_of(root: &Value) -> Result<SessionSpec, Error> {
    let spec = root
        .get("session")
        .filter(|v| v.is_object())
        .ok_or_else(|| invalid("snapshot.session", "must be an object".into()))?;
    let profile = spec
        .get("profile")
        .and_then(Value::as_str)
        .and_then(|name| name.parse::<ProfileName>().ok())
        .ok_or_else(|| {
            let names: alloc::vec::Vec<String> = ProfileName::ALL
                .iter()
                .map(|name| format!("\"{}\"", name.as_str()))
                .collect();
            invalid(
                "snapshot.session.profile",
                format!("must be one of {}", names.join(", ")),
            )
        })?;
    let cwd = spec
        .get("cwd")
        .and_then(Value::as_str)
        .ok_or_else(|| invalid("snapshot.session.cwd", "must be a string".into()))?;
    let home = match spec.get("home") {
        None | Some(Value::Null) => None,
        Some(Value::String(home)) => Some(home.clone()),
        Some(_) => {
            return Err(invalid(
                "snapshot.session.home",
                "must be a string or null".into(),
            ))
        }
    };
    let config = match spec.get("config") {
        None | Some(Value::Null) => None,
        Some(Value::String(config)) => Some(config.clone()),
        Some(_) => {
            let reason = "must be the configuration's JSON text, or null";
            return Err(invalid("snapshot.session.config", reason.into()));
        }
    };
    Ok(SessionSpec {
        profile,
        cwd: cwd.into(),
        home,
        config,
    })
}

/// An act as the snapshot writes it: `{"act": name, field: value, …}`.
fn act_json(act: &Act, out: &mut String) {
    let object = JsonObject::new(out);
    match act {
        Act::Clock { at_ms } => object.text("act", "clock").number("atMs", *at_ms),
        Act::WriteFile {
            path,
            content,
            mtime_ms,
        } => {
            let object = object.text("act", "writeFile").text("path", path);
            let object = match content {
                Content::Text(text) => object.text("text", text),
                Content::Binary(bytes) => object.text("bytes", &base64::encode(bytes)),
            };
            object.number("mtimeMs", *mtime_ms)
        }
        Act::DeleteFile { path, at_ms } => object
            .text("act", "deleteFile")
            .text("path", path)
            .number("atMs", *at_ms),
        Act::Rename { from, to, at_ms } => object
            .text("act", "rename")
            .text("from", from)
            .text("to", to)
            .number("atMs", *at_ms),
        Act::Mkdir { path, at_ms } => object
            .text("act", "mkdir")
            .text("path", path)
            .number("atMs", *at_ms),
        Act::SetTransientError { path, kind } => {
            let kind = kind.map(|kind| match kind {
                TransientError::PermissionDenied => "EACCES",
                TransientError::Busy => "EBUSY",
            });
            object
                .text("act", "setTransientError")
                .text("path", path)
                .optional_text("kind", kind)
        }
        Act::Read {
            path,
            offset,
            limit,
            at_ms,
        } => {
            let object = object.text("act", "read").text("path", path);
            let object = match offset {
                Some(offset) => object.number("offset", *offset),
                None => object,
            };
            let object = match limit {
                Some(limit) => object.raw("limit", &format!("{limit}")),
                None => object,
            };
            object.number("atMs", *at_ms)
        }
        Act::Edit {
            path,
            old,
            new,
            at_ms,
        } => object
            .text("act", "edit")
            .text("path", path)
            .text("oldString", old)
            .text("newString", new)
            .number("atMs", *at_ms),
        Act::Write {
            path,
            content,
            at_ms,
        } => object
            .text("act", "write")
            .text("path", path)
            .text("content", content)
            .number("atMs", *at_ms),
        Act::Submit { prompt, at_ms } => object
            .text("act", "submit")
            .text("prompt", prompt)
            .number("atMs", *at_ms),
        Act::ToolRound { at_ms } => object.text("act", "toolRound").number("atMs", *at_ms),
        Act::Step { step, at_ms } => object
            .text("act", "step")
            .text("step", step)
            .number("atMs", *at_ms),
        Act::PlanCompaction { options, at_ms } => object
            .text("act", "planCompaction")
            .text("options", options)
            .number("atMs", *at_ms),
        Act::ApplyCompaction {
            plan,
            summary,
            at_ms,
        } => object
            .text("act", "applyCompaction")
            .number("plan", *plan)
            .optional_text("summary", summary.as_deref())
            .number("atMs", *at_ms),
    }
    .close();
}

/// A JSON object written field by field.
struct JsonObject<'a> {
    out: &'a mut String,
    first: bool,
}

impl<'a> JsonObject<'a> {
    fn new(out: &'a mut String) -> JsonObject<'a> {
        out.push('{');
        JsonObject { out, first: true }
    }

    fn raw(mut self, key: &str, value: &str) -> JsonObject<'a> {
        if !core::mem::take(&mut self.first) {
            self.out.push(',');
        }
        crate::js::write_json_string(key, self.out);
        self.out.push(':');
        self.out.push_str(value);
        self
    }

    fn text(self, key: &str, value: &str) -> JsonObject<'a> {
        let mut quoted = String::with_capacity(value.len() + 2);
        crate::js::write_json_string(value, &mut quoted);
        self.raw(key, &quoted)
    }

    fn optional_text(self, key: &str, value: Option<&str>) -> JsonObject<'a> {
        match value {
            Some(value) => self.text(key, value),
            None => self.raw(key, "null"),
        }
    }

    fn number(self, key: &str, value: u64) -> JsonObject<'a> {
        self.raw(key, &format!("{value}"))
    }

    fn close(self) {
        self.out.push('}');
    }
}

/// An act read back from the snapshot.
fn act_of(value: &Value, place: &str) -> Result<Act, Error> {
    let fields = Fields {
        map: value
            .as_object()
            .ok_or_else(|| invalid(place, "must be an object".into()))?,
        place,
    };
    let act = match fields.text("act")?.as_str() {
        "clock" => Act::Clock {
            at_ms: fields.time("atMs")?,
        },
        "writeFile" => {
            let content = match (fields.map.get("text"), fields.map.get("bytes")) {
                (Some(_), None) => Content::from(fields.text("text")?),
                (None, Some(_)) => {
                    let bytes = base64::decode(&fields.text("bytes")?)
                        .ok_or_else(|| fields.error("bytes", "is not base64"))?;
                    Content::from(bytes.as_slice())
                }
                _ => {
                    return Err(fields.error("text", "give the file's text, or its bytes in base64"))
                }
            };
            Act::WriteFile {
                path: fields.text("path")?,
                content,
                mtime_ms: fields.time("mtimeMs")?,
            }
        }
        "deleteFile" => Act::DeleteFile {
            path: fields.text("path")?,
            at_ms: fields.time("atMs")?,
        },
        "rename" => Act::Rename {
            from: fields.text("from")?,
            to: fields.text("to")?,
            at_ms: fields.time("atMs")?,
        },
        "mkdir" => Act::Mkdir {
            path: fields.text("path")?,
            at_ms: fields.time("atMs")?,
        },
        "setTransientError" => {
            let kind = match fields.map.get("kind") {
                None | Some(Value::Null) => None,
                Some(Value::String(kind)) if kind == "EACCES" => {
                    Some(TransientError::PermissionDenied)
                }
                Some(Value::String(kind)) if kind == "EBUSY" => Some(TransientError::Busy),
                Some(_) => {
                    return Err(fields.error("kind", "must be \"EACCES\", \"EBUSY\" or null"))
                }
            };
            Act::SetTransientError {
                path: fields.text("path")?,
                kind,
            }
        }
        "read" => Act::Read {
            path: fields.text("path")?,
            offset: fields.optional_number("offset")?,
            limit: fields.optional_number("limit")?.map(|n| n as i64),
            at_ms: fields.time("atMs")?,
        },
        "edit" => Act::Edit {
            path: fields.text("path")?,
            old: fields.text("oldString")?,
            new: fields.text("newString")?,
            at_ms: fields.time("atMs")?,
        },
        "write" => Act::Write {
            path: fields.text("path")?,
            content: fields.text("content")?,
            at_ms: fields.time("atMs")?,
        },
        "submit" => Act::Submit {
            prompt: fields.text("prompt")?,
            at_ms: fields.time("atMs")?,
        },
        "toolRound" => Act::ToolRound {
            at_ms: fields.time("atMs")?,
        },
        "step" => Act::Step {
            step: fields.text("step")?,
            at_ms: fields.time("atMs")?,
        },
        "planCompaction" => Act::PlanCompaction {
            options: fields.text("options")?,
            at_ms: fields.time("atMs")?,
        },
        "applyCompaction" => Act::ApplyCompaction {
            plan: fields.time("plan")?,
            summary: match fields.map.get("summary") {
                None | Some(Value::Null) => None,
                Some(_) => Some(fields.text("summary")?),
            },
            at_ms: fields.time("atMs")?,
        },
        other => {
            return Err(fields.error(
                "act",
                &format!("{other:?} is not an act this engine journals"),
            ))
        }
    };
    Ok(act)
}

/// An act's fields, read with errors that name their place.
struct Fields<'a> {
    map: &'a Map<String, Value>,
    place: &'a str,
}

impl Fields<'_> {
    fn error(&self, key: &str, reason: &str) -> Error {
        invalid(&format!("{}.{key}", self.place), reason.into())
    }

    fn text(&self, key: &str) -> Result<String, Error> {
        (self.map.get(key).and_then(Value::as_str).map(String::from))
            .ok_or_else(|| self.error(key, "must be a string"))
    }

    fn time(&self, key: &str) -> Result<u64, Error> {
        self.map
            .get(key)
            .and_then(Value::as_u64)
            .ok_or_else(|| self.error(key, "must be a whole number ≥ 0"))
    }

    fn optional_number(&self, key: &str) -> Result<Option<u64>, Error> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(_) => self.time(key).map(Some),
        }
    }
}

/// Standard base64 with padding, for binary file contents.
mod base64 {
    use alloc::string::String;
    use alloc::vec::Vec;

    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

    /// `bytes` in base64.
    pub(super) fn encode(bytes: &[u8]) -> String {
        let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
        for chunk in bytes.chunks(3) {
            let n = chunk
                .iter()
                .enumerate()
                .fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
            for i in 0..4 {
                let sextet = (n >> (18 - 6 * i)) & 0x3f;
                out.push(match i <= chunk.len() {
                    true => char::from(ALPHABET[sextet as usize]),
                    false => '=',
                });
            }
        }
        out
    }

    /// The bytes of `text`, or `None` when it is not padded base64.
    pub(super) fn decode(text: &str) -> Option<Vec<u8>> {
        let text = text.as_bytes();
        if text.len() % 4 != 0 {
            return None;
        }
        let mut out = Vec::with_capacity(text.len() / 4 * 3);
        for chunk in text.chunks(4) {
            let padding = chunk.iter().rev().take_while(|&&c| c == b'=').count();
            if padding > 2 {
                return None;
            }
            let mut n = 0u32;
            for (i, &c) in chunk.iter().enumerate() {
                let value = match c {
                    b'=' if i >= 4 - padding => 0,
                    _ => ALPHABET.iter().position(|&a| a == c)? as u32,
                };
                n |= value << (18 - 6 * i);
            }
            let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
            out.extend_from_slice(&bytes[..3 - padding]);
        }
        Some(out)
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn bytes_round_trip_through_base64_at_every_length() {
            for len in 0..10 {
                let bytes: Vec<u8> = (0..len).map(|i| (i * 37 + 200) as u8).collect();
                let text = encode(&bytes);
                assert_eq!(text.len() % 4, 0);
                assert_eq!(decode(&text), Some(bytes));
            }
            assert_eq!(encode(b"Man"), "TWFu");
            assert_eq!(encode(b"Ma"), "TWE=");
            assert_eq!(decode("TWE"), None);
            assert_eq!(decode("T!E="), None);
        }
    }
}
