//! Validation of JS arguments: every bad value becomes an error naming the function, the
//! argument or option, and what is allowed.

use context_assembly::tokens::TokenMethod;
use context_assembly::ProfileName;
use wasm_bindgen::JsValue;

use crate::access::{self, MAX_TEXT_UNITS};
use crate::{BindingError, JsResult};

/// A string argument, or an error naming it and saying what was given instead: another
/// type, text longer than [`MAX_TEXT_UNITS`], or a lone surrogate (UTF-8 cannot hold one,
/// and replacing it would make `'\uD800'` and `'\uDC00'` the same path).
pub fn string_argument(function: &str, name: &str, value: &JsValue) -> JsResult<String> {
    let Some(units) = access::string_length(value) else {
        return Err(BindingError(format!(
            "{function}: argument `{name}` must be a string, got {}",
            type_name(value)
        )));
    };
    if units > MAX_TEXT_UNITS {
        return Err(BindingError(format!(
            "{function}: argument `{name}` is {units} UTF-16 units long; the limit is \
             {MAX_TEXT_UNITS}"
        )));
    }
    if let Some(at) = access::lone_surrogate_at(value) {
        return Err(BindingError(format!(
            "{function}: argument `{name}` is not well-formed text: a lone surrogate at UTF-16 \
             offset {at}"
        )));
    }
    String::from_utf8(access::utf8_of(value, units))
        .map_err(|_| BindingError(format!("{function}: argument `{name}` is not valid text")))
}

/// The type of a JS value as an error message names it.
pub fn type_name(value: &JsValue) -> String {
    if value.is_null() {
        "null".into()
    } else if access::is_array("", "", value).unwrap_or(false) {
        "an array".into()
    } else {
        value.js_typeof().as_string().unwrap_or_default()
    }
}

/// The largest integer a JS number holds exactly: times, offsets and limits stay within it.
pub const MAX_SAFE: f64 = 9_007_199_254_740_992.0;

/// Whether `value` is a whole number from `min` to `max`.
pub fn is_integer_in(value: f64, min: f64, max: f64) -> bool {
    value.is_finite() && value.trunc() == value && (min..=max).contains(&value)
}

/// A value as an error message shows it: a number as JS prints it, anything else by type.
pub fn describe(value: &JsValue) -> String {
    match value.as_f64() {
        Some(number) if number.is_nan() => "NaN".into(),
        Some(number) if number.is_infinite() => {
            if number > 0.0 {
                "Infinity".into()
            } else {
                "-Infinity".into()
            }
        }
        Some(number) => format!("{number}"),
        None => type_name(value),
    }
}

/// An options object whose keys have been checked against the allowed ones. A nested
/// object (`config`, `config.mcpResources[2]`) carries its place as a prefix, so an error
/// names the field in full.
pub struct OptionsObject<'a> {
    function: &'a str,
    prefix: String,
    object: Option<JsValue>,
}

impl<'a> OptionsObject<'a> {
    /// The options argument of `function`; `undefined` and `null` mean no options.
    pub fn parse(function: &'a str, value: Option<JsValue>, allowed: &[&str]) -> JsResult<Self> {
        match value {
            Some(value) if !value.is_undefined() && !value.is_null() => {
                Self::checked(function, String::new(), value, allowed)
            }
            _ => Ok(OptionsObject {
                function,
                prefix: String::new(),
                object: None,
            }),
        }
    }

    fn checked(
        function: &'a str,
        prefix: String,
        value: JsValue,
        allowed: &[&str],
    ) -> JsResult<Self> {
        let what = match prefix.strip_suffix('.') {
            None => "options".into(),
            Some(field) => format!("option `{field}`"),
        };
        if !value.is_object() || access::is_array(function, &what, &value)? {
            return Err(BindingError(format!(
                "{function}: {what} must be an object, got {}",
                type_name(&value)
            )));
        }
        for key in access::own_keys(function, &what, &value)? {
            if !allowed.contains(&key.as_str()) {
                let allowed: Vec<String> = allowed.iter().map(|k| format!("\"{k}\"")).collect();
                return Err(BindingError(format!(
                    "{function}: unknown option \"{prefix}{key}\": allowed options are {}",
                    allowed.join(", ")
                )));
            }
        }
        Ok(OptionsObject {
            function,
            prefix,
            object: Some(value),
        })
    }

