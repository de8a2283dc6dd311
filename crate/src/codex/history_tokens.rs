//! Codex's token estimate of its history (spec codex.md §3.5, X16): the bytes of each item
//! serialised to JSON, divided by 4 and rounded up, so keys and quoting count as much as text.
//!
//! Three kinds of payload are not counted by their length: an inline `data:image/…;base64,`
//! image counts a flat 7 373 bytes whatever its size, and an opaque `compaction` item and a
//! reasoning item count `len × 3/4 − 650` bytes of their encrypted content.
//!
//! ```
//! use context_assembly::codex::history_tokens::estimate_item_tokens;
//! use context_assembly::codex::items::{Item, Role};
//! // {"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]} is 79 bytes.
//! assert_eq!(estimate_item_tokens(&Item::text(Role::User, "hi")), 20);
//! ```

use super::items::{Item, Part};
use super::truncate::{approx_token_count, bytes_to_tokens, len_u64};

/// Bytes Codex counts for one inline image, whatever its size (§3.5): about 1 844 tokens.
pub const INLINE_IMAGE_BYTES: u64 = 7_373;

/// Bytes of encrypted content an opaque item is discounted by (§3.5).
pub const ENCRYPTED_CONTENT_DISCOUNT_BYTES: u64 = 650;

/// The bytes Codex takes an item to cost the model (§3.5): its JSON length, with each inline
/// base64 image's payload replaced by [`INLINE_IMAGE_BYTES`]; for a `compaction` item,
/// `len × 3/4 − 650` bytes of its encrypted content, saturating at 0.
///
/// # Example
/// ```
/// use context_assembly::codex::history_tokens::item_model_visible_bytes;
/// use context_assembly::codex::items::Item;
/// let tiny = Item::Compaction { encrypted_content: "x".repeat(800) };
/// assert_eq!(item_model_visible_bytes(&tiny), 0); // 600 − 650 saturates
/// let big = Item::Compaction { encrypted_content: "x".repeat(4_000) };
/// assert_eq!(item_model_visible_bytes(&big), 2_350);
/// ```
pub fn item_model_visible_bytes(item: &Item) -> u64 {
    if let Item::Compaction { encrypted_content } = item {
        return encrypted_content_bytes(len_u64(encrypted_content));
    }
    let raw = len_u64(&item.to_json());
    let Item::Message { content, .. } = item else {
        return raw;
    };
    let (payload, replacement) = content
        .iter()
        .filter_map(|part| match part {
            Part::InputImage { image_url } => inline_image_payload(image_url),
            Part::InputText { .. } | Part::OutputText { .. } => None,
        })
        .fold((0u64, 0u64), |(payload, replacement), data| {
            (
                payload.saturating_add(len_u64(data)),
                replacement.saturating_add(INLINE_IMAGE_BYTES),
            )
        });
    raw.saturating_sub(payload).saturating_add(replacement)
}

/// Codex's estimate for encrypted reasoning and compaction content: `len × 3/4 − 650`, at least 0.
pub const fn encrypted_content_bytes(len: u64) -> u64 {
    (len.saturating_mul(3) / 4).saturating_sub(ENCRYPTED_CONTENT_DISCOUNT_BYTES)
}

/// The bytes Codex counts for a reasoning item (§3.5): `len × 3/4 − 650` of its encrypted
/// content, saturating at 0. The library keeps a model's reasoning as its text, so the
/// encrypted content is taken to be that text in base64 (4 characters for every 3 bytes):
/// the item counts about the text's bytes, less 650.
///
/// # Example
/// ```
/// use context_assembly::codex::history_tokens::reasoning_item_bytes;
/// assert_eq!(reasoning_item_bytes(&"x".repeat(3_000)), 2_350); // 4 000 × 3/4 − 650
/// assert_eq!(reasoning_item_bytes("short thought"), 0); // under the discount
/// ```
pub fn reasoning_item_bytes(reasoning: &str) -> u64 {
    let encrypted = len_u64(reasoning).div_ceil(3).saturating_mul(4);
    encrypted_content_bytes(encrypted)
}

/// Codex's token estimate of a reasoning item carrying `reasoning` ([`reasoning_item_bytes`]).
pub fn estimate_reasoning_tokens(reasoning: &str) -> u64 {
    bytes_to_tokens(reasoning_item_bytes(reasoning))
}

/// Codex's token estimate of one item: `ceil(model-visible bytes / 4)` (§3.5).
pub fn estimate_item_tokens(item: &Item) -> u64 {
    bytes_to_tokens(item_model_visible_bytes(item))
}

/// Codex's estimate of a whole prompt: the base instructions' tokens plus every item's (§3.5,
/// `estimate_token_count_with_base_instructions`).
///
/// # Example
/// ```
/// use context_assembly::codex::history_tokens::estimate_history_tokens;
/// assert_eq!(estimate_history_tokens("You are Codex.", &[]), 4);
/// ```
pub fn estimate_history_tokens(base_instructions: &str, items: &[Item]) -> u64 {
    items
        .iter()
        .map(estimate_item_tokens)
        .fold(approx_token_count(base_instructions), u64::saturating_add)
}

/// The base64 payload of an inline image URL, as Codex recognises one: a `data:` URL (any case)
/// whose media type starts with `image/` and whose parameters include `base64`; the payload is
/// everything after the first comma.
fn inline_image_payload(url: &str) -> Option<&str> {
    let scheme = url.get(..5)?;
    if !scheme.eq_ignore_ascii_case("data:") {
        return None;
    }
    let (metadata, payload) = url.get(5..)?.split_once(',')?;
    let mut parameters = metadata.split(';');
    let media_type = parameters.next().unwrap_or_default();
    let is_image = media_type
        .get(..6)
        .is_some_and(|prefix| prefix.eq_ignore_ascii_case("image/"));
    let is_base64 = parameters.any(|parameter| parameter.eq_ignore_ascii_case("base64"));
    (is_image && is_base64).then_some(payload)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codex::items::Role;
    use alloc::string::String;
    use alloc::vec::Vec;

    fn image_message(url: &str) -> Item {
        Item::Message {
            role: Role::User,
            content: Vec::from([Part::InputImage {
                image_url: String::from(url),
            }]),
        }
    }

    #[test]
    fn inline_image_counts_a_flat_size() {
        let payload = "A".repeat(100_000);
        let url = alloc::format!("data:image/png;base64,{payload}");
        let item = image_message(&url);
        let raw = len_u64(&item.to_json());
        assert_eq!(item_model_visible_bytes(&item), raw - 100_000 + 7_373);
        assert_eq!(
            estimate_item_tokens(&item),
            (raw - 100_000 + 7_373).div_ceil(4)
        );
    }

    #[test]
    fn only_base64_image_data_urls_are_discounted() {
        for url in [
            "https://example.com/a.png",
            "data:text/plain;base64,QUJD",
            "data:image/svg+xml,<svg/>",
        ] {
            let item = image_message(url);
            assert_eq!(item_model_visible_bytes(&item), len_u64(&item.to_json()));
        }
        assert_eq!(
            inline_image_payload("DATA:Image/JPEG;BASE64,QUJD"),
            Some("QUJD")
        );
        assert_eq!(inline_image_payload("dat"), None);
    }

    #[test]
    fn function_items_count_their_json() {
        let output = Item::FunctionCallOutput {
            call_id: String::from("c1"),
            output: String::from("ok"),
        };
        // {"type":"function_call_output","call_id":"c1","output":"ok"} is 60 bytes.
        assert_eq!(item_model_visible_bytes(&output), 60);
        assert_eq!(estimate_item_tokens(&output), 15);
    }
}
