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
export function encodeInto(value, memory, at, capacity) {
  return encoder.encodeInto(value, new Uint8Array(memory.buffer, at, capacity)).written;
}")]
extern "C" {
    #[wasm_bindgen(js_name = utf16Length)]
    fn utf16_length(value: &JsValue) -> f64;
    #[wasm_bindgen(js_name = encodeInto)]
    fn encode_into(value: &JsValue, memory: &JsValue, at: usize, capacity: usize) -> usize;
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

fn type_name(value: &JsValue) -> String {
    if value.is_null() {
        "null".into()
    } else if Array::is_array(value) {
        "an array".into()
    } else {
        value.js_typeof().as_string().unwrap_or_default()
    }
}

/// An options object whose keys have been checked against the allowed ones.
struct OptionsObject<'a> {
    function: &'a str,
    object: Option<Object>,
}

impl<'a> OptionsObject<'a> {
    fn parse(function: &'a str, value: Option<JsValue>, allowed: &[&str]) -> JsResult<Self> {
        let value = match value {
            Some(value) if !value.is_undefined() && !value.is_null() => value,
            _ => {
                return Ok(OptionsObject {
                    function,
                    object: None,
                })
            }
        };
        if !value.is_object() || Array::is_array(&value) {
            return Err(BindingError(format!(
                "{function}: options must be an object, got {}",
                type_name(&value)
            )));
        }
        let object: Object = value.unchecked_into();
        for key in Object::keys(&object).iter() {
            let key = key.as_string().unwrap_or_default();
            if !allowed.contains(&key.as_str()) {
                let allowed: Vec<String> = allowed.iter().map(|k| format!("\"{k}\"")).collect();
                return Err(BindingError(format!(
                    "{function}: unknown option \"{key}\": allowed options are {}",
                    allowed.join(", ")
                )));
            }
        }
        Ok(OptionsObject {
            function,
            object: Some(object),
        })
    }

    fn string(&self, key: &str) -> JsResult<Option<String>> {
        let Some(object) = &self.object else {
            return Ok(None);
        };
        let value = Reflect::get(object, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED);
        if value.is_undefined() {
            return Ok(None);
        }
        value.as_string().map(Some).ok_or_else(|| {
            BindingError(format!(
                "{}: option `{key}` must be a string, got {}",
                self.function,
                type_name(&value)
            ))
        })
    }

    fn profile(&self) -> JsResult<ProfileName> {
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
