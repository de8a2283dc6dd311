//! A JSON tree that keeps object keys in the order written, and its compact form.
//!
//! `serde_json::Value` sorts object keys unless serde_json's `preserve_order` feature (and
//! indexmap with it) is on; a scenario's files, switches and tool inputs must keep the
//! author's order, and duplicate keys must be reported rather than silently merged. This
//! tree is filled by serde_json's own parser, so syntax errors, positions and the nesting
//! limit are serde_json's.

use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::{self, Write as _};

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Number;

use super::path::Path;
use super::MAX_STRING_BYTES;
use crate::Error;

/// A parsed JSON value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Json {
    Null,
    Bool(bool),
    Number(Number),
    String(String),
    Array(Vec<Json>),
    /// Entries in the order written, duplicates included (see [`check_tree`]).
    Object(Vec<(String, Json)>),
}

impl Json {
    /// The value's type, as error messages name it.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "boolean",
            Json::Number(_) => "number",
            Json::String(_) => "string",
            Json::Array(_) => "array",
            Json::Object(_) => "object",
        }
    }

    /// The value of `key` in an object (its first entry; duplicates are reported by
    /// [`check_tree`]).
    pub(crate) fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The text of a string value.
    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    /// Compact JSON, byte-identical to `serde_json::to_string` of the same value with keys
    /// in this order.
    pub(crate) fn to_compact(&self) -> String {
        let mut out = String::new();
        self.write_compact(&mut out);
        out
    }

    fn write_compact(&self, out: &mut String) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Number(n) => {
                let _ = write!(out, "{n}");
            }
            Json::String(s) => crate::js::write_json_string(s, out),
            Json::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write_compact(out);
                }
                out.push(']');
            }
            Json::Object(entries) => {
                out.push('{');
                for (i, (key, value)) in entries.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    crate::js::write_json_string(key, out);
                    out.push(':');
                    value.write_compact(out);
                }
                out.push('}');
            }
        }
    }
}

/// Parses JSON text into the tree; the error is serde_json's, with its line and column.
pub(crate) fn parse_json(text: &str) -> Result<Json, String> {
    serde_json::from_str(text).map_err(|error| format!("{error}"))
}

impl serde::Serialize for Json {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        match self {
            Json::Null => serializer.serialize_unit(),
            Json::Bool(b) => serializer.serialize_bool(*b),
            Json::Number(n) => n.serialize(serializer),
            Json::String(s) => serializer.serialize_str(s),
            Json::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Json::Object(entries) => {
                let mut map = serializer.serialize_map(Some(entries.len()))?;
                for (key, value) in entries {
                    map.serialize_entry(key, value)?;
                }
                map.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_bool<E>(self, b: bool) -> Result<Json, E> {
        Ok(Json::Bool(b))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Json, E> {
        Ok(Json::Number(n.into()))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Json, E> {
        Ok(Json::Number(n.into()))
    }

    fn visit_f64<E: de::Error>(self, n: f64) -> Result<Json, E> {
        Number::from_f64(n)
            .map(Json::Number)
            .ok_or_else(|| E::custom("number out of range"))
    }

    fn visit_str<E>(self, s: &str) -> Result<Json, E> {
        Ok(Json::String(s.into()))
    }

    fn visit_string<E>(self, s: String) -> Result<Json, E> {
        Ok(Json::String(s))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value()?;
            entries.push((key, value));
        }
        Ok(Json::Object(entries))
    }
}

/// Checks what holds for every value of the document, whatever its place: no object has a
/// key twice, no string or key is longer than [`MAX_STRING_BYTES`]. The first problem in
/// document order is reported.
pub(crate) fn check_tree(value: &Json, path: &Path<'_>) -> Result<(), Error> {
    match value {
        Json::String(s) => check_length(s, "string", path),
        Json::Array(items) => items
            .iter()
            .enumerate()
            .try_for_each(|(i, item)| check_tree(item, &path.index(i))),
        Json::Object(entries) => {
            let mut seen = BTreeSet::new();
            for (key, item) in entries {
                let here = path.key(key);
                check_length(key, "key", &here)?;
                if !seen.insert(key.as_str()) {
                    return Err(here.error("duplicate key: a key may appear once in an object"));
                }
                check_tree(item, &here)?;
            }
            Ok(())
        }
        Json::Null | Json::Bool(_) | Json::Number(_) => Ok(()),
    }
}

fn check_length(s: &str, what: &str, path: &Path<'_>) -> Result<(), Error> {
    if s.len() > MAX_STRING_BYTES {
        return Err(path.error(format!(
            "the {what} is {} bytes; at most {MAX_STRING_BYTES} (8 MiB) are allowed",
            s.len()
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    fn parse(text: &str) -> Json {
        serde_json::from_str(text).expect("valid JSON")
    }

    #[test]
    fn objects_keep_the_written_order_and_their_duplicates() {
        let Json::Object(entries) = parse(r#"{"b":1,"a":2,"b":3}"#) else {
            panic!("an object")
        };
        let keys: Vec<&str> = entries.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["b", "a", "b"]);
    }

    #[test]
    fn compact_form_matches_serde_json_with_sorted_keys() {
        let text = "{ \"a\": [1, -2, 1.5, 1.0, 1e300, true, null], \"b\": \"q\\\"\\\\\\n\\u0001\\u007f é 😀\" }";
        let ours = parse(text).to_compact();
        let theirs =
            serde_json::to_string(&serde_json::from_str::<serde_json::Value>(text).unwrap())
                .unwrap();
        assert_eq!(ours, theirs);
        assert_eq!(parse(r#"{"z":1,"a":{}}"#).to_compact(), r#"{"z":1,"a":{}}"#);
    }

    #[test]
    fn a_duplicate_key_is_named_by_its_path() {
        let err = check_tree(
            &parse(r#"{"steps":[{"kind":"user","kind":"user"}]}"#),
            &Path::Root,
        );
        assert_eq!(
            err.unwrap_err().to_string(),
            "steps[0].kind: duplicate key: a key may appear once in an object"
        );
    }
}
