//! Images: the format from magic bytes, the dimensions from the headers, and the
//! downsampling ladder as decisions (spec/claude-code.md §3.9, §6.2, Q44). Nothing is
//! decoded or re-encoded: each step says what would be sent, why, and what it would cost.
//!
//! # Where the ladder's constants come from
//!
//! The spec does not list the original's resize constants, so the ladder uses Anthropic's
//! published API limits and our own size model:
//!
//! * 5 MB per image, measured on the base64 payload — Anthropic API limit;
//! * 8000 px on either side at most — Anthropic API limit;
//! * 1568 px on the long edge — Anthropic's vision guide: larger images are scaled down by
//!   the API before the model sees them, so sending more pixels buys nothing;
//! * `width × height / 750` tokens — Anthropic's vision guide;
//! * 2000 tokens flat — Claude Code's `IMAGE_MAX_TOKEN_SIZE` (spec §6.2, §9.6; Q44);
//! * the JPEG qualities 80/60/40/20 and their bits per pixel (2.0/1.2/0.8/0.5) — ours: a
//!   deliberately generous model of typical JPEG output, so that a step we accept would fit;
//! * a resized PNG keeps its bytes per pixel — ours.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::ReadRules;

/// An image format recognised from its first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum ImageFormat {
    /// `89 50 4E 47 0D 0A 1A 0A`.
    Png,
    /// `FF D8 FF`.
    Jpeg,
    /// `GIF87a` or `GIF89a`.
    Gif,
    /// `RIFF….WEBP`.
    WebP,
}

impl ImageFormat {
    /// The media type the API is sent (`image/png`, …).
    pub const fn media_type(self) -> &'static str {
        match self {
            ImageFormat::Png => "image/png",
            ImageFormat::Jpeg => "image/jpeg",
            ImageFormat::Gif => "image/gif",
            ImageFormat::WebP => "image/webp",
        }
    }
}

/// What the bytes say about an image.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ImageInfo {
    /// The format, from the magic bytes.
    pub format: ImageFormat,
    /// `(width, height)` in pixels, when the header holds them.
    pub dimensions: Option<(u32, u32)>,
}

const PNG_MAGIC: &[u8] = b"\x89PNG\r\n\x1a\n";

/// Recognises PNG, JPEG, GIF and WebP from their magic bytes and reads their dimensions:
/// PNG's IHDR, JPEG's first SOFn marker, GIF's logical screen, WebP's VP8, VP8L or VP8X
/// header. Returns `None` for anything else; never panics on truncated or hostile bytes.
///
/// # Example
/// ```
/// use context_assembly::read::{image_info, ImageFormat};
/// let gif = b"GIF89a\x20\x03\x58\x02";
/// let info = image_info(gif).unwrap();
/// assert_eq!((info.format, info.dimensions), (ImageFormat::Gif, Some((800, 600))));
/// // The right magic with a truncated header: the format, but no dimensions.
/// assert_eq!(image_info(b"GIF89a\x20").unwrap().dimensions, None);
/// assert_eq!(image_info(b"plain text"), None);
/// ```
pub fn image_info(bytes: &[u8]) -> Option<ImageInfo> {
    let (format, dimensions) = if bytes.starts_with(PNG_MAGIC) {
        (ImageFormat::Png, png_dimensions(bytes))
    } else if bytes.starts_with(b"\xff\xd8\xff") {
        (ImageFormat::Jpeg, jpeg_dimensions(bytes))
    } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        let dims = le16(bytes, 6).zip(le16(bytes, 8));
        (
            ImageFormat::Gif,
            dims.map(|(w, h)| (u32::from(w), u32::from(h))),
        )
    } else if bytes.starts_with(b"RIFF") && bytes.get(8..12) == Some(b"WEBP") {
        (ImageFormat::WebP, webp_dimensions(bytes))
    } else {
        return None;
    };
    Some(ImageInfo { format, dimensions })
}

fn be16(bytes: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_be_bytes(bytes.get(at..at + 2)?.try_into().ok()?))
}

fn le16(bytes: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(bytes.get(at..at + 2)?.try_into().ok()?))
}

