//! Arguments read from JS values: every bad value becomes a [`Failure`] that names the
//! argument or option and says what is allowed (the function's name is added by
//! [`crate::export`]).

use context_assembly::scenario::StepsDone;
use context_assembly::vfs::{Content, TransientError, MAX_FILE_BYTES};
use wasm_bindgen::{JsCast, JsValue};

use crate::access::{self, MAX_TEXT_UNITS};
use crate::Failure;

/// The largest integer a JS number holds exactly: times, offsets and limits stay within it.
pub const MAX_SAFE: f64 = 9_007_199_254_740_992.0;
/// [`MAX_SAFE`] as a whole number, for bounds given to [`Options::integer`].
pub const MAX_SAFE_WHOLE: u64 = 1 << 53;

/// A string argument, or what was given instead: another type, text longer than
/// [`MAX_TEXT_UNITS`], or a lone surrogate (UTF-8 cannot hold one, and replacing it would
/// make `'\uD800'` and `'\uDC00'` the same path).
pub fn text(name: &str, value: &JsValue) -> Result<String, Failure> {
    let Some(units) = access::string_length(value) else {
        return Err(Failure::new(format!(
            "argument `{name}` must be a string, got {}",
            type_name(value)
        )));
    };
    if units > MAX_TEXT_UNITS {
        return Err(Failure::new(format!(
            "argument `{name}` is {units} UTF-16 units long; the limit is {MAX_TEXT_UNITS}"
        )));
    }
    if let Some(at) = access::lone_surrogate_at(value) {
        return Err(Failure::new(format!(
            "argument `{name}` is not well-formed text: a lone surrogate at UTF-16 offset {at}"
        )));
    }
    String::from_utf8(access::utf8_of(value, units))
        .map_err(|_| Failure::new(format!("argument `{name}` is not valid text")))
}

/// An optional string argument: `undefined` and `null` are `None`.
pub fn optional_text(name: &str, value: &JsValue) -> Result<Option<String>, Failure> {
    match value.is_undefined() || value.is_null() {
        true => Ok(None),
        false => text(name, value).map(Some),
    }
}

/// A JSON argument: a string as given, an object through `JSON.stringify` (whose getters,
/// traps and `toJSON` methods may throw: that is an error naming the argument).
pub fn json(name: &str, value: &JsValue) -> Result<String, Failure> {
    if value.is_string() {
        return text(name, value);
    }
    if value.is_object() && !value.is_function() {
        return access::json_text(&format!("argument `{name}`"), value)?.ok_or_else(|| {
            Failure::new(format!("argument `{name}` cannot be serialised to JSON"))
        });
    }
    Err(Failure::new(format!(
        "argument `{name}` must be a JSON string or an object, got {}",
        type_name(value)
    )))
}

/// An array of strings. It crosses as JSON (through [`json`]) and is read back with
/// `JSON.parse`, so a hostile array (a proxy, a throwing getter) is an error naming the
/// argument, never a trap, and what is read is a plain array; each item is checked as any
/// text argument is (`paths[3]`).
pub fn string_list(name: &str, value: &JsValue) -> Result<Vec<String>, Failure> {
    let not_strings = |got: String| {
        Failure::new(format!(
            "argument `{name}` must be an array of strings, got {got}"
        ))
    };
    if !js_sys::Array::is_array(value) {
        return Err(not_strings(type_name(value)));
    }
    let plain = js_sys::JSON::parse(&json(name, value)?)
        .map_err(|_| Failure::new(format!("argument `{name}` cannot be read back from JSON")))?;
    let items: js_sys::Array = plain.unchecked_into();
    items
        .iter()
        .enumerate()
        .map(|(index, item)| match item.is_string() {
            true => text(&format!("{name}[{index}]"), &item),
            false => Err(not_strings(format!(
                "{} at index {index}",
                type_name(&item)
            ))),
        })
        .collect()
}

/// An optional JSON argument: `undefined` is the empty object.
pub fn json_or_empty(name: &str, value: &JsValue) -> Result<String, Failure> {
    match value.is_undefined() {
        true => Ok("{}".into()),
        false => json(name, value),
    }
}

/// A logical time: a whole number of milliseconds from 0 to 2^53.
pub fn time(name: &str, value: &JsValue) -> Result<u64, Failure> {
    match value.as_f64() {
        // Exact: a whole number up to 2^53 converts without loss.
        Some(ms) if is_integer_in(ms, 0.0, MAX_SAFE) => Ok(ms as u64),
        _ => Err(Failure::new(format!(
            "argument `{name}` must be a time in milliseconds, an integer from 0 to \
             9007199254740992 (2^53), got {}",
            describe(value)
        ))),
    }
}

