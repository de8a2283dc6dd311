//! Validation of JS arguments: every bad value becomes an error naming the function, the
//! argument or option, and what is allowed.

use context_assembly::tokens::TokenMethod;
use context_assembly::ProfileName;
use js_sys::{Array, Object, Reflect, Uint8Array};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use crate::{BindingError, JsResult};

// wasm-bindgen's own string passing copies an ASCII string into memory one character at
// a time in JavaScript (9 ms for a 1 MB file); the engine's TextEncoder does it natively.
#[wasm_bindgen(inline_js = "const encoder = new TextEncoder();
export function utf8Bytes(value) { return typeof value === 'string' ? encoder.encode(value) : undefined; }")]
extern "C" {
    #[wasm_bindgen(js_name = utf8Bytes)]
    fn utf8_bytes(value: &JsValue) -> Option<Uint8Array>;
}

/// A string argument, or an error naming it and the type that was given instead.
pub fn string_argument(function: &str, name: &str, value: &JsValue) -> JsResult<String> {
    utf8_bytes(value)
        .and_then(|bytes| String::from_utf8(bytes.to_vec()).ok())
        .ok_or_else(|| {
            BindingError(format!(
                "{function}: argument `{name}` must be a string, got {}",
                type_name(value)
            ))
        })
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