fn le24(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at + 3)?;
    Some(u32::from(b[0]) | u32::from(b[1]) << 8 | u32::from(b[2]) << 16)
}

fn be32(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

fn png_dimensions(bytes: &[u8]) -> Option<(u32, u32)> {
    (bytes.get(12..16)? == b"IHDR").then_some(())?;
    Some((be32(bytes, 16)?, be32(bytes, 20)?))
}

/// Walks the JPEG segments to the first start-of-frame marker (SOF0–SOF15 but DHT `C4`,
/// JPG `C8` and DAC `CC`), which holds the height and then the width.
fn jpeg_dimensions(bytes: &[u8]) -> Option<(u32, u32)> {
    let mut at = 2;
    loop {
        while *bytes.get(at)? != 0xFF {
            at += 1;
        }
        while *bytes.get(at)? == 0xFF {
            at += 1;
        }
        let marker = *bytes.get(at)?;
        at += 1;
        match marker {
            // Markers without a length: TEM, RST0–7, SOI, EOI.
            0x01 | 0xD0..=0xD9 => continue,
            0xC0..=0xCF if !matches!(marker, 0xC4 | 0xC8 | 0xCC) => {
                let height = be16(bytes, at + 3)?;
                let width = be16(bytes, at + 5)?;
                return Some((u32::from(width), u32::from(height)));
            }
            _ => at += usize::from(be16(bytes, at)?),
        }
    }
}

fn webp_dimensions(bytes: &[u8]) -> Option<(u32, u32)> {
    match bytes.get(12..16)? {
        b"VP8 " => {
            (bytes.get(23..26)? == b"\x9d\x01\x2a").then_some(())?;
            let width = le16(bytes, 26)? & 0x3FFF;
            let height = le16(bytes, 28)? & 0x3FFF;
            Some((u32::from(width), u32::from(height)))
        }
        b"VP8L" => {
            (*bytes.get(20)? == 0x2F).then_some(())?;
            let bits = u32::from_le_bytes(bytes.get(21..25)?.try_into().ok()?);
            Some(((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1))
        }
        b"VP8X" => Some((le24(bytes, 24)? + 1, le24(bytes, 27)? + 1)),
        _ => None,
    }
}

/// One JPEG quality the ladder tries, with the size model behind it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct JpegStep {
    /// The JPEG quality, 1–100.
    pub quality: u8,
    /// Bits per pixel assumed at that quality, in tenths (20 = 2.0 bits).
    pub bits_per_pixel_tenths: u32,
}

/// The limits the downsampling ladder works to. See the module's notes for the source of
/// each default.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct ImageLimits {
    /// Largest base64 payload per image: 5 MiB (Anthropic API).
    pub max_base64_bytes: u64,
    /// Largest side in pixels: 8000 (Anthropic API).
    pub max_edge: u32,
    /// Long edge the ladder resizes to: 1568 (Anthropic's vision guide).
    pub target_long_edge: u32,
    /// JPEG qualities to try, best first (ours).
    pub jpeg_steps: Vec<JpegStep>,
    /// The flat estimate per image: 2000 (Q44).
    pub flat_tokens: u64,
    /// Pixels per token for the estimate from dimensions: 750 (Anthropic's vision guide).
    pub pixels_per_token: u64,
}

impl Default for ImageLimits {
    fn default() -> Self {
        let step = |quality, bits_per_pixel_tenths| JpegStep {
            quality,
            bits_per_pixel_tenths,
        };
        ImageLimits {
            max_base64_bytes: 5 * 1024 * 1024,
            max_edge: 8000,
            target_long_edge: 1568,
            jpeg_steps: alloc::vec![step(80, 20), step(60, 12), step(40, 8), step(20, 5)],
            flat_tokens: 2000,
            pixels_per_token: 750,
        }
    }
}