/// A file's content: a string, or the bytes of a `Uint8Array` (at most [`MAX_FILE_BYTES`]).
pub fn content(value: &JsValue) -> Result<Content, Failure> {
    if let Some(bytes) = access::uint8_bytes("argument `content`", value, MAX_FILE_BYTES)? {
        return Ok(Content::from(bytes));
    }
    if value.is_string() {
        return text("content", value).map(Content::from);
    }
    Err(Failure::new(format!(
        "argument `content` must be a string or a Uint8Array, got {}",
        type_name(value)
    )))
}

/// A transient error's kind, or `null` to clear it.
pub fn transient_error(value: &JsValue) -> Result<Option<TransientError>, Failure> {
    match value.as_string().as_deref() {
        _ if value.is_null() => Ok(None),
        Some("EACCES") => Ok(Some(TransientError::PermissionDenied)),
        Some("EBUSY") => Ok(Some(TransientError::Busy)),
        _ => Err(Failure::new(format!(
            "argument `kind` must be \"EACCES\", \"EBUSY\" or null (to clear), got {}",
            value
                .as_string()
                .map_or_else(|| type_name(value), |text| format!("{text:?}"))
        ))),
    }
}

/// A string index: a whole number of UTF-16 units from 0 to 2^53.
pub fn offset(name: &str, value: &JsValue) -> Result<usize, Failure> {
    optional_count(name, "a string index, an integer from 0 to 2^53", value)?
        .ok_or_else(|| Failure::new(format!("argument `{name}` is required: a string index")))
}

/// A boolean argument; `undefined` is `false`.
pub fn flag(name: &str, value: &JsValue) -> Result<bool, Failure> {
    match value.as_bool() {
        Some(on) => Ok(on),
        None if value.is_undefined() => Ok(false),
        None => Err(Failure::new(format!(
            "argument `{name}` must be true or false, got {}",
            describe(value)
        ))),
    }
}

/// An optional whole-number argument from 0 to 2^53; `undefined` and `null` are `None`.
pub fn optional_count(name: &str, what: &str, value: &JsValue) -> Result<Option<usize>, Failure> {
    match value.as_f64() {
        None if value.is_undefined() || value.is_null() => Ok(None),
        Some(n) if is_integer_in(n, 0.0, MAX_SAFE) => Ok(Some(n as usize)),
        _ => Err(Failure::new(format!(
            "argument `{name}` must be {what}, got {}",
            describe(value)
        ))),
    }
}

/// The type of a JS value as an error message names it.
pub fn type_name(value: &JsValue) -> String {
    if value.is_null() {
        "null".into()
    } else if access::is_array("", value).unwrap_or(false) {
        "an array".into()
    } else {
        value.js_typeof().as_string().unwrap_or_default()
    }
}

/// Whether `value` is a whole number from `min` to `max`.
fn is_integer_in(value: f64, min: f64, max: f64) -> bool {
    value.is_finite() && value.trunc() == value && (min..=max).contains(&value)
}

/// A value as an error message shows it: a number as JS prints it (`NaN`, `1e+21`, `0.1`:
/// JS's own spelling, which also keeps Rust's float formatting out of the module), anything
/// else by type.
fn describe(value: &JsValue) -> String {
    match value.as_f64() {
        Some(_) => value
            .unchecked_ref::<js_sys::Number>()
            .to_string_with_radix(10)
            .map(String::from)
            .unwrap_or_default(),
        None => type_name(value),
    }
}

/// An options object whose keys have been checked against the allowed ones; `undefined`
/// and `null` mean no options.
pub struct Options(Option<JsValue>);

impl Options {
    /// Checks that `value` is an object with no key outside `allowed`.
    pub fn parse(value: &JsValue, allowed: &[&str]) -> Result<Self, Failure> {
        if value.is_undefined() || value.is_null() {
            return Ok(Options(None));
        }
        if !value.is_object() || access::is_array("options", value)? {
            return Err(Failure::new(format!(
                "options must be an object, got {}",
                type_name(value)
            )));
        }
        for key in access::own_keys("options", value)? {
            if !allowed.contains(&key.as_str()) {
                let allowed: Vec<String> = allowed.iter().map(|k| format!("\"{k}\"")).collect();
                return Err(Failure::new(format!(
                    "unknown option \"{key}\": allowed options are {}",
                    allowed.join(", ")
                )));
            }
        }
        Ok(Options(Some(value.clone())))
    }

