//! Reading typed values out of the tree: each reader takes a value and its path, and
//! names both what it found and what is allowed when the value does not fit.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::json::Json;
use super::path::{Path, Quoted};
use crate::Error;

/// The largest whole number a field takes: JavaScript's `Number.MAX_SAFE_INTEGER`, so that
/// every value survives a round trip through the playground unchanged.
pub(crate) const MAX_WHOLE: i64 = (1 << 53) - 1;

/// An object's members, checked against the keys its place allows.
pub(crate) struct Fields<'j, 'p> {
    entries: &'j [(String, Json)],
    path: &'p Path<'p>,
}

impl<'j, 'p> Fields<'j, 'p> {
    /// The members of `value`, which must be an object with no key outside `allowed`.
    pub(crate) fn new(
        value: &'j Json,
        path: &'p Path<'p>,
        allowed: &[&str],
    ) -> Result<Self, Error> {
        let entries = object(value, path)?;
        if let Some((key, _)) = entries
            .iter()
            .find(|(key, _)| !allowed.contains(&key.as_str()))
        {
            return Err(path
                .key(key)
                .error(format!("unknown field; expected one of {}", list(allowed))));
        }
        Ok(Fields { entries, path })
    }

    /// The value of `key`, if given.
    pub(crate) fn get(&self, key: &str) -> Option<&'j Json> {
        self.entries.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// The error for a bad object here as a whole.
    pub(crate) fn error(&self, reason: impl Into<String>) -> Error {
        self.path.error(reason)
    }

    /// Reads `key` if it is given.
    pub(crate) fn optional<T>(
        &self,
        key: &str,
        read: impl FnOnce(&'j Json, &Path<'_>) -> Result<T, Error>,
    ) -> Result<Option<T>, Error> {
        self.get(key)
            .map(|value| read(value, &self.path.key(key)))
            .transpose()
    }

    /// Reads `key`, or gives `default` when it is absent.
    pub(crate) fn or<T>(
        &self,
        key: &str,
        default: T,
        read: impl FnOnce(&'j Json, &Path<'_>) -> Result<T, Error>,
    ) -> Result<T, Error> {
        Ok(self.optional(key, read)?.unwrap_or(default))
    }

    /// Reads `key`, which must be given.
    pub(crate) fn required<T>(
        &self,
        key: &str,
        read: impl FnOnce(&'j Json, &Path<'_>) -> Result<T, Error>,
    ) -> Result<T, Error> {
        match self.get(key) {
            Some(value) => read(value, &self.path.key(key)),
            None => Err(self.path.key(key).error("required field is missing")),
        }
    }
}

/// `"a", "b", "c"`: the allowed names, as messages list them.
pub(crate) fn list(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|name| format!("{name:?}")).collect();
    quoted.join(", ")
}

/// The error for a value of the wrong type.
pub(crate) fn mismatch(path: &Path<'_>, expected: &str, got: &Json) -> Error {
    path.error(format!("expected {expected}, got {}", got.kind()))
}

/// The members of an object.
pub(crate) fn object<'j>(value: &'j Json, path: &Path<'_>) -> Result<&'j [(String, Json)], Error> {
    match value {
        Json::Object(entries) => Ok(entries),
        other => Err(mismatch(path, "an object", other)),
    }
}

/// The elements of an array.
pub(crate) fn array<'j>(value: &'j Json, path: &Path<'_>) -> Result<&'j [Json], Error> {
    match value {
        Json::Array(items) => Ok(items),
        other => Err(mismatch(path, "an array", other)),
    }
}

/// Each element of an array, read by `item`.
pub(crate) fn each<'j, T>(
    value: &'j Json,
    path: &Path<'_>,
    mut item: impl FnMut(&'j Json, &Path<'_>) -> Result<T, Error>,
) -> Result<Vec<T>, Error> {
    // A plain loop: `collect` into a `Result` would instantiate an adapter per element type.
    let elements = array(value, path)?;
    let mut out = Vec::with_capacity(elements.len());
    for (i, element) in elements.iter().enumerate() {
        out.push(item(element, &path.index(i))?);
    }
    Ok(out)
}

/// A string.
pub(crate) fn string(value: &Json, path: &Path<'_>) -> Result<String, Error> {
    match value {
        Json::String(s) => Ok(s.clone()),
        other => Err(mismatch(path, "a string", other)),
    }
}