    /// The value of `key`; `undefined` when absent. A getter or trap that throws is an
    /// error, never the default.
    fn get(&self, key: &str) -> JsResult<JsValue> {
        match &self.object {
            None => Ok(JsValue::UNDEFINED),
            Some(object) => {
                let what = format!("option `{}{key}`", self.prefix);
                access::field(self.function, &what, object, key)
            }
        }
    }

    /// The value of `key` as given; `None` when absent.
    pub fn value(&self, key: &str) -> JsResult<Option<JsValue>> {
        Ok(Some(self.get(key)?).filter(|value| !value.is_undefined()))
    }

    fn error(&self, key: &str, expected: &str, got: &str) -> BindingError {
        BindingError(format!(
            "{}: option `{}{key}` must be {expected}, got {got}",
            self.function, self.prefix
        ))
    }

    /// An optional string.
    pub fn string(&self, key: &str) -> JsResult<Option<String>> {
        let value = self.get(key)?;
        if value.is_undefined() {
            return Ok(None);
        }
        value
            .as_string()
            .map(Some)
            .ok_or_else(|| self.error(key, "a string", &type_name(&value)))
    }

    /// A string that must be given; `what` says what it is, for the error.
    pub fn required_string(&self, key: &str, what: &str) -> JsResult<String> {
        self.string(key)?.ok_or_else(|| {
            BindingError(format!(
                "{}: option `{}{key}` is required: {what}",
                self.function, self.prefix
            ))
        })
    }

    /// An optional whole number from `min` to `max`.
    pub fn integer(&self, key: &str, min: f64, max: f64) -> JsResult<Option<f64>> {
        let value = self.get(key)?;
        if value.is_undefined() {
            return Ok(None);
        }
        match value.as_f64() {
            Some(number) if is_integer_in(number, min, max) => Ok(Some(number)),
            _ => Err(self.error(
                key,
                &format!("an integer from {min} to {max}"),
                &describe(&value),
            )),
        }
    }

    /// The `profile` option; `recommended` when absent.
    pub fn profile(&self) -> JsResult<ProfileName> {
        match self.string("profile")? {
            None => Ok(ProfileName::Recommended),
            Some(name) => name.parse().map_err(|error: context_assembly::Error| {
                BindingError(format!("{}: {error}", self.function))
            }),
        }
    }
}

/// Options that choose a profile: those of `extractMentions`, `diffSnippet` and
/// `diffSnippetReport`.
pub struct ProfileOptions {
    pub profile: ProfileName,
}

impl ProfileOptions {
    pub fn parse(function: &str, value: Option<JsValue>) -> JsResult<Self> {
        let options = OptionsObject::parse(function, value, &["profile"])?;
        Ok(ProfileOptions {
            profile: options.profile()?,
        })
    }
}

/// Options of `estimateTokens`.
pub struct TokenOptions {
    pub method: TokenMethod,
    pub ext: Option<String>,
}

impl TokenOptions {
    pub fn parse(function: &str, value: Option<JsValue>) -> JsResult<Self> {
        let options = OptionsObject::parse(function, value, &["method", "ext"])?;
        let method = match options.string("method")? {
            None => TokenMethod::Calibrated,
            Some(name) => name.parse().map_err(|error: context_assembly::Error| {
                BindingError(format!("{function}: {error}"))
            })?,
        };
        Ok(TokenOptions {
            method,
            ext: options.string("ext")?,
        })
    }
}