/// What one step of the ladder would send.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "kind", rename_all = "camelCase"))]
pub enum ImageAction {
    /// The original bytes.
    Keep,
    /// Resized to the target long edge, still PNG.
    ResizePng,
    /// Resized to the target long edge (if larger) and encoded as JPEG at `quality`.
    Jpeg {
        /// The JPEG quality.
        quality: u8,
    },
    /// Resized until the lowest JPEG quality fits, whatever it costs in detail.
    ForcedResize {
        /// The JPEG quality.
        quality: u8,
    },
    /// No dimensions could be read, so nothing can be resized.
    Unsized,
}

/// One decision of the ladder: the action, whether it was taken, why, and its result.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct ImageStep {
    /// What would be sent.
    pub action: ImageAction,
    /// Whether this step was taken (the last step of a plan is the one taken, if any).
    pub accepted: bool,
    /// Why it was taken or passed over.
    pub reason: String,
    /// Resulting `(width, height)`, when known.
    pub dimensions: Option<(u32, u32)>,
    /// Estimated bytes sent (before base64).
    pub estimated_bytes: u64,
    /// Estimated tokens the model is charged.
    pub tokens: u64,
}

/// The ladder's decisions for one image, in the order they were considered.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ImagePlan {
    /// Every step considered; the accepted one, if any, is last.
    pub steps: Vec<ImageStep>,
}

impl ImagePlan {
    /// The step taken, or `None` when the image cannot be sent.
    pub fn chosen(&self) -> Option<&ImageStep> {
        self.steps.last().filter(|step| step.accepted)
    }

    /// The token estimate of the step taken (0 when nothing can be sent).
    pub fn tokens(&self) -> u64 {
        self.chosen().map_or(0, |step| step.tokens)
    }
}

/// The size of `bytes` once base64-encoded.
fn base64_len(bytes: u64) -> u64 {
    bytes.div_ceil(3).saturating_mul(4)
}

/// Scales `(w, h)` so the long edge is at most `edge`, keeping the aspect ratio (floor,
/// at least 1 px).
fn fit((w, h): (u32, u32), edge: u32) -> (u32, u32) {
    let long = w.max(h);
    if long <= edge || long == 0 {
        return (w, h);
    }
    let scale = |side: u32| (u64::from(side) * u64::from(edge) / u64::from(long)).max(1) as u32;
    (scale(w), scale(h))
}

fn area((w, h): (u32, u32)) -> u64 {
    u64::from(w) * u64::from(h)
}

fn integer_sqrt(n: u128) -> u128 {
    if n < 2 {
        return n;
    }
    let mut x = n;
    let mut y = x.div_ceil(2);
    while y < x {
        x = y;
        y = (x + n / x) / 2;
    }
    x
}

