//! `formatFileSize` (spec/claude-code.md §3.10), with JavaScript's `toFixed(1)` rounding in
//! integer arithmetic.

use alloc::format;
use alloc::string::String;

/// Formats a byte count as Claude Code does: `{b} bytes` below 1024, else KB, MB or GB with
/// one decimal and a trailing `.0` removed.
///
/// `b / 1024ᵏ` is exact in a double, so `toFixed(1)` is round-half-up of `10·b / 1024ᵏ`;
/// computed here on integers. A value just under the next unit keeps its unit, as in the
/// original (`1048575` → `1024KB`).
///
/// # Example
/// ```
/// use context_assembly::read::format_file_size;
/// assert_eq!(format_file_size(1023), "1023 bytes");
/// assert_eq!(format_file_size(1536), "1.5KB");
/// assert_eq!(format_file_size(2 * 1024 * 1024), "2MB");
/// assert_eq!(format_file_size(1024 * 1024 - 1), "1024KB"); // rounds up, stays in KB
/// ```
pub fn format_file_size(bytes: u64) -> String {
    const KIB: u64 = 1024;
    if bytes < KIB {
        return format!("{bytes} bytes");
    }
    let (shift, unit) = if bytes < KIB * KIB {
        (10, "KB")
    } else if bytes < KIB * KIB * KIB {
        (20, "MB")
    } else {
        (30, "GB")
    };
    let tenths = (u128::from(bytes) * 10 + (1u128 << (shift - 1))) >> shift;
    let (whole, fraction) = (tenths / 10, tenths % 10);
    if fraction == 0 {
        format!("{whole}{unit}")
    } else {
        format!("{whole}.{fraction}{unit}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_javascript_to_fixed() {
        // Expected values from Node's formatFileSize equivalent.
        let cases = [
            (0, "0 bytes"),
            (1024, "1KB"),
            (1075, "1KB"),   // 1.0498… → 1.0
            (1076, "1.1KB"), // 1.0507…
            (1126, "1.1KB"),
            (1127, "1.1KB"),
            (1177, "1.1KB"), // 1.1494…
            (1178, "1.2KB"), // 1.1503…
            (262_144, "256KB"),
            (1_048_576, "1MB"),
            (26_214_400, "25MB"),
            (1_073_741_824, "1GB"),
            (u64::MAX, "17179869184GB"),
        ];
        for (bytes, expected) in cases {
            assert_eq!(format_file_size(bytes), expected, "{bytes}");
        }
    }

    #[test]
    fn exact_halves_round_up() {
        // 1280 / 1024 = 1.25 exactly; JavaScript's toFixed picks the larger neighbour.
        assert_eq!(format_file_size(1280), "1.3KB");
        assert_eq!(format_file_size(1_310_720), "1.3MB");
    }
}