/// A string that names something (a path, a tool, an id): it cannot be empty.
pub(crate) fn name(value: &Json, path: &Path<'_>) -> Result<String, Error> {
    match value {
        Json::String(s) if s.is_empty() => Err(path.error("expected a non-empty string, got \"\"")),
        Json::String(s) => Ok(s.clone()),
        other => Err(mismatch(path, "a non-empty string", other)),
    }
}

/// An absolute path: it starts with `/`.
pub(crate) fn absolute(value: &Json, path: &Path<'_>) -> Result<String, Error> {
    match value {
        Json::String(s) if s.starts_with('/') => Ok(s.clone()),
        Json::String(s) => Err(path.error(format!(
            "expected an absolute path (starting with \"/\"), got {}",
            Quoted(s)
        ))),
        other => Err(mismatch(
            path,
            "an absolute path (a string starting with \"/\")",
            other,
        )),
    }
}

/// A string, or `null` for none.
pub(crate) fn string_or_null(value: &Json, path: &Path<'_>) -> Result<Option<String>, Error> {
    match value {
        Json::Null => Ok(None),
        Json::String(s) => Ok(Some(s.clone())),
        other => Err(mismatch(path, "a string or null", other)),
    }
}

/// An array of strings.
pub(crate) fn strings(value: &Json, path: &Path<'_>) -> Result<Vec<String>, Error> {
    each(value, path, string)
}

/// An array of names (non-empty strings).
pub(crate) fn names(value: &Json, path: &Path<'_>) -> Result<Vec<String>, Error> {
    each(value, path, name)
}

/// `true` or `false`.
pub(crate) fn boolean(value: &Json, path: &Path<'_>) -> Result<bool, Error> {
    match value {
        Json::Bool(b) => Ok(*b),
        other => Err(mismatch(path, "true or false", other)),
    }
}

/// Any JSON object, kept as compact JSON with its keys in the order written.
pub(crate) fn compact_object(value: &Json, path: &Path<'_>) -> Result<String, Error> {
    object(value, path)?;
    Ok(value.to_compact())
}

/// A whole number from `min` to `max`. `1.0` and `1e3` are refused: JSON has no integer
/// type, and accepting them would make `1.5` the only odd one out.
pub(crate) fn whole(min: i64, max: i64) -> impl Fn(&Json, &Path<'_>) -> Result<i64, Error> {
    move |value, path| {
        let fail = |got: &dyn core::fmt::Display, hint: &str| {
            path.error(format!(
                "expected a whole number from {min} to {max}, got {got}{hint}"
            ))
        };
        match value {
            Json::Number(n) => match n.as_i64() {
                Some(i) if (min..=max).contains(&i) => Ok(i),
                None if n.as_f64().is_some_and(is_integral) => Err(fail(
                    n,
                    " (write whole numbers without a decimal point or exponent)",
                )),
                _ => Err(fail(n, "")),
            },
            other => Err(fail(&other.kind(), "")),
        }
    }
}

/// `1.0`, `1e3`: a float with no fractional part. Past i64 the cast saturates and the
/// test fails, which only costs those huge numbers the hint.
fn is_integral(f: f64) -> bool {
    #[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
    let back = (f as i64) as f64;
    back == f
}

/// A whole number from `min` to `max` (both at least 0).
pub(crate) fn natural(min: u64, max: u64) -> impl Fn(&Json, &Path<'_>) -> Result<u64, Error> {
    let signed = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
    let read = whole(signed(min), signed(max));
    move |value, path| read(value, path).map(i64::unsigned_abs)
}

/// One of the `options`' names; `what` names the kind of value in the message
/// (`unknown permission mode "fast": expected one of …`).
pub(crate) fn one_of<'o, T: Copy>(
    what: &'o str,
    options: &'o [(&'o str, T)],
) -> impl Fn(&Json, &Path<'_>) -> Result<T, Error> + 'o {
    move |value, path| {
        let names = || {
            let names: Vec<&str> = options.iter().map(|(name, _)| *name).collect();
            list(&names)
        };
        match value {
            Json::String(s) => options
                .iter()
                .find(|(name, _)| name == s)
                .map(|(_, v)| *v)
                .ok_or_else(|| {
                    path.error(format!(
                        "unknown {what} {}: expected one of {}",
                        Quoted(s),
                        names()
                    ))
                }),
            other => Err(mismatch(path, &format!("one of {}", names()), other)),
        }
    }
}