    /// The value of `key`; `None` when absent. A getter or trap that throws is an error,
    /// never the default.
    pub fn value(&self, key: &str) -> Result<Option<JsValue>, Failure> {
        let Some(object) = &self.0 else {
            return Ok(None);
        };
        let value = access::field(&format!("option `{key}`"), object, key)?;
        Ok(Some(value).filter(|value| !value.is_undefined()))
    }

    fn invalid(key: &str, expected: &str, got: &str) -> Failure {
        Failure::new(format!("option `{key}` must be {expected}, got {got}"))
    }

    /// An optional boolean, `false` when absent.
    pub fn flag(&self, key: &str) -> Result<bool, Failure> {
        match self.value(key)? {
            None => Ok(false),
            Some(value) => value
                .as_bool()
                .ok_or_else(|| Self::invalid(key, "a boolean", &type_name(&value))),
        }
    }

    /// An optional string.
    pub fn string(&self, key: &str) -> Result<Option<String>, Failure> {
        self.value(key)?
            .map(|value| {
                value
                    .as_string()
                    .ok_or_else(|| Self::invalid(key, "a string", &type_name(&value)))
            })
            .transpose()
    }

    /// A string that must be given; `what` says what it is, for the error.
    pub fn required_string(&self, key: &str, what: &str) -> Result<String, Failure> {
        self.string(key)?
            .ok_or_else(|| Failure::new(format!("option `{key}` is required: {what}")))
    }

    /// An optional whole number from `min` to `max`. Whole numbers up to 2^53 convert
    /// exactly.
    pub fn integer(&self, key: &str, min: u64, max: u64) -> Result<Option<u64>, Failure> {
        let Some(value) = self.value(key)? else {
            return Ok(None);
        };
        // The bounds are whole numbers, and printed as such: a float's formatting would
        // bring Rust's float printer into the module for nothing.
        match value.as_f64() {
            Some(number) if is_integer_in(number, min as f64, max as f64) => {
                Ok(Some(number as u64))
            }
            _ => Err(Self::invalid(
                key,
                &format!("an integer from {min} to {max}"),
                &describe(&value),
            )),
        }
    }

    /// An optional name the core parses (a profile, a token method): `None` when absent.
    pub fn optional_name<T>(&self, key: &str) -> Result<Option<T>, Failure>
    where
        T: core::str::FromStr<Err = context_assembly::Error>,
    {
        match self.string(key)? {
            None => Ok(None),
            Some(name) => Ok(Some(name.parse()?)),
        }
    }

    /// An optional name the core parses (a profile, a token method): its default when absent.
    pub fn name<T>(&self, key: &str) -> Result<T, Failure>
    where
        T: core::str::FromStr<Err = context_assembly::Error> + Default,
    {
        match self.string(key)? {
            None => Ok(T::default()),
            Some(name) => Ok(name.parse()?),
        }
    }
}

/// The host's progress callback, `options.onProgress`, when `options` is an object that has
/// one: a function, called with `(done, total)` after every step.
pub fn progress_callback(options: &JsValue) -> Result<Option<js_sys::Function>, Failure> {
    if !options.is_object() {
        return Ok(None);
    }
    let callback = access::field("option `onProgress`", options, "onProgress")?;
    match callback {
        value if value.is_undefined() => Ok(None),
        value if value.is_function() => Ok(Some(value.into())),
        value => Err(Failure::new(format!(
            "option `onProgress` must be a function, called with (done, total), got {}",
            type_name(&value)
        ))),
    }
}

/// Calls the host's progress callback with `done` and `total` counted in `unit`s (`step`,
/// `byte`); one that throws stops the call. What it threw is not read (reading it could run
/// more of the caller's code).
pub fn report_progress(
    callback: Option<&js_sys::Function>,
    done: StepsDone,
    unit: &str,
) -> Result<(), context_assembly::Error> {
    let Some(callback) = callback else {
        return Ok(());
    };
    let (steps, total) = (
        JsValue::from(done.done as f64),
        JsValue::from(done.total as f64),
    );
    callback
        .call2(&JsValue::UNDEFINED, &steps, &total)
        .map(drop)
        .map_err(|_| context_assembly::Error::InvalidConfig {
            field: "options.onProgress".into(),
            reason: format!(
                "threw at {unit} {} of {}: the call was stopped",
                done.done, done.total
            ),
        })
}
