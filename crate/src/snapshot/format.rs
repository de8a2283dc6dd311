//! The snapshot's JSON: acts written field by field, and read back with errors that name
//! their place (`snapshot.acts[3].path: …`). Every object is closed: a field this engine
//! does not write is refused, naming it, rather than ignored.

use alloc::format;
use alloc::string::String;

use serde_json::{Map, Value};

use super::{Act, SessionSpec};
use crate::vfs::{Content, TransientError};
use crate::{Error, ProfileName};

/// A snapshot error at `place`.
pub(super) fn invalid(place: &str, reason: String) -> Error {
    Error::InvalidConfig {
        field: place.into(),
        reason,
    }
}

/// Refuses a field of the object `value` (at `place`) that is not one of `known`.
///
/// # Errors
/// The first unknown field, named with its place, and the fields the object has.
pub(super) fn check_keys(value: &Value, place: &str, known: &[&str]) -> Result<(), Error> {
    let Some(map) = value.as_object() else {
        return Ok(());
    };
    match map.keys().find(|key| !known.contains(&key.as_str())) {
        None => Ok(()),
        Some(key) => Err(invalid(
            &format!("{place}.{key}"),
            format!(
                "is not a field this engine writes here (the fields: {})",
                known.join(", ")
            ),
        )),
    }
}

/// How the snapshot's session started.
pub(super) fn spec_of(root: &Value) -> Result<SessionSpec, Error> {
    let spec = root
        .get("session")
        .filter(|v| v.is_object())
        .ok_or_else(|| invalid("snapshot.session", "must be an object".into()))?;
    check_keys(
        spec,
        "snapshot.session",
        &["profile", "cwd", "home", "config"],
    )?;
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
pub(super) fn act_json(act: &Act, out: &mut String) {
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
pub(super) struct JsonObject<'a> {
    out: &'a mut String,
    first: bool,
}

impl<'a> JsonObject<'a> {
    pub(super) fn new(out: &'a mut String) -> JsonObject<'a> {
        out.push('{');
        JsonObject { out, first: true }
    }

    pub(super) fn raw(mut self, key: &str, value: &str) -> JsonObject<'a> {
        if !core::mem::take(&mut self.first) {
            self.out.push(',');
        }
        crate::js::write_json_string(key, self.out);
        self.out.push(':');
        self.out.push_str(value);
        self
    }

    pub(super) fn text(self, key: &str, value: &str) -> JsonObject<'a> {
        let mut quoted = String::with_capacity(value.len() + 2);
        crate::js::write_json_string(value, &mut quoted);
        self.raw(key, &quoted)
    }

    pub(super) fn optional_text(self, key: &str, value: Option<&str>) -> JsonObject<'a> {
        match value {
            Some(value) => self.text(key, value),
            None => self.raw(key, "null"),
        }
    }

    pub(super) fn number(self, key: &str, value: u64) -> JsonObject<'a> {
        self.raw(key, &format!("{value}"))
    }

    pub(super) fn close(self) {
        self.out.push('}');
    }
}

/// An act read back from the snapshot.
pub(super) fn act_of(value: &Value, place: &str) -> Result<Act, Error> {
    let fields = Fields {
        map: value
            .as_object()
            .ok_or_else(|| invalid(place, "must be an object".into()))?,
        place,
    };
    let name = fields.text("act")?;
    if let Some((_, known)) = ACT_FIELDS.iter().find(|(act, _)| *act == name) {
        check_keys(value, place, known)?;
    }
    let act = match name.as_str() {
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

/// Each act's fields, as [`act_json`] writes them.
const ACT_FIELDS: [(&str, &[&str]); 14] = [
    ("clock", &["act", "atMs"]),
    ("writeFile", &["act", "path", "text", "bytes", "mtimeMs"]),
    ("deleteFile", &["act", "path", "atMs"]),
    ("rename", &["act", "from", "to", "atMs"]),
    ("mkdir", &["act", "path", "atMs"]),
    ("setTransientError", &["act", "path", "kind"]),
    ("read", &["act", "path", "offset", "limit", "atMs"]),
    ("edit", &["act", "path", "oldString", "newString", "atMs"]),
    ("write", &["act", "path", "content", "atMs"]),
    ("submit", &["act", "prompt", "atMs"]),
    ("toolRound", &["act", "atMs"]),
    ("step", &["act", "step", "atMs"]),
    ("planCompaction", &["act", "options", "atMs"]),
    ("applyCompaction", &["act", "plan", "summary", "atMs"]),
];

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
