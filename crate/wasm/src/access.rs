//! Reading JS values that may be hostile.
//!
//! Any look at a JS value that can run the caller's code (a getter, a `Proxy` trap, a
//! `toJSON` method, `Array.isArray` on a revoked proxy) goes through a function declared
//! `catch` here, so a throw comes back as an `Err` and becomes an `Error` naming what was
//! being read. Were it to unwind through the Rust frames instead, the exported method would
//! never return, and wasm-bindgen's borrow of a `Session` would stay taken for ever: every
//! later call, `free()` included, would fail with "recursive use of an object" (F2).
//!
//! The JS side captures the built-ins it relies on when the module loads, so code that
//! replaces `Object.keys` or a typed array's `length` getter later cannot change what the
//! engine sees. Typed arrays are measured by their real byte length (the internal slot, not
//! an overridable `length`), which is what keeps a lying subclass from making the engine read
//! past its bytes (F1).

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use crate::Failure;

#[wasm_bindgen(module = "/src/access.js")]
extern "C" {
    #[wasm_bindgen(catch, js_name = ownKeys)]
    fn own_keys_js(object: &JsValue) -> Result<Vec<JsValue>, JsValue>;
    #[wasm_bindgen(catch, js_name = field)]
    fn field_js(object: &JsValue, key: &str) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(catch, js_name = isArray)]
    fn is_array_js(value: &JsValue) -> Result<bool, JsValue>;
    #[wasm_bindgen(catch, js_name = jsonText)]
    fn json_text_js(value: &JsValue) -> Result<Option<String>, JsValue>;
    #[wasm_bindgen(catch, js_name = uint8ByteLength)]
    fn uint8_byte_length_js(value: &JsValue) -> Result<f64, JsValue>;
    #[wasm_bindgen(catch, js_name = copyUint8)]
    fn copy_uint8_js(
        value: &JsValue,
        memory: &JsValue,
        at: usize,
        length: usize,
    ) -> Result<(), JsValue>;
    #[wasm_bindgen(js_name = stringLength)]
    fn string_length_js(value: &JsValue) -> f64;
    #[wasm_bindgen(js_name = loneSurrogateAt)]
    fn lone_surrogate_at_js(value: &JsValue) -> f64;
    #[wasm_bindgen(js_name = toNfc)]
    fn str_to_nfc_js(value: &str) -> String;
    #[wasm_bindgen(js_name = encodeInto)]
    fn encode_into_js(value: &JsValue, memory: &JsValue, at: usize, capacity: usize) -> usize;
    #[wasm_bindgen(js_name = thrownMessage)]
    fn thrown_message_js(thrown: &JsValue) -> String;
}

/// The longest string argument, in UTF-16 units: 32 Mi units, up to 96 MiB of UTF-8. Longer
/// text is refused before any of it is copied, so one argument cannot exhaust the module's
/// memory (and trap it).
pub const MAX_TEXT_UNITS: usize = 32 * 1024 * 1024;

/// What reading `what` threw, as the message of the `Error` the caller gets.
fn threw(what: &str, thrown: &JsValue) -> Failure {
    let mut message = thrown_message_js(thrown);
    if message.chars().count() > 200 {
        message = message.chars().take(200).collect::<String>() + "…";
    }
    Failure::new(format!("reading {what} threw: {message}"))
}

/// The own enumerable string keys of `object`.
pub fn own_keys(what: &str, object: &JsValue) -> Result<Vec<String>, Failure> {
    let keys = own_keys_js(object).map_err(|thrown| threw(what, &thrown))?;
    Ok(keys.iter().filter_map(JsValue::as_string).collect())
}

/// `object[key]`; a getter or trap that throws is an error, never the default.
pub fn field(what: &str, object: &JsValue, key: &str) -> Result<JsValue, Failure> {
    field_js(object, key).map_err(|thrown| threw(what, &thrown))
}

/// `Array.isArray(value)` (a revoked proxy throws).
pub fn is_array(what: &str, value: &JsValue) -> Result<bool, Failure> {
    is_array_js(value).map_err(|thrown| threw(what, &thrown))
}

/// `JSON.stringify(value)`; `None` for a value it leaves out (a function, a symbol).
pub fn json_text(what: &str, value: &JsValue) -> Result<Option<String>, Failure> {
    json_text_js(value).map_err(|thrown| threw(what, &thrown))
}

/// The bytes of a genuine `Uint8Array` (a subclass counts, by its real bytes), or `None` for
/// any other value. More than `limit` bytes is an error, and nothing is copied then.
pub fn uint8_bytes(what: &str, value: &JsValue, limit: usize) -> Result<Option<Vec<u8>>, Failure> {
    let length = uint8_byte_length_js(value).map_err(|thrown| threw(what, &thrown))?;
    if length < 0.0 {
        return Ok(None);
    }
    // A byte length is a whole number below 2^53: the conversion is exact.
    let length = length as usize;
    if length > limit {
        return Err(Failure::new(format!(
            "{what} is {length} bytes; the limit is {limit} bytes"
        )));
    }
    let mut bytes: Vec<u8> = Vec::with_capacity(length);
    let at = bytes.as_mut_ptr() as usize;
    copy_uint8_js(value, &wasm_bindgen::memory(), at, length)
        .map_err(|thrown| threw(what, &thrown))?;
    // SAFETY: `copyUint8` wrote exactly `length` bytes (the source's real byte length, which
    // the target view has too) at the start of the buffer's capacity of `length` bytes, and
    // nothing allocated between taking the pointer and the write.
    unsafe { bytes.set_len(length) };
    Ok(Some(bytes))
}

/// A string's length in UTF-16 units; `None` when `value` is not a string.
pub fn string_length(value: &JsValue) -> Option<usize> {
    let units = string_length_js(value);
    // A string's length is a whole number below 2^53.
    (units >= 0.0).then_some(units as usize)
}

/// The UTF-16 offset of the first lone surrogate of a string, which UTF-8 cannot hold.
pub fn lone_surrogate_at(value: &JsValue) -> Option<usize> {
    let at = lone_surrogate_at_js(value);
    (at >= 0.0).then_some(at as usize)
}

/// `text` in Unicode Normalization Form C, by the engine's own `String.prototype.normalize`
/// (so the module carries no Unicode tables): the core's path normaliser in this module.
pub fn str_to_nfc(text: &str) -> String {
    str_to_nfc_js(text)
}

/// A well-formed string's UTF-8 bytes, written by the engine's `TextEncoder` straight into
/// a buffer of ours: wasm-bindgen's own string passing copies ASCII one character at a time
/// in JavaScript (9 ms for a 1 MB file, against under 1 ms).
pub fn utf8_of(value: &JsValue, units: usize) -> Vec<u8> {
    // A UTF-16 unit never needs more than three UTF-8 bytes.
    let capacity = units * 3;
    let mut buffer: Vec<u8> = Vec::with_capacity(capacity);
    let at = buffer.as_mut_ptr() as usize;
    let written = encode_into_js(value, &wasm_bindgen::memory(), at, capacity).min(capacity);
    // SAFETY: `encodeInto` initialised the first `written` bytes of the buffer's capacity
    // (never more than `capacity`), and nothing allocated between taking the pointer and
    // the write, so the view it wrote through was the buffer itself.
    unsafe { buffer.set_len(written) };
    buffer
}
