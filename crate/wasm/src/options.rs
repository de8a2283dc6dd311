//! Validation of JS arguments: every bad value becomes an error naming the function, the
//! argument or option, and what is allowed.

use context_assembly::tokens::TokenMethod;
use context_assembly::ProfileName;
use js_sys::{Array, Object, Reflect};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use crate::{BindingError, JsResult};

// wasm-bindgen's own string passing copies an ASCII string into memory one character at a
// time in JavaScript (9 ms for a 1 MB file). The engine's TextEncoder writes it straight
// into a buffer we allocate instead (under 1 ms).
#[wasm_bindgen(inline_js = "const encoder = new TextEncoder();
export function utf16Length(value) { return typeof value === 'string' ? value.length : -1; }
export function toNfc(value) { return typeof value === 'string' ? value.normalize('NFC') : value; }
export function encodeInto(value, memory, at, capacity) {
  return encoder.encodeInto(value, new Uint8Array(memory.buffer, at, capacity)).written;
}")]
extern "C" {
    #[wasm_bindgen(js_name = utf16Length)]
    fn utf16_length(value: &JsValue) -> f64;
    #[wasm_bindgen(js_name = encodeInto)]
    fn encode_into(value: &JsValue, memory: &JsValue, at: usize, capacity: usize) -> usize;
    #[wasm_bindgen(js_name = toNfc)]
    fn to_nfc(value: &JsValue) -> JsValue;
}

/// A path argument (or a prompt, whose mentioned paths are expanded), NFC-normalised as
/// the original's `expandPath` does (spec §2.1). The
/// engine's own `String.prototype.normalize` does it, so the wasm module carries no Unicode
/// tables (the core's `nfc` feature is off here).
pub fn nfc_argument(function: &str, name: &str, value: &JsValue) -> JsResult<String> {
    string_argument(function, name, &to_nfc(value))
}

/// A path from an options object (cwd, home, directories), NFC-normalised likewise.
pub fn nfc(path: String) -> String {
    to_nfc(&JsValue::from_str(&path))
        .as_string()
        .unwrap_or(path)
}

/// A string argument, or an error naming it and the type that was given instead.
pub fn string_argument(function: &str, name: &str, value: &JsValue) -> JsResult<String> {
    let units = utf16_length(value);
    if units < 0.0 {
        return Err(BindingError(format!(
            "{function}: argument `{name}` must be a string, got {}",
            type_name(value)
        )));
    }
    // A UTF-16 unit never needs more than three UTF-8 bytes.
    let capacity = units as usize * 3;
    let mut buffer: Vec<u8> = Vec::with_capacity(capacity);
    let at = buffer.as_mut_ptr() as usize;
    let written = encode_into(value, &wasm_bindgen::memory(), at, capacity).min(capacity);
    // SAFETY: `encodeInto` initialised the first `written` bytes of the buffer's capacity
    // (never more than `capacity`), and nothing allocated between taking the pointer and
    // the write, so the view it wrote through was the buffer itself.
    unsafe { buffer.set_len(written) };
    String::from_utf8(buffer)
        .map_err(|_| BindingError(format!("{function}: argument `{name}` is not valid text")))
}

/// The type of a JS value as an error message names it.
pub fn type_name(value: &JsValue) -> String {
    if value.is_null() {
        "null".into()
    } else if Array::is_array(value) {
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
    object: Option<Object>,
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
        if !value.is_object() || Array::is_array(&value) {
            let what = match prefix.strip_suffix('.') {
                None => "options".into(),
                Some(field) => format!("option `{field}`"),
            };
            return Err(BindingError(format!(
                "{function}: {what} must be an object, got {}",
                type_name(&value)
            )));
        }
        let object: Object = value.unchecked_into();
        for key in Object::keys(&object).iter() {
            let key = key.as_string().unwrap_or_default();
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
            object: Some(object),
        })
    }

    /// The value of `key`; `undefined` when absent.
    fn get(&self, key: &str) -> JsValue {
        self.object
            .as_ref()
            .and_then(|object| Reflect::get(object, &JsValue::from_str(key)).ok())
            .unwrap_or(JsValue::UNDEFINED)
    }

    /// The value of `key` as given; `None` when absent.
    pub fn value(&self, key: &str) -> Option<JsValue> {
        Some(self.get(key)).filter(|value| !value.is_undefined())
    }

    fn error(&self, key: &str, expected: &str, got: &str) -> BindingError {
        BindingError(format!(
            "{}: option `{}{key}` must be {expected}, got {got}",
            self.function, self.prefix
        ))
    }

    /// An optional string.
    pub fn string(&self, key: &str) -> JsResult<Option<String>> {
        let value = self.get(key);
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
        let value = self.get(key);
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