/// Plans how an image of `byte_len` bytes is sent: the original if it fits the API's byte
/// and pixel limits, else a resized PNG, else JPEG at falling qualities, else a forced
/// resize that always fits. The token estimate is the flat 2000 (Q44) or, with
/// `media_tokens_from_size`, `ceil(w × h / 750)` after the API's own scale-down to the
/// target long edge.
///
/// # Example
/// ```
/// use context_assembly::read::{image_info, plan_image, ImageAction, ReadRules};
/// // A 4000×3000 PNG of 9 MB: too many bytes, so it is resized.
/// let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
/// png.extend_from_slice(&4000u32.to_be_bytes());
/// png.extend_from_slice(&3000u32.to_be_bytes());
/// let info = image_info(&png);
/// let plan = plan_image(info.as_ref(), 9_000_000, &ReadRules::recommended());
/// let chosen = plan.chosen().unwrap();
/// assert_eq!(chosen.action, ImageAction::ResizePng);
/// assert_eq!(chosen.dimensions, Some((1568, 1176)));
/// assert_eq!(chosen.tokens, 2459); // ceil(1568 × 1176 / 750)
/// assert_eq!(plan_image(info.as_ref(), 9_000_000, &ReadRules::claude_code()).tokens(), 2000);
/// ```
pub fn plan_image(info: Option<&ImageInfo>, byte_len: u64, rules: &ReadRules) -> ImagePlan {
    let limits = &rules.limits.image;
    let tokens = |dims: Option<(u32, u32)>| match dims {
        Some(dims) if rules.media_tokens_from_size && limits.pixels_per_token > 0 => {
            area(fit(dims, limits.target_long_edge)).div_ceil(limits.pixels_per_token)
        }
        _ => limits.flat_tokens,
    };
    let fits = |bytes: u64| base64_len(bytes) <= limits.max_base64_bytes;
    let mut steps = Vec::new();
    let mut step = |action, accepted, reason: String, dimensions, estimated_bytes| {
        steps.push(ImageStep {
            action,
            accepted,
            reason,
            dimensions,
            estimated_bytes,
            tokens: tokens(dimensions),
        });
        accepted
    };
    let Some(dims) = info.and_then(|info| info.dimensions) else {
        let ok = fits(byte_len);
        let reason = if ok {
            "dimensions unknown; the bytes are within the limit"
        } else {
            "dimensions unknown and the bytes are over the limit: cannot be resized"
        };
        step(ImageAction::Keep, ok, reason.into(), None, byte_len);
        return ImagePlan { steps };
    };
    let edge_ok = dims.0.max(dims.1) <= limits.max_edge;
    let keep_reason = match (fits(byte_len), edge_ok) {
        (true, true) => String::from("within the byte and pixel limits"),
        (false, _) => format!(
            "{} bytes in base64, over the limit of {}",
            base64_len(byte_len),
            limits.max_base64_bytes
        ),
        (true, false) => format!("a side is over {} px", limits.max_edge),
    };
    if step(
        ImageAction::Keep,
        fits(byte_len) && edge_ok,
        keep_reason,
        Some(dims),
        byte_len,
    ) {
        return ImagePlan { steps };
    }
    let resized = fit(dims, limits.target_long_edge);
    if info.is_some_and(|info| info.format == ImageFormat::Png) {
        let bytes = byte_len.saturating_mul(area(resized)) / area(dims).max(1);
        let reason = if fits(bytes) {
            "resized PNG fits"
        } else {
            "resized PNG still over the limit"
        };
        if step(
            ImageAction::ResizePng,
            fits(bytes),
            reason.into(),
            Some(resized),
            bytes,
        ) {
            return ImagePlan { steps };
        }
    }
    let jpeg_bytes = |dims, jpeg: &JpegStep| {
        area(dims).saturating_mul(u64::from(jpeg.bits_per_pixel_tenths)) / 80
    };
    for jpeg in &limits.jpeg_steps {
        let bytes = jpeg_bytes(resized, jpeg);
        let action = ImageAction::Jpeg {
            quality: jpeg.quality,
        };
        let reason = if fits(bytes) {
            format!("JPEG at quality {} fits", jpeg.quality)
        } else {
            format!("JPEG at quality {} still over the limit", jpeg.quality)
        };
        if step(action, fits(bytes), reason, Some(resized), bytes) {
            return ImagePlan { steps };
        }
    }
    let last = limits.jpeg_steps.last().copied().unwrap_or(JpegStep {
        quality: 20,
        bits_per_pixel_tenths: 5,
    });
    let forced = forced_dimensions(resized, limits.max_base64_bytes, last);
    let bytes = jpeg_bytes(forced, &last);
    step(
        ImageAction::ForcedResize {
            quality: last.quality,
        },
        true,
        "shrunk until the lowest JPEG quality fits".into(),
        Some(forced),
        bytes,
    );
    ImagePlan { steps }
}

/// The largest dimensions with `dims`'s aspect ratio whose JPEG at `jpeg` fits the limit:
/// at most `P = raw bytes × 80 / tenths` pixels, so `w' = √(w·P/h)` and `h' = √(h·P/w)`.
fn forced_dimensions(dims: (u32, u32), max_base64: u64, jpeg: JpegStep) -> (u32, u32) {
    let raw = u128::from(max_base64 / 4 * 3);
    let pixels = raw * 80 / u128::from(jpeg.bits_per_pixel_tenths.max(1));
    let (w, h) = (u128::from(dims.0.max(1)), u128::from(dims.1.max(1)));
    let side = |a: u128, b: u128| integer_sqrt(a * pixels / b).clamp(1, a) as u32;
    (side(w, h), side(h, w))
}
