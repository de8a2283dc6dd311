//! The snapshot's JSON. The acts are serde's (`Act`'s derives, with the field shapes below:
//! shared text, base64 bytes, errno names); the envelope and the session are read here with
//! errors that name their place (`snapshot.session.cwd: …`). Every object is closed: a field
//! this engine does not write is refused, naming it, rather than ignored.

use alloc::format;
use alloc::string::String;

use serde_json::Value;

use super::SessionSpec;
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

/// A binary file's bytes as standard base64 with padding (`WriteFile.bytes`).
pub(super) mod base64 {
    use alloc::rc::Rc;
    use alloc::string::String;
    use alloc::vec::Vec;

    use serde::{Deserialize, Deserializer, Serializer};

    pub(in crate::snapshot) fn serialize<S: Serializer>(
        bytes: &Option<Rc<[u8]>>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match bytes {
            Some(bytes) => serializer.serialize_str(&encode(bytes)),
            None => serializer.serialize_none(),
        }
    }

    pub(in crate::snapshot) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<Rc<[u8]>>, D::Error> {
        let Some(text) = Option::<String>::deserialize(deserializer)? else {
            return Ok(None);
        };
        let bytes = decode(&text).ok_or_else(|| {
            serde::de::Error::custom("the file's bytes are not padded standard base64")
        })?;
        Ok(Some(bytes.into()))
    }

    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

    /// `bytes` in base64.
    fn encode(bytes: &[u8]) -> String {
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
    fn decode(text: &str) -> Option<Vec<u8>> {
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

/// A written file's text, shared with the session's file system (`WriteFile.text`).
pub(super) mod shared_text {
    use alloc::rc::Rc;
    use alloc::string::String;

    use serde::{Deserialize, Deserializer, Serializer};

    pub(in crate::snapshot) fn serialize<S: Serializer>(
        text: &Option<Rc<str>>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match text {
            Some(text) => serializer.serialize_str(text),
            None => serializer.serialize_none(),
        }
    }

    pub(in crate::snapshot) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<Rc<str>>, D::Error> {
        Ok(Option::<String>::deserialize(deserializer)?.map(Rc::from))
    }
}

/// A transient error by its errno name, `"EACCES"` or `"EBUSY"`, or `null` when it clears
/// (`SetTransientError.kind`).
pub(super) mod errno {
    use alloc::string::String;

    use serde::{Deserialize, Deserializer, Serializer};

    use crate::vfs::TransientError;

    pub(in crate::snapshot) fn serialize<S: Serializer>(
        kind: &Option<TransientError>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match kind {
            Some(TransientError::PermissionDenied) => serializer.serialize_str("EACCES"),
            Some(TransientError::Busy) => serializer.serialize_str("EBUSY"),
            None => serializer.serialize_none(),
        }
    }

    pub(in crate::snapshot) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<TransientError>, D::Error> {
        match Option::<String>::deserialize(deserializer)?.as_deref() {
            None => Ok(None),
            Some("EACCES") => Ok(Some(TransientError::PermissionDenied)),
            Some("EBUSY") => Ok(Some(TransientError::Busy)),
            Some(_) => Err(serde::de::Error::custom(
                "the transient error must be \"EACCES\", \"EBUSY\" or null",
            )),
        }
    }
}
